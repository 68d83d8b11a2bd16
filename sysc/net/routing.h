// A routing function, chosen by the topology: computes the output port and the VC range of a
// packet's head at one router. Called once per packet per hop, never per flit.
#pragma once
#include <cstdint>

#include "net/flit.h"

namespace icn {

class Router;

struct Route {
  int port = 0;   // -1: no output may take the packet now (the router asks again next cycle)
  int vc_lo = 0;  // VCs [vc_lo, vc_hi) of the output port may carry the packet
  int vc_hi = 1;
};

class Routing {
 public:
  virtual ~Routing() = default;
  virtual Route Compute(Router& router, int in_port, Packet& packet) const = 0;
};

}  // namespace icn
