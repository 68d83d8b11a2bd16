// SPDX-License-Identifier: Apache-2.0
// The registered mechanisms, and the ones a scenario turns on.
#pragma once
#include <memory>
#include <vector>

#include "mech/mechanism.h"

namespace icn {

// Every mechanism, in documentation order (mech/registry.cpp), then those registered.
const std::vector<MechanismInfo>& Mechanisms();
// Adds a mechanism built outside the harness (a controller declared by a manifest: its generated
// registration calls this from a static initialiser). Returns true.
bool RegisterMechanism(MechanismInfo (*info)());
// Every mechanism's keys, in the same order.
std::vector<KeySpec> MechanismKeys();
// Their rules between keys, in the same order.
std::vector<KeyRule> MechanismRules();

struct ActiveMechanism {
  const MechanismInfo* info;
  std::shared_ptr<const MechanismConfig> config;
};

// Parses every mechanism's keys and returns those the scenario turns on. Throws ScenarioError
// naming the keys when a value is invalid or two of them would drive the same thing.
std::vector<ActiveMechanism> ParseMechanisms(const MechanismParseContext& context);

}  // namespace icn
