// SPDX-License-Identifier: Apache-2.0
// The packet-step torus (network.switching = packet_step) and its node-swap controllers
// (torus_swap) in the network: one step per hop; a heavy flow pulls its destination next to its
// source in exactly the swaps needed; packets in flight during swaps all arrive, in order per
// pair, and every switching receiver is blocked exactly Tr steps, in either swap protocol; after a burst of
// swaps every destination is still reached within P - 1 hops per dimension; the adaptive threshold rises
// while swaps are frequent and falls when they stop; skipping idle rings equals clocking every
// ring every cycle; the Livermore workload's messages; and the errors that name the keys.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "catch.h"

#include "core/errors.h"
#include "core/rng.h"
#include "mech/torus/torus_swap_control.h"
#include "net/net_util.h"
#include "net/packet_step_torus.h"
#include "traffic/livermore.h"
#include "traffic/workload_driver.h"

namespace {

std::vector<std::string> Torus(const std::string& dims, std::vector<std::string> sets) {
  sets.insert(sets.begin(), {"topology.kind=torus", "topology.dims=" + dims, "network.switching=packet_step",
                             "traffic.packet_flits=1", "eee.mode=off"});
  return sets;
}

std::vector<std::string> Swaps(const std::string& dims, std::vector<std::string> sets) {
  sets.insert(sets.begin(), "torus_swap.enabled=true");
  return Torus(dims, std::move(sets));
}

icn::PacketStepTorus& SwapNet(tb::Run& run) { return dynamic_cast<icn::PacketStepTorus&>(run.sim->fabric()); }
icn::TorusSwapControl& SwapCtl(tb::Run& run) {
  return dynamic_cast<icn::TorusSwapControl&>(*run.mechanism());
}

// A trace file that lives as long as the test.
struct TraceFile {
  explicit TraceFile(const std::string& text) {
    static int count = 0;
    path = "/tmp/icnsim_torus_" + std::to_string(getpid()) + "_" + std::to_string(count++) + ".trace";
    std::ofstream(path) << text;
  }
  ~TraceFile() { std::remove(path.c_str()); }
  std::string path;
};

}  // namespace

TEST_CASE("the packet-step torus moves a packet one hop per step and loses nothing", "[net][torus]") {
  // Zero load: network latency = hops (a packet is absorbed in the step it arrives); mean hops of
  // uniform traffic on an 8 x 8 torus: 2 per dimension (distances 0, 1, 1, 2, 2, 3, 3, 4).
  tb::Run light(Torus("[8,8]", {"traffic.load=0.005", "sim.warmup_cycles=0", "sim.measure_cycles=20000"}));
  light.sim->RunToEnd();
  const nlohmann::json quiet = tb::DrainedResults(light);
  CHECK(quiet["latency"]["hops_avg"].get<double>() == Approx(4.0 * 64 / 63).epsilon(0.03));
  CHECK(quiet["latency"]["network_avg"].get<double>() ==
        Approx(quiet["latency"]["hops_avg"].get<double>()).epsilon(0.02));
  tb::Run heavy(Torus("[8,8]", {"traffic.load=0.6", "sim.warmup_cycles=1000", "sim.measure_cycles=4000"}));
  heavy.sim->RunToEnd();
  tb::DrainedResults(heavy);
}

TEST_CASE("a heavy flow pulls its destination next to its source in two swaps", "[net][torus]") {
  // Node 0 sends to node 3 of its x cycle every other step: node 2 sees it pass for its successor 3
  // and swaps with it, then node 1 does; node 0 then has 3 as its successor and wants nothing.
  std::string text;
  for (int i = 0; i < 6000; ++i) text += std::to_string(i) + " 0 3 8 at " + std::to_string(2 * i) + "\n";
  TraceFile trace(text);
  tb::Run run(Swaps("[8,8]", {"workload.kind=trace", "workload.trace=" + trace.path,
                              "torus_swap.variant=fixed", "torus_swap.threshold=10"}));
  run.sim->RunToEnd();
  const nlohmann::json r = tb::DrainedResults(run);
  CHECK(SwapCtl(run).swaps() == 2);
  CHECK(SwapNet(run).succ(0, 0) == 3);  // ring 0: dimension x, cycle y = 0, rising coordinates
  CHECK(r["latency"]["hops_avg"].get<double>() < 1.1);
  CHECK(SwapCtl(run).StaleEntries() == 0);
}

