// SPDX-License-Identifier: Apache-2.0
// sim.threads: the network split into partitions of whole regions, and results that do not depend
// on how many threads advance them.
#include <set>
#include <string>
#include <vector>

#include "net_util.h"

namespace {

// results.json without what may differ between thread counts: timing and the count itself.
nlohmann::json Comparable(nlohmann::json r) {
  for (const char* machine : {"wall_s", "cycles_per_s", "threads"}) r["sim"].erase(machine);
  r["params"]["sim"].erase("threads");
  return r;
}

std::vector<std::string> With(std::vector<std::string> sets, const std::string& threads) {
  sets.push_back("sim.threads=" + threads);
  return sets;
}

}  // namespace

TEST_CASE("every thread count gives the same results, controllers included", "[threads]") {
  const std::vector<std::vector<std::string>> runs = {
      // Megafly, PerfBound ports on every link end, Bernoulli traffic across groups.
      {"topology.kind=megafly", "eee.mode=fast_wake", "eee.policy=perfbound", "eee.perfbound.period_ns=3000",
       "traffic.load=0.05", "sim.warmup_cycles=500", "sim.measure_cycles=6000"},
      // 4-ary 3-tree with fat-tree on/off links, which reroute while the network runs.
      {"eee.mode=off", "fattree_onoff.enabled=true", "fattree_onoff.check_cycles=400",
       "fattree_onoff.t_on_cycles=100", "fattree_onoff.t_off_cycles=100", "traffic.load=0.1",
       "sim.measure_cycles=6000"},
      // Switch and node controllers declared by a manifest (examples/drowsy_switch, paced_node).
      {"eee.mode=off", "drowsy_switch.enabled=true", "drowsy_switch.idle_ns=200", "traffic.load=0.05",
       "sim.measure_cycles=6000"},
      {"eee.mode=off", "paced_node.enabled=true", "traffic.load=0.2", "sim.measure_cycles=6000"},
      // A busy torus with fast-wake EEE: flits and credits crossing every partition edge.
      {"topology.kind=torus", "topology.dims=[4,4,4]", "eee.mode=fast_wake", "eee.pdt_ns=200",
       "traffic.load=0.25", "sim.measure_cycles=3000"},
      // Photonic Segment Switching on a torus (every request a cycle) and a tree (one a cycle):
      // switches answered by their slab's or pod's thread.
      {"topology.kind=torus", "topology.dims=[4,4,4]", "network.switching=photonic", "photonic.mode=segment",
       "eee.mode=off", "sim.cycle_ns=1", "workload.kind=random_messages", "workload.messages_per_node=3",
       "workload.mtu_bytes=4096", "workload.flit_bytes=64"},
      {"network.switching=photonic", "photonic.mode=segment", "photonic.requests_per_cycle=1",
       "photonic.buffer.layout=top_1", "eee.mode=off", "sim.cycle_ns=1", "workload.kind=random_messages",
       "workload.messages_per_node=3", "workload.mtu_bytes=4096", "workload.flit_bytes=64"},
  };
  for (const auto& sets : runs) {
    tb::Run one(With(sets, "1"));
    const nlohmann::json expected = Comparable(one.Results());
    REQUIRE(expected["packets"]["delivered"].get<uint64_t>() > 1000);
    for (const std::string threads : {"2", "3"}) {
      tb::Run many(With(sets, threads));
      const nlohmann::json r = many.Results();
      INFO(sets.front() << " on " << threads << " threads");
      CHECK(r["sim"]["threads"] == std::stoi(threads));
      CHECK(Comparable(r) == expected);
    }
  }
}

TEST_CASE("a run uses no more threads than its network has regions", "[threads]") {
  // A few cycles: more threads than cores wait for each other every cycle (CI's 2 cores, busy with
  // the other tests, took 177 s sanitised for 2,200 cycles a run).
  const auto threads = [](std::vector<std::string> sets) {
    sets.push_back("sim.threads=8");
    sets.push_back("sim.warmup_cycles=0");
    sets.push_back("sim.measure_cycles=20");
    tb::Run run(sets);
    return run.Results()["sim"]["threads"].get<int>();
  };
  CHECK(threads({"eee.mode=off"}) == 4);  // 4-ary 3-tree: 4 pods
  CHECK(threads({"topology.kind=torus", "topology.dims=[4,4,6]", "eee.mode=off"}) == 6);  // 6 slabs
  CHECK(threads({"topology.kind=torus", "topology.dims=[4,4,6]", "network.switching=photonic", "eee.mode=off",
                 "workload.kind=random_messages"}) == 6);
  CHECK(threads({"topology.kind=erapid", "eee.mode=off"}) == 1);  // re-wired while it runs: one region
}

TEST_CASE("partitions hold whole regions of about equal size", "[threads]") {
  struct Case {
    std::vector<std::string> sets;
    int routers_per_region;
  };
  for (const Case& c :
       std::vector<Case>{{{"topology.kind=megafly", "eee.mode=off"}, 8},  // groups of 4 + 4
                         {{"eee.mode=off"}, 12},                          // 4-ary 3-tree pods
                         {{"topology.kind=torus", "topology.dims=[4,4,8]", "eee.mode=off"}, 16}}) {  // slabs
    for (const int threads : {2, 3}) {
      tb::Run run(With(c.sets, std::to_string(threads)));
      const auto& net = run.network();
      const std::vector<uint16_t>& part = net.router_parts();
      std::vector<int> size(static_cast<size_t>(threads), 0);
      std::set<std::pair<int, int>> region_parts;
      for (size_t r = 0; r < part.size(); ++r) {
        REQUIRE(part[r] < threads);
        ++size[part[r]];
        region_parts.insert({net.topology().Region(static_cast<int>(r)), part[r]});
      }
      INFO(c.sets.front() << " on " << threads << " threads");
      // Every region on one part only.
      CHECK(region_parts.size() * static_cast<size_t>(c.routers_per_region) == part.size());
      // No part bigger than its share by more than a region.
      for (const int s : size) {
        CHECK(s > 0);
        CHECK(s <= static_cast<int>(part.size()) / threads + c.routers_per_region);
      }
    }
  }
}
