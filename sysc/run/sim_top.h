// SPDX-License-Identifier: Apache-2.0
// SystemC top of a run: the clock and one clocked method that advances the whole network and its
// controllers from flat arrays (binding every port as an sc_signal would multiply kernel events by
// the port count; see docs/performance.md). The kernel provides time, elaboration and the stop.
#pragma once
#include <atomic>
#include <systemc>

#include "run/simulation.h"

namespace icn {

class SimTop : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(SimTop);
  // `caught`, if given: where a handler puts the number of a signal that asks the run to stop.
  SimTop(const sc_core::sc_module_name& name, Simulation& sim, double cycle_ns,
         const std::atomic<int>* caught = nullptr)
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
  // A signal stops the run at the end of the cycle it arrived in (a run that ends with that cycle
  // anyway was not interrupted).
  void OnClock() {
    const int signal = caught_ ? caught_->load() : 0;
    const bool more = sim_.Tick();
    if (more && signal != 0) sim_.Interrupt(signal);
    if (!more || signal != 0) sc_core::sc_stop();
  }
  Simulation& sim_;
  const std::atomic<int>* caught_;
};

}  // namespace icn
