// SPDX-License-Identifier: Apache-2.0
// torus_swap_criterion in lock-step with its reference model on random events, neighbour totals
// and straps (each threshold variant, both F'_ba credits), and the criterion on hand-computed
// fluxes: M's terms one by one (F'_ba credited both ways), the decision against C_r and R, the randomised
// threshold's range and mean, and the adaptive threshold moving up after swaps and down after quiet periods.
#include "catch.h"

#include "Vtorus_swap_criterion.h"
#include "core/rng.h"
#include "ref/torus_swap_criterion_ref.h"
#include "unit/dut.h"

namespace {

using CriterionStraps = ref::TorusSwapCriterion::Straps;
using Events = ref::TorusSwapCriterion::Events;

struct Criterion {
  tb::Dut<Vtorus_swap_criterion> dut;
  ref::TorusSwapCriterion model;

  void Clock(const CriterionStraps& s, const Events& e) {
    dut->period_i = s.period;
    dut->variant_i = s.variant;
    dut->threshold_i = s.threshold;
    dut->cost_i = s.cost;
    dut->extra_hops_i = s.extra_hops;
    dut->back_credit_i = s.back_credit_hops;
    dut->step_i = s.step;
    dut->rare_periods_i = s.rare_periods;
    dut->seed_i = s.seed;
    dut->arrive_self_i = e.arrive_self;
    dut->arrive_next_i = e.arrive_next;
    dut->orig_near_i = e.orig_near;
    dut->orig_far_i = e.orig_far;
    dut->orig_back_i = e.orig_back;
    dut->back_hops_i = e.back_hops;
    dut->swapped_i = e.swapped;
    dut->b_orig_i = e.b_orig;
    dut->b_back_i = e.b_back;
    model.Clock(static_cast<uint16_t>(dut.cycles()), s, e);
    dut.Clock();
  }
  // M as the RTL holds it: 26-bit two's complement.
  int64_t M() const {
    const int64_t raw = static_cast<int64_t>(dut_m());
    return raw >= (int64_t{1} << 25) ? raw - (int64_t{1} << 26) : raw;
  }
  uint32_t dut_m() const { return const_cast<tb::Dut<Vtorus_swap_criterion>&>(dut)->m_o; }
};

// Runs one period with the given event counts spread over its steps (one event a step each).
void Period(Criterion& c, const CriterionStraps& s, int self, int next, int near, int far,
            Events neighbour = {}) {
  for (uint32_t step = 0; step < s.period; ++step) {
    Events e = neighbour;
    e.arrive_self = step < static_cast<uint32_t>(self);
    e.arrive_next = step < static_cast<uint32_t>(next);
    e.orig_near = step < static_cast<uint32_t>(near);
    e.orig_far = step < static_cast<uint32_t>(far);
    c.Clock(s, e);
  }
}

}  // namespace

