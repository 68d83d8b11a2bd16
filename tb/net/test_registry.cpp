// SPDX-License-Identifier: Apache-2.0
// The harness's extension points: what each registered mechanism, topology and data plane
// declares holds, bundled scenarios turn on the mechanisms that name them, and the energy ledger
// adds up groups that each have their own power states.
#include "catch.h"

#include <filesystem>
#include <set>

#include "core/energy_ledger.h"
#include "core/errors.h"
#include "mech/registry.h"
#include "net/data_plane.h"
#include "net/net_util.h"

namespace fs = std::filesystem;

TEST_CASE("every mechanism declares its keys under its own name and its bundled scenarios turn it on",
          "[harness]") {
  std::set<std::string> names;
  for (const icn::MechanismInfo& m : icn::Mechanisms()) {
    INFO(m.name);
    CHECK(names.insert(m.name).second);
    const std::string prefix = std::string(m.name) + ".";
    bool has_switch = false;
    for (const icn::KeySpec& k : m.keys) {
      INFO(k.name);
      CHECK(std::string(k.name).rfind(prefix, 0) == 0);
      CHECK(std::string(k.help).size() > 5);
      has_switch = has_switch || m.switch_key == std::string(k.name);
    }
    CHECK(has_switch);
    CHECK(m.scenarios.empty() == tb::IsTested(m.name));  // (the tests' declared controllers bundle none)
    for (const std::string& scenario : m.scenarios) {
      INFO(scenario);
      tb::Run run(scenario, {});
      bool on = false;
      for (const icn::ActiveMechanism& a : run.params.mechanisms) {
        on = on || a.info == &m;
        CHECK(fs::exists(fs::path(ICNSIM_SOURCE_DIR) / a.info->view(*a.config)));  // its .gtkw
      }
      CHECK(on);
    }
  }
}

TEST_CASE("every topology builds consistent wiring from its defaults", "[harness]") {
  for (const icn::TopologyInfo& t : icn::Topologies()) {
    INFO(t.kind);
    tb::Run run({std::string("topology.kind=") + t.kind}, tb::Run::kParamsOnly);
    const icn::Topology& topo = *run.params.topology;
    REQUIRE(topo.nodes > 1);
    REQUIRE(static_cast<int>(topo.attach.size()) == topo.nodes);
    // Every router port carries at most one wire or node, and ports stay within the radix.
    std::set<std::pair<int, int>> used;
    const auto use = [&](int router, int port) {
      CHECK(router >= 0);
      CHECK(router < topo.routers);
      CHECK(port >= 0);
      CHECK(port < topo.ports);
      CHECK(used.insert({router, port}).second);
    };
    for (const icn::Wire& w : topo.wires) {
      use(w.a_router, w.a_port);
      use(w.b_router, w.b_port);
    }
    for (const icn::Attachment& a : topo.attach) use(a.router, a.port);
    int product = 1;
    for (int d : topo.PatternDims()) product *= d;
    CHECK(product == topo.nodes);
    CHECK(topo.RoutersOnPath(0, topo.nodes - 1) >= 1);
  }
}

TEST_CASE("the energy ledger sums groups with their own states and nominal state", "[harness]") {
  icn::EnergyLedger ledger(2.0);  // 2 ns cycles
  // An optical transmitter: laser off, then six bit-rate levels (mW), nominal = the highest.
  auto& optical = ledger.AddGroup("optical", {"off", "5G", "6G", "7G", "8G", "9G", "10G"},
                                  {0, 0.1088, 0.1637, 0.2325, 0.316, 0.417, 0.535}, 2, 6);
  auto& port = ledger.AddGroup("port", {"wake", "lpi"}, {24, 9.6}, 3);
  for (int c = 0; c < 10; ++c) ++optical.Counters(0)[6];
  for (int c = 0; c < 30; ++c) ++optical.Counters(1)[c < 20 ? 0 : 2];
  port.ChargeAllNominal(5);
  ++port.Counters(2)[1];
  CHECK(ledger.components() == 5);
  CHECK(optical.StateCycles(6) == 10);
  CHECK(optical.StateCycles(0) == 20);
  CHECK(port.StateCycles(0) == 15);
  const double cycle_s = 2e-9;
  const double energy = (10 * 0.535 + 10 * 0.1637 + 15 * 24 + 1 * 9.6) * cycle_s;
  const double nominal = (40 * 0.535 + 16 * 24) * cycle_s;
  CHECK(ledger.EnergyJ() == Approx(energy).epsilon(1e-12));
  CHECK(ledger.NominalJ() == Approx(nominal).epsilon(1e-12));
}

TEST_CASE("a run names the data plane it used, and only registered ones are accepted", "[harness]") {
  std::vector<std::string> names;
  for (const icn::DataPlaneInfo& d : icn::DataPlanes()) names.push_back(d.name);
  REQUIRE(names.front() == "wormhole");
  tb::Run run({"sim.measure_cycles=100"});
  CHECK(run.Results()["params"]["network"]["switching"] == "wormhole");
  CHECK_THROWS_AS(run.scenario.Set("network.switching", "carrier_pigeon"), icn::ScenarioError);
}
