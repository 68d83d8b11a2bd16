// SPDX-License-Identifier: Apache-2.0
// eee_pb_port (eee_port + idle-period histogram + t_PDT search + correction) against the composed
// reference model: linked pairs under seeded random traffic for every histogram strategy and
// policy, and directed checks that the policy really moves t_PDT the way the paper says.
#include "catch.h"

#include <set>
#include <type_traits>

#include "Veee_pb_port_s0.h"
#include "Veee_pb_port_s0_info.h"
#include "Veee_pb_port_s1.h"
#include "Veee_pb_port_s1_info.h"
#include "Veee_pb_port_s2.h"
#include "Veee_pb_port_s2_info.h"
#include "core/rng.h"
#include "mech/eee/eee_config.h"
#include "ref/eee_pb_port_ref.h"
#include "unit/eee_pair.h"

// The reference model configured as the verilated port is (its top's parameters as the build
// verilated it: rtl/eee/pb_geometry.svh and the Strategy of rtl/models.txt).
template <typename Model>
ref::EeePbPortConfig ConfigOf() {
  using Params = typename icn::ModelInfo<Model>::Params;
  ref::EeePbPortConfig c;
  c.hist = {static_cast<int>(Params::SubBinBits),
            static_cast<int>(Params::IdleWidth),
            static_cast<int>(Params::CounterWidth),
            static_cast<int>(Params::Strategy),
            Params::MaxN,
            Params::TtlCycles,
            Params::MaxValCycles};
  REQUIRE(c.hist.Bins() == static_cast<int>(Params::NumBins));
  c.search = {static_cast<int>(Params::SubBinBits), static_cast<int>(Params::NumBins),
              static_cast<int>(Params::MaxHops), 0};
  c.hist_len = static_cast<int>(Params::HistLen);
  c.cf_max_q8 = Params::CfMaxQ8;
  return c;
}

// Found by argument-dependent lookup from tb::EeePair.
template <typename Model>
void Strap(Model& m, const ref::EeePbPortIn& in) {
  m.policy_i = in.policy;
  for (int w = 0; w < 4; ++w) m.hop_share_i[w] = in.shares[2 * w] | in.shares[2 * w + 1] << 16;
  m.bound_i = in.bound;
  m.inv_tw_i = in.inv_tw;
}

// The time base and the search pulse of every cycle, as the harness drives them.
template <typename Model>
void Tick(Model& m, ref::EeePbPortIn& in, uint64_t cycle) {
  in.now = static_cast<uint32_t>(cycle);
  in.search = in.period > 0 && cycle % in.period == in.period - 1;
  m.now_i = in.now;
  m.search_i = in.search;
}

template <typename Model>
std::string ExtraMismatch(Model& m, const ref::EeePbPort& r, const ref::EeePbPortIn& in) {
  if (m.pdt_applied_o != r.Applied(in)) {
    return "t_PDT applied " + std::to_string(m.pdt_applied_o) + " != model " + std::to_string(r.Applied(in));
  }
  if (m.pdt_search_o != r.Perfbound(in)) return "PerfBound t_PDT differs from the model";
  if (m.cf_o != r.factor()) return "cf " + std::to_string(m.cf_o) + " != model " + std::to_string(r.factor());
  // (read after the edge: the time base is then the next cycle's, see tb::Dut)
  if (m.idle_o != r.idle() || m.idle_count_o != r.idle_count(in.now + 1))
    return "idle-period measurement differs";
  return "";
}

