// SPDX-License-Identifier: Apache-2.0
// erapid_laser_seq in lock-step with its reference model, and the paper's rules one by one: a
// level moves one step at a time, up with the supply first and down with the rate first, a rate
// change silences the link for exactly the relock time, and a laser told off drains before it
// goes dark.
#include "catch.h"

#include "Verapid_laser_seq.h"
#include "core/rng.h"
#include "ref/erapid_laser_seq_ref.h"
#include "unit/dut.h"

namespace {

using State = ref::ErapidLaserSeq::State;

struct Laser {
  tb::Dut<Verapid_laser_seq> dut;
  ref::ErapidLaserSeq model;
  uint32_t vdd = 20, relock = 65;

  void Clock(bool on, uint8_t level, bool drained) {
    dut->on_i = on;
    dut->level_i = level;
    dut->drained_i = drained;
    dut->vdd_cycles_i = vdd;
    dut->relock_cycles_i = relock;
    dut.Clock();
    model.Clock(on, level, drained, vdd, relock);
  }
  State state() { return static_cast<State>(dut->state_o); }
  // Out of reset a laser is dark: light it at full power and wait for its receiver to lock.
  void Light() {
    while (state() != State::kOn) Clock(true, 5, true);
  }
};

}  // namespace

TEST_CASE("erapid_laser_seq matches its reference model on random commands", "[unit][erapid]") {
  const uint64_t seed = tb::TestSeed();
  INFO("seed " << seed << " (rerun with --rng-seed " << seed << ")");
  icn::Rng rng(seed);
  Laser laser;
  bool on = true;
  uint8_t level = 5;
  for (int cycle = 0; cycle < 200000; ++cycle) {
    if (rng.Below(40) == 0) on = !on;
    if (rng.Below(30) == 0) level = static_cast<uint8_t>(rng.Below(6));
    if (rng.Below(500) == 0) {
      laser.vdd = 1 + rng.Below(30);
      laser.relock = 1 + rng.Below(80);
    }
    laser.Clock(on, level, rng.Below(4) == 0);
    INFO("cycle " << cycle);
    REQUIRE(laser.dut->state_o == laser.model.state());
    REQUIRE(laser.dut->rate_level_o == laser.model.rate_level());
    REQUIRE(laser.dut->power_level_o == laser.model.power_level());
    REQUIRE(static_cast<bool>(laser.dut->powered_o) == laser.model.powered());
    REQUIRE(static_cast<bool>(laser.dut->routable_o) == laser.model.routable());
    REQUIRE(static_cast<bool>(laser.dut->tx_enable_o) == laser.model.tx_enable());
  }
}

TEST_CASE("erapid_laser_seq walks a level down and up one step at a time, in the paper's order",
          "[unit][erapid]") {
  Laser laser;
  laser.Light();
  int silent = 0;  // cycles with tx disabled while lit
  std::vector<int> rates = {5};
  std::vector<int> powers = {5};
  // Down to level 0: each step lowers the rate (relock, nothing sent), then the supply.
  for (int i = 0; i < 5 * (65 + 20) + 5; ++i) {
    laser.Clock(true, 0, false);
    silent += !laser.dut->tx_enable_o;
    if (laser.dut->rate_level_o != rates.back()) rates.push_back(laser.dut->rate_level_o);
    if (laser.dut->power_level_o != powers.back()) powers.push_back(laser.dut->power_level_o);
    CHECK(laser.dut->rate_level_o <= laser.dut->power_level_o);  // never the rate above the supply
    CHECK(laser.dut->routable_o);
  }
  CHECK(rates == std::vector<int>{5, 4, 3, 2, 1, 0});
  CHECK(powers == std::vector<int>{5, 4, 3, 2, 1, 0});
  CHECK(silent == 5 * 65);
  CHECK(laser.state() == State::kOn);
  // Up to level 2: the supply rises first (still sending), then the rate, then the relock.
  laser.Clock(true, 2, false);
  CHECK(laser.state() == State::kVddUp);
  CHECK(laser.dut->power_level_o == 1);
  CHECK(laser.dut->rate_level_o == 0);
  CHECK(laser.dut->tx_enable_o);
  for (int i = 0; i < 20; ++i) laser.Clock(true, 2, false);
  CHECK(laser.state() == State::kRelock);
  CHECK(laser.dut->rate_level_o == 1);
  int relock = 0;
  while (laser.state() == State::kRelock) {
    CHECK_FALSE(laser.dut->tx_enable_o);
    ++relock;
    laser.Clock(true, 2, false);
  }
  CHECK(relock == 65);                 // the paper's receiver relock after a bit-rate change
  CHECK(laser.state() == State::kOn);  // one cycle at level 1, where the next command is taken
  laser.Clock(true, 2, false);
  CHECK(laser.state() == State::kVddUp);  // the second step toward level 2
}

TEST_CASE("erapid_laser_seq drains before going dark, and locks before carrying flits", "[unit][erapid]") {
  Laser laser;
  CHECK(laser.state() == State::kOff);  // dark out of reset
  laser.Light();
  laser.Clock(false, 5, false);
  CHECK(laser.state() == State::kDrain);
  for (int i = 0; i < 100; ++i) {
    laser.Clock(false, 5, false);
    CHECK(laser.dut->powered_o);
    CHECK(laser.dut->tx_enable_o);  // what is on it still leaves
    CHECK_FALSE(laser.dut->routable_o);
  }
  laser.Clock(false, 5, true);
  CHECK(laser.state() == State::kOff);
  CHECK_FALSE(laser.dut->powered_o);
  laser.Clock(true, 3, false);  // lit again, at the commanded level, after the receiver locks
  CHECK(laser.state() == State::kLock);
  CHECK(laser.dut->rate_level_o == 3);
  int lock = 0;
  while (laser.state() == State::kLock) {
    CHECK_FALSE(laser.dut->tx_enable_o);
    CHECK_FALSE(laser.dut->routable_o);
    ++lock;
    laser.Clock(true, 3, false);
  }
  CHECK(lock == 65);
  CHECK(laser.state() == State::kOn);
}
