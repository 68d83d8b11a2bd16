// SPDX-License-Identifier: Apache-2.0
// Reference model of rtl/eee/pb_correct.sv (same tables and integer arithmetic), and the exact
// correction factor in floating point for the error bound of the fixed-point one.
#pragma once
#include <cmath>
#include <cstdint>
#include <deque>

namespace ref {

class PbCorrect {
 public:
  PbCorrect(int hist_len, uint32_t cf_max_q8) : len_(hist_len), cf_max_(cf_max_q8) {
    for (int i = 0; i < 64; ++i) {
      log_[i] = static_cast<uint32_t>(std::lround(std::log2(1 + i / 64.0) * 256));
      exp_[i] = static_cast<uint32_t>(std::lround(std::exp2(i / 64.0) * 256)) - 256;
    }
  }

  uint32_t Log2Q8(uint32_t v) const {
    int msb = 0;
    for (int b = 0; b < 32; ++b) {
      if (v >> b) msb = b;
    }
    const uint32_t norm = v << (31 - msb);
    return static_cast<uint32_t>(msb) * 256 + log_[(norm >> 25) & 63];
  }

  void Clock(bool valid, bool hit, uint32_t t_inac, uint32_t t_pdt) {
    if (!valid) return;
    const bool miss = !hit;
    const bool leaving = (history_ >> (len_ - 1)) & 1;
    history_ = ((history_ << 1) | miss) & ((1u << len_) - 1);
    if (leaving) {
      sum_ -= fifo_.front();
      fifo_.pop_front();
      --misses_;
    }
    if (miss) {
      const uint32_t li = Log2Q8(t_inac), lp = Log2Q8(t_pdt);
      const uint32_t ratio = li > lp ? li - lp : 0;
      sum_ += ratio;
      fifo_.push_back(ratio);
      ++misses_;
    }
  }

  // max(1, cf) in Q.8.
  uint32_t Factor() const {
    if (misses_ == 0) return 256;
    const uint64_t recip = (65536 + misses_ / 2) / misses_;
    const uint64_t mean = ((sum_ * recip) >> 16) & 0x3ffff;
    const uint64_t whole = mean >> 8;
    uint64_t cf;
    if (whole > 30) {
      cf = cf_max_;
    } else {
      const uint64_t gm = ((256 + exp_[(mean >> 2) & 63]) << whole) & 0xffffffffffffULL;
      cf = (gm * misses_) >> Shift();
    }
    cf = std::min<uint64_t>(cf, cf_max_);
    return static_cast<uint32_t>(std::max<uint64_t>(cf, 256));
  }

  uint32_t Corrected(uint32_t pdt) const {
    if (pdt == 0xffffffffu) return pdt;
    const uint64_t out = (static_cast<uint64_t>(pdt) * Factor()) >> 8;
    return out > 0xffffffffULL ? 0xffffffffu : static_cast<uint32_t>(out);
  }

  // The paper's cf in exact arithmetic for the ratios held: miss share x geometric mean.
  double ExactCf(const std::deque<double>& ratios) const {
    if (ratios.empty()) return 0;
    double log_sum = 0;
    for (double r : ratios) log_sum += std::log2(r);
    return ratios.size() / static_cast<double>(len_) * std::exp2(log_sum / ratios.size());
  }

  uint32_t misses() const { return misses_; }
  uint32_t history() const { return history_; }
  uint64_t sum() const { return sum_; }

 private:
  int Shift() const { return static_cast<int>(std::log2(len_)); }
  int len_;
  uint32_t cf_max_;
  uint32_t log_[64], exp_[64];
  uint32_t history_ = 0, misses_ = 0;
  uint64_t sum_ = 0;
  std::deque<uint32_t> fifo_;
};

}  // namespace ref
