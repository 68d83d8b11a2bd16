// SPDX-License-Identifier: Apache-2.0
#include "run/run_params.h"

#include "net/data_plane.h"

namespace icn {

const KeyTable& AllKeys() {
  static const KeyTable table(
      [] {
        std::vector<KeySpec> keys = TopologyKeys();
        for (const auto& part : {DataPlaneKeys(), NetKeys(), TrafficKeys(), SimKeys(), ProcessKeys(),
                                 SystemPowerKeys(), WorkloadKeys(), MechanismKeys()}) {
          keys.insert(keys.end(), part.begin(), part.end());
        }
        return keys;
      }(),
      [] {
        std::vector<KeyRule> rules = TopologyRules();
        for (const auto& part : {DataPlaneRules(), SimRules(), WorkloadRules(), MechanismRules()})
          rules.insert(rules.end(), part.begin(), part.end());
        return rules;
      }());
  return table;
}

RunParams MakeRunParams(const Scenario& scenario) {
  scenario.CheckRules();
  RunParams p;
  p.sim = ParseSimParams(scenario);
  p.process = ParseProcessParams(scenario);
  p.system = ParseSystemPowerParams(scenario);
  p.net = ParseNetParams(scenario, p.warnings);
  p.net.seed = p.sim.seed;
  p.topology = MakeTopology(scenario, p.net.router);
  p.traffic = ParseTrafficParams(scenario, *p.topology);
  p.workload = ParseWorkloadParams(scenario);
  p.mechanisms = ParseMechanisms({scenario, p.sim, p.net, *p.topology, p.warnings});
  return p;
}

}  // namespace icn
