// SPDX-License-Identifier: Apache-2.0
// util_meter (the fat-tree controller's windowed utilisation meter) in lock-step with its
// reference model on random windows, and the hand-off of its totals from window to window.
#include "catch.h"

#include "Vutil_meter.h"
#include "core/rng.h"
#include "ref/util_meter_ref.h"
#include "unit/dut.h"

namespace {

void Drive(tb::Dut<Vutil_meter>& dut, ref::UtilMeter& model, bool busy, bool usable, bool window_end) {
  dut->busy_i = busy;
  dut->usable_i = usable;
  dut->window_end_i = window_end;
  dut.Clock();
  model.Clock(busy, usable, window_end);
}

}  // namespace

TEST_CASE("util_meter matches its reference model on random windows", "[unit]") {
  const uint64_t seed = tb::TestSeed();
  INFO("seed " << seed << " (rerun with --rng-seed " << seed << ")");
  icn::Rng rng(seed);
  tb::Dut<Vutil_meter> dut;
  ref::UtilMeter model;
  uint32_t window = 1 + rng.Below(3000);
  uint32_t in_window = 0;
  int windows = 0;
  for (int cycle = 0; cycle < 100000; ++cycle) {
    const bool usable = rng.Below(4) != 0;
    const bool busy = usable && rng.Below(2);
    const bool end = ++in_window == window;
    if (end) {
      window = 1 + rng.Below(3000);
      in_window = 0;
      ++windows;
    }
    Drive(dut, model, busy, usable, end);
    INFO("cycle " << cycle);
    REQUIRE(dut->busy_o == model.busy());
    REQUIRE(dut->usable_o == model.usable());
  }
  CHECK(windows > 50);
  CHECK(model.usable() > 0);
}

TEST_CASE("util_meter holds a window's totals until the next window ends", "[unit][directed]") {
  tb::Dut<Vutil_meter> dut;
  ref::UtilMeter model;
  // Window 1: 10 cycles, usable on the first 8, busy on 3 of them.
  for (int c = 0; c < 10; ++c) Drive(dut, model, c < 3, c < 8, c == 9);
  CHECK(dut->busy_o == 3);
  CHECK(dut->usable_o == 8);
  // Window 2: 20 cycles, all usable and busy; the totals of window 1 stay until it ends.
  for (int c = 0; c < 19; ++c) {
    Drive(dut, model, true, true, false);
    REQUIRE(dut->busy_o == 3);
    REQUIRE(dut->usable_o == 8);
  }
  Drive(dut, model, true, true, true);
  CHECK(dut->busy_o == 20);
  CHECK(dut->usable_o == 20);
}
