// SPDX-License-Identifier: Apache-2.0
// The one list of mechanisms. Adding a mechanism: its folder defines `MechanismInfo <Name>Mechanism()`;
// declare it here and add it to the list. A controller declared by a manifest registers itself.
#include "mech/registry.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

namespace icn {
namespace {

// The registered ones, as their registrations run (before main, in any order).
std::vector<MechanismInfo (*)()>& Registered() {
  static std::vector<MechanismInfo (*)()> registered;
  return registered;
}

}  // namespace

bool RegisterMechanism(MechanismInfo (*info)()) {
  Registered().push_back(info);
  return true;
}

MechanismInfo EeeMechanism();
MechanismInfo FattreeOnOffMechanism();
MechanismInfo ErapidMechanism();
MechanismInfo TorusSwapMechanism();
MechanismInfo PhotonicMechanism();

const std::vector<MechanismInfo>& Mechanisms() {
  static const std::vector<MechanismInfo> all = [] {
    std::vector<MechanismInfo> all = {EeeMechanism(), FattreeOnOffMechanism(), ErapidMechanism(),
                                      TorusSwapMechanism(), PhotonicMechanism()};
    std::set<std::string> names;
    for (const MechanismInfo& m : all) names.insert(m.name);
    for (auto* info : Registered()) {
      all.push_back(info());
      if (names.insert(all.back().name).second) continue;
      // (before any scenario is read: a build error in substance, reported as bad input)
      std::fprintf(stderr,
                   "icnsim: two mechanisms are named %s; a declared controller needs a name of its own\n",
                   all.back().name);
      std::exit(2);
    }
    return all;
  }();
  return all;
}

std::vector<KeySpec> MechanismKeys() {
  std::vector<KeySpec> keys;
  for (const MechanismInfo& m : Mechanisms()) keys.insert(keys.end(), m.keys.begin(), m.keys.end());
  return keys;
}

std::vector<KeyRule> MechanismRules() {
  std::vector<KeyRule> rules;
  for (const MechanismInfo& m : Mechanisms()) rules.insert(rules.end(), m.rules.begin(), m.rules.end());
  // One mechanism at a time for each thing they drive: a rule over the switch keys of each group.
  std::map<std::string, std::vector<const MechanismInfo*>> drivers;
  for (const MechanismInfo& m : Mechanisms()) drivers[m.drives].push_back(&m);
  for (const auto& [drives, group] : drivers) {
    if (group.size() < 2) continue;
    KeyRule rule{{}, "one " + drives + " mechanism at a time:", nullptr};
    for (const MechanismInfo* m : group) {
      rule.keys.push_back(m->switch_key);
      rule.allows +=
          std::string(rule.keys.size() > 1 ? " or" : "") + " " + m->switch_key + " = " + m->off_value;
    }
    rule.broken = [group = group, drives = drives](const Scenario& s) -> std::string {
      std::string on;
      for (const MechanismInfo* m : group) {
        if (s.ValueText(m->switch_key) == m->off_value) continue;
        if (!on.empty()) return on + " and " + s.Show(m->switch_key) + " both drive " + drives;
        on = s.Show(m->switch_key);
      }
      return "";
    };
    rules.push_back(std::move(rule));
  }
  return rules;
}

std::vector<ActiveMechanism> ParseMechanisms(const MechanismParseContext& context) {
  std::vector<ActiveMechanism> active;
  for (const MechanismInfo& m : Mechanisms()) {
    std::shared_ptr<const MechanismConfig> config = m.parse(context);
    if (config) active.push_back({&m, std::move(config)});  // (one per thing driven: MechanismRules)
  }
  return active;
}

}  // namespace icn
