// SPDX-License-Identifier: Apache-2.0
// The EEE port controllers inside the network: the latency and energy effects the paper reports,
// the equivalence of a never-expiring PDT with EEE off, and conservation with links sleeping.
#include "catch.h"

#include "mech/eee/eee_links.h"
#include "net/net_util.h"
#include "unit/dut.h"

namespace {

// Low load, deterministic routes: a 4x4 mesh where every packet crosses 2 to 8 links.
const std::vector<std::string> kLowLoadMesh = {"topology.kind=mesh", "topology.dims=[4, 4]",
                                               "traffic.load=0.002", "traffic.packet_flits=16",
                                               "sim.measure_cycles=150000"};

std::vector<std::string> With(std::vector<std::string> sets, std::initializer_list<std::string> more) {
  sets.insert(sets.end(), more);
  return sets;
}

}  // namespace

TEST_CASE("fast wake with PDT 0: latency rises by about t_w per sleeping hop while link energy falls",
          "[net][eee]") {
  const nlohmann::json off = tb::Run(With(kLowLoadMesh, {"eee.mode=off"})).Results();
  const nlohmann::json on = tb::Run(With(kLowLoadMesh, {"eee.mode=fast_wake", "eee.pdt_ns=0"})).Results();
  REQUIRE(off["check"]["ok"] == true);
  REQUIRE(on["check"]["ok"] == true);
  const double t_wake = 375;  // cycles at 1 ns
  const double t_sleep = 200;
  const double wakeups_per_packet =
      on["eee"]["wakeups"].get<double>() / on["packets"]["delivered"].get<double>();
  const double rise = on["latency"]["avg"].get<double>() - off["latency"]["avg"].get<double>();
  INFO("latency " << off["latency"]["avg"] << " -> " << on["latency"]["avg"] << ", wake-ups per packet "
                  << wakeups_per_packet);
  // Every link a packet crosses is asleep: between 1 and 7 wake-ups per packet here.
  CHECK(wakeups_per_packet > 3.0);
  // Each sleeping hop costs t_w plus the handshake; sometimes also the end of a TO_SLEEP.
  CHECK(rise > 0.95 * wakeups_per_packet * t_wake);
  CHECK(rise < wakeups_per_packet * (t_wake + t_sleep));
  // Fast-wake LPI draws 9.6 W of 24 W: the links sleep most of the time at this load.
  const double relative = on["energy"]["links_relative"].get<double>();
  CHECK(relative < 0.7);
  CHECK(relative > 0.4);
  // Without EEE every port is awake at 24 W for the whole window.
  CHECK(off["energy"]["links_j"].get<double>() ==
        Approx(off["energy"]["link_ends"].get<double>() * 24 * 150000e-9).epsilon(1e-12));
  CHECK(on["energy"]["links_j"].get<double>() < off["energy"]["links_j"].get<double>());
}

TEST_CASE("deep sleep pays off only when links stay idle far longer than its transitions", "[net][eee]") {
  // Nearly idle links: deep LPI (2.4 W) beats fast wake (9.6 W) despite its 6.5 us of transitions.
  const auto idle = With(kLowLoadMesh, {"traffic.load=0.0002", "sim.measure_cycles=300000", "eee.pdt_ns=0"});
  const nlohmann::json fast_idle = tb::Run(With(idle, {"eee.mode=fast_wake"})).Results();
  const nlohmann::json deep_idle = tb::Run(With(idle, {"eee.mode=deep_sleep"})).Results();
  CHECK(deep_idle["energy"]["links_relative"].get<double>() <
        fast_idle["energy"]["links_relative"].get<double>());
  CHECK(deep_idle["latency"]["avg"].get<double>() > 5 * fast_idle["latency"]["avg"].get<double>());
  // Ten times the load: deep sleep spends its time in transitions at full power and loses.
  const nlohmann::json fast = tb::Run(With(kLowLoadMesh, {"eee.mode=fast_wake", "eee.pdt_ns=0"})).Results();
  const nlohmann::json deep = tb::Run(With(kLowLoadMesh, {"eee.mode=deep_sleep", "eee.pdt_ns=0"})).Results();
  CHECK(deep["energy"]["links_relative"].get<double>() > fast["energy"]["links_relative"].get<double>());
  CHECK(deep["check"]["ok"] == true);
}

