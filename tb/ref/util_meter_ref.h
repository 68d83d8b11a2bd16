// SPDX-License-Identifier: Apache-2.0
// Reference model of rtl/common/util_meter.sv.
#pragma once
#include <cstdint>

namespace ref {

class UtilMeter {
 public:
  void Clock(bool busy, bool usable, bool window_end) {
    const uint32_t b = (busy_ + busy) & 0xffff;
    const uint32_t u = (usable_ + usable) & 0xffff;
    if (window_end) {
      busy_total_ = b;
      usable_total_ = u;
      busy_ = usable_ = 0;
    } else {
      busy_ = b;
      usable_ = u;
    }
  }
  uint32_t busy() const { return busy_total_; }
  uint32_t usable() const { return usable_total_; }

 private:
  uint32_t busy_ = 0, usable_ = 0, busy_total_ = 0, usable_total_ = 0;
};

}  // namespace ref
