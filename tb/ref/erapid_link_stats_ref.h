// SPDX-License-Identifier: Apache-2.0
// Reference model of rtl/erapid/erapid_link_stats.sv: per window closed by a sample, the cycles
// the laser sent, the flit-cycles its queue held, and the window's length.
#pragma once
#include <cstdint>

namespace ref {

class ErapidLinkStats {
 public:
  void Clock(bool sent, uint32_t queue, bool sample) {
    ++cycles_;
    busy_ += sent;
    occupancy_ += queue;
    if (sample) {
      window_total_ = cycles_;
      busy_total_ = busy_;
      occupancy_total_ = occupancy_;
      cycles_ = busy_ = occupancy_ = 0;
    }
  }
  uint32_t window() const { return window_total_; }
  uint32_t busy() const { return busy_total_; }
  uint64_t occupancy() const { return occupancy_total_; }

 private:
  uint32_t cycles_ = 0, busy_ = 0;
  uint64_t occupancy_ = 0;
  uint32_t window_total_ = 0, busy_total_ = 0;
  uint64_t occupancy_total_ = 0;
};

}  // namespace ref
