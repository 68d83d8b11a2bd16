// SPDX-License-Identifier: Apache-2.0
#include "core/system_power.h"

#include <sstream>

#include "core/errors.h"

namespace icn {

const std::vector<KeySpec>& SystemPowerKeys() {
  static const std::vector<KeySpec> keys = {
      RealKey("system.node_idle_w", "800", 0, 1e6, "W",
              "workload runs: power of a node that is not computing (Pmin)"),
      RealKey(
          "system.node_busy_w", "1200", 0, 1e6, "W",
          "workload runs: power of a node computing at full utilisation (Pmax; at least system.node_idle_w)"),
      RealKey("system.switch_w", "250", 0, 1e6, "W", "workload runs: power of a switch without its ports"),
  };
  return keys;
}

SystemPowerParams ParseSystemPowerParams(const Scenario& s) {
  SystemPowerParams p{s.Real("system.node_idle_w"), s.Real("system.node_busy_w"), s.Real("system.switch_w")};
  if (p.node_busy_w < p.node_idle_w) {
    std::ostringstream why;
    why << "system.node_busy_w: " << p.node_busy_w << " W is below system.node_idle_w = " << p.node_idle_w
        << " W; allowed: [system.node_idle_w, 1e+06]";
    throw ScenarioError(why.str());
  }
  return p;
}

}  // namespace icn
