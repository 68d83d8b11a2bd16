// The one list of mechanisms. Adding a mechanism: its folder defines `MechanismInfo <Name>Mechanism()`;
// declare it here and add it to the list.
#include "mech/registry.h"

#include "core/errors.h"

namespace icn {

MechanismInfo EeeMechanism();
MechanismInfo FattreeOnOffMechanism();
MechanismInfo ErapidMechanism();
MechanismInfo TorusSwapMechanism();
MechanismInfo PhotonicMechanism();

const std::vector<MechanismInfo>& Mechanisms() {
  static const std::vector<MechanismInfo> all = {EeeMechanism(), FattreeOnOffMechanism(), ErapidMechanism(),
                                                 TorusSwapMechanism(), PhotonicMechanism()};
  return all;
}

std::vector<KeySpec> MechanismKeys() {
  std::vector<KeySpec> keys;
  for (const MechanismInfo& m : Mechanisms()) keys.insert(keys.end(), m.keys.begin(), m.keys.end());
  return keys;
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
