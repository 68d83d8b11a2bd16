#include "core/sim_params.h"

namespace icn {

const std::vector<KeySpec>& SimKeys() {
  static const std::vector<KeySpec> keys = {
      IntKey("sim.seed", "1", 0, 9007199254740991.0, "", "random seed (up to 2^53 - 1)"),
      RealKey("sim.cycle_ns", "1", 1e-6, 1e6, "ns", "length of one cycle"),
      IntKey("sim.warmup_cycles", "2000", 0, kUnbounded, "cycles", "cycles before measurement"),
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
      BoolKey("sim.clock_jumps", "true",
              "with no flit anywhere and every controller at rest, jump to the next cycle at which "
              "something can happen (results are identical either way; never while tracing)"),
  };
  return keys;
}

SimParams ParseSimParams(const Scenario& s) {
  SimParams sim;
  sim.seed = static_cast<uint64_t>(s.Int("sim.seed"));
  sim.cycle_ns = s.Real("sim.cycle_ns");
  sim.warmup = s.Int("sim.warmup_cycles");
  sim.measure = s.Int("sim.measure_cycles");
  sim.drain_limit = s.Int("sim.drain_limit_cycles");
  sim.timeseries = s.Int("sim.timeseries_cycles");
  sim.stall_limit = s.Int("sim.stall_limit_cycles");
  sim.starvation_limit = s.Int("sim.starvation_limit_cycles");
  sim.clock_jumps = s.Bool("sim.clock_jumps");
  return sim;
}

}  // namespace icn
