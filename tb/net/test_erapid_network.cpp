// SPDX-License-Identifier: Apache-2.0
// The E-RAPID network with its static wavelength assignment (NP-NB): the lasers lit where the
// paper's Figure 1 puts them, nothing lost under its four traffic patterns, and complement traffic
// saturating where one optical channel per board pair says it must. Then with its controllers in
// the loop (Lock-Step DBR and DPM): re-allocation under full load loses nothing and lifts
// complement several-fold, DPM slows idle lasers, and skipping quiet boards equals clocking every board every
// cycle.
#include "catch.h"

#include "core/errors.h"
#include "core/rng.h"
#include "mech/erapid/erapid_control.h"
#include "mech/model_catalogue.h"
#include "net/net_util.h"
#include "net/topologies/erapid.h"
#include "unit/dut.h"

namespace {

// The channel of laser (x, y), wherever it is lit.
icn::Channel& Laser(icn::WormholeNetwork& net, const icn::ErapidShape& shape, int x, int y) {
  for (const auto& router : net.routers()) {
    if (const icn::Channel* laser = router->output(shape.LaserPort(x, y)))
      return const_cast<icn::Channel&>(*laser);
  }
  FAIL("laser (" << x << ", " << y << ") is lit nowhere");
  throw std::logic_error("unreachable");
}

// An optical channel's flits per cycle at 10 Gb/s: 128-bit flits at 400 MHz move 51.2 Gb/s.
constexpr double kRate = 10 * 2.5 / 128;
// The static network's complement throughput: all D = 8 nodes of a board share one channel.
constexpr double kComplementStatic = kRate / 8;

// Lasers toward board y lit at board s.
int Held(icn::WormholeNetwork& net, const icn::ErapidShape& shape, int s, int y) {
  int held = 0;
  for (int x = 0; x < shape.boards; ++x) held += net.routers()[s]->output(shape.LaserPort(x, y)) != nullptr;
  return held;
}

}  // namespace

// R(1, 4, 4), Figure 1 of the paper: board s reaches board d on wavelength (s - d) mod 4, e.g.
// board 1 -> 0 on lambda_1 and board 0 -> 1 on lambda_3; every receiver x of board y is fed by
// exactly one laser (x, y), and the spare (0, y) is board y's own.
TEST_CASE("the static wavelength assignment is the paper's Figure 1", "[net][erapid]") {
  tb::Run run("erapid_static",
              {"topology.erapid.boards=4", "topology.erapid.nodes_per_board=4", "sim.measure_cycles=10"});
  const icn::ErapidShape& shape = *icn::ErapidShapeOf(run.network().topology());
  CHECK(shape.StaticWavelength(1, 0) == 1);
  CHECK(shape.StaticWavelength(0, 1) == 3);
  CHECK(shape.StaticWavelength(2, 0) == 2);
  CHECK(shape.StaticWavelength(0, 2) == 2);
  const auto& routers = run.network().routers();
  for (int s = 0; s < 4; ++s) {
    for (int d = 0; d < 4; ++d) {
      if (s == d) continue;
      const int paper = d > s ? 4 - (d - s) : s - d;  // the paper's rule, as written
      INFO("board " << s << " -> " << d << ": lambda_" << paper);
      CHECK(routers[s]->output(shape.LaserPort(paper, d)) != nullptr);
    }
  }
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      int lit = 0;
      for (int s = 0; s < 4; ++s) {
        const icn::Channel* laser = routers[s]->output(shape.LaserPort(x, y));
        if (!laser) continue;
        ++lit;
        INFO("laser (" << x << ", " << y << ") lit at board " << s);
        CHECK(s == (y + x) % 4);
        CHECK(laser->destination().router->id() == y);
        CHECK(laser->destination().port == shape.ReceiverPort(x));
        CHECK(laser->rate() == Approx(kRate));
      }
      CHECK(lit == 1);
      CHECK(routers[y]->input(shape.ReceiverPort(x)) != nullptr);
    }
  }
}

TEST_CASE("nothing is lost on the static network under the paper's four patterns", "[net][erapid]") {
  for (const char* pattern : {"uniform", "complement", "butterfly", "perfect_shuffle"}) {
    INFO(pattern);
    tb::Run run("erapid_static", {std::string("traffic.pattern=") + pattern, "traffic.load=0.3",
                                  "sim.warmup_cycles=1000", "sim.measure_cycles=5000"});
    run.sim->RunToEnd();
    tb::DrainedResults(run);
  }
}