TEST_CASE("PDT all ones gives exactly the latency and energy of EEE off", "[net][eee]") {
  const std::vector<std::string> tree = {"topology.kind=kary_ntree", "topology.k=4", "topology.n=3",
                                         "traffic.load=0.3", "sim.measure_cycles=5000"};
  const nlohmann::json off = tb::Run(With(tree, {"eee.mode=off"})).Results();
  const nlohmann::json never = tb::Run(With(tree, {"eee.mode=fast_wake", "eee.pdt_ns=1e10"})).Results();
  CHECK(never["latency"] == off["latency"]);
  CHECK(never["throughput"] == off["throughput"]);
  CHECK(never["packets"] == off["packets"]);
  CHECK(never["energy"]["links_relative"] == 1.0);
  CHECK(never["energy"]["links_j"].get<double>() == Approx(off["energy"]["links_j"].get<double>()));
  CHECK(never["eee"]["sleeps"] == 0);
}

TEST_CASE("a longer PDT trades energy for latency", "[net][eee]") {
  double last_latency = 1e18;
  double last_energy = 0;
  for (const char* pdt : {"0", "200", "2000", "20000"}) {
    const nlohmann::json r =
        tb::Run(With(kLowLoadMesh, {"eee.mode=fast_wake", std::string("eee.pdt_ns=") + pdt,
                                    "traffic.load=0.01", "sim.measure_cycles=50000"}))
            .Results();
    INFO("pdt " << pdt << ": latency " << r["latency"]["avg"] << ", energy "
                << r["energy"]["links_relative"]);
    CHECK(r["latency"]["avg"].get<double>() < last_latency);
    CHECK(r["energy"]["links_relative"].get<double>() > last_energy);
    last_latency = r["latency"]["avg"].get<double>();
    last_energy = r["energy"]["links_relative"].get<double>();
  }
}

TEST_CASE("with links sleeping nothing is lost and no flit reaches a sleeping port", "[net][eee]") {
  const uint64_t seed = tb::TestSeed();
  for (const char* topo : {"kary_ntree", "torus", "mesh"}) {
    for (const char* pattern : {"uniform", "transpose", "hotspot", "neighbor"}) {
      for (const char* mode : {"fast_wake", "deep_sleep"}) {
        INFO(topo << ", " << pattern << ", " << mode);
        // Deep sleep with a short PDT collapses throughput (links spend their time in 6.5 us
        // transitions), so it gets a lighter load to drain in reasonable time.
        const bool deep = std::string(mode) == "deep_sleep";
        tb::Run run({std::string("topology.kind=") + topo, "topology.k=4", "topology.n=2",
                     std::string("traffic.pattern=") + pattern,
                     deep ? "traffic.load=0.01" : "traffic.load=0.15", std::string("eee.mode=") + mode,
                     "eee.pdt_ns=50", "link.latency_cycles=2", "sim.seed=" + std::to_string(seed),
                     "sim.warmup_cycles=500", "sim.measure_cycles=6000", "sim.drain_limit_cycles=60000"});
        run.sim->RunToEnd();
        const nlohmann::json r = tb::DrainedResults(run, 2000000);
        CHECK(r["eee"]["flits_at_sleeping_port"] == 0);
        CHECK(r["eee"]["sleeps"].get<uint64_t>() > 0);
      }
    }
  }
}

