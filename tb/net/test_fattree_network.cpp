// Fat-tree on/off links inside the network: nothing lost while links turn off and on, power never
// below the Minimal Tree's limit, links settling at constant load, all links back on under high
// load, and the fast clocking equal to two-eval clocking cycle for cycle.
#include <catch2/catch.hpp>

#include <sstream>

#include "mech/fattree/fattree_links.h"
#include "net/net_util.h"
#include "unit/dut.h"

namespace {

std::vector<std::string> Tree(std::initializer_list<std::string> more) {
  std::vector<std::string> sets = {"topology.kind=kary_ntree",
                                   "topology.k=4",
                                   "topology.n=3",
                                   "router.vcs=3",
                                   "router.vc_buffer_flits=4",
                                   "traffic.packet_flits=16",
                                   "fattree_onoff.enabled=true"};
  sets.insert(sets.end(), more);
  return sets;
}

nlohmann::json Report(tb::Run& run) {
  nlohmann::json r;
  run.mechanism()->Report(r);
  return r["fattree_onoff"];
}

}  // namespace

TEST_CASE("with links turning off and on nothing is lost", "[net][fattree]") {
  const uint64_t seed = tb::TestSeed();
  for (uint64_t s = seed; s < seed + 3; ++s) {
    for (const char* profile : {"constant", "ramp"}) {
      INFO("seed " << s << ", " << profile);
      tb::Run run(
          Tree({"sim.seed=" + std::to_string(s), std::string("traffic.profile=") + profile,
                "traffic.load=0.05", "traffic.ramp=[[0, 0.02], [8000, 0.45], [16000, 0.45], [24000, 0.02]]",
                "fattree_onoff.check_cycles=500", "fattree_onoff.t_on_cycles=200",
                "fattree_onoff.t_off_cycles=200", "sim.warmup_cycles=2000", "sim.measure_cycles=26000"}));
      run.sim->RunToEnd();
      const nlohmann::json r = tb::DrainedResults(run);
      CHECK(r["fattree_onoff"]["transitions"].get<uint64_t>() > 0);
    }
  }
}

TEST_CASE("link power reaches the Minimal Tree limit at very low load and never goes below it",
          "[net][fattree]") {
  for (const auto& tree : std::vector<std::vector<std::string>>{{"topology.k=4", "topology.n=3"},
                                                                {"topology.k=2", "topology.n=4"},
                                                                {"topology.k=3", "topology.n=3"}}) {
    std::vector<std::string> sets =
        Tree({"traffic.load=0.005", "sim.warmup_cycles=20000", "sim.measure_cycles=20000"});
    sets.insert(sets.end(), tree.begin(), tree.end());
    tb::Run run(sets);
    const nlohmann::json r = run.Results();
    const double p_min = r["fattree_onoff"]["p_min"];
    INFO(tree[0] << " " << tree[1] << ": p_min " << p_min << ", relative power "
                 << r["energy"]["links_relative"]);
    CHECK(r["fattree_onoff"]["min_active_fraction"].get<double>() >= p_min - 1e-12);
    CHECK(r["energy"]["links_relative"].get<double>() >= p_min - 1e-12);
    CHECK(r["energy"]["links_relative"].get<double>() < p_min + 0.02);
    CHECK(r["check"]["ok"] == true);
  }
}

