// SPDX-License-Identifier: Apache-2.0
// Network physics without any controller: conservation, determinism, zero-load latency against
// the analytic value, the saturation verdict, traffic patterns and load profiles.
#include "catch.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "core/rng.h"
#include "net/net_util.h"
#include "traffic/load_profile.h"
#include "traffic/pattern.h"
#include "unit/dut.h"

namespace {

struct Topo {
  const char* name;
  std::vector<std::string> sets;
};

const std::vector<Topo>& SmallTopologies() {
  static const std::vector<Topo> topologies = {
      {"4-ary 2-tree", {"topology.kind=kary_ntree", "topology.k=4", "topology.n=2"}},
      {"2-ary 4-tree", {"topology.kind=kary_ntree", "topology.k=2", "topology.n=4"}},
      {"4x4 torus", {"topology.kind=torus", "topology.dims=[4, 4]"}},
      {"4x4x4 torus", {"topology.kind=torus", "topology.dims=[4, 4, 4]"}},
      {"4x4 mesh", {"topology.kind=mesh", "topology.dims=[4, 4]"}},
  };
  return topologies;
}

const char* kPatterns[] = {"uniform",     "complement", "butterfly", "perfect_shuffle", "transpose",
                           "bit_reverse", "tornado",    "hotspot",   "neighbor"};

}  // namespace

TEST_CASE("every packet is delivered whole and in order for all topologies and patterns", "[net]") {
  const uint64_t base_seed = tb::TestSeed();
  for (const Topo& topo : SmallTopologies()) {
    for (const char* pattern : kPatterns) {
      for (uint64_t seed = base_seed; seed < base_seed + 3; ++seed) {
        std::vector<std::string> sets = topo.sets;
        sets.push_back(std::string("traffic.pattern=") + pattern);
        sets.push_back("traffic.load=" + std::string(seed % 2 ? "0.3" : "0.6"));  // below and past saturation
        sets.push_back("traffic.packet_flits=" + std::to_string(1 + seed % 9));
        sets.push_back("sim.seed=" + std::to_string(seed));
        sets.push_back("sim.warmup_cycles=200");
        sets.push_back("sim.measure_cycles=1500");
        sets.push_back("sim.drain_limit_cycles=3000");
        INFO(topo.name << ", " << pattern << ", seed " << seed);
        tb::Run run(sets);
        run.sim->RunToEnd();
        const nlohmann::json r = tb::DrainedResults(run);
        REQUIRE(r["packets"]["lost"] == 0);
      }
    }
  }
}

TEST_CASE("a Megafly delivers everything with minimal routes", "[net]") {
  for (const char* pattern : {"uniform", "transpose", "tornado", "hotspot", "neighbor"}) {
    for (const char* load : {"0.2", "0.5"}) {
      INFO(pattern << " at " << load);
      tb::Run run({"topology.kind=megafly", std::string("traffic.pattern=") + pattern,
                   std::string("traffic.load=") + load, "sim.warmup_cycles=500", "sim.measure_cycles=3000",
                   "sim.drain_limit_cycles=5000"});
      run.sim->RunToEnd();
      tb::DrainedResults(run, 300000);
    }
  }
}

TEST_CASE("the paper's 4160-node Megafly runs", "[net][slow]") {
  // 65 groups of 8 leaves and 8 spines of radix 16, 64 nodes per group.
  tb::Run full({"topology.kind=megafly", "topology.megafly.groups=65", "topology.megafly.leaves=8",
                "topology.megafly.spines=8", "topology.megafly.nodes_per_leaf=8",
                "topology.megafly.global_per_spine=8", "router.output_queue_flits=16", "router.speedup=2",
                "traffic.load=0.05", "sim.warmup_cycles=300", "sim.measure_cycles=1000"});
  CHECK(full.network().nodes() == 4160);
  CHECK(full.network().routers().size() == 1040);
  const nlohmann::json r = full.Results();
  CHECK(r["check"]["ok"] == true);
  CHECK(r["verdict"] == "ok");
}

