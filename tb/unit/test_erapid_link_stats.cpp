// SPDX-License-Identifier: Apache-2.0
// erapid_link_stats in lock-step with its reference model over random windows, and the paper's
// Link_util and Buffer_util read from its totals for a known pattern.
#include "catch.h"

#include "Verapid_link_stats.h"
#include "core/rng.h"
#include "ref/erapid_link_stats_ref.h"
#include "unit/dut.h"

namespace {

struct Stats {
  tb::Dut<Verapid_link_stats> dut;
  ref::ErapidLinkStats model;
  void Clock(bool sent, uint32_t queue, bool sample) {
    dut->sent_i = sent;
    dut->queue_i = queue;
    dut->sample_i = sample;
    dut.Clock();
    model.Clock(sent, queue, sample);
  }
};

}  // namespace

TEST_CASE("erapid_link_stats matches its reference model over random windows", "[unit][erapid]") {
  const uint64_t seed = tb::TestSeed();
  INFO("seed " << seed << " (rerun with --rng-seed " << seed << ")");
  icn::Rng rng(seed);
  Stats stats;
  int samples = 0;
  for (int cycle = 0; cycle < 300000; ++cycle) {
    const bool busy_phase = (cycle / 700) % 3 != 0;  // idle stretches too
    const bool sample = rng.Below(1500) == 0;
    samples += sample;
    stats.Clock(busy_phase && rng.Below(4) != 0, busy_phase ? rng.Below(64) : 0, sample);
    INFO("cycle " << cycle);
    REQUIRE(stats.dut->window_o == stats.model.window());
    REQUIRE(stats.dut->busy_o == stats.model.busy());
    REQUIRE(stats.dut->occupancy_o == stats.model.occupancy());
  }
  CHECK(samples > 100);
}

TEST_CASE("erapid_link_stats gives the paper's Link_util and Buffer_util of a window", "[unit][erapid]") {
  // A window of 1000 cycles: the laser sends in 250 of them, its 16-flit queue holds 4 flits in
  // 500 of them: Link_util 0.25, Buffer_util 4 x 500 / (16 x 1000) = 0.125.
  Stats stats;
  stats.Clock(false, 0, true);  // the window starts after this sample
  for (int i = 0; i < 1000; ++i) stats.Clock(i % 4 == 0, i < 500 ? 4 : 0, i == 999);
  CHECK(stats.dut->window_o == 1000);
  CHECK(stats.dut->busy_o == 250);
  CHECK(stats.dut->occupancy_o == 2000);
  CHECK(static_cast<double>(stats.dut->busy_o) / stats.dut->window_o == Approx(0.25));
  CHECK(static_cast<double>(stats.dut->occupancy_o) / (16.0 * stats.dut->window_o) == Approx(0.125));
  // Held until the next sample, whatever happens meanwhile.
  for (int i = 0; i < 300; ++i) stats.Clock(true, 9, false);
  CHECK(stats.dut->busy_o == 250);
}