// Complement sends all D nodes of board s to board B - 1 - s over its one lit laser, so the
// network saturates at rate / D = (10 / 51.2) / 8 = 0.024 flits per node and cycle, 0.127 of the
// capacity N_c = rate x 63 / 64 (the paper: about 0.1 without re-allocation); uniform spreads over
// all B - 1 lasers and goes far beyond.
TEST_CASE("complement saturates at one optical channel per board pair", "[net][erapid]") {
  const nlohmann::json complement =
      tb::Run("erapid_static", {"traffic.pattern=complement", "traffic.load=0.4", "sim.drain_limit_cycles=1"})
          .Results();
  CHECK(complement["throughput"]["capacity"].get<double>() == Approx(kRate * 63 / 64));
  CHECK(complement["throughput"]["accepted"].get<double>() == Approx(kComplementStatic).epsilon(0.01));
  CHECK(complement["throughput"]["accepted_of_capacity"].get<double>() == Approx(8.0 / 63).epsilon(0.01));
  const nlohmann::json uniform =
      tb::Run("erapid_static", {"traffic.pattern=uniform", "traffic.load=0.4"}).Results();
  CHECK(uniform["verdict"] == "ok");
  const nlohmann::json& u = uniform["throughput"];
  CHECK(u["offered_of_capacity"].get<double>() == Approx(0.4).epsilon(0.05));
  CHECK(u["accepted_of_capacity"].get<double>() ==
        Approx(u["offered_of_capacity"].get<double>()).epsilon(0.01));
}

// The other reading of the paper's flit: its 32-bit channels as the flit, four times the flits per
// cycle on an optical channel, and flits/node/cycle as the load's unit.
TEST_CASE("32-bit flits carry four times the flits per cycle", "[net][erapid]") {
  const nlohmann::json r =
      tb::Run("erapid_static", {"topology.erapid.flit_bits=32", "traffic.load_unit=flits", "traffic.load=0.4",
                                "sim.drain_limit_cycles=1"})
          .Results();
  CHECK(r["throughput"]["capacity"].get<double>() == Approx(4 * kRate * 63 / 64));
  CHECK(r["throughput"]["accepted"].get<double>() == Approx(4 * kComplementStatic).epsilon(0.01));
}

// Each board's spare (laser (0, d), idle at board d) handed to the board that sends to d under
// complement: two channels per board pair, twice the saturation throughput, and the routing
// spreads packets over both without being told.
TEST_CASE("spare wavelengths moved to the complement's sources double its throughput", "[net][erapid]") {
  tb::Run run("erapid_static",
              {"traffic.pattern=complement", "traffic.load=0.4", "sim.drain_limit_cycles=1"});
  icn::WormholeNetwork& net = run.network();
  const icn::ErapidShape& shape = *icn::ErapidShapeOf(net.topology());
  for (int d = 0; d < shape.boards; ++d) {
    net.MoveSource(Laser(net, shape, 0, d), shape.boards - 1 - d, shape.LaserPort(0, d));
    CHECK(Held(net, shape, shape.boards - 1 - d, d) == 2);
  }
  const nlohmann::json r = run.Results();
  CHECK(r["throughput"]["accepted"].get<double>() == Approx(2 * kComplementStatic).epsilon(0.02));
}