TEST_CASE("F'_ba counts the hops a swap would save b's packets to a as b's routing table sees them",
          "[net][torus]") {
  // On 8 x 8, b = node 3 sends 10 packets to a = node 2, its predecessor in ring 0 (the rising x
  // cycle of y = 0). They go by ring 1 (the falling one, labels the other way round: b is 4, a is
  // 5), where b's routing table is made to place a 3 hops on: after a swap in ring 0 they would take
  // 1 hop there, a saving of 2 each (the ring credit counts 1 a packet; M multiplies it by l).
  std::string text;
  for (int i = 0; i < 10; ++i) text += std::to_string(i) + " 3 2 8 at " + std::to_string(1 + 2 * i) + "\n";
  text += "10 0 1 8 at 100\n";  // keeps the run going past the first period's end (step 63)
  TraceFile trace(text);
  for (const std::string credit : {"hops", "ring"}) {
    INFO("torus_swap.back_credit=" << credit);
    tb::Run run(Swaps("[8,8]", {"workload.kind=trace", "workload.trace=" + trace.path,
                                "torus_swap.variant=fixed", "torus_swap.threshold=65535",
                                "torus_swap.period_cycles=64", "torus_swap.back_credit=" + credit}));
    icn::PacketStepTorus& net = SwapNet(run);
    uint8_t* view = net.table(1, 4);
    view[5] = static_cast<uint8_t>((view[4] + 3) % 8);
    int sent = 0;
    while (run.sim->cycle() < 70 && run.sim->Tick()) {
      const icn::PacketStepTorus::Member& b = net.member(1, 4);
      if (b.events & icn::PacketStepTorus::kOrigBack) {
        ++sent;
        CHECK(b.back_hops == 3);
      }
    }
    CHECK(sent == 10);
    CHECK(SwapCtl(run).BackTotal(1, 4) == (credit == "hops" ? 20u : 10u));
    run.sim->RunToEnd();
    tb::DrainedResults(run);
  }
}

namespace {

// Uniform load 0.3 on 8 x 8 with R = 0 and C_r = 0, in either protocol. The ring credit of F'_ba
// (l per packet) makes uniform traffic swap often; the hops credit would hardly swap at all. A swap
// re-steers three receivers; the paper's protocol blocks b's alone, the drain protocol all three.
void SwapsInFlight(const std::string& protocol) {
  tb::Run run(Swaps("[8,8]", {"traffic.load=0.3", "sim.warmup_cycles=0", "sim.measure_cycles=8000",
                              "torus_swap.variant=fixed", "torus_swap.threshold=0", "torus_swap.cost_hops=0",
                              "torus_swap.period_cycles=64", "torus_swap.block_cycles=20",
                              "torus_swap.back_credit=ring", "torus_swap.protocol=" + protocol}));
  icn::PacketStepTorus& net = SwapNet(run);
  std::map<std::pair<int, int>, uint64_t> last_created;  // per pair: the last delivered packet's creation
  int out_of_order = 0;
  run.sim->on_delivery = [&](const icn::Packet& p, uint64_t) {
    uint64_t& last = last_created[{p.src, p.dst}];
    out_of_order += p.created < last;
    last = p.created;
  };
  std::vector<int> blocked(net.rings() * 8, 0);
  std::map<int, int> runs;  // block lengths seen
  uint64_t swaps_before = 0, switched = 0;
  const int per_swap = protocol == "drain" ? 3 : 1;  // a, b and c, or b alone
  while (run.sim->Tick()) {
    int starts = 0;
    for (int r = 0; r < net.rings(); ++r) {
      for (int k = 0; k < 8; ++k) {
        int& n = blocked[r * 8 + k];
        if (net.member(r, k).block_in) {
          starts += n++ == 0;
        } else if (n) {
          ++runs[n];
          n = 0;
        }
      }
    }
    // The blocked receivers block on the step after b switched.
    INFO("cycle " << run.sim->cycle());
    REQUIRE(starts == per_swap * static_cast<int>(switched));
    switched = SwapCtl(run).swaps() - swaps_before;
    swaps_before = SwapCtl(run).swaps();
  }
  const nlohmann::json r = tb::DrainedResults(run);
  INFO("swaps " << SwapCtl(run).swaps());
  CHECK(SwapCtl(run).swaps() > 50);
  REQUIRE(runs.size() == 1);
  CHECK(runs.begin()->first == 20);
  CHECK(out_of_order == 0);
  // Without a drain a pair's packets cross at a swap, and absorption puts them back in order.
  const int reordered = r["torus_swap"]["reordered_packets"].get<int>();
  if (protocol == "paper") CHECK(reordered > 0);
}

}  // namespace

