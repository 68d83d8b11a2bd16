// SPDX-License-Identifier: Apache-2.0
// Parameters of the routers and of the wires a topology leaves at their defaults.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/scenario.h"

namespace icn {

// When an output VC may carry the next packet: once the previous packet's tail has left on the
// link (the packets then share the downstream buffer, one behind the other), or only once that
// tail's credit is back too (the downstream buffer holds one packet at a time).
enum class VcRelease { kTailSent, kTailCredit };

struct RouterParams {
  int vcs = 3;
  int vc_buffer_flits = 4;
  int pipeline_cycles = 2;
  int output_queue_flits = 0;  // 0 = input-queued
  double speedup = 1.0;
  VcRelease vc_release = VcRelease::kTailSent;
  int allocator_iterations = 1;  // of the VC and switch allocators, per cycle
};

// What a wire gets when its topology does not set its own latency or rate.
struct LinkDefaults {
  int latency = 1;    // cycles
  double rate = 1.0;  // flits per cycle
};

struct NetParams {
  std::string switching = "wormhole";  // the data plane (net/data_plane.h)
  RouterParams router;
  LinkDefaults link;
  uint64_t seed = 1;  // of the routers' random choices (sim.seed)
};

// router.* and link.* (network.switching is declared with the data planes).
const std::vector<KeySpec>& NetKeys();
NetParams ParseNetParams(const Scenario& scenario, std::vector<std::string>& warnings);

}  // namespace icn