TEST_CASE("the same seed gives the same results and another seed does not", "[net]") {
  const std::vector<std::string> sets = {"topology.kind=torus", "topology.dims=[4, 4]", "traffic.load=0.3",
                                         "sim.measure_cycles=3000"};
  const nlohmann::json a = tb::WithoutTiming(tb::Run(sets).Results());
  const nlohmann::json b = tb::WithoutTiming(tb::Run(sets).Results());
  CHECK(a == b);
  std::vector<std::string> other = sets;
  other.push_back("sim.seed=2");
  const nlohmann::json c = tb::WithoutTiming(tb::Run(other).Results());
  CHECK(a["packets"] != c["packets"]);
  CHECK(c["seed"] == 2);
  CHECK(c["params"]["sim"]["seed"] == 2);
}

// Zero load: every packet alone in the network takes exactly
//   (routers + 1) x link latency + routers x pipeline + (packet_flits - 1) cycles.
TEST_CASE("zero-load latency equals the analytic value from hop counts and pipeline depths", "[net]") {
  struct Case {
    const char* name;
    std::vector<std::string> sets;
  };
  const std::vector<Case> cases = {
      {"4-ary 3-tree", {"topology.kind=kary_ntree", "topology.k=4", "topology.n=3"}},
      {"8x8 mesh", {"topology.kind=mesh", "topology.dims=[8, 8]"}},
      {"8x8 torus", {"topology.kind=torus", "topology.dims=[8, 8]"}},
      {"Megafly 9 x 16", {"topology.kind=megafly"}},
  };
  const std::vector<std::pair<int, int>> timings = {{1, 1}, {2, 1}, {3, 2}};  // pipeline, link latency
  for (const Case& c : cases) {
    for (const auto& [pipeline, latency] : timings) {
      std::vector<std::string> sets = c.sets;
      sets.push_back("router.pipeline_cycles=" + std::to_string(pipeline));
      sets.push_back("link.latency_cycles=" + std::to_string(latency));
      sets.push_back("router.vc_buffer_flits=8");  // covers the credit round trip 2L + P
      sets.push_back("traffic.load=0.002");
      sets.push_back("traffic.packet_flits=8");
      sets.push_back("sim.measure_cycles=60000");
      INFO(c.name << ", pipeline " << pipeline << ", link latency " << latency);
      tb::Run run(sets);
      icn::WormholeNetwork& net = run.network();
      uint64_t packets = 0, exact = 0, below = 0, labelled = 0, routers = 0, in_network = 0;
      double measured = 0, analytic = 0;
      run.sim->on_delivery = [&](const icn::Packet& p, uint64_t lat) {
        const uint64_t zero = net.ZeroLoadLatency(p.src, p.dst, p.flits);
        ++packets;
        exact += lat == zero;
        below += lat < zero;
        measured += lat;
        analytic += zero;
        if (p.measured) {
          ++labelled;
          routers += net.topology().RoutersOnPath(p.src, p.dst);
          in_network += lat - (p.injected - p.created);
        }
      };
      const nlohmann::json r = run.Results();
      REQUIRE(r["check"]["ok"] == true);
      REQUIRE(packets > 500);
      CHECK(below == 0);                   // nothing beats the analytic value
      CHECK(exact >= packets * 97 / 100);  // and almost every packet meets it exactly
      // (the up to 3 % that meet another packet wait at most a packet or two: about 1 % on the mean)
      CHECK(measured / packets == Approx(analytic / packets).epsilon(0.01));
      // Beside the total: routers crossed (minimal routes) and latency without source queueing.
      CHECK(r["latency"]["hops_avg"].get<double>() == Approx(static_cast<double>(routers) / labelled));
      CHECK(r["latency"]["network_avg"].get<double>() == Approx(static_cast<double>(in_network) / labelled));
      CHECK(r["latency"]["network_avg"].get<double>() <= r["latency"]["avg"].get<double>());
    }
  }
}