TEST_CASE("the paper's swap: packets in flight all arrive in order and b's input is blocked exactly Tr steps",
          "[net][torus]") {
  SwapsInFlight("paper");
}

TEST_CASE("the drain swap: packets in flight all arrive in order and a b and c are blocked exactly Tr steps",
          "[net][torus]") {
  SwapsInFlight("drain");
}

TEST_CASE("after a burst of swaps every destination is reached within P - 1 hops per dimension",
          "[net][torus]") {
  // A burst of random traffic with a low threshold reshuffles the cycles; then one packet between
  // every pair of nodes. (No hop bound: a packet keeps its direction, so a swap that moves its
  // target behind it sends it round the cycle once more.)
  icn::Rng rng(7);
  std::string text;
  int id = 0;
  for (int i = 0; i < 20000; ++i) {
    const int src = static_cast<int>(rng.Below(64));
    const int dst = (src + 1 + static_cast<int>(rng.Below(63))) % 64;
    text += std::to_string(id++) + " " + std::to_string(src) + " " + std::to_string(dst) + " 8 at " +
            std::to_string(i / 8) + "\n";
  }
  for (int src = 0; src < 64; ++src)
    for (int dst = 0; dst < 64; ++dst)
      if (src != dst)
        text += std::to_string(id++) + " " + std::to_string(src) + " " + std::to_string(dst) + " 8 at 6000\n";
  TraceFile trace(text);
  tb::Run run(
      Swaps("[8,8]", {"workload.kind=trace", "workload.trace=" + trace.path, "torus_swap.variant=fixed",
                      "torus_swap.threshold=0", "torus_swap.cost_hops=0", "torus_swap.period_cycles=64"}));
  std::set<std::pair<int, int>> reached;
  run.sim->on_delivery = [&](const icn::Packet& p, uint64_t) {
    if (p.created >= 6000) reached.insert({p.src, p.dst});
  };
  run.sim->RunToEnd();
  tb::DrainedResults(run);
  INFO("swaps " << SwapCtl(run).swaps());
  CHECK(SwapCtl(run).swaps() > 20);
  CHECK(reached.size() == 64 * 63);
  CHECK(SwapCtl(run).StaleEntries() < 64 * 8);  // most tables are up to date again
}

