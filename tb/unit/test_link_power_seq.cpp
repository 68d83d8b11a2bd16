// SPDX-License-Identifier: Apache-2.0
// link_power_seq in lock-step with its reference model, and its transition timing.
#include "catch.h"

#include "Vlink_power_seq.h"
#include "core/rng.h"
#include "ref/link_power_seq_ref.h"
#include "unit/dut.h"

namespace {

void Drive(tb::Dut<Vlink_power_seq>& dut, ref::LinkPowerSeq& model, bool off, bool on, uint32_t off_cycles,
           uint32_t on_cycles) {
  dut->go_off_i = off;
  dut->go_on_i = on;
  dut->off_cycles_i = off_cycles;
  dut->on_cycles_i = on_cycles;
  dut.Clock();
  model.Clock(off, on, off_cycles, on_cycles);
}

}  // namespace

TEST_CASE("link_power_seq matches its reference model on random commands", "[unit]") {
  const uint64_t seed = tb::TestSeed();
  INFO("seed " << seed << " (rerun with --rng-seed " << seed << ")");
  icn::Rng rng(seed);
  tb::Dut<Vlink_power_seq> dut;
  ref::LinkPowerSeq model;
  model.Reset();
  for (int cycle = 0; cycle < 100000; ++cycle) {
    const uint32_t off_cycles = rng.Below(4) == 0 ? 0 : rng.Below(20);
    const uint32_t on_cycles = rng.Below(4) == 0 ? 0 : rng.Below(20);
    Drive(dut, model, rng.Below(3) == 0, rng.Below(3) == 0, off_cycles, on_cycles);
    INFO("cycle " << cycle);
    REQUIRE(dut->state_o == model.state());
    REQUIRE(dut->count_o == model.count());
    REQUIRE(static_cast<bool>(dut->on_o) == model.on());
    REQUIRE(static_cast<bool>(dut->stable_o) == model.stable());
  }
}

TEST_CASE("link_power_seq transitions last exactly their cycle counts", "[unit]") {
  tb::Dut<Vlink_power_seq> dut;
  ref::LinkPowerSeq model;
  model.Reset();
  Drive(dut, model, true, false, 7, 5);
  int to_off = 0;
  while (dut->state_o == ref::LinkPowerSeq::kToOff) {
    ++to_off;
    Drive(dut, model, false, false, 7, 5);
  }
  CHECK(to_off == 7);
  CHECK(dut->state_o == ref::LinkPowerSeq::kOff);
  // A request to power down again while off is ignored.
  Drive(dut, model, true, false, 7, 5);
  CHECK(dut->state_o == ref::LinkPowerSeq::kOff);
  Drive(dut, model, false, true, 7, 5);
  int to_on = 0;
  while (dut->state_o == ref::LinkPowerSeq::kToOn) {
    ++to_on;
    // Commands during a transition do not cut it short.
    Drive(dut, model, true, false, 7, 5);
  }
  CHECK(to_on == 5);
  CHECK(dut->on_o);
}

TEST_CASE("link_power_seq zero-length transitions switch at once", "[unit]") {
  tb::Dut<Vlink_power_seq> dut;
  dut->go_off_i = 1;
  dut->off_cycles_i = 0;
  dut.Clock();
  CHECK(dut->state_o == ref::LinkPowerSeq::kOff);
  dut->go_off_i = 0;
  dut->go_on_i = 1;
  dut->on_cycles_i = 0;
  dut.Clock();
  CHECK(dut->state_o == ref::LinkPowerSeq::kOn);
}