namespace {

// The policy's straps as the harness sets them (1 / t_w from the port's wake time).
ref::EeePbPortIn Straps(int policy, uint32_t bound, uint32_t wake_cycles, uint32_t period) {
  ref::EeePbPortIn in;
  in.policy = policy;
  in.shares = {0, 0, 0x8000, 0x4000, 0x4000, 0, 0, 0};  // half 3 hops, a quarter 4 and 5
  in.bound = bound;
  in.inv_tw = icn::InverseQ32(wake_cycles);
  in.period = period;
  return in;
}

// Random bursts and silences on both ends of a linked pair; returns t_PDT values seen at end 0.
template <typename Model>
std::set<uint32_t> RandomPair(int policy, uint64_t seed) {
  icn::Rng rng(seed);
  tb::PortConfig cfg;
  cfg.latency = static_cast<uint8_t>(1 + rng.Below(3));
  cfg.sleep_cycles = 5 + rng.Below(30);
  cfg.wake_cycles = 10 + rng.Below(60);
  cfg.pdt_cycles = 50 + rng.Below(400);
  cfg.deep = rng.Below(2);
  cfg.eager_wake = policy == 1;  // PerfBound with eager wake; fixed and PerfBoundCorrect answered
  const uint32_t bound = 655 * (1 + rng.Below(5));  // 1 .. 5 %
  tb::EeePair<Model, ref::EeePbPort> pair(cfg, ref::EeePbPort(ConfigOf<Model>()),
                                          Straps(policy, bound, cfg.wake_cycles, 300 + rng.Below(3000)));
  INFO("L=" << int(cfg.latency) << " t_s=" << cfg.sleep_cycles << " t_w=" << cfg.wake_cycles
            << " pdt=" << cfg.pdt_cycles << " bound=" << bound << " eager wake " << cfg.eager_wake);
  std::set<uint32_t> pdts;
  double rate = 0.01;
  for (int cycle = 0; cycle < 60000; ++cycle) {
    if (cycle % 700 == 0) rate = rng.Below(3) == 0 ? 0.05 : rng.Below(2) ? 0.002 : 0.0002;
    for (int e = 0; e < 2; ++e) {
      if (rng.Uniform() < rate) pair.Enqueue(e, 1 + rng.Below(8));
      pair.end(e).hold = rng.Below(16) == 0;
    }
    const std::string problem = pair.Step();
    INFO("cycle " << cycle);
    REQUIRE(problem == "");
    pdts.insert(pair.end(0).rtl->pdt_applied_o);
  }
  return pdts;
}

template <typename Model>
void LockStep() {
  const uint64_t seed = tb::TestSeed();
  INFO("seed " << seed << " (rerun with --rng-seed " << seed << ")");
  for (int policy = 0; policy <= 2; ++policy) {
    INFO("policy " << policy);
    const std::set<uint32_t> pdts = RandomPair<Model>(policy, seed * 7 + policy);
    // Fixed keeps one t_PDT; the adaptive policies really adapted it.
    if (policy == 0)
      CHECK(pdts.size() == 1);
    else
      CHECK(pdts.size() >= 3);
  }
}

}  // namespace

TEST_CASE("eee_pb_port (self-clearing histogram) matches the composed reference model", "[unit]") {
  LockStep<Veee_pb_port_s0>();
}

TEST_CASE("eee_pb_port (sliding-window histogram) matches the composed reference model", "[unit]") {
  LockStep<Veee_pb_port_s1>();
}

TEST_CASE("eee_pb_port (unbounded histogram) matches the composed reference model", "[unit]") {
  LockStep<Veee_pb_port_s2>();
}

TEST_CASE("PerfBound picks the threshold that sleeps only in the longest idle periods", "[unit][directed]") {
  // End 0 sends one single-flit packet after each idle period: 40 short ones (300 cycles, bin
  // [256, 320)) and then 4 long ones (5000 cycles, bin [4096, 5120)), three times. The first
  // search starts on cycle 97000, after them, over the unbounded histogram's span since reset.
  // l = 0.05 x (0.5/3 + 0.25/4 + 0.25/5) = 0.01396 and N = l x 97000 / t_w: with t_w = 20 cycles
  // N = 67.7, the 12 long periods fit and the 120 short ones do not, so t_PDT is the centre of
  // the bin above the short ones; with t_w = 200, N = 6.8 and not even the long ones fit: t_PDT
  // is the centre of the bin above them, longer than every idle period.
  using Params = icn::ModelInfo<Veee_pb_port_s2>::Params;
  const ref::PbBins bins{static_cast<int>(Params::SubBinBits)};
  const auto centre_above = [&](uint32_t idle) { return bins.Centre(bins.Of(idle) + 1); };
  for (const bool tight : {false, true}) {
    INFO("tight " << tight);
    tb::PortConfig cfg;
    cfg.latency = 1;
    cfg.sleep_cycles = 10;
    cfg.wake_cycles = tight ? 200 : 20;
    cfg.pdt_cycles = 1000000;  // the initial t_PDT: no power-down before the first search
    tb::EeePair<Veee_pb_port_s2, ref::EeePbPort> pair(cfg, ref::EeePbPort(ConfigOf<Veee_pb_port_s2>()),
                                                      Straps(1, 3277, cfg.wake_cycles, 97000));
    for (int round = 0; round < 3; ++round) {
      for (int i = 0; i < 44; ++i) {
        for (int c = 0; c < (i < 40 ? 300 : 5000); ++c) REQUIRE(pair.Step() == "");
        pair.Enqueue(0, 1);
      }
    }
    CHECK(pair.end(0).rtl->pdt_applied_o == 1000000);
    for (int c = 0; c < 3000; ++c) REQUIRE(pair.Step() == "");
    CHECK(pair.end(0).rtl->pdt_applied_o == centre_above(tight ? 5000 : 300));
  }
}

