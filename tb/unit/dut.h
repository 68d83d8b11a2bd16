// Drives one verilated model through a clock edge the way the harness does: inputs set, clock low
// eval, clock high eval. Seeds for random tests come from Catch's --rng-seed (default 1).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include <verilated.h>
#include <catch2/catch.hpp>

#include "mech/rising_edge.h"

namespace tb {

inline uint64_t TestSeed() {
  const uint64_t seed = Catch::rngSeed();
  return seed ? seed : 1;
}

template <typename Model>
class Dut {
 public:
  Dut() : model_(std::make_unique<Model>(&Context(), NextName().c_str())) { icn::Reset(*model_); }
  ~Dut() { model_->final(); }
  Model* operator->() { return model_.get(); }
  Model& operator*() { return *model_; }
  void Clock() {
    model_->clk_i = 0;
    model_->eval();
    model_->clk_i = 1;
    model_->eval();
  }

 private:
  // One context for every model of the test binary: Verilator 5.006 erases a model's scopes
  // through the thread's current context, which must outlive every model.
  static VerilatedContext& Context() {
    static VerilatedContext context;
    return context;
  }
  static std::string NextName() {
    static int count = 0;
    return "dut" + std::to_string(count++);
  }
  std::unique_ptr<Model> model_;
};

}  // namespace tb