TEST_CASE("torus_swap_criterion matches its reference model on random events", "[unit][torus]") {
  const uint64_t seed = tb::TestSeed();
  INFO("seed " << seed << " (rerun with --rng-seed " << seed << ")");
  icn::Rng rng(seed);
  int wants = 0, decisions = 0;
  for (int run = 0; run < 6; ++run) {
    Criterion c;
    CriterionStraps s;
    s.period = 20 + rng.Below(200);
    s.variant = static_cast<uint8_t>(run % 3);
    s.threshold = rng.Below(60);
    s.cost = rng.Below(30);
    s.extra_hops = 1 + rng.Below(10);
    s.step = 1 + rng.Below(8);
    s.rare_periods = rng.Below(5);
    s.seed = static_cast<uint16_t>(rng.Below(65536));
    s.back_credit_hops = run % 2 == 0;
    INFO("run " << run << ": variant " << int{s.variant} << ", T " << s.period << ", F'_ba in hops "
                << s.back_credit_hops);
    const uint32_t p_self = rng.Below(100), p_next = rng.Below(100), p_near = rng.Below(40);
    for (int cycle = 0; cycle < 40000; ++cycle) {
      Events e;
      e.arrive_self = rng.Below(100) < p_self;
      e.arrive_next = rng.Below(100) < p_next;
      e.orig_near = rng.Below(100) < p_near;
      e.orig_far = rng.Below(2);
      e.orig_back = rng.Below(3) == 0;
      e.back_hops = rng.Below(3) == 0 ? 255 - rng.Below(3) : rng.Below(9);  // 0 and the widest too
      e.swapped = rng.Below(500) == 0;
      e.b_orig = rng.Below(static_cast<uint32_t>(s.period));
      e.b_back =
          s.back_credit_hops ? rng.Below(1u << 24) : rng.Below(static_cast<uint32_t>(s.period) / 4 + 1);
      c.Clock(s, e);
      INFO("cycle " << cycle);
      REQUIRE(c.dut->self_o == c.model.self());
      REQUIRE(c.dut->next_o == c.model.next());
      REQUIRE(c.dut->near_o == c.model.near());
      REQUIRE(c.dut->far_o == c.model.far());
      REQUIRE(c.dut->back_o == c.model.back());
      REQUIRE(c.M() == c.model.m());
      REQUIRE(c.dut->threshold_o == c.model.threshold());
      REQUIRE(static_cast<bool>(c.dut->want_o) == c.model.want());
      REQUIRE(c.dut->deadline_o == c.model.deadline());
      wants += c.model.want();
      decisions += c.dut->deadline_o == static_cast<uint16_t>(c.dut.cycles());
    }
  }
  CHECK(wants > 20);
  CHECK(decisions > 100);
}

// Node a's period: A_a = 3 absorbed, A_b = 10 passed on to b, F_ab = 2 and O_a = 5 originated;
// b reports O_b = 4 and, in the opposite cycle, F'_ba = 1 packet (l per packet) or 6 hops saved;
// l = 6: M = 10 - 3 + 5 - 4 - 6 * 2 + 6 = 2, wanted with C_r = 1 and R = 0, not with R = 1 or C_r = 2.
TEST_CASE("the swap criterion on hand-computed fluxes", "[unit][torus]") {
  for (const auto& [cost, threshold, want, hops] : {std::tuple{1u, 0u, true, true},
                                                    {1u, 1u, false, true},
                                                    {2u, 0u, false, true},
                                                    {1u, 0u, true, false},
                                                    {1u, 1u, false, false}}) {
    Criterion c;
    CriterionStraps s;
    s.period = 50;
    s.threshold = threshold;
    s.cost = cost;
    s.extra_hops = 6;
    s.back_credit_hops = hops;
    Events b;
    b.b_orig = 4;
    b.b_back = hops ? 6 : 1;
    Period(c, s, 3, 10, 2, 5, b);  // the first period ends on its 50th step: totals latched
    CHECK(c.dut->self_o == 3);
    CHECK(c.dut->next_o == 10);
    CHECK(c.dut->near_o == 2);
    CHECK(c.dut->far_o == 5);
    c.Clock(s, b);  // the decision, on the next step
    INFO("C_r " << cost << ", R " << threshold << ", F'_ba in hops " << hops);
    CHECK(c.M() == 2);
    CHECK(static_cast<bool>(c.dut->want_o) == want);
  }
  // Each term alone, with l = 3: the sign the paper gives it.
  const auto m_of = [](int self, int next, int near, int far, uint32_t b_orig, uint32_t b_back,
                       bool hops = false) {
    Criterion c;
    CriterionStraps s;
    s.period = 40;
    s.extra_hops = 3;
    s.back_credit_hops = hops;
    Events b;
    b.b_orig = b_orig;
    b.b_back = b_back;
    Period(c, s, self, next, near, far, b);
    c.Clock(s, b);
    return c.M();
  };
  CHECK(m_of(7, 0, 0, 0, 0, 0) == -7);       // absorbed at a: one hop more each
  CHECK(m_of(0, 7, 0, 0, 0, 0) == 7);        // for b: one hop less
  CHECK(m_of(0, 0, 0, 7, 0, 0) == 7);        // from a past b: one hop less
  CHECK(m_of(0, 0, 0, 0, 7, 0) == -7);       // from b: one hop more
  CHECK(m_of(0, 0, 7, 0, 0, 0) == -21);      // from a to b: l hops more
  CHECK(m_of(0, 0, 0, 0, 0, 7) == 21);       // from b to a the other way: l hops less (ring credit)
  CHECK(m_of(0, 0, 0, 0, 0, 7, true) == 7);  // ... or the 7 hops b counted as saved
}

