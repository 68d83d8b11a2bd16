// SPDX-License-Identifier: Apache-2.0
// eee_pdt_timer in lock-step with its reference model, and its edge cases.
#include "catch.h"

#include "Veee_pdt_timer.h"
#include "core/rng.h"
#include "ref/eee_pdt_timer_ref.h"
#include "unit/dut.h"

namespace {

struct Timer {
  tb::Dut<Veee_pdt_timer> rtl;
  ref::PdtTimer model;
  Timer() { model.Reset(); }
  void Clock(uint32_t pdt, bool arm, bool cancel, bool consume) {
    rtl->pdt_cycles_i = pdt;
    rtl->arm_i = arm;
    rtl->cancel_i = cancel;
    rtl->consume_i = consume;
    rtl.Clock();
    model.Clock(pdt, arm, cancel, consume);
  }
  bool Same() {
    return rtl->armed_o == model.armed() && rtl->expired_o == model.expired() &&
           rtl->count_o == model.count();
  }
};

}  // namespace

TEST_CASE("eee_pdt_timer matches its reference model on random events", "[unit]") {
  const uint64_t seed = tb::TestSeed();
  INFO("seed " << seed);
  icn::Rng rng(seed + 11);
  Timer t;
  for (int cycle = 0; cycle < 100000; ++cycle) {
    const uint32_t pdt = rng.Below(8) == 0 ? 0xffffffffu : rng.Below(40);
    t.Clock(pdt, rng.Below(10) == 0, rng.Below(15) == 0, rng.Below(4) == 0);
    INFO("cycle " << cycle);
    REQUIRE(t.Same());
  }
}

TEST_CASE("eee_pdt_timer expires after exactly t_PDT cycles and cancel wins over arm", "[unit]") {
  Timer t;
  t.Clock(5, true, false, false);
  int cycles = 0;
  while (!t.rtl->expired_o) {
    t.Clock(5, false, false, false);
    ++cycles;
  }
  CHECK(cycles == 5);
  t.Clock(5, false, false, false);
  CHECK(t.rtl->expired_o);  // stays expired until consumed
  t.Clock(5, false, false, true);
  CHECK_FALSE(t.rtl->armed_o);
  t.Clock(5, true, true, false);
  CHECK_FALSE(t.rtl->armed_o);
  t.Clock(0, true, false, false);
  CHECK(t.rtl->expired_o);  // t_PDT = 0: expired right after arming
  t.Clock(0xffffffffu, true, false, false);
  for (int i = 0; i < 1000; ++i) t.Clock(0xffffffffu, false, false, false);
  CHECK(t.rtl->armed_o);
  CHECK_FALSE(t.rtl->expired_o);
  CHECK(t.Same());
}
