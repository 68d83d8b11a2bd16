// SPDX-License-Identifier: Apache-2.0
// Workloads produced as the run reaches them: the driver fed one round at a time releases every
// packet at the cycle it releases it when fed the whole workload, holds a bounded window of
// messages, and the allreduce rules give their textbook shapes.
#include <map>
#include <tuple>

#include "catch.h"

#include "core/rng.h"
#include "traffic/message_stream.h"
#include "traffic/workload.h"
#include "traffic/workload_driver.h"

namespace {

// What a driver did on a network whose packets take 1 to `max_delay` cycles (a hash of the
// message and the packet), run to the end.
struct Trace {
  std::vector<std::tuple<uint64_t, int, int, uint32_t, uint32_t>>
      released;  // cycle, src, dst, flits, message
  uint64_t finish = 0;
  double busy = 0;
  size_t peak_held = 0;
};

Trace Drive(icn::WorkloadDriver& driver, uint64_t max_delay, uint64_t seed) {
  Trace t;
  std::multimap<uint64_t, uint32_t> arrivals;  // cycle, message
  uint64_t now = 0;
  uint64_t sent = 0;
  while (!driver.done()) {
    driver.Release(now, [&](int src, int dst, uint32_t flits, uint32_t message) {
      t.released.emplace_back(now, src, dst, flits, message);
      icn::Rng hash(seed ^ (uint64_t{message} << 20) ^ ++sent);
      arrivals.emplace(now + 1 + hash.Below(max_delay), message);
    });
    const uint64_t next_arrival = arrivals.empty() ? UINT64_MAX : arrivals.begin()->first;
    const uint64_t next = std::min(next_arrival, driver.NextRelease(now + 1));
    REQUIRE(next != UINT64_MAX);
    now = next;
    for (auto it = arrivals.begin(); it != arrivals.end() && it->first == now; it = arrivals.erase(it))
      driver.OnPacketDelivered(it->second, now);
  }
  t.finish = driver.finish_cycle();
  t.busy = driver.BusyCycles(t.finish);
  t.peak_held = driver.peak_held();
  return t;
}

}  // namespace

TEST_CASE("a preset produced round by round releases every packet when the whole one does", "[workload]") {
  // Iterations that reach each preset's large allreduce; the five rules in turn.
  const std::vector<std::pair<std::string, int>> presets = {
      {"bsp_allreduce", 8}, {"silent_bursts", 1}, {"small_collectives", 25}, {"layered_allreduce", 2}};
  int compared = 0;
  for (const auto& [preset, iterations] : presets) {
    for (const int ranks : {2, 7, 24}) {
      for (const uint64_t seed : {1, 2}) {
        const auto rule = static_cast<icn::AllreduceRule>(compared % 5);
        INFO(preset << " on " << ranks << " ranks, seed " << seed << ", rule " << static_cast<int>(rule));
        const uint64_t max_delay = seed == 1 ? 3 : 400;  // short and long flights reorder differently
        const int n = iterations;
        icn::WorkloadDriver whole(icn::MakeWorkload(preset, ranks, n, 0.02, seed, rule), 32, 9600, 1600);
        icn::WorkloadDriver streamed(icn::OpenPreset(preset, ranks, n, 0.02, seed, rule), 32, 9600, 1600);
        CHECK(streamed.messages() == whole.messages());
        CHECK(streamed.busiest_node_packets() == whole.busiest_node_packets());
        CHECK(streamed.mean_node_packets() == whole.mean_node_packets());
        const Trace a = Drive(whole, max_delay, seed);
        const Trace b = Drive(streamed, max_delay, seed);
        REQUIRE(a.released.size() == b.released.size());
        for (size_t i = 0; i < a.released.size(); ++i) {
          INFO("packet " << i);
          REQUIRE(a.released[i] == b.released[i]);
        }
        CHECK(a.finish == b.finish);
        CHECK(a.busy == b.busy);
        ++compared;
      }
    }
  }
  CHECK(compared == 24);
}

TEST_CASE("a streamed preset holds a window of messages, not the workload", "[workload]") {
  // 40 iterations of the LAMMPS-like preset on 256 ranks: ~90,000 messages.
  icn::WorkloadDriver driver(icn::OpenPreset("bsp_allreduce", 256, 40, 0.01, 1, icn::AllreduceRule::kMpich),
                             32, 9600, 1600);
  const Trace t = Drive(driver, 50, 1);
  INFO(driver.messages() << " messages, at most " << t.peak_held << " held");
  CHECK(driver.messages() > 80000);
  CHECK(t.peak_held * 20 < driver.messages());
}

