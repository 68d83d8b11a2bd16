// SPDX-License-Identifier: Apache-2.0
// Bernoulli sources drawn as geometric gaps (with thinning for varying profiles) keep the statistics
// of one independent trial per node and cycle: counts, gaps, profile shapes.
#include "catch.h"

#include <cmath>
#include <vector>

#include "net/net_util.h"
#include "traffic/traffic_source.h"

namespace {

// Packets created per node and cycle over `cycles` cycles, by node and by cycle.
struct Counts {
  std::vector<uint64_t> per_node;
  std::vector<uint32_t> per_cycle;
  uint64_t gaps_of_one = 0;  // a node creating on two consecutive cycles
  uint64_t total = 0;
};

Counts Generate(const std::vector<std::string>& sets, uint64_t cycles) {
  tb::Run run(sets, tb::Run::kParamsOnly);
  const icn::RunParams& p = run.params;
  icn::TrafficSource source(p.traffic, p.workload, p.sim, p.topology->nodes, p.topology->PatternDims());
  Counts c;
  c.per_node.assign(p.topology->nodes, 0);
  c.per_cycle.assign(cycles, 0);
  std::vector<uint64_t> last(p.topology->nodes, UINT64_MAX - 1);
  for (uint64_t now = 0; now < cycles; ++now) {
    const uint64_t next = source.NextCreation(now);
    source.Generate(now, [&](int src, int, uint32_t, uint32_t) {
      REQUIRE(next == now);  // NextCreation never lets a packet be jumped over
      ++c.per_node[src];
      ++c.per_cycle[now];
      ++c.total;
      c.gaps_of_one += last[src] + 1 == now;
      last[src] = now;
    });
  }
  return c;
}

}  // namespace

TEST_CASE("geometric gaps give every node one Bernoulli trial per cycle", "[net][traffic]") {
  for (double load : {0.001, 0.05, 0.4, 1.0}) {
    INFO("load " << load);
    const uint64_t cycles = 200000;
    const double p = load / 4;  // 4-flit packets
    const Counts c = Generate({"topology.kind=mesh", "topology.dims=[8, 8]", "traffic.packet_flits=4",
                               "traffic.load=" + std::to_string(load)},
                              cycles);
    const double trials = 64.0 * cycles;
    const double sigma = std::sqrt(trials * p * (1 - p));
    CHECK(std::abs(static_cast<double>(c.total) - trials * p) < 4 * sigma);
    // Consecutive creations at one node: P = p (memoryless), over every creation.
    const double expected_ones = static_cast<double>(c.total) * p;
    CHECK(std::abs(static_cast<double>(c.gaps_of_one) - expected_ones) < 4 * std::sqrt(expected_ones) + 2);
    // Every node gets its share (the per-node counts are binomial too).
    const double node_sigma = std::sqrt(cycles * p * (1 - p));
    for (uint64_t n : c.per_node) CHECK(std::abs(static_cast<double>(n) - cycles * p) < 5 * node_sigma + 1);
  }
}

TEST_CASE("thinning follows a ramp and silences the off phase of bursts", "[net][traffic]") {
  const uint64_t cycles = 100000;
  const Counts ramp =
      Generate({"topology.kind=mesh", "topology.dims=[8, 8]", "traffic.packet_flits=2",
                "traffic.profile=ramp", "traffic.ramp=[[0, 0.02], [50000, 0.4], [100000, 0.02]]"},
               cycles);
  // Packets in each tenth of the run against the integral of the ramp's rate.
  for (int part = 0; part < 10; ++part) {
    double expected = 0;
    uint64_t got = 0;
    for (uint64_t t = part * cycles / 10; t < (part + 1) * cycles / 10; ++t) {
      const double f = t <= 50000 ? t / 50000.0 : (100000 - t) / 50000.0;
      expected += 64 * (0.02 + f * 0.38) / 2;
      got += ramp.per_cycle[t];
    }
    INFO("tenth " << part);
    CHECK(std::abs(static_cast<double>(got) - expected) < 4 * std::sqrt(expected));
  }
  const Counts bursts =
      Generate({"topology.kind=mesh", "topology.dims=[4, 4]", "traffic.load=0.3", "traffic.profile=bursts",
                "traffic.burst_on_cycles=700", "traffic.burst_off_cycles=1300"},
               cycles);
  uint64_t on = 0;
  for (uint64_t t = 0; t < cycles; ++t) {
    if (t % 2000 >= 700) REQUIRE(bursts.per_cycle[t] == 0);
    on += bursts.per_cycle[t];
  }
  const double expected_on = 16.0 * 700 * (cycles / 2000) * 0.3 / 16;  // default 16-flit packets
  CHECK(std::abs(static_cast<double>(on) - expected_on) < 4 * std::sqrt(expected_on));
}