// The ring credit of F'_ba makes uniform traffic swap often (see SwapsInFlight).
TEST_CASE("the adaptive threshold rises while swaps are frequent and falls when they stop", "[net][torus]") {
  tb::Run run(
      Swaps("[4,4,4]",
            {"traffic.load=0.3", "traffic.profile=ramp", "traffic.ramp=[[0, 0.3], [6000, 0.3], [6001, 0]]",
             "sim.warmup_cycles=0", "sim.measure_cycles=20000", "torus_swap.variant=adaptive",
             "torus_swap.threshold=0", "torus_swap.cost_hops=0", "torus_swap.period_cycles=64",
             "torus_swap.step=2", "torus_swap.rare_periods=2", "torus_swap.back_credit=ring"}));
  icn::TorusSwapControl* control = nullptr;
  double at_load_end = 0;
  while (run.sim->Tick()) {
    control = &SwapCtl(run);
    if (run.sim->cycle() == 6000) at_load_end = control->MeanThreshold();
  }
  INFO("mean threshold at the load's end " << at_load_end << ", at the end " << control->MeanThreshold());
  CHECK(at_load_end > 1);
  CHECK(control->MeanThreshold() < at_load_end / 4);
}

TEST_CASE("torus swap skipping idle rings matches clocking every ring every cycle", "[net][torus]") {
  // An idle start (the run jumps between period ends), a burst with swaps, an idle end.
  tb::RequireSameEveryCycle(Swaps(
      "[4,4,4]", {"traffic.load=0.3", "traffic.profile=ramp",
                  "traffic.ramp=[[0, 0], [1000, 0], [1001, 0.3], [3000, 0.3], [3001, 0]]",
                  "sim.warmup_cycles=0", "sim.measure_cycles=5000", "torus_swap.variant=randomised",
                  "torus_swap.threshold=4", "torus_swap.period_cycles=64", "torus_swap.block_cycles=8"}));
}

TEST_CASE("Livermore messages: reads answered by their owners, writes acknowledged, a trace round trip",
          "[net][torus]") {
  icn::LivermoreExtents cut;
  cut.k21 = 5;
  const icn::Workload w = icn::MakeLivermore(64, 1, cut);
  REQUIRE(w.ranks == 64);
  // Each request is followed by its reply from its destination: a read (8 bytes) by its data (16),
  // a write (16) by its acknowledgement (8). A request waits only for earlier messages.
  int reads = 0, writes = 0;
  REQUIRE(w.messages.size() % 2 == 0);
  for (size_t i = 0; i < w.messages.size(); i += 2) {
    const icn::WorkloadMessage& request = w.messages[i];
    const icn::WorkloadMessage& reply = w.messages[i + 1];
    INFO("message " << i);
    REQUIRE(request.src != request.dst);
    for (uint32_t d : request.after) REQUIRE(d < i);
    REQUIRE(reply.after == std::vector<uint32_t>{static_cast<uint32_t>(i)});
    REQUIRE(reply.src == request.dst);
    REQUIRE(reply.dst == request.src);
    REQUIRE(request.bytes + reply.bytes == 24);
    (request.bytes == 8 ? reads : writes) += 1;
  }
  CHECK(reads > 3 * writes);  // several operands per assignment
  // Kernel 7 alone reads 9 operands for each of 8 iterations per node (some local, most remote).
  CHECK(w.messages.size() > 64u * 8 * 9);
  std::stringstream text;
  icn::WriteTrace(w, text);
  const icn::Workload again = icn::ReadTrace(text, "round trip");
  REQUIRE(again.messages.size() == w.messages.size());
  for (size_t i = 0; i < w.messages.size(); ++i) {
    REQUIRE(again.messages[i].src == w.messages[i].src);
    REQUIRE(again.messages[i].dst == w.messages[i].dst);
    REQUIRE(again.messages[i].after == w.messages[i].after);
  }
  // And it runs to completion on a 4 x 4 x 4 torus, every message delivered.
  tb::Run run(Torus("[4,4,4]",
                    {"workload.kind=livermore", "workload.iterations=1", "workload.livermore.k21_extent=5"}));
  run.sim->RunToEnd();
  const nlohmann::json r = tb::DrainedResults(run);
  CHECK(r["workload"]["messages_delivered"] == w.messages.size());
  CHECK(r["workload"]["exec_cycles"].get<uint64_t>() > 100);
  // The ceiling: every message here is one packet; a node injects and absorbs one per step.
  std::vector<uint64_t> sent(64, 0), received(64, 0);
  for (const icn::WorkloadMessage& m : w.messages) {
    ++sent[static_cast<size_t>(m.src)];
    ++received[static_cast<size_t>(m.dst)];
  }
  uint64_t busiest = 0, sum = 0;
  for (size_t n = 0; n < 64; ++n) {
    busiest = std::max({busiest, sent[n], received[n]});
    sum += std::max(sent[n], received[n]);
  }
  CHECK(r["workload"]["busiest_node_packets"] == busiest);
  CHECK(r["workload"]["mean_node_packets"].get<double>() == Approx(static_cast<double>(sum) / 64));
  CHECK(r["workload"]["exec_cycles"].get<uint64_t>() >= busiest);
}

