// pb_histogram, one configuration per strategy (16 bins of 8 cycles, 8-bit counters, h_maxN 20,
// TTL 300 cycles, h_maxval 150), in lock-step with its reference model on random idle periods,
// and each way of keeping the histogram bounded as a directed test.
#include "catch.h"

#include <numeric>

#include "Vpb_histogram_s0.h"
#include "Vpb_histogram_s1.h"
#include "Vpb_histogram_s2.h"
#include "core/rng.h"
#include "ref/pb_histogram_ref.h"
#include "unit/dut.h"

namespace {

ref::PbHistogramConfig Config(int strategy) {
  ref::PbHistogramConfig c;
  c.bins = 16;
  c.bin_cycles = 8;
  c.counter_bits = 8;
  c.strategy = strategy;
  c.max_n = 20;
  c.ttl_cycles = 300;
  c.max_val = 150;
  return c;
}

template <typename Model>
std::vector<uint32_t> Counts(Model& m) {
  std::vector<uint32_t> counts(16);
  for (int b = 0; b < 16; ++b) counts[b] = static_cast<uint32_t>((m.counts_o[b / 4] >> (8 * (b % 4))) & 0xff);
  return counts;
}

template <typename Model>
void Sample(tb::Dut<Model>& dut, ref::PbHistogram* model, bool valid, uint32_t value) {
  dut->sample_valid_i = valid;
  dut->sample_i = value;
  dut.Clock();
  if (model) model->Clock(valid, value);
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
    const uint32_t value = rng.Below(10) == 0 ? rng.Below(1u << 20) : rng.Below(200);
    Sample(dut, &model, valid, value);
    INFO("cycle " << cycle);
    REQUIRE(Counts(*dut) == model.counts());
    REQUIRE(dut->values_o == model.values());
  }
}

}  // namespace

TEST_CASE("pb_histogram matches its reference model for every strategy", "[unit]") {
  LockStep<Vpb_histogram_s0>(0);
  LockStep<Vpb_histogram_s1>(1);
  LockStep<Vpb_histogram_s2>(2);
}

TEST_CASE("pb_histogram bins clamp at h_maxval and the last bin", "[unit][directed]") {
  tb::Dut<Vpb_histogram_s2> dut;
  Sample(dut, nullptr, true, 0);         // bin 0
  Sample(dut, nullptr, true, 7);         // bin 0
  Sample(dut, nullptr, true, 8);         // bin 1
  Sample(dut, nullptr, true, 127);       // bin 15 (127 / 8 = 15)
  Sample(dut, nullptr, true, 1u << 30);  // clamped to 150 -> bin 15 (18 capped)
  const auto counts = Counts(*dut);
  CHECK(counts[0] == 2);
  CHECK(counts[1] == 1);
  CHECK(counts[15] == 2);
  CHECK(std::accumulate(counts.begin(), counts.end(), 0u) == 5);
}

TEST_CASE("a self-clearing histogram clears after h_maxN values", "[unit][directed]") {
  tb::Dut<Vpb_histogram_s0> dut;
  for (int i = 0; i < 20; ++i) Sample(dut, nullptr, true, 10);
  CHECK(Counts(*dut)[1] == 20);
  CHECK(dut->cleared_o);  // the 20th value fills it: cleared on the next edge
  Sample(dut, nullptr, true, 30);
  CHECK(Counts(*dut)[1] == 0);
  CHECK(Counts(*dut)[3] == 1);  // the value that arrived with the clear is kept
  CHECK(dut->values_o == 1);
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
  CHECK(Counts(*dut)[5] == 0);
}

TEST_CASE("a sliding window counts exactly its last h_maxN values", "[unit][directed]") {
  tb::Dut<Vpb_histogram_s1> dut;
  for (int i = 0; i < 20; ++i) Sample(dut, nullptr, true, 10);  // 20 x bin 1
  for (int i = 0; i < 5; ++i) Sample(dut, nullptr, true, 50);   // evict five of them
  auto counts = Counts(*dut);
  CHECK(counts[1] == 15);
  CHECK(counts[6] == 5);
  CHECK(dut->values_o == 20);
  for (int i = 0; i < 20; ++i) Sample(dut, nullptr, true, 50);
  counts = Counts(*dut);
  CHECK(counts[1] == 0);
  CHECK(counts[6] == 20);
}

TEST_CASE("an unbounded histogram saturates instead of wrapping", "[unit][directed]") {
  tb::Dut<Vpb_histogram_s2> dut;
  for (int i = 0; i < 300; ++i) Sample(dut, nullptr, true, 3);
  CHECK(Counts(*dut)[0] == 255);
  for (int i = 0; i < 5000; ++i) Sample(dut, nullptr, false, 0);
  CHECK(Counts(*dut)[0] == 255);  // never cleared
}
