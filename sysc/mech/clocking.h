// SPDX-License-Identifier: Apache-2.0
// Clocking of the verilated controllers. Every model's top is the simulator's icnsim
// (scripts/sim_models.py): each change of its clk_i is one rising edge of the controller's clock, so
// an edge is one eval through Verilator's public interface, exact for any RTL sim_models.py accepts
// (every register on clk_i's rising edge, no latch, clk_i used as a clock only).
#pragma once
#include <cstdint>
#include <type_traits>
#include <utility>

#include <verilated.h>

#include "core/tracer.h"

namespace icn {

// One clock edge of a model, with the inputs it holds.
template <typename Model>
inline void Edge(Model& model) {
  model.clk_i = !model.clk_i;
  model.eval();
}

// The model's outputs for the inputs it holds, without an edge.
template <typename Model>
inline void Settle(Model& model) {
  model.eval();
}

// The reference clocking: an edge of every model of a set, every cycle (the harness otherwise skips
// those at a fixed point), with the waveform dumped before it (inputs applied: one eval without an
// edge) and after it. model_of(item) returns the model of one item.
template <typename Items, typename ModelOf>
inline void EdgeOfAll(Items& items, ModelOf model_of, Tracer& tracer, uint64_t cycle) {
  if (tracer.enabled()) {
    for (auto& item : items) Settle(model_of(item));
    tracer.Dump(cycle, 0);
  }
  for (auto& item : items) Edge(model_of(item));
  tracer.Dump(cycle, 1);
}

// Whether a model's registers move with no input changing (its optional busy_o): then its last
// edge is no fixed point, whatever toggled.
template <typename M, typename = void>
struct HasBusyOutput : std::false_type {};
template <typename M>
struct HasBusyOutput<M, std::void_t<decltype(std::declval<M&>().busy_o)>> : std::true_type {};
template <typename Model>
inline bool Busy(const Model& model) {
  if constexpr (HasBusyOutput<Model>::value) {
    return model.busy_o;
  } else {
    return false;
  }
}

// After the edge closing cycle `now`: the cycle a controller's deadline_o names, as a cycle number
// (the time base holds it modulo 2^32: it is the first such cycle after `now`), or UINT64_MAX when
// deadline_valid_o says it has none.
inline uint64_t DeadlineCycle(bool valid, uint32_t deadline, uint64_t now) {
  if (!valid) return UINT64_MAX;
  const uint64_t next = now + 1;
  return next + ((deadline - next) & 0xffffffffULL);
}

// Asynchronous reset (initial values may be random); no clock edge.
template <typename Model>
inline void Reset(Model& model) {
  model.rst_ni = 1;
  model.eval();
  model.rst_ni = 0;
  model.eval();
  model.rst_ni = 1;
  model.eval();
}

}  // namespace icn
