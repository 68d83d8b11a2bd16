// SPDX-License-Identifier: Apache-2.0
// Reference model of rtl/eee/eee_pdt_timer.sv: arm loads t_PDT, cancel wins over arm, the count
// stops at 0 (expired) until the expiry is consumed, and all ones never counts (never expires).
#pragma once
#include <cstdint>

namespace ref {

class PdtTimer {
 public:
  static constexpr uint32_t kNever = 0xffffffffu;

  void Reset() {
    armed_ = false;
    count_ = 0;
  }
  bool armed() const { return armed_; }
  bool expired() const { return armed_ && count_ == 0; }
  uint32_t count() const { return armed_ ? count_ : 0; }  // cycles left; 0 when not armed

  void Clock(uint32_t pdt_cycles, bool arm, bool cancel, bool consume) {
    if (cancel) {
      armed_ = false;
    } else if (arm) {
      armed_ = true;
      count_ = pdt_cycles;
    } else if (armed_) {
      if (count_ == 0) {
        armed_ = !consume;
      } else if (count_ != kNever) {
        --count_;
      }
    }
  }

 private:
  bool armed_ = false;
  uint32_t count_ = 0;
};

}  // namespace ref
