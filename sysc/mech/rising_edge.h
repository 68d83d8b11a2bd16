// One rising clock edge of a verilated model with a single eval() instead of the usual
// "clk=0; eval; clk=1; eval". The model compares the clock with the value it saw at its previous
// eval, so telling it that value was 0 makes one eval with clk_i = 1 a rising edge. Exact for RTL
// without negedge or level-sensitive clock logic (every controller here). The member is a
// Verilator internal: CMakeLists.txt stops the configuration if a Verilator version does not have
// it, tb/unit/test_eee_port.cpp proves the edge equal to two-eval clocking output for output on
// random inputs, and the network tests compare every controller's registers cycle for cycle.
#pragma once
#include <cstdint>

#include <verilated.h>

#include "core/tracer.h"

namespace icn {

template <typename Model, typename Root>
inline void RisingEdge(Model& model, Root& root) {
  root.clk_i = 1;
  root.__Vtrigrprev__TOP__clk_i = 0;
  model.eval();
}

// The same edge without the wrapper's per-eval work (its activity flag for tracing, which never
// takes this path, and the end-of-eval message queue of threaded models, which these are not):
// `eval` is the model's own evaluation, <Model>___024root___eval, another Verilator internal
// checked the same way (CMakeLists.txt, and the tests above).
template <typename Root>
inline void RisingEdge(Root& root, void (*eval)(Root*)) {
  root.clk_i = 1;
  root.__Vtrigrprev__TOP__clk_i = 0;
  eval(&root);
}

// The reference clocking of a set of models, "clk=0; eval; clk=1; eval", dumping the waveform at
// both clock levels so the clock shows. model_of(item) returns the model of one item.
template <typename Items, typename ModelOf>
inline void TwoEvalEdge(Items& items, ModelOf model_of, Tracer& tracer, uint64_t cycle) {
  for (auto& item : items) {
    model_of(item).clk_i = 0;
    model_of(item).eval();
  }
  tracer.Dump(cycle, 0);
  for (auto& item : items) {
    model_of(item).clk_i = 1;
    model_of(item).eval();
  }
  tracer.Dump(cycle, 1);
}

// Asynchronous reset with an explicit falling edge (initial values may be random).
template <typename Model>
inline void Reset(Model& model) {
  model.clk_i = 0;
  model.rst_ni = 1;
  model.eval();
  model.rst_ni = 0;
  model.eval();
  model.rst_ni = 1;
  model.eval();
}

}  // namespace icn