// Busy lasers change hands under uniform traffic, as DBR hands them over: routing stops choosing
// the laser, its packets leave and drain, its sending end moves to another board, routing may
// choose it there. Each source keeps a laser toward every board. Nothing is lost or reordered.
TEST_CASE("lasers handed between boards under traffic lose nothing", "[net][erapid]") {
  icn::Rng rng(tb::TestSeed());
  tb::Run run("erapid_static",
              {"topology.erapid.boards=4", "topology.erapid.nodes_per_board=4", "traffic.pattern=uniform",
               "traffic.load=0.3", "sim.warmup_cycles=1000", "sim.measure_cycles=20000"});
  icn::WormholeNetwork& net = run.network();
  const icn::ErapidShape& shape = *icn::ErapidShapeOf(net.topology());
  icn::Channel& busy = Laser(net, shape, 1, 0);
  while (net.Drained(busy)) REQUIRE(run.sim->Tick());
  REQUIRE_THROWS_AS(net.MoveSource(busy, 2, shape.LaserPort(1, 0)), std::logic_error);  // flits in flight
  int moves = 0;
  while (run.sim->cycle() < 20000) {
    const int x = static_cast<int>(rng.Below(shape.boards)), y = static_cast<int>(rng.Below(shape.boards));
    icn::Channel& laser = Laser(net, shape, x, y);
    const int from = laser.source().router->id();
    const int to = static_cast<int>(rng.Below(shape.boards));
    if (to == y || to == from || (from != y && Held(net, shape, from, y) < 2)) continue;
    laser.set_routable(false);
    uint64_t waited = 0;
    while (!net.Drained(laser) || *net.routers()[from]->demand(shape.LaserPort(x, y)) != 0) {
      REQUIRE(run.sim->Tick());
      REQUIRE(++waited < 5000);
    }
    const uint64_t sent = laser.busy_cycles();
    net.MoveSource(laser, to, shape.LaserPort(x, y));
    laser.set_routable(true);
    for (int i = 0; i < 300; ++i) REQUIRE(run.sim->Tick());
    CHECK(laser.source().router->id() == to);
    moves += laser.busy_cycles() > sent;  // the new source sends on it
  }
  INFO(moves << " moves carried traffic at their new source");
  CHECK(moves > 10);
  run.sim->RunToEnd();
  tb::DrainedResults(run);
}

namespace {

// The bundled scenario's network as key=value settings (for runs with options), and more.
std::vector<std::string> Erapid(std::vector<std::string> sets) {
  std::vector<std::string> all = {"topology.kind=erapid",
                                  "router.vcs=3",
                                  "router.vc_buffer_flits=8",
                                  "router.pipeline_cycles=3",
                                  "sim.cycle_ns=2.5",
                                  "traffic.packet_flits=8",
                                  "eee.mode=off"};
  all.insert(all.end(), sets.begin(), sets.end());
  return all;
}

const icn::ErapidControl& ErapidCtl(tb::Run& run) {
  return dynamic_cast<const icn::ErapidControl&>(*run.mechanism());
}

}  // namespace

// Complement at load 0.9: every board's B - 1 idle static wavelengths toward its one destination
// are freed, go dark and are granted to the one sender, up to N = 8. Wavelengths change hands under
// full load; the census proves nothing lost or reordered, and no wavelength is ever lit twice.
TEST_CASE("Lock-Step re-allocation under full load loses nothing and lifts complement", "[net][erapid]") {
  for (const char* mode : {"np_b", "p_b"}) {
    INFO(mode);
    tb::Run run("erapid_static", {std::string("erapid.mode=") + mode, "traffic.pattern=complement",
                                  "traffic.load=0.9", "sim.warmup_cycles=5000", "sim.measure_cycles=10000"});
    run.sim->RunToEnd();
    const icn::ErapidControl& control = ErapidCtl(run);
    for (int y = 0; y < 8; ++y) {
      for (int x = 0; x < 8; ++x) CHECK(control.holder(x, y) == 7 - y);  // all eight to the sender
    }
    const nlohmann::json r = tb::DrainedResults(run);
    CHECK(r["erapid"]["collisions"] == 0);
    CHECK(r["erapid"]["wavelengths_moved"].get<int>() >= 56);
    CHECK(r["throughput"]["accepted"].get<double>() > 4 * kComplementStatic);  // several times static
  }
}

