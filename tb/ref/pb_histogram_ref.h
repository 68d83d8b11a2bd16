// SPDX-License-Identifier: Apache-2.0
// Reference model of rtl/eee/pb_histogram.sv: clamp, logarithmic bin, the three ways of keeping the
// histogram bounded (self-clearing, sliding window, unbounded) and the span the counts cover,
// cycle for cycle.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

namespace ref {

struct PbHistogramConfig {
  int sub_bin_bits = 2;  // 2^sub_bin_bits bins to an octave
  int value_bits = 32;   // bits of a length and of the time base
  int counter_bits = 16;
  int strategy = 0;  // 0 self-clearing, 1 sliding window, 2 unbounded
  uint32_t max_n = 250;
  uint32_t ttl_cycles = 0;
  uint32_t max_val = 0xffffffffu;
  int Bins() const { return (value_bits - sub_bin_bits + 1) << sub_bin_bits; }
};

// The bins' geometry, shared with the search: bin of a length, and a bin's centre.
struct PbBins {
  int sub_bin_bits = 2;

  int Of(uint64_t length) const {
    const int sub = 1 << sub_bin_bits;
    if (length < 2u * sub) return static_cast<int>(length);
    int msb = 63;
    while (!(length >> msb)) --msb;
    const int k = msb - sub_bin_bits;
    return k * sub + static_cast<int>(length >> k);
  }
  uint64_t Lower(int bin) const {
    const int sub = 1 << sub_bin_bits;
    if (bin < 2 * sub) return static_cast<uint64_t>(bin);
    return static_cast<uint64_t>(sub + bin % sub) << (bin / sub - 1);
  }
  uint64_t Width(int bin) const {
    const int sub = 1 << sub_bin_bits;
    return bin < 2 * sub ? 1 : uint64_t{1} << (bin / sub - 1);
  }
  uint64_t Centre(int bin) const { return Lower(bin) + Width(bin) / 2; }
};

class PbHistogram {
 public:
  explicit PbHistogram(const PbHistogramConfig& c) : c_(c), counts_(c.Bins(), 0) {}

  const std::vector<uint32_t>& counts() const { return counts_; }
  uint32_t values() const { return values_; }
  uint32_t since() const { return since_; }
  // A clear waits while `hold` (the search reads the counts).
  bool clearing(bool hold = false) const {
    return c_.strategy == 0 && !hold && (values_ == c_.max_n || (c_.ttl_cycles && age_ == c_.ttl_cycles));
  }

  int Bin(uint32_t sample) const { return PbBins{c_.sub_bin_bits}.Of(std::min(sample, c_.max_val)); }

  void Clock(bool valid, uint32_t sample, uint32_t now, bool hold = false) {
    const bool clear = clearing(hold);
    if (clear) {
      std::fill(counts_.begin(), counts_.end(), 0);
      values_ = 0;
      since_ = now;
    }
    age_ = (clear || c_.ttl_cycles == 0) ? 0 : age_ == c_.ttl_cycles ? age_ : age_ + 1;
    if (!valid) return;
    const int bin = Bin(sample);
    const uint32_t max = (1u << c_.counter_bits) - 1;
    if (counts_[bin] != max) ++counts_[bin];
    if (c_.strategy == 1) {
      window_.push_back({bin, now});
      if (values_ == c_.max_n) {
        --counts_[window_.front().first];
        since_ = window_.front().second;
        window_.pop_front();
      } else {
        ++values_;
      }
    } else if (values_ != c_.max_n) {
      ++values_;  // (saturates: unbounded, or a clear held back)
    }
  }

 private:
  PbHistogramConfig c_;
  std::vector<uint32_t> counts_;
  uint32_t values_ = 0;
  uint32_t age_ = 0;
  uint32_t since_ = 0;
  std::deque<std::pair<int, uint32_t>> window_;  // bin and recording cycle of each value held
};

}  // namespace ref
