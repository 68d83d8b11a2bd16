// SPDX-License-Identifier: Apache-2.0
// The example link-end controller (examples/sleepy_link/) against its reference model: two ends of
// a link under seeded random traffic, every output compared every cycle, and the contract's
// promises checked beside: no flit reaches an end that is not awake, every flit arrives, and a copy
// of each end clocked as the harness clocks it (skipped at a fixed point until its deadline) keeps
// the registers of the end clocked every cycle.
#include <array>
#include <cstring>
#include <deque>
#include <memory>
#include <tuple>
#include <vector>

#include "catch.h"

#include "Vsleepy_link.h"
#include "core/rng.h"
#include "mech/clocking.h"
#include "sleepy_link_ref.h"
#include "unit/dut.h"
#include "unit/skipping.h"

namespace {

struct End {
  tb::Dut<Vsleepy_link> rtl;
  sleepy_link::Reference ref;
  std::deque<int> packets;  // flits left of each packet queued at this end
  bool tx_en = true;        // as the last edge left it
  uint8_t power = 0;
  tb::Skipping<Vsleepy_link> skipping;
  End(uint8_t latency, uint32_t idle, uint32_t wake)
      : ref(latency, idle, wake), skipping([=](Vsleepy_link& m) {
          m.latency_i = latency;
          m.idle_cycles_i = idle;
          m.wake_cycles_i = wake;
        }) {
    rtl->latency_i = latency;
    rtl->idle_cycles_i = idle;
    rtl->wake_cycles_i = wake;
  }
};

}  // namespace

TEST_CASE("sleepy_link pair matches its reference model, loses nothing and never receives asleep", "[unit]") {
  const uint64_t seed = tb::TestSeed();
  INFO("seed " << seed << " (rerun with --rng-seed " << seed << ")");
  icn::Rng rng(seed);
  uint64_t sleeps = 0, wake_requests = 0, skipped = 0;
  for (int config = 0; config < 6; ++config) {
    const auto latency = static_cast<uint8_t>(1 + rng.Below(5));
    const uint32_t idle = static_cast<uint32_t>(rng.Below(40));
    const uint32_t wake = static_cast<uint32_t>(rng.Below(20));
    INFO("L=" << int(latency) << " N=" << idle << " wake=" << wake);
    std::array<End, 2> ends = {End(latency, idle, wake), End(latency, idle, wake)};
    const size_t ring = latency + 1u;
    std::vector<std::array<uint8_t, 2>> messages(ring, {0, 0});    // [cycle mod ring][end]
    std::vector<std::array<bool, 2>> flits(ring, {false, false});  // arriving at [end]
    uint64_t sent = 0, received = 0;
    double rate = 0.02;
    for (uint32_t now = 0; now < 20000; ++now) {
      if (now % 1000 == 0) rate = now >= 18000 ? 0.0 : rng.Below(3) == 0 ? 0.2 : 0.005;
      const size_t slot = now % ring;
      const std::array<bool, 2> arriving = flits[slot];
      flits[slot] = {false, false};
      const std::array<uint8_t, 2> read = messages[(now + 1) % ring];  // written L cycles ago
      for (int i = 0; i < 2; ++i) {
        End& e = ends[i];
        if (rng.Uniform() < rate) e.packets.push_back(1 + static_cast<int>(rng.Below(4)));
        bool tx_busy = false;
        if (e.tx_en && !e.packets.empty()) {  // one flit of the first packet
          tx_busy = true;
          ++sent;
          flits[(now + latency) % ring][1 - i] = true;  // arrives in L cycles
          if (--e.packets.front() == 0) e.packets.pop_front();
        }
        if (arriving[i]) {
          ++received;
          INFO("end " << i << " cycle " << now);
          REQUIRE(e.power == 0);  // a flit reaches an end only while it is awake
        }
        sleepy_link::Inputs in;
        in.now = now;
        in.tx_queue = static_cast<uint16_t>(e.packets.size());
        in.tx_busy = tx_busy;
        in.rx_busy = arriving[i];
        in.ctl_rx = read[i == 0 ? 1 : 0];
        e.rtl->tx_queue_i = in.tx_queue;
        e.rtl->tx_busy_i = in.tx_busy;
        e.rtl->rx_busy_i = in.rx_busy;
        e.rtl->ctl_rx_i = in.ctl_rx;
        e.rtl.Clock();
        e.ref.Edge(in);
        e.skipping.Cycle(now, {in.tx_queue, in.tx_busy, in.rx_busy, in.ctl_rx}, [&](Vsleepy_link& m) {
          std::tie(m.tx_queue_i, m.tx_busy_i, m.rx_busy_i, m.ctl_rx_i) =
              std::make_tuple(in.tx_queue, in.tx_busy, in.rx_busy, in.ctl_rx);
        });
        REQUIRE(e.skipping.SameRegisters(*e.rtl));  // the deadline names every cycle it acts on
        INFO("end " << i << " cycle " << now);
        REQUIRE(int(e.rtl->ctl_tx_o) == int(e.ref.ctl_tx()));
        REQUIRE(bool(e.rtl->tx_en_o) == e.ref.tx_en());
        REQUIRE(int(e.rtl->power_o) == int(e.ref.power()));
        REQUIRE(bool(e.rtl->deadline_valid_o) == e.ref.deadline_valid());
        REQUIRE(e.rtl->deadline_o == e.ref.deadline());
        sleeps += e.power == 0 && e.rtl->power_o == 2;
        wake_requests += e.rtl->ctl_tx_o == sleepy_link::kWake;
        e.tx_en = e.rtl->tx_en_o;
        e.power = e.rtl->power_o;
        messages[slot][i] = e.rtl->ctl_tx_o;
      }
    }
    REQUIRE(ends[0].packets.empty());  // the quiet end of the run drains every queue
    REQUIRE(ends[1].packets.empty());
    REQUIRE(sent == received);
    skipped += ends[0].skipping.skipped() + ends[1].skipping.skipped();
  }
  CHECK(sleeps > 20);  // the run exercised what it checks
  CHECK(wake_requests > 5);
  CHECK(skipped > 100000);  // most quiet cycles are skipped
}