// The other built-in sizes: R(1, 4, 4), the paper's Figure 1, and R(1, 16, 4), twice its largest
// board count (unless configured out). Complement at full load hands every wavelength into board y
// to its one sender B - 1 - y (N = B) with nothing lost, lit twice or left behind. A size not built
// in, with sizes on demand off, is refused naming those that are and the configure option; more
// than 16 boards always are.
TEST_CASE("Lock-Step re-allocates on every built-in size as on 8 boards", "[net][erapid]") {
  std::string sizes;
  for (const icn::BuiltModel& model : icn::BuiltModels()) {
    if (std::string(model.top) != "erapid_board") continue;
    const int boards = std::stoi(std::string(model.params).substr(std::string("Boards=").size()));
    sizes += (sizes.empty() ? "" : ", ") + std::string(model.params);
    if (boards == 8) continue;  // (the test above)
    INFO(boards << " boards");
    const std::string b = std::to_string(boards);
    const int rw = icn::ErapidControl::MinWindow(boards) + 100;
    tb::Run run("erapid_static",
                {"topology.erapid.boards=" + b, "topology.erapid.nodes_per_board=4", "erapid.mode=p_b",
                 "erapid.degree=" + b, "erapid.rw_cycles=" + std::to_string(rw), "traffic.pattern=complement",
                 "traffic.load=0.9", "sim.warmup_cycles=" + std::to_string(3 * rw),
                 "sim.measure_cycles=" + std::to_string(2 * rw)});
    run.sim->RunToEnd();
    const icn::ErapidControl& control = ErapidCtl(run);
    for (int y = 0; y < boards; ++y) {
      for (int x = 0; x < boards; ++x) CHECK(control.holder(x, y) == boards - 1 - y);
    }
    const nlohmann::json r = tb::DrainedResults(run);
    CHECK(r["erapid"]["collisions"] == 0);
    CHECK(r["erapid"]["wavelengths_moved"].get<int>() >= boards * (boards - 1));
    // The static network: one channel per board pair, shared by the D = 4 nodes of a board.
    CHECK(r["throughput"]["accepted"].get<double>() > (boards / 2) * kRate / 4);
  }
  const tb::NoSizesOnDemand built_in_only;
  try {
    tb::Run run("erapid_static", {"topology.erapid.boards=6", "erapid.mode=p_b", "erapid.degree=2",
                                  "traffic.pattern=uniform"});
    FAIL("6 boards accepted");
  } catch (const icn::ScenarioError& e) {
    CHECK_THAT(e.what(), tb::Contains("topology.erapid.boards: erapid_board is built into this program for " +
                                      sizes + ", not Boards=6"));
    CHECK_THAT(e.what(), tb::Contains("-DICNSIM_EXTRA_MODELS=erapid_board:Boards=6"));
  }
  try {
    tb::Run run("erapid_static", {"topology.erapid.boards=17", "erapid.mode=p_b", "erapid.degree=2",
                                  "traffic.pattern=uniform"});
    FAIL("17 boards accepted");
  } catch (const icn::ScenarioError& e) {
    CHECK_THAT(e.what(), tb::Contains("erapid.mode, topology.erapid.boards: topology.erapid.boards = 17 with "
                                      "erapid.mode = p_b; allowed: topology.erapid.boards in [2, 16]"));
  }
}

// DPM alone on uniform traffic at a light load: lasers step down to 5 Gb/s, one level per window,
// and the link energy falls by more than half, with every packet delivered.
TEST_CASE("DPM steps idle lasers down to the lowest level", "[net][erapid]") {
  tb::Run run("erapid_static", {"erapid.mode=p_nb", "traffic.pattern=uniform", "traffic.load=0.1",
                                "sim.warmup_cycles=8000", "sim.measure_cycles=5000"});
  run.sim->RunToEnd();
  const icn::ErapidControl& control = ErapidCtl(run);
  CHECK(control.lit() == 56);  // no re-allocation: the static lasers only
  CHECK(control.MeanLevel() < 0.5);
  const nlohmann::json r = tb::DrainedResults(run);
  CHECK(r["energy"]["links_relative"].get<double>() < 0.5);
  CHECK(r["erapid"]["rate_changes"].get<int>() >= 56 * 5);
}

// The time series' Buffer_util: complement above the static capacity, P-NB (no wavelength moves),
// queues only the packets of board 7's one wavelength into board 0 (wavelength 7), which fill its
// queue beyond capacity; nothing waits for the others.
TEST_CASE("the time series' Buffer_util is the waiting packets of each wavelength over its queue",
          "[net][erapid]") {
  tb::Run run("erapid_p_b", {"erapid.mode=p_nb", "traffic.load=0.4", "sim.warmup_cycles=0",
                             "sim.measure_cycles=6000", "sim.timeseries_cycles=1000"});
  while (run.sim->cycle() < 5500) REQUIRE(run.sim->Tick());
  const std::vector<std::string> columns = run.mechanism()->TimeseriesColumns();
  REQUIRE(columns.back() == "erapid.buffer_util_w7_into0");
  std::vector<double> row;
  run.mechanism()->SampleTimeseries(row);  // the 500 cycles since the run's sample at 5000
  REQUIRE(row.size() == columns.size());
  const double* util = &row[row.size() - 8];
  for (int x = 0; x < 7; ++x) CHECK(util[x] == 0);
  CHECK(util[7] > 0.5);  // 500 cycles beyond capacity, over the 1000-cycle period
}