TEST_CASE("an overloaded network ends with a saturated verdict instead of hanging", "[net]") {
  tb::Run run({"topology.kind=mesh", "topology.dims=[4, 4]", "traffic.pattern=hotspot",
               "traffic.hotspot_fraction=1", "traffic.load=0.9", "sim.measure_cycles=2000",
               "sim.drain_limit_cycles=2000"});
  const nlohmann::json r = run.Results();
  CHECK(r["verdict"] == "saturated");
  CHECK(r["verdict_reason"].get<std::string>().find("saturated or deadlocked") != std::string::npos);
  CHECK(r["sim"]["cycles"] == 200 * 10 + 2000 + 2000);
  CHECK(r["check"]["ok"] == true);  // nothing lost: the packets are still in flight
  CHECK(r["packets"]["in_flight"].get<uint64_t>() > 0);
}

TEST_CASE("a CIOQ router has the input-queued zero-load latency and loses nothing", "[net]") {
  const std::vector<std::string> base = {"topology.kind=kary_ntree", "topology.k=4", "topology.n=2",
                                         "traffic.load=0.001", "sim.measure_cycles=30000"};
  std::vector<std::string> cioq = base;
  cioq.push_back("router.output_queue_flits=16");
  cioq.push_back("router.speedup=2");
  const nlohmann::json iq = tb::Run(base).Results();
  const nlohmann::json oq = tb::Run(cioq).Results();
  CHECK(oq["latency"]["p50"] == iq["latency"]["p50"]);
  CHECK(oq["check"]["ok"] == true);
  // Under load the speed-up lets the CIOQ router accept at least as much.
  std::vector<std::string> loaded = cioq;
  loaded.push_back("traffic.load=0.7");
  tb::Run heavy(loaded);
  heavy.sim->RunToEnd();
  tb::DrainedResults(heavy, 100000);
}

TEST_CASE("traffic patterns map nodes as defined", "[net]") {
  icn::Rng rng(1);
  const icn::Pattern complement("complement", {64}, {}, 0);
  CHECK(complement.Destination(0b000101, rng) == 0b111010);
  const icn::Pattern butterfly("butterfly", {64}, {}, 0);
  CHECK(butterfly.Destination(0b100000, rng) == 0b000001);
  CHECK(butterfly.Destination(0b000110, rng) == 0b000110);
  const icn::Pattern shuffle("perfect_shuffle", {64}, {}, 0);
  CHECK(shuffle.Destination(0b100101, rng) == 0b001011);
  const icn::Pattern reverse("bit_reverse", {64}, {}, 0);
  CHECK(reverse.Destination(0b000011, rng) == 0b110000);
  const icn::Pattern transpose("transpose", {8, 8}, {}, 0);
  CHECK(transpose.Destination(3 * 8 + 5, rng) == 5 * 8 + 3);
  const icn::Pattern tornado("tornado", {8, 8}, {}, 0);
  CHECK(tornado.Destination(0, rng) == 3 + 3 * 8);
  const icn::Pattern neighbor("neighbor", {8, 8}, {}, 0);
  CHECK(neighbor.Destination(7 + 8 * 7, rng) == 0);
  const icn::Pattern uniform("uniform", {16}, {}, 0);
  std::map<int, int> seen;
  for (int i = 0; i < 16000; ++i) ++seen[uniform.Destination(5, rng)];
  CHECK(seen.count(5) == 0);
  CHECK(seen.size() == 15);
  const icn::Pattern hotspot("hotspot", {16}, {3}, 0.5);
  int hot = 0;
  for (int i = 0; i < 10000; ++i) hot += hotspot.Destination(0, rng) == 3;
  CHECK(hot == Approx(10000 * (0.5 + 0.5 / 16)).epsilon(0.05));
}

