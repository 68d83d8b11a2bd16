// SPDX-License-Identifier: Apache-2.0
// pb_search (16 logarithmic bins, two to an octave: lengths 0..255; 16-bit counts, hop counts 1..8)
// in lock-step with its reference model, the paper's worked example of l, the error bound of the
// fixed-point N = l x span / t_w, and the search rules (lowest bin still <= N, never when nothing
// fits, recompute only after activity and with something in the histogram); and the geometry the
// network simulates (124 bins, four to an octave) in lock-step too.
#include "catch.h"

#include <cmath>

#include "Vpb_search.h"
#include "Vpb_search_log4.h"
#include "core/rng.h"
#include "mech/eee/eee_config.h"
#include "ref/pb_search_ref.h"
#include "unit/dut.h"

namespace {

ref::PbSearchConfig Config(int sub_bin_bits, int bins) {
  ref::PbSearchConfig c;
  c.sub_bin_bits = sub_bin_bits;
  c.bins = bins;
  c.max_hops = 8;
  c.init_pdt = 1000;
  return c;
}

template <typename Model>
void Drive(tb::Dut<Model>& dut, ref::PbSearch* model, const ref::PbSearch::In& in) {
  for (int h = 0; h < 8; ++h) {
    dut->hop_share_i[h / 2] =
        (dut->hop_share_i[h / 2] & ~(0xffffu << (16 * (h % 2)))) | (in.shares[h] << (16 * (h % 2)));
  }
  dut->read_count_i = in.counts[dut->read_bin_o];  // the histogram's read port
  dut->bound_i = in.bound;
  dut->inv_tw_i = in.inv_tw;
  dut->span_i = in.span;
  dut->empty_i = in.empty;
  dut->active_i = in.active;
  dut->start_i = in.start;
  dut.Clock();
  if (model) model->Clock(in);
}

ref::PbSearch::In Example(uint32_t t_w, uint32_t span, int bins = 16) {
  ref::PbSearch::In in;
  in.shares.assign(8, 0);
  in.shares[4 - 1] = static_cast<uint32_t>(std::lround(0.7 * 65536));  // 70 % of packets travel 4 hops
  in.shares[6 - 1] = static_cast<uint32_t>(std::lround(0.3 * 65536));  // 30 % travel 6 hops
  in.bound = static_cast<uint32_t>(std::lround(0.01 * 65536));         // a 1 % bound
  in.inv_tw = icn::InverseQ32(t_w);
  in.span = span;
  in.counts.assign(bins, 0);
  return in;
}

// Runs one computation to its done pulse and returns t_PDT.
template <typename Model>
uint32_t Compute(tb::Dut<Model>& dut, ref::PbSearch::In in) {
  in.active = true;
  in.start = false;
  Drive(dut, nullptr, in);  // the port was active
  in.active = false;
  in.start = true;
  Drive(dut, nullptr, in);
  in.start = false;
  for (int i = 0; i < 100 && !dut->done_o; ++i) Drive(dut, nullptr, in);
  REQUIRE(dut->done_o);
  return dut->pdt_cycles_o;
}

template <typename Model>
void LockStep(int sub_bin_bits, int bins) {
  const uint64_t seed = tb::TestSeed();
  INFO("seed " << seed << ", " << bins << " bins");
  icn::Rng rng(seed + 41 + bins);
  tb::Dut<Model> dut;
  ref::PbSearch model(Config(sub_bin_bits, bins));
  ref::PbSearch::In in = Example(100, 100000, bins);
  for (int cycle = 0; cycle < 100000; ++cycle) {
    if (cycle % 97 == 0) {
      // Shares that add up to at most 1.0, a bound of 0.1 % .. 10 %, t_w up to 1000 cycles.
      uint32_t left = 65535;
      for (auto& p : in.shares) {
        p = rng.Below(left + 1) / 2;
        left -= p;
      }
      in.bound = 65 + rng.Below(6500);
      in.inv_tw = icn::InverseQ32(rng.Below(1000));
    }
    if (rng.Below(50) == 0)
      in.span = rng.Below(4) == 0 ? static_cast<uint32_t>(rng.Next()) : rng.Below(1000000);
    for (auto& c : in.counts) {
      if (rng.Below(20) == 0) c = rng.Below(4) == 0 ? rng.Below(65536) : rng.Below(50);
    }
    in.empty = rng.Below(8) == 0;
    in.active = rng.Below(10) == 0;
    in.start = !dut->busy_o && rng.Below(30) == 0;
    Drive(dut, &model, in);
    const ref::PbSearch::Out want = model.Outputs();
    INFO("cycle " << cycle);
    REQUIRE(static_cast<bool>(dut->busy_o) == want.busy);
    REQUIRE(static_cast<bool>(dut->done_o) == want.done);
    REQUIRE(static_cast<bool>(dut->recomputed_o) == want.recomputed);
    REQUIRE(dut->pdt_cycles_o == want.pdt);
    REQUIRE(dut->limit_o == want.limit);
  }
}

}  // namespace

TEST_CASE("pb_search matches its reference model on random histograms and shares", "[unit]") {
  LockStep<Vpb_search>(1, 16);
  LockStep<Vpb_search_log4>(2, 124);
}