TEST_CASE("E-RAPID skipping quiet boards matches clocking every board every cycle", "[net][erapid]") {
  // A load step with an idle start (lasers go dark, the run jumps between windows) and a burst.
  tb::RequireSameEveryCycle(
      Erapid({"erapid.mode=p_b", "erapid.rw_cycles=500", "traffic.pattern=complement", "traffic.profile=ramp",
              "traffic.ramp=[[0, 0], [3000, 0], [3001, 0.4], [6000, 0.4], [6001, 0.02]]",
              "sim.warmup_cycles=0", "sim.measure_cycles=9000"}));
}

// Figure 5 of the paper needs steady state: a re-allocation takes two windows, so a 5,000-cycle
// warm-up at Rw = 4000 measures the static network's backlog, and the run says so.
TEST_CASE("erapid_p_b with a 5000-cycle warm-up at Rw = 4000 is not converged and the steady rule waits",
          "[net][erapid]") {
  tb::Run transient("erapid_p_b", {"erapid.rw_cycles=4000", "sim.measure_cycles=2000"});
  const nlohmann::json t = transient.Results();
  CHECK(t["sim"]["warmup_cycles"] == 5000);
  CHECK(t["steady_state"]["settle_cycles"] == 40000);
  CHECK(t["converged"] == false);
  // Not only too short: its periods disagree, the latency climbing as the backlog builds.
  const nlohmann::json& periods = t["steady_state"]["periods"];
  REQUIRE(periods.size() == 3);
  CHECK(periods[2]["latency"].get<double>() > 1.05 * periods[0]["latency"].get<double>());
  bool warned = false;
  for (const auto& w : t["warnings"])
    warned = warned || w.get<std::string>().find("settling time") != std::string::npos;
  CHECK(warned);
  tb::Run steady("erapid_p_b", {"erapid.rw_cycles=4000", "sim.warmup=steady", "sim.steady_period_cycles=4000",
                                "sim.measure_cycles=2000"});
  const nlohmann::json s = steady.Results();
  INFO(s["steady_state"].dump());
  CHECK(s["converged"] == true);
  // The first period end whose three periods all lie past the ten windows (docs/erapid.md quotes it).
  CHECK(s["sim"]["warmup_cycles"] == 52000);
  // In the transient the packets wait behind the static network's backlog.
  CHECK(t["latency"]["avg"].get<double>() > 5 * s["latency"]["avg"].get<double>());
}

// The paper's normalised power: the lit lasers' mean power over 10 Gb/s's, dark ones left out.
TEST_CASE("normalised laser power is the lit lasers' mean relative to 10 Gb/s", "[net][erapid]") {
  tb::Run fixed("erapid_static", {"sim.warmup_cycles=500", "sim.measure_cycles=2000"});
  const nlohmann::json f = fixed.Results()["energy"]["groups"]["laser"];
  CHECK(f["powered_mean"] == 56.0);
  CHECK(f["powered_relative"] == 1.0);
  tb::Run scaled("erapid_p_b", {"erapid.mode=p_nb", "traffic.load=0.02", "erapid.rw_cycles=500",
                                "sim.warmup_cycles=3000", "sim.measure_cycles=2000"});
  const nlohmann::json r = scaled.Results()["energy"]["groups"]["laser"];
  double lit = 0, watts = 0;
  for (int level = 0; level < icn::ErapidControl::kLevels; ++level) {
    const double cycles = r["state_cycles"][std::to_string(5 + level) + "gbps"].get<double>();
    lit += cycles;
    watts += cycles * icn::ErapidControl::kLaserPowerW[level];
  }
  INFO(r.dump());
  REQUIRE(lit > 0);
  CHECK(r["powered_relative"].get<double>() == Approx(watts / (lit * icn::ErapidControl::kLaserPowerW[5])));
  CHECK(r["powered_relative"].get<double>() < 0.5);  // DPM has walked the idle lasers down
  CHECK(r["powered_mean"].get<double>() == Approx(lit / 2000));
}
