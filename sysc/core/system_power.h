// SPDX-License-Identifier: Apache-2.0
// The power of what surrounds the network (system.*), for the system energy of workload runs: a
// node draws node_idle_w + (node_busy_w - node_idle_w) x its utilisation (its compute phases); a
// switch draws switch_w besides its ports, which are link ends the mechanisms account for.
// Defaults: Table 7 of Sánchez de la Rosa et al., "On the Power Saving in High-Speed
// Ethernet-based Networks for Supercomputers and Data Centers" (800-1200 W per node, 250 W per
// switch; its 24 W per link end is eee.wake_power_w).
#pragma once
#include <vector>

#include "core/scenario.h"

namespace icn {

struct SystemPowerParams {
  double node_idle_w = 800;
  double node_busy_w = 1200;
  double switch_w = 250;
};

const std::vector<KeySpec>& SystemPowerKeys();
// Throws ScenarioError when the busy power is below the idle power.
SystemPowerParams ParseSystemPowerParams(const Scenario& scenario);

}  // namespace icn
