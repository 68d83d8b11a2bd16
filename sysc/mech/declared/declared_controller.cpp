// SPDX-License-Identifier: Apache-2.0
#include "mech/declared/declared_controller.h"

#include "core/errors.h"
#include "core/units.h"

namespace icn {

std::unique_ptr<MechanismConfig> ParseDeclared(const DeclaredController& declared,
                                               const MechanismParseContext& context) {
  const Scenario& s = context.scenario;
  const std::string enabled = std::string(declared.name) + ".enabled";
  if (!s.Bool(enabled)) return nullptr;
  if (context.net.switching != "wormhole") {
    const char* where = declared.contract == Contract::kLinkEnd  ? "link-end controllers sit at the link ends"
                        : declared.contract == Contract::kSwitch ? "switch controllers sit at the routers"
                                                                 : "node controllers sit at the NICs";
    throw ScenarioError(enabled + ": " + where + " of the wormhole network; allowed: " + enabled +
                        " = false with network.switching = " + context.net.switching);
  }
  auto config = std::make_unique<DeclaredConfig>();
  for (const DeclaredStrap& strap : declared.straps) {
    const bool ns = strap.kind == StrapKind::kNsToCycles;
    const uint64_t value =
        ns ? NsToCycles(strap.key, s.Real(strap.key), context.sim.cycle_ns, context.warnings)
        : strap.kind == StrapKind::kBool ? s.Bool(strap.key)
                                         : static_cast<uint64_t>(s.Int(strap.key));
    const uint64_t max = strap.bits >= 64 ? UINT64_MAX : (uint64_t{1} << strap.bits) - 1;
    if (value > max) {
      throw ScenarioError(std::string(strap.key) + ": " + std::to_string(value) + (ns ? " cycles" : "") +
                          " does not fit the controller's " + std::to_string(strap.bits) +
                          "-bit strap; allowed: [0, " + std::to_string(max) + "]" + (ns ? " cycles" : ""));
    }
    config->straps.push_back(value);
  }
  LinkEndSpec& spec = config->spec;
  spec.section = spec.group = declared.name;
  spec.switch_key = enabled;
  spec.off_value = "false";
  for (const DeclaredPowerState& state : declared.states) {
    spec.states.push_back({state.name, s.Real(state.watts_key), state.asleep});
  }
  spec.link_wide = declared.link_wide;
  spec.counted_messages = declared.counted_messages;
  return config;
}

MechanismInfo DeclaredMechanism(const DeclaredController& declared,
                                std::unique_ptr<MechanismConfig> (*parse)(const MechanismParseContext&),
                                std::unique_ptr<Mechanism> (*make)(const MechanismConfig&,
                                                                   const MechanismContext&),
                                std::string (*view)(const MechanismConfig&)) {
  RegisterCost(declared.cost);
  return {declared.name, declared.keys.front().name,
          "false",       "link power",
          declared.keys, parse,
          make,          nullptr,
          view,          {}};
}

}  // namespace icn