TEST_CASE("load profiles: constant, piecewise-linear ramp, on/off bursts", "[net]") {
  icn::TrafficParams t;
  t.load = 0.3;
  CHECK(icn::LoadProfile(t).LoadAt(12345) == 0.3);
  t.profile = icn::LoadProfileKind::kRamp;
  t.ramp = {{1000, 0.1}, {3000, 0.5}, {4000, 0.2}};
  const icn::LoadProfile ramp(t);
  CHECK(ramp.LoadAt(0) == Approx(0.1));
  CHECK(ramp.LoadAt(2000) == Approx(0.3));
  CHECK(ramp.LoadAt(3500) == Approx(0.35));
  CHECK(ramp.LoadAt(9000) == Approx(0.2));
  t.profile = icn::LoadProfileKind::kBursts;
  t.burst_on = 100;
  t.burst_off = 300;
  const icn::LoadProfile bursts(t);
  CHECK(bursts.LoadAt(99) == 0.3);
  CHECK(bursts.LoadAt(100) == 0.0);
  CHECK(bursts.LoadAt(399) == 0.0);
  CHECK(bursts.LoadAt(400) == 0.3);
  // The offered load a run measures follows the profile.
  tb::Run run({"topology.kind=mesh", "topology.dims=[4, 4]", "traffic.profile=bursts", "traffic.load=0.4",
               "traffic.burst_on_cycles=500", "traffic.burst_off_cycles=1500", "sim.measure_cycles=40000"});
  CHECK(run.Results()["throughput"]["offered"].get<double>() == Approx(0.1).epsilon(0.1));
}

TEST_CASE("a sink reports a flit that is out of order or at the wrong node", "[net]") {
  struct Recorder : icn::SinkObserver {
    std::vector<std::string> problems;
    int delivered = 0;
    void OnDelivered(uint32_t, uint64_t) override { ++delivered; }
    void OnViolation(const std::string& what) override { problems.push_back(what); }
  } recorder;
  icn::PacketPool pool;
  const uint32_t id = pool.Allocate();
  pool[id].live = true;
  pool[id].dst = 1;
  pool[id].flits = 3;
  icn::Nic right(1, 2, icn::VcRelease::kTailSent, pool, recorder);
  icn::Nic wrong(2, 2, icn::VcRelease::kTailSent, pool, recorder);
  icn::Flit flit;
  flit.packet = id;
  flit.flags = icn::Flit::kHead;
  wrong.Receive(flit, 10);  // wrong node
  CHECK(recorder.problems.size() == 1);
  right.Receive(flit, 10);
  flit.flags = 0;
  flit.index = 2;
  right.Receive(flit, 11);  // flit 1 skipped
  CHECK(recorder.problems.size() == 2);
  flit.index = 1;
  right.Receive(flit, 12);
  flit.index = 2;
  flit.flags = icn::Flit::kTail;
  right.Receive(flit, 13);
  CHECK(recorder.problems.size() == 2);
  CHECK(recorder.delivered == 1);
}

TEST_CASE("a recorded violation fails the end-of-run check", "[net]") {
  tb::Run run({"topology.kind=mesh", "topology.dims=[2, 2]", "sim.measure_cycles=100"});
  run.sim->RunToEnd();
  run.sim->stats().OnViolation("test: a flit went missing");
  const nlohmann::json r = run.sim->Finish(0);
  CHECK(r["check"]["ok"] == false);
  CHECK(r["check"]["problems"][0] == "test: a flit went missing");
}

TEST_CASE("timeseries.csv follows the load profile window by window", "[net]") {
  tb::Run run({"topology.kind=mesh", "topology.dims=[4, 4]", "traffic.profile=bursts", "traffic.load=0.3",
               "traffic.burst_on_cycles=2000", "traffic.burst_off_cycles=2000", "sim.timeseries_cycles=2000",
               "sim.warmup_cycles=0", "sim.measure_cycles=20000"});
  run.Results();
  std::istringstream csv(run.sim->timeseries_csv());
  std::string line;
  std::getline(csv, line);
  CHECK(line.rfind("cycle,offered", 0) == 0);  // the header first: any CSV reader takes the file
  int rows = 0;
  while (std::getline(csv, line)) {
    const double offered = std::stod(line.substr(line.find(',') + 1));
    // Windows alternate between bursts at 0.3 and silence.
    CHECK(offered == Approx(rows % 2 == 0 ? 0.3 : 0.0).margin(0.05));
    ++rows;
  }
  CHECK(rows == 10);
}

