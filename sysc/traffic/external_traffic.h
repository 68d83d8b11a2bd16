// SPDX-License-Identifier: Apache-2.0
// Messages from outside the harness: a program of one's own (a SystemC model bound to the NICs,
// run/nic_ports.h) sends them beside Bernoulli traffic (traffic.*; traffic.load = 0 for none) and
// is told when each has arrived. The run asks at every cycle, at the point where it creates its own
// packets, and reports every delivered packet, both on the run's thread in a deterministic order.
#pragma once
#include <cstdint>
#include <functional>

#include <nlohmann/json.hpp>

#include "net/flit.h"

namespace icn {

class ExternalTraffic {
 public:
  // Creates a packet and returns its id (the Packet's index in the run's pool).
  using Create = std::function<uint32_t(int src, int dst, uint32_t flits)>;

  virtual ~ExternalTraffic() = default;
  // The messages that enter the network at cycle `now`, each through `create`.
  virtual void Generate(uint64_t now, const Create& create) = 0;
  // Packet `id` arrived whole at cycle `now` (any packet: the source knows its own by id).
  virtual void OnDelivered(uint32_t id, const Packet& packet, uint64_t now) = 0;
  // At the end of the run, into results.json's external_traffic: what it still holds.
  virtual void Report(nlohmann::json& /*results*/) const {}
};

}  // namespace icn
