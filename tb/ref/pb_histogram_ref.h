// Reference model of rtl/eee/pb_histogram.sv: clamp, bin, and the three ways of keeping the
// histogram bounded (self-clearing, sliding window, unbounded), cycle for cycle.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

namespace ref {

struct PbHistogramConfig {
  int bins = 32;
  uint32_t bin_cycles = 256;
  int counter_bits = 16;
  int strategy = 0;  // 0 self-clearing, 1 sliding window, 2 unbounded
  uint32_t max_n = 250;
  uint32_t ttl_cycles = 0;
  uint32_t max_val = 8191;
};

class PbHistogram {
 public:
  explicit PbHistogram(const PbHistogramConfig& c) : c_(c), counts_(c.bins, 0) {}

  const std::vector<uint32_t>& counts() const { return counts_; }
  uint32_t values() const { return values_; }
  bool clearing() const {
    return c_.strategy == 0 && (values_ == c_.max_n || (c_.ttl_cycles && age_ == c_.ttl_cycles));
  }

  int Bin(uint32_t sample) const {
    const uint32_t clamped = std::min(sample, c_.max_val);
    return static_cast<int>(std::min<uint32_t>(clamped / c_.bin_cycles, c_.bins - 1));
  }

  void Clock(bool valid, uint32_t sample) {
    const bool clear = clearing();
    if (clear) {
      std::fill(counts_.begin(), counts_.end(), 0);
      values_ = 0;
    }
    age_ = (clear || c_.ttl_cycles == 0) ? 0 : age_ + 1;
    if (!valid) return;
    const int bin = Bin(sample);
    const uint32_t max = (1u << c_.counter_bits) - 1;
    if (counts_[bin] != max) ++counts_[bin];
    if (c_.strategy == 1) {
      window_.push_back(bin);
      if (values_ == c_.max_n) {
        --counts_[window_.front()];
        window_.pop_front();
      } else {
        ++values_;
      }
    } else if (c_.strategy == 0 || values_ != c_.max_n) {
      ++values_;
    }
  }

 private:
  PbHistogramConfig c_;
  std::vector<uint32_t> counts_;
  uint32_t values_ = 0;
  uint32_t age_ = 0;
  std::deque<int> window_;
};

}  // namespace ref