TEST_CASE("the watchdog ends a run whose flits stop moving as deadlocked, naming the oldest packet",
          "[net]") {
  tb::Run run({"topology.kind=mesh", "topology.dims=[4, 4]", "traffic.load=0.2", "sim.warmup_cycles=0",
               "sim.measure_cycles=100000", "sim.stall_limit_cycles=5000"});
  for (int i = 0; i < 2000; ++i) run.sim->Tick();
  for (const auto& ch : run.network().channels()) ch->set_tx_enabled(false);  // nothing may move
  run.sim->RunToEnd();
  const nlohmann::json r = run.sim->Finish(0);
  CHECK(r["verdict"] == "deadlocked");
  CHECK(r["sim"]["cycles"].get<uint64_t>() < 2000 + 5000 + 2 * 1024);  // stopped, not run to the end
  CHECK(r["stalled_packet"]["waits_at"].get<std::string>().find("flit") == 0);
  CHECK(r["check"]["ok"] == true);  // nothing lost: the packets are still in the network
}

TEST_CASE("the watchdog ends a run that starves one node's packets while others flow", "[net]") {
  tb::Run run({"topology.kind=mesh", "topology.dims=[4, 4]", "traffic.load=0.1", "sim.warmup_cycles=0",
               "sim.measure_cycles=100000", "sim.starvation_limit_cycles=20000"});
  for (const auto& ch : run.network().channels()) {
    if (ch->source().nic && ch->source().nic->id() == 5) ch->set_tx_enabled(false);  // node 5 cannot inject
  }
  run.sim->RunToEnd();
  const nlohmann::json r = run.sim->Finish(0);
  INFO(r["stalled_packet"].dump());
  CHECK(r["verdict"] == "starved");
  CHECK(r["stalled_packet"]["src"] == 5);
  CHECK(r["stalled_packet"]["waits_at"].get<std::string>().find("source queue of node 5") !=
        std::string::npos);
  CHECK(r["stalled_packet"]["age_cycles"].get<uint64_t>() >= 20000);
}

TEST_CASE("a packet waiting far beyond the median latency is named in a starved warning, the run goes on",
          "[net]") {
  // Megafly's silent bursts with 1-flit buffers: one packet waits about 140 times the median.
  const std::vector<std::string> sets = {"workload.kind=silent_bursts", "router.vc_buffer_flits=1"};
  tb::Run run("perfbound_megafly", sets);
  const nlohmann::json r = run.Results();
  INFO(r["starved"].dump());
  CHECK(r["verdict"] == "ok");
  REQUIRE(r.contains("starved"));
  const nlohmann::json& s = r["starved"];
  CHECK(s["waited_cycles"].get<double>() > 100 * r["latency"]["p50"].get<double>());
  CHECK(s["median_latency"] == r["latency"]["p50"]);
  CHECK(s["waits_at"].get<std::string>().find("in router") != std::string::npos);
  bool warned = false;
  for (const auto& w : r["warnings"]) {
    const std::string text = w;
    warned |= text.rfind("starved: packet " + s["packet"].dump() + " from node " + s["src"].dump() +
                             " to node " + s["dst"].dump(),
                         0) == 0;
  }
  CHECK(warned);
  // Off, or with a factor above the wait: no warning, and nothing else in the results moves.
  for (const std::string factor : {"0", "200"}) {
    std::vector<std::string> more = sets;
    more.push_back("sim.starved_factor=" + factor);
    tb::Run quiet("perfbound_megafly", more);
    nlohmann::json q = quiet.Results();
    CHECK_FALSE(q.contains("starved"));
    nlohmann::json expected = r;
    expected.erase("starved");
    expected["warnings"].erase(expected["warnings"].size() - 1);
    expected["params"]["sim"]["starved_factor"] = std::stod(factor);
    CHECK(tb::WithoutTiming(q) == tb::WithoutTiming(expected));
  }
}

