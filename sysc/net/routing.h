// SPDX-License-Identifier: Apache-2.0
// A routing function, chosen by the topology or installed by a mechanism: computes the output port
// and the VC range of a packet's head at one router, from a small view of that router. Called once
// per packet per hop, never per flit.
#pragma once
#include <cstdint>

#include "net/flit.h"

namespace icn {

class Channel;

struct Route {
  int port = 0;   // -1: no output may take the packet now (the router asks again next cycle)
  int vc_lo = 0;  // VCs [vc_lo, vc_hi) of the output port may carry the packet
  int vc_hi = 1;
};

// What route computation may see of the router it runs in: the channel behind each output (is it
// routable, is it awake), how loaded each output is, a round-robin counter for tie-breaks and a
// seeded generator for random choices.
class OutputView {
 public:
  virtual const Channel* output(int port) const = 0;
  // Packets waiting for the output plus flits held in the buffers downstream of it.
  virtual int OutputLoad(int port) const = 0;
  virtual uint32_t NextTieBreak() = 0;
  // Uniform in [0, n), from the router's generator (seeded by sim.seed and the router id).
  virtual uint32_t Random(uint32_t n) = 0;

 protected:
  ~OutputView() = default;
};

struct RouteContext {
  int router;      // router id
  int in_port;     // where the head arrived
  Packet& packet;  // may carry routing state from hop to hop (the torus dateline class)
  OutputView& outputs;
};

class Routing {
 public:
  virtual ~Routing() = default;
  virtual Route Compute(RouteContext& ctx) const = 0;
};

}  // namespace icn
