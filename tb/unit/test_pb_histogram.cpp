// SPDX-License-Identifier: Apache-2.0
// pb_histogram, one configuration per strategy (logarithmic bins, two to an octave of a 32-bit
// length: 64 bins; 8-bit counters, h_maxN 20, TTL 300 cycles, h_maxval 3000), in lock-step with
// its reference model on random idle periods, the bins' geometry, and each way of keeping the
// histogram bounded as a directed test, with the span its counts cover.
#include "catch.h"

#include <numeric>

#include "Vpb_histogram_log4.h"
#include "Vpb_histogram_s0.h"
#include "Vpb_histogram_s1.h"
#include "Vpb_histogram_s2.h"
#include "core/rng.h"
#include "ref/pb_histogram_ref.h"
#include "unit/dut.h"

namespace {

constexpr int kBins = 64;

ref::PbHistogramConfig Config(int strategy) {
  ref::PbHistogramConfig c;
  c.sub_bin_bits = 1;
  c.value_bits = 32;
  c.counter_bits = 8;
  c.strategy = strategy;
  c.max_n = 20;
  c.ttl_cycles = 300;
  c.max_val = 3000;
  return c;
}

// Every bin's count, through the read port the search uses.
template <typename Model>
std::vector<uint32_t> Counts(Model& m, int bins = kBins) {
  std::vector<uint32_t> counts(bins);
  for (int b = 0; b < bins; ++b) {
    m.read_bin_i = static_cast<uint8_t>(b);
    m.eval();
    counts[b] = m.read_count_o;
  }
  return counts;
}

// One cycle (the bench gives the time base: the cycle).
template <typename Model>
void Sample(tb::Dut<Model>& dut, ref::PbHistogram* model, bool valid, uint32_t value, bool hold = false) {
  const auto now = static_cast<uint32_t>(dut.cycles());
  dut->sample_valid_i = valid;
  dut->sample_i = value;
  dut->hold_i = hold;
  dut.Clock();
  if (model) model->Clock(valid, value, now, hold);
}

template <typename Model>
void LockStep(int strategy) {
  const uint64_t seed = tb::TestSeed();
  INFO("strategy " << strategy << ", seed " << seed);
  icn::Rng rng(seed + 31 * strategy);
  tb::Dut<Model> dut;
  ref::PbHistogram model(Config(strategy));
  for (int cycle = 0; cycle < 100000; ++cycle) {
    // Bursts of short idle periods, long silences, and values past h_maxval.
    const bool valid = rng.Below(cycle % 5000 < 2500 ? 3 : 40) == 0;
    const uint32_t value = rng.Below(10) == 0 ? rng.Below(1u << 20) << rng.Below(12) : rng.Below(200);
    const bool hold = cycle % 700 < 130;  // a search reading the counts
    Sample(dut, &model, valid, value, hold);
    INFO("cycle " << cycle);
    REQUIRE(Counts(*dut) == model.counts());
    REQUIRE(dut->values_o == model.values());
    REQUIRE(dut->since_o == model.since());
  }
}

}  // namespace

TEST_CASE("pb_histogram matches its reference model for every strategy", "[unit]") {
  LockStep<Vpb_histogram_s0>(0);
  LockStep<Vpb_histogram_s1>(1);
  LockStep<Vpb_histogram_s2>(2);
}

TEST_CASE("logarithmic bins: one per short length and two to an octave above", "[unit][directed]") {
  const ref::PbBins bins{1};
  // Lengths 0..3 have a bin each; then [4, 6) [6, 8) [8, 12) [12, 16) ...
  const std::vector<std::pair<uint64_t, int>> cases = {{0, 0},  {1, 1},   {3, 3},   {4, 4},    {5, 4},
                                                       {6, 5},  {7, 5},   {8, 6},   {11, 6},   {12, 7},
                                                       {16, 8}, {47, 10}, {48, 11}, {3000, 22}};
  for (const auto& [length, bin] : cases) {
    INFO("length " << length);
    CHECK(bins.Of(length) == bin);
    CHECK(bins.Lower(bin) <= length);
    CHECK(length < bins.Lower(bin) + bins.Width(bin));
  }
  // The last bin of a 32-bit length holds 0xffffffff; its centre is the longest reachable t_PDT.
  CHECK(bins.Of(0xffffffffu) == kBins - 1);
  CHECK(bins.Centre(kBins - 1) == 3ull * (1u << 30) + (1u << 29));
  CHECK(ref::PbBins{2}.Of(0xffffffffu) == 123);
  // Consecutive bins tile the lengths.
  for (int b = 0; b + 1 < kBins; ++b) CHECK(bins.Lower(b) + bins.Width(b) == bins.Lower(b + 1));
}

TEST_CASE("pb_histogram bins clamp at h_maxval", "[unit][directed]") {
  tb::Dut<Vpb_histogram_s2> dut;
  Sample(dut, nullptr, true, 0);         // bin 0
  Sample(dut, nullptr, true, 5);         // bin 4: [4, 6)
  Sample(dut, nullptr, true, 8);         // bin 6: [8, 12)
  Sample(dut, nullptr, true, 2999);      // bin 22: [2048, 3072)
  Sample(dut, nullptr, true, 1u << 30);  // clamped to 3000 -> bin 22
  const auto counts = Counts(*dut);
  CHECK(counts[0] == 1);
  CHECK(counts[4] == 1);
  CHECK(counts[6] == 1);
  CHECK(counts[22] == 2);
  CHECK(std::accumulate(counts.begin(), counts.end(), 0u) == 5);
  CHECK(dut->since_o == 0);  // unbounded: the counts cover the run since reset
}

