// SPDX-License-Identifier: Apache-2.0
// A second model of a controller clocked the way the harness clocks it: its edge is skipped while
// the last one toggled no register, its inputs are the same and the deadline it gave has not come.
// Its registers must stay those of the model clocked every cycle: the lock-step tests of the
// example controllers (examples/) check that the deadline names every cycle the time base acts on.
#pragma once
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include <verilated.h>

#include "mech/clocking.h"
#include "unit/dut.h"

namespace tb {

template <typename Model>
class Skipping {
 public:
  explicit Skipping(const std::function<void(Model&)>& straps)
      : model_(std::make_unique<Model>(&TestContext(), NextModelName().c_str())) {
    straps(*model_);
    icn::Reset(*model_);
  }
  ~Skipping() { model_->final(); }
  // The cycle `now` with the inputs `inputs`, which set(model) applies when it is evaluated.
  template <typename Set>
  void Cycle(uint32_t now, const std::vector<uint64_t>& inputs, Set set) {
    if (fixed_ && inputs == last_ && now < due_) {
      ++skipped_;
      return;
    }
    Model& m = *model_;
    set(m);
    m.now_i = now;
    unsigned char before[sizeof m.regs_o];  // (regs_o is an array: copied by its bytes)
    std::memcpy(before, m.regs_o, sizeof before);
    icn::Edge(m);
    fixed_ = std::memcmp(before, m.regs_o, sizeof before) == 0;
    due_ = icn::DeadlineCycle(m.deadline_valid_o, m.deadline_o, now);
    last_ = inputs;
  }
  bool SameRegisters(const Model& other) const {
    return std::memcmp(model_->regs_o, other.regs_o, sizeof other.regs_o) == 0;
  }
  uint64_t skipped() const { return skipped_; }

 private:
  std::unique_ptr<Model> model_;
  std::vector<uint64_t> last_;
  bool fixed_ = false;
  uint64_t due_ = 0;
  uint64_t skipped_ = 0;
};

}  // namespace tb