TEST_CASE("pb_search reproduces the paper's worked example of l", "[unit][directed]") {
  // 70 % of packets 4 hops away, 30 % 6 hops, 1 % bound: l = 0.01 (0.7/4 + 0.3/6) = 0.00225.
  // With t_w = 1 cycle, N = l x span.
  tb::Dut<Vpb_search> dut;
  const uint32_t span = 1u << 20;
  Compute(dut, Example(1, span));
  const double l = static_cast<double>(dut->limit_o) / std::ldexp(1.0, 32) / span;
  CHECK(l == Approx(0.00225).epsilon(1e-3));
}

// Fixed-point error of N = l x span / t_w: 1/h rounded to 16 fraction bits (at most 1e-4
// relative), 1/t_w rounded to 32 (t_w 2^-33 relative), and l and l / t_w truncated to 32 fraction
// bits (2^-32 each, times span).
TEST_CASE("the fixed-point N stays within its stated error bound", "[unit]") {
  icn::Rng rng(7);
  for (int trial = 0; trial < 20000; ++trial) {
    std::vector<uint32_t> shares(8);
    uint32_t left = 65535;
    for (auto& p : shares) {
      p = rng.Below(left + 1);
      left -= p;
    }
    const uint32_t bound = 1 + rng.Below(65535);
    const uint32_t t_w = 1 + rng.Below(1u << 12);
    const uint32_t span = rng.Below(1u << 31);
    double exact = 0;
    for (int h = 1; h <= 8; ++h) exact += shares[h - 1] / 65536.0 / h;
    exact *= bound / 65536.0 * span / t_w;
    const double fixed =
        static_cast<double>(ref::PbSearch::Limit(shares, bound, icn::InverseQ32(t_w), span)) /
        std::ldexp(1.0, 32);
    INFO("trial " << trial);
    REQUIRE(std::abs(fixed - exact) <=
            (1e-4 + t_w * std::ldexp(1.0, -33)) * exact + 2 * std::ldexp(1.0, -32) * span);
  }
}

TEST_CASE("pb_search picks the lowest bin whose accumulated count is still within N", "[unit][directed]") {
  tb::Dut<Vpb_search> dut;
  // N = 0.00225 x 402000 / 100 = 9.05 packets may be delayed (9.04 in fixed point: 1 % is
  // 655/65536).
  ref::PbSearch::In in = Example(100, 402000);
  in.counts[15] = 2;  // idle periods of 192..255 cycles
  in.counts[12] = 3;  // 64..95
  in.counts[9] = 4;   // 24..31   -> accumulated from the top: 2, 5, 9 (<= N), still 9 in bins 8..6
  in.counts[5] = 1;   // 6..7     -> 10 > N
  // The lowest bin still within N is bin 6, [8, 12): only the 9 idle periods longer than its
  // centre (10 cycles) power the port down.
  CHECK(Compute(dut, in) == 10);
  // Over a span half as long, N = 4.5: the lowest bin that fits is 13, [96, 128), centre 112.
  in.span = 201000;
  CHECK(Compute(dut, in) == 112);
  // Nothing fits when the highest bin alone holds more than N: never power down.
  in.span = 402000;
  in.counts[15] = 50;
  CHECK(Compute(dut, in) == 0xffffffffu);
  // An empty histogram: every bin fits, the lowest is bin 0, the length 0.
  in.counts.assign(16, 0);
  CHECK(Compute(dut, in) == 0);
}

namespace {

// One start that reports the previous t_PDT again at once, without a scan.
void RequireNoScan(tb::Dut<Vpb_search>& dut, ref::PbSearch::In in, uint32_t previous) {
  in.start = true;
  Drive(dut, nullptr, in);
  CHECK(dut->done_o);
  CHECK_FALSE(dut->recomputed_o);
  CHECK(dut->pdt_cycles_o == previous);
  in.start = false;
  Drive(dut, nullptr, in);
}

}  // namespace

TEST_CASE("pb_search recomputes only if the port was active since the last computation", "[unit][directed]") {
  tb::Dut<Vpb_search> dut;
  ref::PbSearch::In in = Example(100, 402000);
  in.counts[9] = 4;
  const uint32_t first = Compute(dut, in);
  in.counts[9] = 0;
  in.counts[15] = 50;
  RequireNoScan(dut, in, first);  // no activity
  // After activity it scans again and sees the new histogram.
  CHECK(Compute(dut, in) == 0xffffffffu);
  CHECK(dut->recomputed_o);
}

TEST_CASE("pb_search keeps its t_PDT while the histogram holds no idle period", "[unit][directed]") {
  tb::Dut<Vpb_search> dut;
  ref::PbSearch::In in = Example(100, 402000);
  in.counts[9] = 4;
  const uint32_t first = Compute(dut, in);
  // Just cleared, after activity: all counts 0 would make every bin fit (t_PDT 0), but an empty
  // histogram has nothing to teach.
  in.counts.assign(16, 0);
  in.empty = true;
  in.active = true;
  Drive(dut, nullptr, in);
  in.active = false;
  RequireNoScan(dut, in, first);
  // The activity is still owed a scan: once the histogram holds something, a start scans.
  in.empty = false;
  in.counts[15] = 50;
  in.start = true;
  Drive(dut, nullptr, in);
  in.start = false;
  for (int i = 0; i < 100 && !dut->done_o; ++i) Drive(dut, nullptr, in);
  CHECK(dut->recomputed_o);
  CHECK(dut->pdt_cycles_o == 0xffffffffu);
}