TEST_CASE("allreduce algorithms have their textbook rounds and sizes", "[workload]") {
  using icn::AllreduceRule;
  // Messages and bytes of one allreduce of `bytes` over `ranks`, as a one-step program.
  const auto shape = [](AllreduceRule rule, uint64_t bytes, int ranks) {
    size_t messages = 0;
    uint64_t total = 0;
    for (const icn::Operation& op : icn::Allreduce(rule, bytes, ranks)) {
      std::vector<icn::Send> sends;
      for (int round = 0; round < icn::Rounds(op, ranks); ++round) icn::RoundSends(op, ranks, round, sends);
      for (const icn::Send& s : sends) {
        CHECK(s.src != s.dst);
        total += s.bytes;
      }
      messages += sends.size();
    }
    return std::make_pair(messages, total);
  };
  // Ring: 2 (P - 1) rounds of P chunks of bytes / P.
  CHECK(shape(AllreduceRule::kRing, 1200, 12) ==
        std::make_pair<size_t, uint64_t>(2 * 11 * 12, 2 * 11 * 1200));
  // Recursive doubling on 12 = 8 + 4: fold in and out (4 each), 3 rounds of 8.
  CHECK(shape(AllreduceRule::kRecursiveDoubling, 64, 12) ==
        std::make_pair<size_t, uint64_t>(8 + 24, 32 * 64));
  // Rabenseifner on 12: fold in and out of the whole vector; halving then doubling among 8 ranks
  // sends (1/2 + 1/4 + 1/8) of it per rank twice.
  CHECK(shape(AllreduceRule::kRabenseifner, 8000, 12) ==
        std::make_pair<size_t, uint64_t>(8 + 48, 8 * 8000 + 2 * 8 * (4000 + 2000 + 1000)));
  // Open MPI's reduce + broadcast: binomial trees, one vector per rank but the root each way.
  CHECK(shape(AllreduceRule::kOpenMpi, 16000, 4160) ==
        std::make_pair<size_t, uint64_t>(2 * 4159, uint64_t{2} * 4159 * 16000));
  // The libraries' rules by size: Open MPI doubles below 10,000 B and rings above, or reduces and
  // broadcasts when the ranks are at least the vector's elements (8 B); MPICH doubles up to
  // 2,048 B or below p2 elements.
  const auto kinds = [](AllreduceRule rule, uint64_t bytes, int ranks) {
    std::vector<icn::Operation::Kind> k;
    for (const icn::Operation& op : icn::Allreduce(rule, bytes, ranks)) k.push_back(op.kind);
    return k;
  };
  using Kind = icn::Operation::Kind;
  CHECK(kinds(AllreduceRule::kOpenMpi, 9999, 40) == std::vector<Kind>{Kind::kAllreduceDoubling});
  CHECK(kinds(AllreduceRule::kOpenMpi, 10000, 40) == std::vector<Kind>{Kind::kAllreduceRing});
  CHECK(kinds(AllreduceRule::kOpenMpi, 16000, 4160) == std::vector<Kind>{Kind::kReduce, Kind::kBroadcast});
  CHECK(kinds(AllreduceRule::kOpenMpi, 8 * 4160, 4160) == std::vector<Kind>{Kind::kReduce, Kind::kBroadcast});
  CHECK(kinds(AllreduceRule::kOpenMpi, 8 * 4161, 4160) == std::vector<Kind>{Kind::kAllreduceRing});
  CHECK(kinds(AllreduceRule::kMpich, 2048, 40) == std::vector<Kind>{Kind::kAllreduceDoubling});
  CHECK(kinds(AllreduceRule::kMpich, 2049, 40) == std::vector<Kind>{Kind::kAllreduceRabenseifner});
  CHECK(kinds(AllreduceRule::kMpich, 8 * 4095, 4160) == std::vector<Kind>{Kind::kAllreduceDoubling});
  CHECK(icn::AllreduceRuleNamed("rabenseifner") == AllreduceRule::kRabenseifner);
  CHECK_THROWS_WITH(icn::AllreduceRuleNamed("tree"), tb::Contains("workload.allreduce"));
}
