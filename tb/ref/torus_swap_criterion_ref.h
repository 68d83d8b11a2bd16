// SPDX-License-Identifier: Apache-2.0
// Reference model of rtl/torus/torus_swap_criterion.sv: flux counters over the period, totals
// latched at its last step, and on the next step M = A_b - A_a + O_a - O_b - l F_ab + credit(F'_ba)
// against the threshold (fixed, randomised from an LFSR, or adaptive), edge by edge. F'_ba's
// credit: the hops the swap saves each packet (d - 1 from its d hops in the opposite cycle), or l
// per packet.
#pragma once
#include <cstdint>

namespace ref {

class TorusSwapCriterion {
 public:
  enum Variant : uint8_t { kFixed, kRandomised, kAdaptive };
  struct Straps {
    uint32_t period = 100;
    uint8_t variant = kFixed;
    uint32_t threshold = 10, cost = 0, extra_hops = 6, step = 4, rare_periods = 3;
    uint16_t seed = 1;
    bool back_credit_hops = true;  // false: l per packet toward the predecessor
  };
  struct Events {
    bool arrive_self = false, arrive_next = false, orig_near = false, orig_far = false, orig_back = false;
    uint32_t back_hops = 1;  // with orig_back: the hops that packet takes in this cycle
    bool swapped = false;
    uint32_t b_orig = 0, b_back = 0;  // b's totals, read on the decision's step
  };
  static constexpr uint32_t kCountMask = 0xffff, kBackMask = 0xffffff;

  void Clock(uint16_t now, const Straps& s, const Events& e) {
    const bool period_end = started_ && now == deadline_;
    const bool decide = decide_;
    const int64_t m = M(s, e);
    const uint32_t threshold = Threshold(s);
    want_ = false;
    decide_ = period_end;
    bool swapped_seen = swapped_;
    const uint32_t back_step = !e.orig_back          ? 0
                               : !s.back_credit_hops ? 1
                               : e.back_hops > 1     ? e.back_hops - 1
                                                     : 0;
    if (e.swapped) swapped_ = true;
    if (!started_) {
      started_ = true;
      deadline_ = static_cast<uint16_t>(now + s.period - 1);
      lfsr_ = s.seed == 0 ? 1 : s.seed;
      adaptive_ = s.threshold;
    }
    if (period_end) {
      self_total_ = (self_ + e.arrive_self) & kCountMask;
      next_total_ = (next_ + e.arrive_next) & kCountMask;
      near_total_ = (near_ + e.orig_near) & kCountMask;
      far_total_ = (far_ + e.orig_far) & kCountMask;
      back_total_ = (back_ + back_step) & kBackMask;
      self_ = next_ = near_ = far_ = back_ = 0;
      deadline_ = static_cast<uint16_t>(deadline_ + s.period);
    } else {
      self_ = (self_ + e.arrive_self) & kCountMask;
      next_ = (next_ + e.arrive_next) & kCountMask;
      near_ = (near_ + e.orig_near) & kCountMask;
      far_ = (far_ + e.orig_far) & kCountMask;
      back_ = (back_ + back_step) & kBackMask;
    }
    if (decide) {
      m_ = m;
      threshold_ = threshold;
      want_ = m - static_cast<int64_t>(s.cost) > static_cast<int64_t>(threshold);
      const uint16_t bit = ((lfsr_ >> 15) ^ (lfsr_ >> 14) ^ (lfsr_ >> 12) ^ (lfsr_ >> 3)) & 1;
      lfsr_ = static_cast<uint16_t>((lfsr_ << 1) | bit);
      if (swapped_seen || e.swapped) {
        adaptive_ = adaptive_ + s.step > kCountMask ? kCountMask : adaptive_ + s.step;
        quiet_ = 0;
      } else if (quiet_ + 1u >= s.rare_periods) {
        adaptive_ = adaptive_ > s.step ? adaptive_ - s.step : 0;
        quiet_ = 0;
      } else {
        ++quiet_;
      }
      swapped_ = false;
    }
  }

  // M from the latched totals and b's.
  int64_t M(const Straps& s, const Events& e) const {
    const int64_t credit = s.back_credit_hops ? int64_t{e.b_back} : int64_t{s.extra_hops} * e.b_back;
    return int64_t{next_total_} - self_total_ + far_total_ - int64_t{e.b_orig} -
           int64_t{s.extra_hops} * near_total_ + credit;
  }
  uint32_t Threshold(const Straps& s) const {
    if (s.variant == kRandomised)
      return static_cast<uint32_t>((uint64_t{lfsr_} * s.threshold) >> 15) & kCountMask;
    if (s.variant == kAdaptive) return adaptive_;
    return s.threshold;
  }

  uint32_t self() const { return self_total_; }
  uint32_t next() const { return next_total_; }
  uint32_t near() const { return near_total_; }
  uint32_t far() const { return far_total_; }
  uint32_t back() const { return back_total_; }
  int64_t m() const { return m_; }
  uint32_t threshold() const { return threshold_; }
  bool want() const { return want_; }
  uint16_t deadline() const { return deadline_; }

 private:
  uint32_t self_ = 0, next_ = 0, near_ = 0, far_ = 0, back_ = 0;
  uint32_t self_total_ = 0, next_total_ = 0, near_total_ = 0, far_total_ = 0, back_total_ = 0;
  uint16_t deadline_ = 0;
  bool started_ = false, decide_ = false, want_ = false, swapped_ = false;
  uint16_t lfsr_ = 1;
  uint32_t adaptive_ = 0, threshold_ = 0, quiet_ = 0;
  int64_t m_ = 0;
};

}  // namespace ref
