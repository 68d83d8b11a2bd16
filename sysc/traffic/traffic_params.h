// SPDX-License-Identifier: Apache-2.0
// Parameters of what the nodes send: Bernoulli traffic (traffic.*) or an MPI-like workload
// (workload.*), with their keys and their validation against the topology.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/scenario.h"
#include "traffic/livermore.h"
#include "traffic/random_messages.h"

namespace icn {

class Topology;

enum class LoadProfileKind { kConstant, kRamp, kBursts };

struct TrafficParams {
  std::string pattern = "uniform";
  double load = 0.1;
  int packet_flits = 16;
  LoadProfileKind profile = LoadProfileKind::kConstant;
  std::vector<std::pair<double, double>> ramp;
  int64_t burst_on = 1000;
  int64_t burst_off = 1000;
  std::vector<int> hotspot_nodes;
  double hotspot_fraction = 0.2;
};

struct WorkloadParams {
  std::string kind = "none";  // "none": Bernoulli traffic from traffic.*
  std::string trace;
  int iterations = 0;
  double compute_scale = 1;
  std::string allreduce = "openmpi";  // an AllreduceRuleNames() value
  uint32_t mtu_bytes = 9600;
  uint32_t flit_bytes = 1600;
  uint64_t max_cycles = 100000000;
  RandomMessages random_messages;  // workload.kind = random_messages
  LivermoreExtents livermore;      // workload.kind = livermore
};

const std::vector<KeySpec>& TrafficKeys();
const std::vector<KeySpec>& WorkloadKeys();
// The rules between workload keys.
std::vector<KeyRule> WorkloadRules();
// Throw ScenarioError naming the key when a value does not fit the topology or the other keys.
TrafficParams ParseTrafficParams(const Scenario& scenario, const Topology& topology);
WorkloadParams ParseWorkloadParams(const Scenario& scenario);

}  // namespace icn
