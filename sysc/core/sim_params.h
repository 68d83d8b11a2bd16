// SPDX-License-Identifier: Apache-2.0
// The run's own parameters (sim.*): seed, cycle length, the phases of a run, the time series.
#pragma once
#include <cstdint>
#include <vector>

#include "core/scenario.h"

namespace icn {

struct SimParams {
  uint64_t seed = 1;
  double cycle_ns = 1.0;
  bool steady_warmup = false;  // sim.warmup = steady: the window opens once the run is steady
  int64_t warmup = 2000;       // fixed warm-up, or the least one
  int64_t steady_period = 1000;
  double steady_tolerance = 0.05;
  int64_t warmup_limit = 1000000;
  int64_t measure = 10000;
  int64_t drain_limit = 100000;
  int64_t timeseries = 0;              // window of timeseries.csv in cycles, 0 = none
  int64_t stall_limit = 1000000;       // no flit moving this long with packets outstanding: deadlock
  int64_t starvation_limit = 2000000;  // a packet this old while others are delivered: starvation
  double starved_factor = 100;         // a packet waiting this many median latencies: a warning
  bool clock_jumps = true;             // jump over cycles in which nothing can happen (exact)
  int threads = 0;                     // 0: one per core, fewer on a small network
};

const std::vector<KeySpec>& SimKeys();
// The rules between sim keys and others.
std::vector<KeyRule> SimRules();
SimParams ParseSimParams(const Scenario& scenario);

}  // namespace icn
