// Drives one verilated model through a clock edge the way the harness does: inputs set, clock low
// eval, clock high eval. Seeds for random tests come from Catch's --rng-seed (default 1).
#pragma once
#include <cstdint>
#include <memory>

#include <catch2/catch.hpp>
#include <verilated.h>

namespace tb {

inline uint64_t TestSeed() {
  const uint64_t seed = Catch::rngSeed();
  return seed ? seed : 1;
}

template <typename Model>
class Dut {
 public:
  Dut() : context_(std::make_unique<VerilatedContext>()), model_(std::make_unique<Model>(context_.get(), "dut")) {
    model_->clk_i = 0;
    model_->rst_ni = 0;
    model_->eval();
    model_->rst_ni = 1;
    model_->eval();
  }
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
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Model> model_;
};

}  // namespace tb
