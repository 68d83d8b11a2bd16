// SPDX-License-Identifier: Apache-2.0
// The example node controller (examples/paced_node/) against its reference model under seeded
// random traffic, every output compared every cycle, and the contract's promises checked beside:
// flits leave at least gap + 1 cycles apart, every packet offered is sent, and a copy clocked as the
// harness clocks it (skipped at a fixed point until its deadline) keeps the registers of the one
// clocked every cycle.
#include <deque>
#include <vector>

#include "catch.h"

#include "Vpaced_node.h"
#include "core/rng.h"
#include "paced_node_ref.h"
#include "unit/dut.h"
#include "unit/skipping.h"

TEST_CASE("paced_node matches its reference model and paces every flit", "[unit]") {
  const uint64_t seed = tb::TestSeed();
  INFO("seed " << seed << " (rerun with --rng-seed " << seed << ")");
  icn::Rng rng(seed);
  uint64_t flits = 0, held = 0, skipped = 0;
  for (int config = 0; config < 6; ++config) {
    const auto gap = static_cast<uint16_t>(rng.Below(12));
    INFO("gap " << gap);
    const auto straps = [=](Vpaced_node& m) { m.gap_cycles_i = gap; };
    tb::Dut<Vpaced_node> rtl;
    straps(*rtl);
    paced_node::Reference ref(gap);
    tb::Skipping<Vpaced_node> skipping(straps);
    std::deque<int> packets;
    uint64_t last_sent = 0;
    bool sent_before = false;
    double rate = 0.02;
    for (uint32_t now = 0; now < 20000; ++now) {
      if (now % 1000 == 0) rate = now >= 16000 ? 0.0 : rng.Below(3) == 0 ? 0.05 : 0.005;
      if (rng.Uniform() < rate) packets.push_back(1 + static_cast<int>(rng.Below(4)));
      const bool sent = rtl->tx_en_o && !packets.empty();
      held += !rtl->tx_en_o && !packets.empty();
      if (sent) {
        INFO("cycle " << now);
        REQUIRE((!sent_before || now - last_sent >= gap + 1u));  // at most one flit every gap + 1 cycles
        last_sent = now;
        sent_before = true;
        ++flits;
        if (--packets.front() == 0) packets.pop_front();
      }
      const auto queue = static_cast<uint16_t>(packets.size() + sent);
      const bool received = rng.Uniform() < rate;
      const auto set = [&](Vpaced_node& m) {
        m.tx_queue_i = queue;
        m.tx_busy_i = sent;
        m.rx_busy_i = received;
      };
      set(*rtl);
      rtl.Clock();
      ref.Edge(now, sent);
      skipping.Cycle(now, {queue, sent, received}, set);
      REQUIRE(skipping.SameRegisters(*rtl));  // the deadline names every cycle it acts on
      INFO("cycle " << now);
      REQUIRE(bool(rtl->tx_en_o) == ref.tx_en());
      REQUIRE(int(rtl->power_o) == 0);
      REQUIRE(bool(rtl->deadline_valid_o) == ref.deadline_valid());
      if (ref.deadline_valid()) REQUIRE(rtl->deadline_o == ref.deadline());
    }
    REQUIRE(packets.empty());  // the quiet end sends every packet
    skipped += skipping.skipped();
  }
  CHECK(flits > 1000);  // the run exercised what it checks
  CHECK(held > 1000);
  CHECK(skipped > 50000);
}
