// Parameters of the routers and of the wires a topology leaves at their defaults.
#pragma once
#include <string>
#include <vector>

#include "core/scenario.h"

namespace icn {

struct RouterParams {
  int vcs = 3;
  int vc_buffer_flits = 4;
  int pipeline_cycles = 2;
  int output_queue_flits = 0;  // 0 = input-queued
  double speedup = 1.0;
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
};

// router.* and link.* (network.switching is declared with the data planes).
const std::vector<KeySpec>& NetKeys();
NetParams ParseNetParams(const Scenario& scenario, std::vector<std::string>& warnings);

}  // namespace icn