TEST_CASE("two runs reported as never finishing now finish, the slow one without a watchdog verdict",
          "[net]") {
  // Reproducers of undelivered packets. The torus left 19 of 140 labelled packets undelivered for 2 M cycles
  // under the old router (VCs reused only after the tail's credit, greedy VC allocation); it now
  // finishes in about 4,100 cycles.
  tb::Run torus({"topology.kind=torus", "topology.dims=[3, 4, 2]", "router.vcs=3", "router.vc_buffer_flits=7",
                 "router.pipeline_cycles=1", "link.latency_cycles=2", "traffic.packet_flits=7",
                 "traffic.load=0.0224", "sim.seed=365157620894", "traffic.pattern=tornado",
                 "eee.mode=fast_wake", "eee.pdt_ns=0", "sim.warmup_cycles=500", "sim.measure_cycles=2000",
                 "sim.drain_limit_cycles=2000000"});
  const nlohmann::json t = torus.Results();
  CHECK(t["verdict"] == "ok");
  CHECK(t["sim"]["cycles"].get<uint64_t>() < 10000);
  // Deep sleep with t_PDT = 1 ns and one VC: the paper's rules (a link whose output queue empties
  // asks to sleep; a sleep in progress completes before the wake) make every gap between packets
  // cost t_s + t_w = 6,480 cycles of no transmission. Measured over the whole run (FST trace of every
  // port), the busiest link (r12-r16) went through 39 sleep/wake rounds (252,720 cycles in
  // transitions, 68,960 in LPI, 5,642 awake) and carried 2 packets per round: the run crawls to
  // about 320,000 cycles because of the rounds, not because a packet is left behind. Checked here:
  // it finishes, and its length scales with the cost of a round.
  const std::vector<std::string> mesh_keys = {"topology.kind=mesh",
                                              "topology.dims=[4, 5]",
                                              "router.vcs=1",
                                              "router.vc_buffer_flits=7",
                                              "router.pipeline_cycles=3",
                                              "link.latency_cycles=3",
                                              "traffic.pattern=uniform",
                                              "traffic.packet_flits=2",
                                              "traffic.load=0.0826",
                                              "eee.pdt_ns=1",
                                              "sim.seed=255736620382",
                                              "sim.warmup_cycles=500",
                                              "sim.measure_cycles=2000",
                                              "sim.drain_limit_cycles=3000000",
                                              "traffic.profile=ramp",
                                              "traffic.ramp=[[0, 0.0826], [2500, 0.0826], [2501, 0]]"};
  const auto run_mesh = [&](std::vector<std::string> extra) {
    extra.insert(extra.begin(), mesh_keys.begin(), mesh_keys.end());
    const nlohmann::json r = tb::Run(extra).Results();
    CHECK(r["verdict"] == "ok");
    CHECK(r["packets"]["labelled_delivered"] == r["packets"]["labelled"]);
    return static_cast<double>(r["sim"]["cycles"].get<uint64_t>());
  };
  const double deep = run_mesh({"eee.mode=deep_sleep"});  // round: 2,000 + 4,480 cycles
  const double fast = run_mesh({"eee.mode=fast_wake"});   // round: 200 + 375 cycles
  const double round_ratio = (2000.0 + 4480.0) / (200.0 + 375.0);
  INFO("deep " << deep << " cycles, fast wake " << fast << " cycles");
  CHECK(deep / fast > 0.8 * round_ratio);
  CHECK(deep / fast < 1.25 * round_ratio);
  // A t_PDT longer than the gaps keeps the links awake: the same traffic then drains at once.
  CHECK(run_mesh({"eee.mode=deep_sleep", "eee.pdt_ns=1000"}) < 3000);
}

