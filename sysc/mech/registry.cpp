// The one list of mechanisms. Adding a mechanism: its folder defines `MechanismInfo <Name>Mechanism()`;
// declare it here and add it to the list. A controller declared by a manifest registers itself.
#include "mech/registry.h"

#include <cstdio>
#include <cstdlib>
#include <set>

#include "core/errors.h"

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
  return rules;
}

std::vector<ActiveMechanism> ParseMechanisms(const MechanismParseContext& context) {
  std::vector<ActiveMechanism> active;
  for (const MechanismInfo& m : Mechanisms()) {
    std::shared_ptr<const MechanismConfig> config = m.parse(context);
    if (!config) continue;
    for (const ActiveMechanism& other : active) {
      if (std::string(other.info->drives) != m.drives) continue;
      throw ScenarioError(std::string(m.switch_key) + ", " + other.info->switch_key + ": one " + m.drives +
                          " mechanism at a time; allowed: " + m.switch_key + " = " + m.off_value + " or " +
                          other.info->switch_key + " = " + other.info->off_value);
    }
    active.push_back({&m, std::move(config)});
  }
  return active;
}

}  // namespace icn
