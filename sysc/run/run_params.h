// SPDX-License-Identifier: Apache-2.0
// Every parameter of one run after defaults and validation, gathered layer by layer: each layer
// declares its keys and parses its own part, mechanisms through their registration.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/process_params.h"
#include "core/scenario.h"
#include "core/sim_params.h"
#include "core/system_power.h"
#include "mech/registry.h"
#include "net/net_params.h"
#include "net/topology.h"
#include "traffic/traffic_params.h"

namespace icn {

struct RunParams {
  SimParams sim;
  ProcessParams process;
  SystemPowerParams system;
  NetParams net;
  std::shared_ptr<const Topology> topology;
  TrafficParams traffic;
  WorkloadParams workload;
  std::vector<ActiveMechanism> mechanisms;  // the ones the scenario turns on
  std::vector<std::string> warnings;        // conversions the user should know about
};

// Every key icnsim accepts, in documentation order.
const KeyTable& AllKeys();
// Throws ScenarioError naming the key(s) when values are inconsistent with each other.
RunParams MakeRunParams(const Scenario& scenario);

}  // namespace icn