TEST_CASE("clock jumps change no result: every bundled scenario, and low-load runs that jump", "[net]") {
  // (scenario, overrides): the bundled scenarios shortened, then runs quiet enough to jump often.
  const std::vector<std::pair<std::string, std::vector<std::string>>> runs = {
      {"default", {"sim.measure_cycles=5000"}},
      {"fattree_onoff_load", {"sim.warmup_cycles=3000", "sim.measure_cycles=6000"}},
      {"fattree_onoff_ramp",
       {"sim.measure_cycles=12000", "traffic.ramp=[[0, 0.06], [4000, 0.3], [8000, 0.01]]"}},
      {"fattree_onoff_low_penalty", {"sim.warmup_cycles=3000", "sim.measure_cycles=6000"}},
      {"erapid_static", {"sim.warmup_cycles=1000", "sim.measure_cycles=4000"}},
      {"perfbound_megafly", {"workload.iterations=2", "eee.perfbound.period_ns=20000"}},
      {"reference_mesh", {"sim.measure_cycles=3000"}},
      {"reference_torus8", {"sim.measure_cycles=3000"}},
      {"reference_torus444", {"sim.measure_cycles=3000"}},
      {"reference_tree", {"sim.measure_cycles=3000"}},
      {"default", {"eee.mode=off", "traffic.load=0.001", "sim.timeseries_cycles=700"}},
      {"default",
       {"eee.mode=off", "traffic.load=0.001", "sim.warmup=steady", "sim.steady_period_cycles=3000",
        "sim.warmup_limit_cycles=20000"}},
      {"default",  // periods ending at a warm-up that is not a multiple of them
       {"eee.mode=off", "traffic.load=0.001", "sim.warmup_cycles=7300", "sim.steady_period_cycles=2000"}},
      {"default", {"eee.mode=deep_sleep", "eee.pdt_ns=100", "topology.n=2", "traffic.load=0.0005"}},
      {"default",
       {"eee.mode=fast_wake", "eee.policy=perfbound_correct", "eee.perfbound.initial_pdt_ns=1000",
        "eee.perfbound.period_ns=3000", "topology.n=2", "traffic.load=0.0005"}},
      {"fattree_onoff_load", {"traffic.load=0.001", "sim.warmup_cycles=3000", "sim.measure_cycles=20000"}},
      {"default",
       {"eee.mode=fast_wake", "eee.pdt_ns=100", "traffic.profile=bursts", "traffic.burst_on_cycles=300",
        "traffic.burst_off_cycles=10000", "traffic.load=0.05", "sim.measure_cycles=40000",
        "sim.timeseries_cycles=1000"}},
  };
  for (const auto& [scenario, sets] : runs) {
    std::vector<std::string> off = sets;
    off.push_back("sim.clock_jumps=false");
    tb::Run jumping(scenario, sets);
    tb::Run stepping(scenario, off);
    const nlohmann::json a = jumping.Results();
    const nlohmann::json b = stepping.Results();
    INFO(scenario << " " << nlohmann::json(sets).dump() << ": jumped " << a["sim"]["jumped_cycles"]);
    CHECK(b["sim"]["jumped_cycles"] == 0);
    CHECK(tb::WithoutTiming(a) == tb::WithoutTiming(b));
    CHECK(jumping.sim->timeseries_csv() == stepping.sim->timeseries_csv());
    // Every kind of controller lets the run jump (EEE ports also while packets wait for a wake-up).
    const uint64_t jumped = a["sim"]["jumped_cycles"].get<uint64_t>();
    if (a["params"]["traffic"]["load"].get<double>() <= 0.001 || scenario == "perfbound_megafly" ||
        a["params"]["traffic"]["profile"] == "bursts") {
      const bool deep = a["params"]["eee"]["mode"] == "deep_sleep";
      CHECK(jumped > (deep ? 0 : a["sim"]["cycles"].get<uint64_t>() / 10));
    }
  }
}