TEST_CASE("PerfBound's budget covers the span since the histogram's last clear, not the period X",
          "[unit][directed]") {
  // End 0 first ends 250 idle periods of 100 cycles: the self-clearing histogram fills and clears
  // on cycle ~25,250. Then 40 idle periods of 300 cycles and 4 of 5000; the search starts on
  // cycle 59,999 (X = 60,000), when the counts cover ~34,750 cycles. With l = 0.01396, N = l x
  // 34,750 / t_w: t_w = 100 gives 4.85 (the 4 long periods fit, t_PDT just above the short ones)
  // and t_w = 150 gives 3.2 (none fits, t_PDT above the long ones). Over X instead of the span,
  // t_w = 150 would give N = 5.6 and the first answer.
  using Params = icn::ModelInfo<Veee_pb_port_s0>::Params;
  const ref::PbBins bins{static_cast<int>(Params::SubBinBits)};
  const auto centre_above = [&](uint32_t idle) { return bins.Centre(bins.Of(idle) + 1); };
  for (const uint32_t t_w : {100u, 150u}) {
    INFO("t_w " << t_w);
    tb::PortConfig cfg;
    cfg.latency = 1;
    cfg.sleep_cycles = 10;
    cfg.wake_cycles = t_w;
    cfg.pdt_cycles = 1000000;  // the initial t_PDT: no power-down before the search
    tb::EeePair<Veee_pb_port_s0, ref::EeePbPort> pair(cfg, ref::EeePbPort(ConfigOf<Veee_pb_port_s0>()),
                                                      Straps(1, 3277, t_w, 60000));
    for (int i = 0; i < 250 + 44; ++i) {
      const int idle = i < 250 ? 100 : i < 290 ? 300 : 5000;
      for (int c = 0; c < idle; ++c) REQUIRE(pair.Step() == "");
      pair.Enqueue(0, 1);
    }
    for (int c = 0; c < 10000 && pair.end(0).rtl->pdt_applied_o == 1000000; ++c) REQUIRE(pair.Step() == "");
    CHECK(pair.end(0).rtl->pdt_applied_o == centre_above(t_w == 100 ? 300 : 5000));
  }
}

TEST_CASE("PerfBoundCorrect lengthens t_PDT after misses and never shortens it", "[unit][directed]") {
  tb::PortConfig cfg;
  cfg.latency = 1;
  cfg.sleep_cycles = 10;
  cfg.wake_cycles = 20;
  cfg.pdt_cycles = 100;
  // PerfBound has not run (period 10^6), so its t_PDT is 100. Idle periods of about 380 cycles
  // are all misses with ratio ~3.8: cf = misses/16 x 3.8 stays <= 1 for four misses, then grows.
  tb::EeePair<Veee_pb_port_s0, ref::EeePbPort> pair(cfg, ref::EeePbPort(ConfigOf<Veee_pb_port_s0>()),
                                                    Straps(2, 655, cfg.wake_cycles, 1000000));
  for (int miss = 1; miss <= 16; ++miss) {
    for (int c = 0; c < 400; ++c) REQUIRE(pair.Step() == "");
    REQUIRE(pair.end(0).rtl->power_o != 0);  // asleep: the next packet is a miss
    pair.Enqueue(0, 1);
    REQUIRE(pair.Step() == "");
    const uint32_t cf = pair.end(0).rtl->cf_o;
    INFO("miss " << miss << " cf " << cf / 256.0);
    if (miss <= 4) CHECK(cf == 256);
    if (miss >= 5) CHECK(cf > 256);
    CHECK(pair.end(0).rtl->pdt_applied_o == 100 * cf / 256);
  }
}
