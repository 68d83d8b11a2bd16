// SPDX-License-Identifier: Apache-2.0
// The register-activity counter (mech/register_activity.h) on directed stimulus of a fixture whose
// toggles are counted by hand: a binary counter and a 70-bit register on its regs_o port (a VlWide),
// a memory on its memory0_o port, and the controllers' energy it turns into (core/energy_ledger.h).

#include "catch.h"

#include "Vtoggle_fixture.h"
#include "Vtoggle_fixture_info.h"
#include "core/controller_cost.h"
#include "core/energy_ledger.h"
#include "dut.h"
#include "mech/register_activity.h"

namespace {

using Fixture = tb::Dut<Vtoggle_fixture>;

// Counting from the fixture's registers as they are now.
icn::RegisterActivity Count(Fixture& dut) {
  icn::RegisterActivity activity;
  activity.Start(*dut);
  return activity;
}

void Idle(Fixture& dut) {
  dut->count_i = dut->load_i = dut->write_i = 0;
  dut->pattern_i = dut->addr_i = dut->data_i = 0;
}

}  // namespace

TEST_CASE("regs_o and memory0_o hold every register bit of the fixture") {
  STATIC_REQUIRE(icn::ModelInfo<Vtoggle_fixture>::kRegisterBits == 8 + 70 + 4 * 6);
}

TEST_CASE("Nothing toggles while no register is written, however many edges") {
  Fixture dut;
  Idle(dut);
  icn::RegisterActivity activity = Count(dut);
  for (int i = 0; i < 100; ++i) dut.Clock();
  CHECK(activity.Toggles(*dut) == 0);
}

TEST_CASE("An n-bit binary counter toggles 2^(n+1) - 2 bits in 2^n increments (bit i 2^(n-i) times)") {
  Fixture dut;
  Idle(dut);
  icn::RegisterActivity activity = Count(dut);
  dut->count_i = 1;
  uint64_t total = 0;
  for (unsigned k = 0; k < 255; ++k) {
    dut.Clock();
    const uint64_t toggled = activity.Toggles(*dut);
    CHECK(toggled ==
          static_cast<uint64_t>(__builtin_ctz(~k)) + 1);  // k -> k + 1 flips the trailing ones and one 0
    total += toggled;
  }
  dut.Clock();  // 255 -> 0: all eight bits
  const uint64_t wrap = activity.Toggles(*dut);
  CHECK(wrap == 8);
  CHECK(total + wrap == 510);
}

TEST_CASE("A 70-bit register toggles the bits its new value differs in, across 32-bit words") {
  Fixture dut;
  Idle(dut);
  icn::RegisterActivity activity = Count(dut);
  dut->load_i = 1;
  dut->pattern_i = 0x3ff;  // all 70 bits rise
  dut.Clock();
  CHECK(activity.Toggles(*dut) == 70);
  dut->pattern_i = 0x155;  // 0101010101 x 7: the 35 bits of each 10-bit 0 position fall
  dut.Clock();
  CHECK(activity.Toggles(*dut) == 35);
  dut.Clock();  // the same value again
  CHECK(activity.Toggles(*dut) == 0);
}

TEST_CASE("A memory word toggles the bits the write changes, whatever it held") {
  Fixture dut;
  Idle(dut);
  icn::RegisterActivity activity = Count(dut);
  for (unsigned addr = 0; addr < 4; ++addr) {
    dut->addr_i = addr;
    (*dut).eval();
    const unsigned before = dut->word_o;  // (random out of reset: memories are not reset)
    const unsigned data = 0x2a ^ addr;
    dut->write_i = 1;
    dut->data_i = data;
    dut.Clock();
    CHECK(activity.Toggles(*dut) == static_cast<uint64_t>(__builtin_popcount(before ^ data)));
    dut->write_i = 0;
  }
}

TEST_CASE("Controller energy: zero without a toggle, each toggle a flip-flop and its share of the logic") {
  const icn::ProcessParams process{6e-15, 1e-15, 22.5};
  icn::EnergyLedger ledger(1.0, process);
  const icn::ControllerCost& cost = icn::CostOf("Veee_port");
  icn::EnergyLedger::Controllers& ports = ledger.AddControllers("Veee_port", 75, 4);
  CHECK(ledger.ControllersJ() == 0.0);  // a controller that never toggles costs nothing
  ports.toggles = 1000;
  CHECK(ledger.ControllersJ() == Approx(1000 * (6e-15 + cost.ge_logic / 75 * 1e-15)).epsilon(1e-12));
  CHECK_THROWS_AS(ledger.AddControllers("Vno_such_model", 1, 1), std::out_of_range);
}
