// SPDX-License-Identifier: Apache-2.0
// Drives one verilated model through a clock edge the way the harness does: inputs set, then one
// edge (icn::Edge); a model with a time base (now_i) gets the number of edges so far, as the
// harness gives it the cycle, and after the edge the next cycle's, so that outputs computed from
// it are those of the cycle the registers now hold. Seeds for random tests come from Catch's --rng-seed
// (default 1).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include <verilated.h>
#include "catch.h"

#include "mech/clocking.h"

namespace tb {

inline uint64_t TestSeed() {
  const uint64_t seed = tb::CatchSeed();
  return seed ? seed : 1;
}

template <typename Model, typename = void>
struct HasTimeBase : std::false_type {};
template <typename Model>
struct HasTimeBase<Model, std::void_t<decltype(std::declval<Model&>().now_i)>> : std::true_type {};

// One context for every model of the test binary: Verilator 5.006 erases a model's scopes
// through the thread's current context, which must be the model's own and outlive every model.
inline VerilatedContext& TestContext() {
  static VerilatedContext context;
  return context;
}
// A name of its own for each model (scopes are kept by name in the context).
inline std::string NextModelName() {
  static int count = 0;
  return "dut" + std::to_string(count++);
}

template <typename Model>
class Dut {
 public:
  Dut() : model_(std::make_unique<Model>(&TestContext(), NextModelName().c_str())) { icn::Reset(*model_); }
  ~Dut() { model_->final(); }
  Model* operator->() { return model_.get(); }
  uint64_t cycles() const { return cycle_; }  // edges so far: the cycle the next Clock() closes
  Model& operator*() { return *model_; }
  void Clock() {
    SetTime();
    icn::Edge(*model_);
    ++cycle_;
    // Outputs read after the edge are those of the next cycle: give combinational ones its time.
    if constexpr (HasTimeBase<Model>::value) {
      SetTime();
      model_->eval();
    }
  }

 private:
  void SetTime() {
    if constexpr (HasTimeBase<Model>::value) {
      model_->now_i = static_cast<std::remove_reference_t<decltype(model_->now_i)>>(cycle_);
    }
  }
  std::unique_ptr<Model> model_;
  uint64_t cycle_ = 0;
};

}  // namespace tb
