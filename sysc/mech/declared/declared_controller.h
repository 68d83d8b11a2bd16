// SPDX-License-Identifier: Apache-2.0
// A controller declared by a manifest, with no C++ of its own: scripts/controllers.py reads the
// manifest and writes its registration (a DeclaredController, the function that sets its straps,
// and a RegisterMechanism call), which runs it in the adapter of its contract: LinkEndControllers
// for a link end, PortGroupControllers for a switch or a node.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/controller_cost.h"
#include "mech/link_end/link_end_controllers.h"
#include "mech/mechanism.h"
#include "mech/port_group/port_group_controllers.h"

namespace icn {

// A key that sets a strap port of the controller: a time in ns given to the port in cycles, an
// integer or a flag as it is.
enum class StrapKind { kNsToCycles, kInt, kBool };
struct DeclaredStrap {
  const char* key;
  StrapKind kind;
  int bits;  // the port's width: a value that does not fit is refused, naming the key
};

struct DeclaredPowerState {
  const char* name;
  const char* watts_key;  // the key giving one end's power in this state
  bool asleep;
};

enum class Contract { kLinkEnd, kSwitch, kNode };

struct DeclaredController {
  const char* name;  // its keys' prefix, its section of results.json and its ledger group
  Contract contract;
  ControllerCost cost;        // its model's, as scripts/controllers.py found it
  const char* view;           // its GTKWave view (waves/<name>/<file>), or ""
  bool link_wide;             // LinkEndSpec::link_wide (a link end's)
  std::vector<KeySpec> keys;  // the first is <name>.enabled, which turns it on
  std::vector<DeclaredStrap> straps;
  std::vector<DeclaredPowerState> states;                         // by power_o
  std::vector<std::pair<std::string, uint8_t>> counted_messages;  // (a link end's)
};

struct DeclaredConfig : MechanismConfig {
  LinkEndSpec spec;
  std::vector<uint64_t> straps;  // in the order of DeclaredController::straps
};

// Its keys' values, validated (errors name the key and what it allows); null when it is off.
std::unique_ptr<MechanismConfig> ParseDeclared(const DeclaredController& declared,
                                               const MechanismParseContext& context);

// Its adapter; strap(model, values) sets the strap ports from DeclaredConfig::straps.
template <typename Model>
std::unique_ptr<Mechanism> MakeDeclaredLinkEnd(const MechanismConfig& config, const MechanismContext& context,
                                               void (*strap)(Model&, const std::vector<uint64_t>&)) {
  const auto& declared = static_cast<const DeclaredConfig&>(config);
  return std::make_unique<LinkEndControllers<Model>>(
      declared.spec, [&](Model& m, size_t) { strap(m, declared.straps); }, NoExtension<Model>(), context);
}
template <typename Model>
std::unique_ptr<Mechanism> MakeDeclaredPortGroup(PortGroupKind kind, const MechanismConfig& config,
                                                 const MechanismContext& context,
                                                 void (*strap)(Model&, const std::vector<uint64_t>&)) {
  const auto& declared = static_cast<const DeclaredConfig&>(config);
  return std::make_unique<PortGroupControllers<Model>>(
      kind, declared.spec, [&](Model& m) { strap(m, declared.straps); }, context);
}

// The MechanismInfo of a declared controller, from the functions its registration defines; registers
// its model's cost.
MechanismInfo DeclaredMechanism(const DeclaredController& declared,
                                std::unique_ptr<MechanismConfig> (*parse)(const MechanismParseContext&),
                                std::unique_ptr<Mechanism> (*make)(const MechanismConfig&,
                                                                   const MechanismContext&),
                                std::string (*view)(const MechanismConfig&));

}  // namespace icn