// At constant load the links settle. The power may still step down slowly: a switch whose
// utilisation sits just above U_off turns an up link off when one 2000-cycle measurement dips
// below it. So the check is on links turned back on, which an oscillation does. The occupancy
// meter is not linear in the load (a leaf's single up link stalls behind the Minimal Tree's
// level-1 link and reads above U_on; with two it reads below U_off), so at load 0.1 with 0.3/0.65
// about 1.3 % of the links turn on again each period (measured 0.0127; README, fat-tree).
TEST_CASE("at constant load the links settle, or flip a bounded few", "[net][fattree]") {
  for (const auto& [meter, max_on_rate] : {std::pair{"flits", 0.002}, std::pair{"occupancy", 0.02}}) {
    for (const char* load : {"0.02", "0.1", "0.2", "0.3"}) {
      INFO(meter << " meter, load " << load);
      tb::Run run(Tree({std::string("traffic.load=") + load, std::string("fattree_onoff.meter=") + meter,
                        "sim.warmup_cycles=30000", "sim.measure_cycles=60000"}));
      auto* onoff = static_cast<icn::FattreeLinks*>(run.mechanism());
      for (int i = 0; i < 30000; ++i) run.sim->Tick();
      const uint64_t settled = Report(run)["transitions"];
      double powered = onoff->PoweredFraction(), low = powered, high = powered, turned_on = 0;
      for (int i = 0; i < 60000; ++i) {
        run.sim->Tick();
        turned_on += std::max(0.0, onoff->PoweredFraction() - powered);
        powered = onoff->PoweredFraction();
        low = std::min(low, powered);
        high = std::max(high, powered);
      }
      const double links = 384, periods = 60000 / 2000;
      const double rate = (Report(run)["transitions"].get<double>() - settled) / (links * periods);
      const double on_rate = turned_on / periods;  // fraction of the links turned on per period
      INFO("powered " << low << " .. " << high << ", transitions per link per period " << rate
                      << ", links turned on per period " << on_rate);
      CHECK(on_rate < max_on_rate);
      if (std::string(meter) == "flits") CHECK(high - low <= 0.03);  // the first pass's band
    }
  }
}

TEST_CASE("under high load every link is back on and latency equals the network without the mechanism",
          "[net][fattree]") {
  const nlohmann::json off = tb::Run(Tree({"fattree_onoff.enabled=false", "traffic.load=0.45",
                                           "sim.warmup_cycles=20000", "sim.measure_cycles=20000"}))
                                 .Results();
  const nlohmann::json on =
      tb::Run(Tree({"traffic.load=0.45", "sim.warmup_cycles=20000", "sim.measure_cycles=20000"})).Results();
  CHECK(on["energy"]["links_relative"].get<double>() > 0.97);
  CHECK(on["latency"]["avg"].get<double>() == Approx(off["latency"]["avg"].get<double>()).epsilon(0.05));
}

TEST_CASE("fat-tree fast clocking matches two evals per cycle cycle for cycle", "[net][fattree]") {
  const auto sets =
      Tree({"traffic.profile=ramp", "traffic.ramp=[[0, 0.02], [4000, 0.4], [8000, 0.02]]",
            "fattree_onoff.check_cycles=300", "fattree_onoff.t_on_cycles=100",
            "fattree_onoff.t_off_cycles=100", "sim.warmup_cycles=1000", "sim.measure_cycles=9000"});
  tb::RequireSameEveryCycle(sets);  // the occupancy meter: switches with waiting packets never skip
  std::vector<std::string> flits = sets;
  flits.push_back("fattree_onoff.meter=flits");
  tb::RequireSameEveryCycle(flits);
}

TEST_CASE("the mechanism's column in timeseries.csv follows the ramp", "[net][fattree]") {
  tb::Run run(Tree(
      {"traffic.profile=ramp", "traffic.ramp=[[0, 0.02], [6000, 0.02], [9000, 0.45], [20000, 0.45]]",
       "fattree_onoff.check_cycles=500", "fattree_onoff.t_on_cycles=200", "fattree_onoff.t_off_cycles=200",
       "sim.warmup_cycles=0", "sim.measure_cycles=20000", "sim.timeseries_cycles=1000"}));
  const nlohmann::json r = run.Results();
  std::istringstream csv(run.sim->timeseries_csv());
  std::string line;
  std::getline(csv, line);
  REQUIRE(line.substr(line.rfind(',') + 1) == "fattree_onoff.links_powered");
  std::vector<double> powered;
  while (std::getline(csv, line)) powered.push_back(std::stod(line.substr(line.rfind(',') + 1)));
  REQUIRE(powered.size() >= 20);  // and one more per 1000 cycles of drain
  const double p_min = r["fattree_onoff"]["p_min"];
  for (double p : powered) {
    CHECK(p >= p_min - 1e-12);
    CHECK(p <= 1.0);
  }
  CHECK(powered[5] < 0.6);   // at load 0.02 the Minimal Tree and little more
  CHECK(powered[19] > 0.9);  // at 0.45 nearly every link
}
