// SystemC top of a run: the clock and one clocked method that advances the whole network and its
// controllers from flat arrays (binding every port as an sc_signal would multiply kernel events by
// the port count; see docs/performance.md). The kernel provides time, elaboration and the stop.
#pragma once
#include <systemc>

#include "run/simulation.h"

namespace icn {

class SimTop : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(SimTop);
  SimTop(const sc_core::sc_module_name& name, Simulation& sim, double cycle_ns)
      : sc_core::sc_module(name), clk("clk", sc_core::sc_time(cycle_ns, sc_core::SC_NS)), sim_(sim) {
    SC_METHOD(OnClock);
    sensitive << clk.posedge_event();
    dont_initialize();
  }

  sc_core::sc_clock clk;

 private:
  void OnClock() {
    if (!sim_.Tick()) sc_core::sc_stop();
  }
  Simulation& sim_;
};

}  // namespace icn