// The paper's kernel 21 (k, i over 1..25) spreads VY's reads: the busiest node's share of the
// workload falls toward the mean, where the cut-down extent 5 reads VY's 5 x 5 corner from every node.
TEST_CASE("Livermore kernel 21 at the paper's extent balances the nodes better than the cut-down",
          "[net][torus]") {
  const auto imbalance = [](int k21) {
    icn::LivermoreExtents e;
    e.k21 = k21;
    const icn::Workload w = icn::MakeLivermore(216, 1, e);  // 6x6x6
    icn::WorkloadDriver driver(w, 1.0, 9600, 1600);
    return static_cast<double>(driver.busiest_node_packets()) / driver.mean_node_packets();
  };
  const double cut = imbalance(5), paper = imbalance(25);
  CHECK(cut > 1.1);
  CHECK(paper < 1.03);
}

TEST_CASE("torus_swap and packet_step errors name the keys and the allowed values", "[net][torus]") {
  const auto error = [](const std::vector<std::string>& sets) -> std::string {
    try {
      tb::Run run(sets, tb::Run::kParamsOnly);
      run.StartSimulation({});
    } catch (const icn::ScenarioError& e) {
      return e.what();
    }
    return "no error";
  };
  CHECK_THAT(error({"topology.kind=torus", "topology.dims=[8,8]", "torus_swap.enabled=true"}),
             tb::Contains("torus_swap.enabled") && tb::Contains("network.switching = packet_step"));
  CHECK_THAT(error(Swaps("[8,6]", {})),
             tb::Contains("topology.dims") && tb::Contains("equal sides of 4 to 16 nodes"));
  CHECK_THAT(error(Swaps("[17,17]", {})),
             tb::Contains("topology.dims") && tb::Contains("equal sides of 4 to 16 nodes"));
  {
    const tb::NoSizesOnDemand built_in_only;
    CHECK_THAT(error(Swaps("[10,10]", {})),
               tb::Contains("topology.dims: torus_swap_ring is built into this program for Nodes=4, Nodes=6, "
                            "Nodes=8, not Nodes=10") &&
                   tb::Contains("-DICNSIM_EXTRA_MODELS=torus_swap_ring:Nodes=10"));
  }
  CHECK_THAT(error(Swaps("[8,8]", {"torus_swap.block_cycles=300"})),
             tb::Contains("torus_swap.block_cycles") && tb::Contains("1 <= Tr < T"));
  CHECK_THAT(error({"topology.kind=torus", "topology.dims=[4,4]", "network.switching=packet_step",
                    "eee.mode=fast_wake"}),
             tb::Contains("eee.mode") && tb::Contains("eee.mode = off"));
  CHECK_THAT(error({"topology.kind=mesh", "topology.dims=[8,8]", "network.switching=packet_step"}),
             tb::Contains("network.switching") && tb::Contains("torus"));
}
