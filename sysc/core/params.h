// Typed parameters of one run, filled once from a validated Scenario. Times are in cycles here:
// scenario times in ns are converted once, rounding up, with a warning when a non-zero time is
// shorter than one cycle.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/scenario.h"

namespace icn {

enum class TopologyKind { kKaryNTree, kTorus, kMesh, kMegafly };
enum class EeeMode { kOff, kFastWake, kDeepSleep };
enum class LoadProfileKind { kConstant, kRamp, kBursts };
enum class PdtPolicy { kFixed = 0, kPerfBound = 1, kPerfBoundCorrect = 2 };

struct MegaflyShape {
  int groups = 9;
  int leaves = 4;
  int spines = 4;
  int nodes_per_leaf = 4;
  int global_per_spine = 2;
};

struct NetworkParams {
  TopologyKind kind = TopologyKind::kKaryNTree;
  MegaflyShape megafly;
  int k = 4;
  int n = 3;
  std::vector<int> dims;  // torus/mesh: nodes per dimension
  int vcs = 3;
  int vc_buffer_flits = 4;
  int pipeline_cycles = 2;
  int output_queue_flits = 0;  // 0 = input-queued
  double speedup = 1.0;
  int link_latency = 1;
  double link_bandwidth = 1.0;
};

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

struct SimParams {
  uint64_t seed = 1;
  double cycle_ns = 1.0;
  int64_t warmup = 2000;
  int64_t measure = 10000;
  int64_t drain_limit = 100000;
  int64_t timeseries = 0;
};

struct EeeParams {
  EeeMode mode = EeeMode::kOff;
  uint32_t pdt_cycles = 1000;  // 0xffffffff = never
  uint32_t wake_cycles = 0;    // t_w of the chosen LPI depth
  uint32_t sleep_cycles = 0;   // t_s of the chosen LPI depth
  double wake_power_w = 24;
  double lpi_power_w = 9.6;
  PdtPolicy policy = PdtPolicy::kFixed;
  double bound = 0.01;
  uint64_t period_cycles = 31250;  // PerfBound X
  int hist_strategy = 0;           // 0 self-clearing, 1 sliding window, 2 unbounded
};

struct WorkloadParams {
  std::string kind = "none";  // "none": Bernoulli traffic from traffic.*
  std::string trace;
  int iterations = 0;
  double compute_scale = 1;
  uint32_t mtu_bytes = 9600;
  uint32_t flit_bytes = 1600;
  uint64_t max_cycles = 100000000;
};

struct FattreeOnOffParams {
  bool enabled = false;
  double u_off = 0.3;
  double u_on = 0.65;
  int check_cycles = 2000;
  int t_on = 1000;
  int t_off = 1000;
  double link_power_w = 1.0;
};

struct Params {
  NetworkParams net;
  TrafficParams traffic;
  SimParams sim;
  EeeParams eee;
  FattreeOnOffParams fattree;
  WorkloadParams workload;
  std::vector<std::string> warnings;  // conversions the user should know about
};

// Throws ScenarioError naming the key(s) when values are inconsistent with each other.
Params MakeParams(const Scenario& scenario);

// Number of nodes the topology in `net` has.
int NodeCount(const NetworkParams& net);

}  // namespace icn
