// SPDX-License-Identifier: Apache-2.0
// Reference model of rtl/common/link_power_seq.sv: On -> ToOff (off_cycles) -> Off -> ToOn
// (on_cycles) -> On, commands taken only in the stable state they leave.
#pragma once
#include <cstdint>

namespace ref {

class LinkPowerSeq {
 public:
  enum State : uint8_t { kOn = 0, kToOff = 1, kOff = 2, kToOn = 3 };

  void Reset() {
    state_ = kOn;
    count_ = 0;
  }
  State state() const { return state_; }
  bool on() const { return state_ == kOn; }
  bool stable() const { return state_ == kOn || state_ == kOff; }
  uint32_t count() const { return count_; }

  void Clock(bool go_off, bool go_on, uint32_t off_cycles, uint32_t on_cycles) {
    switch (state_) {
      case kOn:
        if (go_off) Start(kToOff, kOff, off_cycles);
        break;
      case kOff:
        if (go_on) Start(kToOn, kOn, on_cycles);
        break;
      case kToOff:
      case kToOn:
        if (count_ == 0) {
          state_ = state_ == kToOff ? kOff : kOn;
        } else {
          --count_;
        }
        break;
    }
  }

 private:
  // A transition of `cycles` cycles shows `moving` for exactly that many cycles, then `target`.
  void Start(State moving, State target, uint32_t cycles) {
    if (cycles == 0) {
      state_ = target;
    } else {
      state_ = moving;
      count_ = (cycles - 1) & 0xffffff;
    }
  }

  State state_ = kOn;
  uint32_t count_ = 0;
};

}  // namespace ref
