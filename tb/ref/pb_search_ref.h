// SPDX-License-Identifier: Apache-2.0
// Reference model of rtl/eee/pb_search.sv, cycle for cycle, and its fixed-point steps of N (the
// test of the error bound compares them with exact arithmetic).
#pragma once
#include <cstdint>
#include <vector>

#include "ref/pb_histogram_ref.h"

namespace ref {

struct PbSearchConfig {
  int sub_bin_bits = 2;
  int bins = 124;
  int max_hops = 8;
  uint32_t init_pdt = 1000;
};

class PbSearch {
 public:
  static constexpr int kFrac = 16;
  explicit PbSearch(const PbSearchConfig& c) : c_(c), pdt_(c.init_pdt) {}

  // 1/h rounded in Q0.16, h = 1 saturating to 0xffff (as the RTL's constant table).
  static uint64_t Reciprocal(int h) { return h == 1 ? 0xffff : ((1u << kFrac) + h / 2) / h; }

  // The RTL's steps: sum_h p_h / h and l in Q0.32, l / t_w in Q0.32, N in Q32.32.
  static uint64_t Sum(const std::vector<uint32_t>& shares) {
    uint64_t sum = 0;
    for (size_t h = 1; h <= shares.size(); ++h)
      sum = (sum + shares[h - 1] * Reciprocal(static_cast<int>(h))) & 0xffffffffULL;
    return sum;
  }
  static uint64_t L(uint64_t sum, uint32_t bound) { return ((sum * bound) >> kFrac) & 0xffffffffULL; }
  static uint64_t Rate(uint64_t l, uint32_t inv_tw) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(l) * inv_tw) >> 32);
  }
  static uint64_t Budget(uint64_t rate, uint32_t span) { return rate * span; }
  static uint64_t Limit(const std::vector<uint32_t>& shares, uint32_t bound, uint32_t inv_tw, uint32_t span) {
    return Budget(Rate(L(Sum(shares), bound), inv_tw), span);
  }

  // Drives one edge; counts are sampled by the RTL one bin per cycle during the scan, so the
  // model takes the counts of each cycle too.
  struct In {
    std::vector<uint32_t> shares, counts;
    uint32_t bound = 0, inv_tw = 0, span = 0;
    bool empty = false;  // the histogram holds no idle period
    bool active = false, start = false;
  };
  struct Out {
    bool busy, done, recomputed;
    uint32_t pdt;
    uint64_t limit;
    int bin;
  };

  Out Outputs() const { return {state_ != 0, done_, recomputed_, pdt_, limit_, best_}; }

  void Clock(const In& in) {
    bool done = false, recomputed = false;
    bool dirty = dirty_ || in.active;
    switch (state_) {
      case 0:  // idle
        if (in.start) {
          if (dirty_ && !in.empty) {
            state_ = 1;
            dirty = in.active;
            hop_ = 1;
            frac_ = 0;
          } else {
            done = true;
          }
        }
        break;
      case 1:  // the sum, one hop count per cycle
        frac_ = (frac_ + in.shares[hop_ - 1] * Reciprocal(hop_)) & 0xffffffffULL;
        if (hop_ == c_.max_hops)
          state_ = 2;
        else
          ++hop_;
        break;
      case 2:
        frac_ = L(frac_, in.bound);
        state_ = 3;
        break;
      case 3:
        frac_ = Rate(frac_, in.inv_tw);
        state_ = 4;
        break;
      case 4:
        limit_ = Budget(frac_, in.span);
        state_ = 5;
        bin_ = c_.bins - 1;
        acc_ = 0;
        found_ = false;
        break;
      case 5: {
        acc_ += in.counts[bin_];
        const bool fits = (acc_ << 32) <= limit_;
        if (fits) {
          best_ = bin_;
          found_ = true;
        }
        if (!fits || bin_ == 0) {
          state_ = 0;
          done = recomputed = true;
          pdt_ = found_ ? static_cast<uint32_t>(PbBins{c_.sub_bin_bits}.Centre(best_)) : 0xffffffffu;
        } else {
          --bin_;
        }
        break;
      }
    }
    dirty_ = dirty;
    done_ = done;
    recomputed_ = recomputed;
  }

 private:
  PbSearchConfig c_;
  int state_ = 0;
  bool dirty_ = false;
  int hop_ = 0;
  uint64_t frac_ = 0, limit_ = 0, acc_ = 0;
  int bin_ = 0, best_ = 0;
  bool found_ = false, done_ = false, recomputed_ = false;
  uint32_t pdt_;
};

}  // namespace ref