TEST_CASE("a self-clearing histogram clears after h_maxN values", "[unit][directed]") {
  tb::Dut<Vpb_histogram_s0> dut;
  for (int i = 0; i < 20; ++i) Sample(dut, nullptr, true, 10);
  CHECK(Counts(*dut)[6] == 20);
  CHECK(dut->cleared_o);  // the 20th value fills it: cleared on the next edge
  Sample(dut, nullptr, true, 30);
  CHECK(Counts(*dut)[6] == 0);
  CHECK(Counts(*dut)[9] == 1);  // the value that arrived with the clear is kept
  CHECK(dut->values_o == 1);
  CHECK(dut->since_o == 20);  // cleared on cycle 20: the counts cover what ended since
}

TEST_CASE("a self-clearing histogram clears TTL_hist cycles after the last clear", "[unit][directed]") {
  tb::Dut<Vpb_histogram_s0> dut;
  Sample(dut, nullptr, true, 40);
  int cycles = 1;
  while (!dut->cleared_o && cycles < 1000) {
    Sample(dut, nullptr, false, 0);
    ++cycles;
  }
  CHECK(cycles == 300);
  Sample(dut, nullptr, false, 0);
  CHECK(Counts(*dut)[10] == 0);
  CHECK(dut->since_o == 300);
}

TEST_CASE("a sliding window counts exactly its last h_maxN values", "[unit][directed]") {
  tb::Dut<Vpb_histogram_s1> dut;
  for (int i = 0; i < 20; ++i) Sample(dut, nullptr, true, 10);  // 20 x bin 6, cycles 0..19
  CHECK(dut->since_o == 0);
  for (int i = 0; i < 5; ++i) Sample(dut, nullptr, true, 50);  // evict five of them
  auto counts = Counts(*dut);
  CHECK(counts[6] == 15);
  CHECK(counts[11] == 5);
  CHECK(dut->values_o == 20);
  CHECK(dut->since_o == 4);  // the last value evicted was recorded on cycle 4
  for (int i = 0; i < 20; ++i) Sample(dut, nullptr, true, 50);
  counts = Counts(*dut);
  CHECK(counts[6] == 0);
  CHECK(counts[11] == 20);
  CHECK(dut->since_o == 24);
}

TEST_CASE("an unbounded histogram saturates instead of wrapping", "[unit][directed]") {
  tb::Dut<Vpb_histogram_s2> dut;
  for (int i = 0; i < 300; ++i) Sample(dut, nullptr, true, 3);
  CHECK(Counts(*dut)[3] == 255);
  for (int i = 0; i < 5000; ++i) Sample(dut, nullptr, false, 0);
  CHECK(Counts(*dut)[3] == 255);  // never cleared
}

TEST_CASE("a self-clearing histogram holds its clear while the search reads it", "[unit][directed]") {
  tb::Dut<Vpb_histogram_s0> dut;
  for (int i = 0; i < 20; ++i) Sample(dut, nullptr, true, 10);
  CHECK(dut->cleared_o);
  for (int i = 0; i < 5; ++i) Sample(dut, nullptr, true, 10, true);  // held: counted, no clear
  CHECK(Counts(*dut)[6] == 25);
  CHECK(dut->values_o == 20);  // (saturated)
  CHECK(dut->since_o == 0);
  Sample(dut, nullptr, false, 0);  // released: cleared on this edge
  CHECK(Counts(*dut)[6] == 0);
  CHECK(dut->values_o == 0);
  CHECK(dut->since_o == 25);
}

// The geometry the network simulates (rtl/eee/pb_geometry.svh: 4 bins to an octave of a 32-bit
// length, 124 bins, no clamp), as a sliding window: every octave's lower and upper edge lands in
// the model's bin, and random lengths over all 32 bits in lock-step.
TEST_CASE("pb_histogram with the simulated geometry bins every 32-bit length as its model", "[unit]") {
  ref::PbHistogramConfig c;
  c.strategy = 1;
  REQUIRE(c.Bins() == 124);
  const auto counts = [](Vpb_histogram_log4& m) { return Counts(m, 124); };
  tb::Dut<Vpb_histogram_log4> dut;
  ref::PbHistogram model(c);
  const auto sample = [&](uint32_t value) { Sample(dut, &model, true, value); };
  for (int k = 0; k < 32; ++k) {
    const uint32_t low = 1u << k, high = low | (low - 1);
    sample(low);
    sample(high);
    INFO("octave " << k);
    REQUIRE(counts(*dut) == model.counts());
  }
  sample(0xffffffffu);
  CHECK(counts(*dut)[123] >= 1);
  icn::Rng rng(tb::TestSeed() + 77);
  for (int cycle = 0; cycle < 3000; ++cycle) {
    sample(static_cast<uint32_t>(rng.Next() >> (32 + rng.Below(32))));
    INFO("cycle " << cycle);
    REQUIRE(counts(*dut) == model.counts());
    REQUIRE(dut->since_o == model.since());
  }
}