TEST_CASE("the energy ledger charges wake, transition and LPI power per port", "[net][eee]") {
  // An idle network: after reset every link goes to sleep once and stays asleep.
  tb::Run run({"topology.kind=mesh", "topology.dims=[2, 2]", "traffic.load=0", "eee.mode=deep_sleep",
               "eee.pdt_ns=10", "link.latency_cycles=1", "sim.warmup_cycles=0", "sim.measure_cycles=10000"});
  const nlohmann::json r = run.Results();
  // Per port: 1 start cycle, 10 PDT cycles, request + answer + start (2L + 1 = 3), then t_s = 2000
  // cycles of transition at full power; the rest in deep LPI.
  const double awake = 1 + 10 + 3 + 2000;
  const double expected = (awake * 24 + (10000 - awake) * 2.4) / (10000 * 24);
  CHECK(r["energy"]["links_relative"].get<double>() == Approx(expected).epsilon(1e-3));
  CHECK(r["energy"]["links_nominal_j"].get<double>() ==
        Approx(r["energy"]["link_ends"].get<double>() * 24 * 10000e-9));
}

TEST_CASE("skipping ports at fixed points matches clocking every port every cycle, cycle for cycle",
          "[net][eee]") {
  // Load 0: every port rests from its first cycles on and the run jumps from deadline to deadline
  // (with PDT 0 the ports are asleep before the window and have nothing to compare in it).
  for (const char* load : {"0", "0.01", "0.2", "0.5"}) {
    for (const char* pdt : {"0", "300"}) {
      if (std::string(load) == "0" && std::string(pdt) == "0") continue;
      const std::vector<std::string> sets = {"topology.kind=kary_ntree",
                                             "topology.k=4",
                                             "topology.n=2",
                                             std::string("traffic.load=") + load,
                                             "eee.mode=fast_wake",
                                             std::string("eee.pdt_ns=") + pdt,
                                             "link.latency_cycles=2",
                                             "sim.warmup_cycles=500",
                                             "sim.measure_cycles=5000"};
      INFO("load " << load << ", PDT " << pdt);
      tb::RequireSameEveryCycle(sets);
    }
  }
  // Deep sleep (long transitions, whose ends the ports read off the time base) and PerfBoundCorrect
  // (searches on the harness's pulse, t_PDT changing at run time).
  for (const char* policy : {"fixed", "perfbound_correct"}) {
    INFO("deep sleep, policy " << policy);
    tb::RequireSameEveryCycle({"topology.kind=kary_ntree", "topology.k=4", "topology.n=2",
                               "traffic.load=0.02", "eee.mode=deep_sleep", "eee.pdt_ns=700",
                               "eee.perfbound.initial_pdt_ns=700", std::string("eee.policy=") + policy,
                               "eee.perfbound.period_ns=3000", "sim.warmup_cycles=500",
                               "sim.measure_cycles=20000"});
  }
}

TEST_CASE("packets waiting for EEE links to wake let the run jump, with the results of every cycle stepped",
          "[net][eee]") {
  // Deep sleep: each hop of a packet waits out a 4.48 us wake-up with the packet inside.
  const std::vector<std::string> sets = {
      "topology.kind=kary_ntree", "topology.k=4",   "topology.n=2",           "traffic.load=0.0005",
      "eee.mode=deep_sleep",      "eee.pdt_ns=100", "sim.warmup_cycles=1000", "sim.measure_cycles=60000"};
  tb::Run jumping(sets);
  uint64_t still = 0;  // cycles jumped over with packets inside
  for (bool running = true; running;) {
    const uint64_t from = jumping.sim->cycle();
    const bool inside = jumping.sim->stats().created() != jumping.sim->stats().delivered();
    running = jumping.sim->Tick();
    if (inside) still += jumping.sim->cycle() - from - 1;
  }
  std::vector<std::string> off = sets;
  off.push_back("sim.clock_jumps=false");
  tb::Run stepping(off);
  stepping.sim->RunToEnd();
  const nlohmann::json a = jumping.sim->Finish(0);
  INFO("jumped " << a["sim"]["jumped_cycles"] << ", with packets inside " << still);
  CHECK(still > a["sim"]["cycles"].get<uint64_t>() / 10);
  CHECK(a["eee"]["wakeups"].get<uint64_t>() > 10);
  CHECK(tb::WithoutTiming(a) == tb::WithoutTiming(stepping.sim->Finish(0)));
}

