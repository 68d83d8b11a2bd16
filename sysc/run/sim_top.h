// SystemC top of a run: the clock and one clocked method that advances the whole network and its
// controllers from flat arrays (binding every port as an sc_signal would multiply kernel events by
// the port count; see docs/performance.md). The kernel provides time, elaboration and the stop.
#pragma once
#include <csignal>
#include <systemc>

#include "run/simulation.h"

namespace icn {

class SimTop : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(SimTop);
  // `caught`, if given: where a handler puts the number of a signal that asks the run to stop.
  SimTop(const sc_core::sc_module_name& name, Simulation& sim, double cycle_ns,
         const volatile std::sig_atomic_t* caught = nullptr)
      : sc_core::sc_module(name),
        clk("clk", sc_core::sc_time(cycle_ns, sc_core::SC_NS)),
        sim_(sim),
        caught_(caught) {
    SC_METHOD(OnClock);
    sensitive << clk.posedge_event();
    dont_initialize();
  }

  sc_core::sc_clock clk;

 private:
  // A signal stops the run at the end of the cycle it arrived in.
  void OnClock() {
    const int signal = caught_ ? *caught_ : 0;
    if (sim_.Tick() && signal == 0) return;
    if (signal != 0) sim_.Interrupt(signal);
    sc_core::sc_stop();
  }
  Simulation& sim_;
  const volatile std::sig_atomic_t* caught_;
};

}  // namespace icn
