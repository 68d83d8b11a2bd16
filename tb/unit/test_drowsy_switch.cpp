// SPDX-License-Identifier: Apache-2.0
// The example switch controller (examples/drowsy_switch/) against its reference model: a switch of
// 8 ports, some without a link, under seeded random traffic, every output compared every cycle, and
// the contract's promises checked beside: a port may send only while awake, every packet queued is
// sent, and a copy clocked as the harness clocks it (skipped at a fixed point until its deadline)
// keeps the registers of the one clocked every cycle.
#include <deque>
#include <vector>

#include "catch.h"

#include "Vdrowsy_switch.h"
#include "core/rng.h"
#include "drowsy_switch_ref.h"
#include "mech/signal_bits.h"
#include "unit/dut.h"
#include "unit/skipping.h"

namespace {

constexpr int kPorts = 8;

void SetInputs(Vdrowsy_switch& m, const std::vector<drowsy_switch::PortInputs>& in) {
  for (int p = 0; p < kPorts; ++p) {
    icn::SetBits(m.tx_queue_i, 16 * p, 16, in[p].tx_queue);
    icn::SetBits(m.tx_busy_i, p, 1, in[p].tx_busy);
    icn::SetBits(m.rx_busy_i, p, 1, in[p].rx_busy);
  }
}

}  // namespace

TEST_CASE("drowsy_switch matches its reference model and sends only while awake", "[unit]") {
  const uint64_t seed = tb::TestSeed();
  INFO("seed " << seed << " (rerun with --rng-seed " << seed << ")");
  icn::Rng rng(seed);
  uint64_t sleeps = 0, wakeups = 0, skipped = 0;
  for (int config = 0; config < 6; ++config) {
    const uint64_t linked = 1 | rng.Below(256);  // (port 0 always has a link)
    const uint32_t idle = static_cast<uint32_t>(rng.Below(40));
    const uint32_t wake = static_cast<uint32_t>(rng.Below(20));
    INFO("ports " << linked << " N=" << idle << " wake=" << wake);
    const auto straps = [=](Vdrowsy_switch& m) {
      m.ports_i = static_cast<uint8_t>(linked);
      m.idle_cycles_i = idle;
      m.wake_cycles_i = wake;
    };
    tb::Dut<Vdrowsy_switch> rtl;
    straps(*rtl);
    drowsy_switch::Reference ref(kPorts, linked, idle, wake);
    tb::Skipping<Vdrowsy_switch> skipping(straps);
    std::vector<std::deque<int>> packets(kPorts);  // flits left of each packet queued for a port
    double rate = 0.02;
    for (uint32_t now = 0; now < 20000; ++now) {
      if (now % 1000 == 0) rate = now >= 18000 ? 0.0 : rng.Below(3) == 0 ? 0.2 : 0.005;
      std::vector<drowsy_switch::PortInputs> in(kPorts);
      std::vector<uint64_t> key;
      for (int p = 0; p < kPorts; ++p) {
        if (!((linked >> p) & 1)) continue;
        if (rng.Uniform() < rate) packets[p].push_back(1 + static_cast<int>(rng.Below(4)));
        if (bool(rtl->tx_en_o >> p & 1) && !packets[p].empty()) {  // one flit of the first packet
          INFO("port " << p << " cycle " << now);
          REQUIRE(icn::Bits(rtl->power_o, 2 * p, 2) == 0);  // a flit leaves only an awake port
          in[p].tx_busy = true;
          if (--packets[p].front() == 0) packets[p].pop_front();
        }
        in[p].tx_queue = static_cast<uint16_t>(packets[p].size() + in[p].tx_busy);
        in[p].rx_busy = rng.Uniform() < rate;
        key.insert(key.end(), {in[p].tx_queue, in[p].tx_busy, in[p].rx_busy});
      }
      std::vector<uint8_t> power_before(kPorts);
      for (int p = 0; p < kPorts; ++p)
        power_before[p] = static_cast<uint8_t>(icn::Bits(rtl->power_o, 2 * p, 2));
      SetInputs(*rtl, in);
      rtl.Clock();
      ref.Edge(now, in);
      skipping.Cycle(now, key, [&](Vdrowsy_switch& m) { SetInputs(m, in); });
      REQUIRE(skipping.SameRegisters(*rtl));  // the deadline names every cycle it acts on
      INFO("cycle " << now);
      for (int p = 0; p < kPorts; ++p) {
        const auto power = static_cast<uint8_t>(icn::Bits(rtl->power_o, 2 * p, 2));
        REQUIRE(bool(rtl->tx_en_o >> p & 1) == ref.tx_en(p));
        REQUIRE(int(power) == int(ref.power(p)));
        sleeps += power_before[p] == 0 && power == 2;
        wakeups += power_before[p] == 2 && power != 2;
      }
      REQUIRE(bool(rtl->deadline_valid_o) == ref.deadline_valid());
      REQUIRE(rtl->deadline_o == ref.deadline());
    }
    for (int p = 0; p < kPorts; ++p) REQUIRE(packets[p].empty());  // the quiet end drains every queue
    skipped += skipping.skipped();
  }
  CHECK(sleeps > 20);  // the run exercised what it checks
  CHECK(wakeups > 20);
  CHECK(skipped > 50000);  // most quiet cycles are skipped
}