namespace {

// The steady-state periods of a run agree: largest at most (1 + tolerance) x smallest.
bool PeriodsAgree(const nlohmann::json& steady) {
  const nlohmann::json& periods = steady["periods"];
  if (periods.size() != 3) return false;
  for (const char* quantity : {"accepted", "latency"}) {
    double lo = 1e300, hi = 0;
    for (const auto& p : periods) {
      lo = std::min(lo, p[quantity].get<double>());
      hi = std::max(hi, p[quantity].get<double>());
    }
    if (hi > (1 + steady["tolerance"].get<double>()) * lo) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("the steady-state rule opens the window once three periods agree, and judges a fixed warm-up",
          "[net]") {
  const std::vector<std::string> mesh = {"topology.kind=mesh",
                                         "topology.dims=[4,4]",
                                         "eee.mode=off",
                                         "traffic.load=0.3",
                                         "traffic.packet_flits=4",
                                         "sim.measure_cycles=2000",
                                         "sim.steady_period_cycles=500"};
  auto with = [&mesh](std::vector<std::string> sets) {
    sets.insert(sets.begin(), mesh.begin(), mesh.end());
    return sets;
  };
  tb::Run steady(with({"sim.warmup=steady", "sim.warmup_cycles=1000"}));
  const nlohmann::json s = steady.Results();
  const uint64_t warmup = s["sim"]["warmup_cycles"].get<uint64_t>();
  INFO(s["steady_state"].dump());
  CHECK(s["converged"] == true);
  CHECK(s["steady_state"]["rule"] == "steady");
  CHECK(warmup >= 1500);  // three whole periods
  CHECK(warmup % 500 == 0);
  CHECK(s["steady_state"]["periods"].back()["end"] == warmup);
  CHECK(PeriodsAgree(s["steady_state"]));
  CHECK(s["sim"]["cycles"].get<uint64_t>() >= warmup + 2000);
  // ... and at the first period end where they agree: one period earlier they did not.
  if (warmup >= 2000) {
    tb::Run earlier(with({"sim.warmup_cycles=" + std::to_string(warmup - 500)}));
    CHECK(earlier.Results()["converged"] == false);
  }
  // One rule: a fixed warm-up of the same length sees the same periods and is judged steady ...
  tb::Run fixed(with({"sim.warmup_cycles=" + std::to_string(warmup)}));
  const nlohmann::json f = fixed.Results();
  CHECK(f["converged"] == true);
  CHECK(f["steady_state"]["rule"] == "fixed");
  CHECK(f["steady_state"]["periods"] == s["steady_state"]["periods"]);
  CHECK(f["latency"] == s["latency"]);
  // ... one holding fewer than three periods is not.
  tb::Run short_warmup(with({"sim.warmup_cycles=1000"}));
  const nlohmann::json w = short_warmup.Results();
  CHECK(w["converged"] == false);
  CHECK(w["steady_state"]["periods"].size() == 2);
  // A saturated network never agrees: the window opens at the limit, not converged.
  tb::Run saturated(with({"traffic.load=0.9", "sim.warmup=steady", "sim.warmup_limit_cycles=4000",
                          "sim.drain_limit_cycles=1000"}));
  const nlohmann::json x = saturated.Results();
  CHECK(x["converged"] == false);
  CHECK(x["sim"]["warmup_cycles"] == 4000);
  CHECK_FALSE(PeriodsAgree(x["steady_state"]));
  // Periods that delivered nothing measure nothing: they never agree.
  tb::Run empty(with({"traffic.load=0", "sim.warmup=steady", "sim.warmup_limit_cycles=3000"}));
  const nlohmann::json e = empty.Results();
  CHECK(e["converged"] == false);
  CHECK(e["sim"]["warmup_cycles"] == 3000);
}