// What b's own counter adds for its packets toward a in the opposite cycle: with the hops credit
// d - 1 each (a packet to a neighbour there saves nothing), with the ring credit one each.
TEST_CASE("F'_ba counts the hops a swap saves or one per packet", "[unit][torus]") {
  for (const bool hops : {true, false}) {
    Criterion c;
    CriterionStraps s;
    s.period = 30;
    s.back_credit_hops = hops;
    for (uint32_t step = 0; step < s.period; ++step) {
      Events e;
      e.orig_back = step < 9;
      e.back_hops = step < 3 ? 1 : step < 6 ? 3 : 5;  // three packets each at d = 1, 3 and 5
      c.Clock(s, e);
    }
    INFO("F'_ba in hops " << hops);
    CHECK(c.dut->back_o == (hops ? 3 * 0 + 3 * 2 + 3 * 4 : 9));
    CHECK(c.model.back() == c.dut->back_o);
  }
}

TEST_CASE("the randomised threshold spans 0 to 2R around R", "[unit][torus]") {
  Criterion c;
  CriterionStraps s;
  s.period = 10;
  s.variant = ref::TorusSwapCriterion::kRandomised;
  s.threshold = 100;
  s.seed = 0xace1;
  double sum = 0;
  uint32_t low = 1000, high = 0;
  const int periods = 2000;
  for (int p = 0; p < periods; ++p) {
    Period(c, s, 0, 0, 0, 0);
    const uint32_t r = c.dut->threshold_o;
    sum += r;
    low = std::min(low, r);
    high = std::max(high, r);
  }
  CHECK(high < 200);
  CHECK(low < 10);
  CHECK(high > 190);
  CHECK(sum / periods == Approx(100).epsilon(0.05));
}

TEST_CASE("the adaptive threshold rises after swaps and falls after quiet periods", "[unit][torus]") {
  Criterion c;
  CriterionStraps s;
  s.period = 20;
  s.variant = ref::TorusSwapCriterion::kAdaptive;
  s.threshold = 40;
  s.step = 5;
  s.rare_periods = 3;
  Period(c, s, 0, 0, 0, 0);
  Period(c, s, 0, 0, 0, 0);
  CHECK(c.dut->threshold_o == 40);  // the first decision uses the start value
  // A swap in each of four periods (on its second step): +5 at each period's decision.
  Events swapped;
  swapped.swapped = true;
  for (int p = 0; p < 4; ++p) {
    c.Clock(s, {});
    c.Clock(s, swapped);
    for (uint32_t i = 2; i < s.period; ++i) c.Clock(s, {});
  }
  c.Clock(s, {});                           // the fourth period's decision
  CHECK(c.dut->threshold_o == 40 + 3 * 5);  // the decision uses R before its own update
  Period(c, s, 0, 0, 0, 0);
  CHECK(c.dut->threshold_o == 40 + 4 * 5);
  // Quiet: -5 every third period, down to 0 and no further.
  for (int p = 0; p < 6; ++p) Period(c, s, 0, 0, 0, 0);
  CHECK(c.dut->threshold_o == 40 + 4 * 5 - 2 * 5);
  for (int p = 0; p < 60; ++p) Period(c, s, 0, 0, 0, 0);
  CHECK(c.dut->threshold_o == 0);
}
