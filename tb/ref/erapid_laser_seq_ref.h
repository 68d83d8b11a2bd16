// SPDX-License-Identifier: Apache-2.0
// Reference model of rtl/erapid/erapid_laser_seq.sv: one E-RAPID laser, lit or dark, its power
// level moved one step at a time (up: supply, then rate and relock; down: rate and relock, then
// supply), a laser told off draining before it goes dark. Steps count down their cycles.
#pragma once
#include <cstdint>

namespace ref {

class ErapidLaserSeq {
 public:
  enum State : uint8_t { kOff, kLock, kOn, kVddUp, kRelock, kRateDown, kVddDown, kDrain };

  explicit ErapidLaserSeq(int levels = 6) : top_(static_cast<uint8_t>(levels - 1)) { Reset(); }
  void Reset() {
    state_ = kOff;
    rate_ = power_ = top_;
    left_ = 0;
  }
  State state() const { return state_; }
  uint8_t rate_level() const { return rate_; }
  uint8_t power_level() const { return power_; }
  bool powered() const { return state_ != kOff; }
  bool routable() const {
    return state_ == kOn || state_ == kVddUp || state_ == kRelock || state_ == kRateDown ||
           state_ == kVddDown;
  }
  bool tx_enable() const {
    return state_ == kOn || state_ == kVddUp || state_ == kVddDown || state_ == kDrain;
  }

  void Clock(bool on, uint8_t level, bool drained, uint32_t vdd_cycles, uint32_t relock_cycles) {
    switch (state_) {
      case kOff:
        if (on) {
          rate_ = power_ = level;
          Step(kLock, relock_cycles);
        }
        break;
      case kOn:
        if (!on) {
          state_ = kDrain;
        } else if (level > rate_) {
          power_ = rate_ + 1;
          Step(kVddUp, vdd_cycles);
        } else if (level < rate_) {
          rate_ = rate_ - 1;
          Step(kRateDown, relock_cycles);
        }
        break;
      case kDrain:
        if (on) {
          state_ = kOn;
        } else if (drained) {
          state_ = kOff;
        }
        break;
      default:  // a step under way
        if (left_ > 0) {
          --left_;
          break;
        }
        if (state_ == kVddUp) {
          rate_ = power_;
          Step(kRelock, relock_cycles);
        } else if (state_ == kRateDown) {
          Step(kVddDown, vdd_cycles);
        } else {
          if (state_ == kVddDown) power_ = rate_;
          state_ = kOn;
        }
        break;
    }
  }

 private:
  // A step of `cycles` cycles shows `state` for exactly that many cycles.
  void Step(State state, uint32_t cycles) {
    state_ = state;
    left_ = cycles - 1;
  }

  uint8_t top_;
  State state_;
  uint8_t rate_, power_;
  uint32_t left_;
};

}  // namespace ref
