// SPDX-License-Identifier: Apache-2.0
// pb_correct (n_R = 16, cf capped at 16) in lock-step with its reference model, the error bound of
// its fixed-point geometric mean, and the correction rules as directed tests.
#include "catch.h"

#include <cmath>

#include "Vpb_correct.h"
#include "core/rng.h"
#include "ref/pb_correct_ref.h"
#include "unit/dut.h"

namespace {

void Outcome(tb::Dut<Vpb_correct>& dut, ref::PbCorrect* model, bool hit, uint32_t t_inac, uint32_t t_pdt) {
  dut->outcome_valid_i = 1;
  dut->hit_i = hit;
  dut->t_inac_i = t_inac;
  dut->t_pdt_i = t_pdt;
  dut.Clock();
  dut->outcome_valid_i = 0;
  if (model) model->Clock(true, hit, t_inac, t_pdt);
}

uint32_t Factor(tb::Dut<Vpb_correct>& dut) {
  dut.Clock();  // outputs settle on the idle cycle
  return dut->cf_o;
}

}  // namespace

TEST_CASE("pb_correct matches its reference model on random outcomes", "[unit]") {
  const uint64_t seed = tb::TestSeed();
  INFO("seed " << seed);
  icn::Rng rng(seed + 53);
  tb::Dut<Vpb_correct> dut;
  ref::PbCorrect model(16, 4096);
  double hit_rate = 0.5;
  for (int cycle = 0; cycle < 100000; ++cycle) {
    if (cycle % 1000 == 0) hit_rate = rng.Uniform();
    const bool valid = rng.Below(3) == 0;
    const bool hit = rng.Uniform() < hit_rate;
    const uint32_t t_pdt = 1 + rng.Below(rng.Below(2) ? 1000 : 1u << 30);
    const uint32_t t_inac = t_pdt + rng.Below(rng.Below(4) ? t_pdt * 3 + 1 : 0x7fffffff);
    const uint32_t pb = rng.Below(20) == 0 ? 0xffffffffu : rng.Below(1u << (1 + rng.Below(31)));
    dut->outcome_valid_i = valid;
    dut->hit_i = hit;
    dut->t_inac_i = t_inac;
    dut->t_pdt_i = t_pdt;
    dut->pdt_perfbound_i = pb;
    dut.Clock();
    model.Clock(valid, hit, t_inac, t_pdt);
    INFO("cycle " << cycle);
    REQUIRE(dut->misses_o == model.misses());
    REQUIRE(dut->history_o == model.history());
    REQUIRE(dut->log_sum_o == model.sum());
    INFO("sum " << model.sum() << " misses " << model.misses());
    REQUIRE(dut->cf_o == model.Factor());
    REQUIRE(dut->pdt_cycles_o == model.Corrected(pb));
  }
}

// The fixed-point cf (log2 and 2^x by 64-entry tables, 8 fraction bits) is within 5 % of the
// exact miss share x geometric mean, whenever it is not capped.
TEST_CASE("the fixed-point correction factor is within 5 percent of the exact one", "[unit]") {
  icn::Rng rng(11);
  int compared = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    ref::PbCorrect model(16, 0xffff);
    std::deque<double> ratios;
    const int outcomes = 1 + static_cast<int>(rng.Below(40));
    for (int i = 0; i < outcomes; ++i) {
      const bool hit = rng.Below(3) == 0;
      const uint32_t t_pdt = 10 + rng.Below(100000);
      const uint32_t t_inac = t_pdt + 1 + rng.Below(t_pdt * (1 + rng.Below(8)));
      model.Clock(true, hit, t_inac, t_pdt);
      if (!hit) ratios.push_back(static_cast<double>(t_inac) / t_pdt);
    }
    // Keep the ratios of the misses still inside the 16-outcome history.
    while (ratios.size() > model.misses()) ratios.pop_front();
    const double exact = model.ExactCf(ratios);
    if (exact * 256 < 256 || exact * 256 > 0xfff0) continue;  // max(1, cf) and the cap hide the error
    const double fixed = model.Factor() / 256.0;
    INFO("trial " << trial << ": exact " << exact << ", fixed " << fixed);
    REQUIRE(std::abs(fixed - exact) <= 0.05 * exact);
    ++compared;
  }
  CHECK(compared > 5000);
}

TEST_CASE("pb_correct applies miss share times geometric mean, at least 1, at most the cap",
          "[unit][directed]") {
  tb::Dut<Vpb_correct> dut;
  dut->pdt_perfbound_i = 1000;
  // All hits: no correction.
  for (int i = 0; i < 16; ++i) Outcome(dut, nullptr, true, 0, 0);
  CHECK(Factor(dut) == 256);
  CHECK(dut->pdt_cycles_o == 1000);
  // Half of the last 16 missed by a factor 4: cf = 0.5 x 4 = 2.
  for (int i = 0; i < 8; ++i) Outcome(dut, nullptr, false, 4000, 1000);
  CHECK(Factor(dut) == 512);
  CHECK(dut->pdt_cycles_o == 2000);
  // All 16 missed by 4: cf = 4.
  for (int i = 0; i < 8; ++i) Outcome(dut, nullptr, false, 4000, 1000);
  CHECK(Factor(dut) == 1024);
  // Huge misses: capped at 16.
  for (int i = 0; i < 16; ++i) Outcome(dut, nullptr, false, 1u << 30, 10);
  CHECK(Factor(dut) == 4096);
  CHECK(dut->pdt_cycles_o == 16000);
  // The misses leave the history as hits come in, and their ratios leave the FIFO with them.
  for (int i = 0; i < 16; ++i) Outcome(dut, nullptr, true, 0, 0);
  CHECK(dut->misses_o == 0);
  CHECK(dut->log_sum_o == 0);
  CHECK(Factor(dut) == 256);
  // "Never" stays never.
  dut->pdt_perfbound_i = 0xffffffffu;
  for (int i = 0; i < 16; ++i) Outcome(dut, nullptr, false, 4000, 1000);
  CHECK(dut->pdt_cycles_o == 0xffffffffu);
}
