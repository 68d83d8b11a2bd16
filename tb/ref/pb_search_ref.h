// Reference model of rtl/eee/pb_search.sv, cycle for cycle, and the same search in exact
// arithmetic for the error bound of the fixed-point version.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

namespace ref {

struct PbSearchConfig {
  int bins = 32;
  uint32_t bin_cycles = 256;
  int max_hops = 8;
  uint32_t init_pdt = 1000;
};

class PbSearch {
 public:
  static constexpr int kFrac = 16;
  explicit PbSearch(const PbSearchConfig& c) : c_(c), pdt_(c.init_pdt) {}

  // 1/h rounded in Q0.16, h = 1 saturating to 0xffff (as the RTL's constant table).
  static uint64_t Reciprocal(int h) { return h == 1 ? 0xffff : ((1u << kFrac) + h / 2) / h; }

  // N in Q.32 exactly as the RTL computes it.
  static uint64_t Limit(const std::vector<uint32_t>& shares, uint32_t bound, uint32_t x_over_tw) {
    uint64_t sum = 0;  // Q0.32, 32 bits
    for (size_t h = 1; h <= shares.size(); ++h)
      sum = (sum + shares[h - 1] * Reciprocal(static_cast<int>(h))) & 0xffffffffULL;
    const uint64_t l = (sum * bound) >> kFrac;  // Q0.32
    return l * x_over_tw;
  }

  // t_PDT for given counts and limit, as the scan decides it.
  uint32_t Scan(const std::vector<uint32_t>& counts, uint64_t limit, int* bins_scanned) const {
    uint64_t acc = 0;
    int best = -1;
    for (int b = c_.bins - 1; b >= 0; --b) {
      acc += counts[b];
      ++*bins_scanned;
      if ((acc << 32) > limit) break;
      best = b;
    }
    return best < 0 ? 0xffffffffu : static_cast<uint32_t>(best) * c_.bin_cycles + c_.bin_cycles / 2;
  }

  // Drives one edge; counts are sampled by the RTL one bin per cycle during the scan, so the
  // model takes the counts of each cycle too.
  struct In {
    std::vector<uint32_t> shares, counts;
    uint32_t bound = 0, x_over_tw = 0;
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
      case 0:
        if (in.start) {
          if (dirty_) {
            state_ = 1;
            dirty = in.active;
            hop_ = 1;
            sum_ = 0;
          } else {
            done = true;
          }
        }
        break;
      case 1:
        sum_ = (sum_ + in.shares[hop_ - 1] * Reciprocal(hop_)) & 0xffffffffULL;
        if (hop_ == c_.max_hops)
          state_ = 2;
        else
          ++hop_;
        break;
      case 2:
        limit_ = ((sum_ * in.bound) >> kFrac) * in.x_over_tw;
        state_ = 3;
        bin_ = c_.bins - 1;
        acc_ = 0;
        found_ = false;
        break;
      case 3: {
        acc_ += in.counts[bin_];
        const bool fits = (acc_ << 32) <= limit_;
        if (fits) {
          best_ = bin_;
          found_ = true;
        }
        if (!fits || bin_ == 0) {
          state_ = 0;
          done = recomputed = true;
          pdt_ = found_ ? static_cast<uint32_t>(best_) * c_.bin_cycles + c_.bin_cycles / 2 : 0xffffffffu;
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
  uint64_t sum_ = 0, limit_ = 0, acc_ = 0;
  int bin_ = 0, best_ = 0;
  bool found_ = false, done_ = false, recomputed_ = false;
  uint32_t pdt_;
};

}  // namespace ref
