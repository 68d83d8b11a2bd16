// SPDX-License-Identifier: Apache-2.0
#include "core/sim_params.h"

#include <string>

namespace icn {

const std::vector<KeySpec>& SimKeys() {
  static const std::vector<KeySpec> keys = {
      IntKey("sim.seed", "1", 0, 9007199254740991.0, "", "random seed (up to 2^53 - 1)"),
      // At least 2 ps: SystemC keeps time in ps, and the clock of a shorter cycle has no low phase.
      RealKey("sim.cycle_ns", "1", 0.002, 1e6, "ns", "length of one cycle"),
      ChoiceKey("sim.warmup", "fixed", {"fixed", "steady"},
                "fixed: measure after sim.warmup_cycles; steady: measure from the first end of a "
                "sim.steady_period_cycles period, past sim.warmup_cycles and the mechanisms' settling "
                "time, at which the last three periods agree within sim.steady_tolerance on accepted "
                "load and mean latency (Bernoulli traffic only)"),
      IntKey("sim.warmup_cycles", "2000", 0, kUnbounded, "cycles",
             "cycles before measurement (sim.warmup = steady: the least warm-up)"),
      IntKey("sim.steady_period_cycles", "1000", 1, kUnbounded, "cycles",
             "sample period of the steady-state test (long enough to hold many packets)"),
      RealKey("sim.steady_tolerance", "0.05", 0, 10, "",
              "the steady-state periods agree when each quantity's largest is at most (1 + this) x its "
              "smallest"),
      IntKey("sim.warmup_limit_cycles", "1000000", 0, kUnbounded, "cycles",
             "sim.warmup = steady: if the periods never agreed, the window opens at the first period end "
             "at or after this (converged: false)"),
      IntKey("sim.measure_cycles", "10000", 1, kUnbounded, "cycles", "measurement window"),
      IntKey("sim.drain_limit_cycles", "100000", 0, kUnbounded, "cycles",
             "cycles after the window to deliver labelled packets before the run is called saturated"),
      IntKey("sim.timeseries_cycles", "0", 0, kUnbounded, "cycles", "window of timeseries.csv (0 = none)"),
      IntKey("sim.stall_limit_cycles", "1000000", 0, kUnbounded, "cycles",
             "no flit moving on any wire this long while packets are outstanding ends the run as "
             "deadlocked (exit 4; 0 = never)"),
      IntKey("sim.starvation_limit_cycles", "2000000", 0, kUnbounded, "cycles",
             "a packet this old while others are still delivered ends the run as starved (exit 4; "
             "0 = never)"),
      RealKey("sim.starved_factor", "100", 0, kUnbounded, "",
              "a packet seen waiting longer than this many times the run's median latency is named in a "
              "starved warning (results.json and stderr), the run goes on (0 = never; looked at with the "
              "limits above, so off when both are 0)"),
      BoolKey("sim.clock_jumps", "true",
              "with no flit anywhere and every controller at rest, jump to the next cycle at which "
              "something can happen (results are identical either way; never while tracing)"),
      IntKey("sim.threads", "0", 0, 1024, "",
             "threads that advance the network's partitions (Megafly groups, tree pods, torus slabs) "
             "cycle by cycle; 0 = one per core, fewer on a small network (results are identical for every "
             "count; a traced run uses one)"),
  };
  return keys;
}

std::vector<KeyRule> SimRules() {
  return {
      {{"sim.warmup_limit_cycles", "sim.warmup_cycles"},
       "sim.warmup_limit_cycles >= sim.warmup_cycles with sim.warmup = steady",
       [](const Scenario& s) -> std::string {
         if (s.Text("sim.warmup") != "steady" ||
             s.Int("sim.warmup_limit_cycles") >= s.Int("sim.warmup_cycles"))
           return "";
         return s.Show("sim.warmup_limit_cycles") + " is below " + s.Show("sim.warmup_cycles");
       }},
      {{"sim.warmup", "workload.kind"},
       "sim.warmup = steady with Bernoulli traffic (workload.kind = none); a workload is measured whole "
       "from cycle 0 (sim.warmup = fixed)",
       [](const Scenario& s) -> std::string {
         if (s.Text("sim.warmup") != "steady" || s.Text("workload.kind") == "none") return "";
         return "sim.warmup = steady with " + s.Show("workload.kind");
       }},
  };
}

SimParams ParseSimParams(const Scenario& s) {
  SimParams sim;
  sim.seed = static_cast<uint64_t>(s.Int("sim.seed"));
  sim.cycle_ns = s.Real("sim.cycle_ns");
  sim.steady_warmup = s.Text("sim.warmup") == "steady";
  sim.warmup = s.Int("sim.warmup_cycles");
  sim.steady_period = s.Int("sim.steady_period_cycles");
  sim.steady_tolerance = s.Real("sim.steady_tolerance");
  sim.warmup_limit = s.Int("sim.warmup_limit_cycles");
  sim.measure = s.Int("sim.measure_cycles");
  sim.drain_limit = s.Int("sim.drain_limit_cycles");
  sim.timeseries = s.Int("sim.timeseries_cycles");
  sim.stall_limit = s.Int("sim.stall_limit_cycles");
  sim.starvation_limit = s.Int("sim.starvation_limit_cycles");
  sim.starved_factor = s.Real("sim.starved_factor");
  sim.clock_jumps = s.Bool("sim.clock_jumps");
  sim.threads = static_cast<int>(s.Int("sim.threads"));
  return sim;
}

}  // namespace icn