TEST_CASE("EEE ports on links of different latencies: exact fast clocking, nothing lost", "[net][eee]") {
  // A 4x4 mesh whose x links take 3 cycles and y links 1: handshakes and control messages cross
  // each link in its own latency.
  std::vector<std::string> sets = {
      "topology.kind=mesh", "topology.dims=[4, 4]",     "traffic.load=0.05",     "eee.mode=fast_wake",
      "eee.pdt_ns=50",      "router.vc_buffer_flits=8", "sim.warmup_cycles=500", "sim.measure_cycles=8000"};
  const auto make = [&](const icn::RunOptions& options) {
    auto run = std::make_unique<tb::Run>(sets, tb::Run::kParamsOnly);
    auto topology = icn::MakeTopology(run->scenario, run->params.net.router);
    for (icn::Wire& w : topology->wires) {
      if (w.a_port == 1) w.attr.latency = 3;  // +x
    }
    run->params.topology = std::move(topology);
    run->StartSimulation(options);
    return run;
  };
  icn::RunOptions reference;
  reference.every_edge = true;
  auto fast = make({});
  auto slow = make(reference);
  tb::RequireSameEveryCycle(*fast, *slow);
  {
    // Idle, with ports going to sleep in the window: the run jumps between handshakes whose
    // messages cross links of different latencies (an outbox slot must be cleared before a jump).
    const std::vector<std::string> busy = sets;
    sets[2] = "traffic.load=0";
    sets[4] = "eee.pdt_ns=3000";
    auto idle_fast = make({});
    auto idle_slow = make(reference);
    tb::RequireSameEveryCycle(*idle_fast, *idle_slow);
    sets = busy;
  }
  auto run = make({});
  run->sim->RunToEnd();
  const nlohmann::json r = tb::DrainedResults(*run);
  CHECK(r["eee"]["flits_at_sleeping_port"] == 0);
  CHECK(r["eee"]["sleeps"].get<uint64_t>() > 100);
  CHECK(r["eee"]["wakeups"].get<uint64_t>() > 100);
}

TEST_CASE("eager wake: nothing lost, no flit at a sleeping port, exact fast clocking, and shorter waits",
          "[net][eee]") {
  const std::vector<std::string> sets = {
      "topology.kind=kary_ntree", "topology.k=4",          "topology.n=2",
      "traffic.load=0.05",        "eee.mode=fast_wake",    "eee.pdt_ns=50",
      "link.latency_cycles=2",    "sim.warmup_cycles=500", "sim.measure_cycles=8000"};
  std::vector<nlohmann::json> results;
  for (const char* handshake : {"answered", "eager"}) {
    std::vector<std::string> with = sets;
    with.push_back(std::string("eee.wake_handshake=") + handshake);
    tb::Run run(with);
    run.sim->RunToEnd();
    results.push_back(tb::DrainedResults(run, 200000));
    INFO(handshake);
    CHECK(results.back()["eee"]["flits_at_sleeping_port"] == 0);
    CHECK(results.back()["eee"]["wakeups"].get<uint64_t>() > 100);
  }
  // Each wake starts 2L = 4 cycles sooner; the packets that wait for one arrive sooner.
  CHECK(results[1]["latency"]["avg"].get<double>() < results[0]["latency"]["avg"].get<double>());
  std::vector<std::string> eager = sets;
  eager.push_back("eee.wake_handshake=eager");
  tb::RequireSameEveryCycle(eager);
}
