// A power or reconfiguration mechanism in the loop: adapters around verilated controllers that
// read harness observables, evaluate the RTL on the clock edge, and apply its outputs.
#pragma once
#include <cstdint>

#include <nlohmann/json.hpp>

namespace icn {

class Mechanism {
 public:
  virtual ~Mechanism() = default;
  // Evaluates every controller on the edge closing cycle `now`, after the network's own step, and
  // charges the cycle to the energy ledger.
  virtual void Step(uint64_t now) = 0;
  // Mechanism figures for results.json, and problems for the end-of-run check.
  virtual void Report(nlohmann::json& results) const = 0;
  virtual uint64_t violations() const { return 0; }
  // Hash of every controller register: equal digests on every cycle = the same behaviour.
  virtual uint64_t Digest() const = 0;
};

}  // namespace icn
