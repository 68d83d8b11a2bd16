// SPDX-License-Identifier: Apache-2.0
// Builds and runs a network in-process (no SystemC kernel) from key=value overrides of the
// defaults. Keeps the scenario and parameters alive as long as the simulation that refers to them.
#pragma once
#include <cstdlib>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/scenario.h"
#include "net/wormhole_network.h"
#include "run/run_params.h"
#include "run/simulation.h"

#include "catch.h"

namespace tb {

struct Run {
  explicit Run(const std::vector<std::string>& sets, icn::RunOptions options = {}) : Run(sets, kParamsOnly) {
    StartSimulation(options);
  }
  // Scenario and parameters only: the test may change the parameters, then StartSimulation().
  static constexpr struct ParamsOnly {
  } kParamsOnly{};
  // Tests run on one thread unless they set sim.threads (the thread tests).
  Run(const std::vector<std::string>& sets, ParamsOnly) : scenario(icn::AllKeys()) {
    scenario.Set("sim.threads", "1");
    for (const auto& s : sets) {
      const auto eq = s.find('=');
      scenario.Set(s.substr(0, eq), s.substr(eq + 1));
    }
    scenario.set_name("test");
    params = icn::MakeRunParams(scenario);
  }
  // A bundled scenario (sim/scenarios/<name>.yaml) with "key=value" overrides.
  Run(const std::string& bundled, const std::vector<std::string>& sets)
      : scenario(icn::Scenario::Load(icn::AllKeys(),
                                     std::string(ICNSIM_SOURCE_DIR) + "/sim/scenarios/" + bundled + ".yaml",
                                     OneThreadUnlessSet(sets))) {
    params = icn::MakeRunParams(scenario);
    StartSimulation({});
  }
  void StartSimulation(const icn::RunOptions& options) {
    sim = std::make_unique<icn::Simulation>(scenario, params, options);
  }
  // The wormhole data plane of the run.
  icn::WormholeNetwork& network() { return dynamic_cast<icn::WormholeNetwork&>(sim->fabric()); }
  // The one active mechanism.
  icn::Mechanism* mechanism() {
    REQUIRE(sim->mechanisms().size() == 1);
    return sim->mechanisms().front().get();
  }
  // Runs to the end of the drain and returns results.json as it would be written.
  nlohmann::json Results() {
    sim->RunToEnd();
    return sim->Finish(0.0);
  }
  icn::Scenario scenario;
  icn::RunParams params;
  std::unique_ptr<icn::Simulation> sim;

 private:
  static std::vector<std::string> OneThreadUnlessSet(std::vector<std::string> sets) {
    sets.insert(sets.begin(), "sim.threads=1");  // (a later override wins)
    return sets;
  }
};

// After the run: stops generating, drains the network within `limit` cycles, and requires every
// packet delivered whole, in order, at its node. Returns results.json.
inline nlohmann::json DrainedResults(Run& run, uint64_t limit = 200000) {
  REQUIRE(run.sim->DrainAll(limit));
  const nlohmann::json r = run.sim->Finish(0);
  INFO(r["check"].dump());
  REQUIRE(r["check"]["ok"] == true);
  REQUIRE(r["packets"]["injected"] == r["packets"]["delivered"]);
  REQUIRE(r["packets"]["in_flight"] == 0);
  REQUIRE(r["packets"]["injected"].get<uint64_t>() > 0);
  return r;
}

// Results without the fields that depend on the machine's speed, or on whether the run jumped
// over quiet cycles (which must change nothing else).
inline nlohmann::json WithoutTiming(nlohmann::json r) {
  r["sim"].erase("wall_s");
  r["sim"].erase("cycles_per_s");
  r["sim"].erase("jumped_cycles");
  r["params"]["sim"].erase("clock_jumps");
  r.erase("git_revision");
  r.erase("provenance");
  r.erase("trace");
  return r;
}

// Whether a mechanism is one of the declared controllers the tests register (the examples of
// examples/ and the fixtures of tb/controllers/: tb/net/test_declared_network.cpp), which icnsim
// does not.
inline bool IsTested(const std::string& mechanism) {
  const std::string tested = "," ICNSIM_TESTED_CONTROLLERS ",";
  return tested.find("," + mechanism + ",") != std::string::npos;
}

// Results of a run in the tests without the keys of those controllers (all off), as icnsim writes
// them.
inline nlohmann::json WithoutTested(nlohmann::json r) {
  std::istringstream tested(ICNSIM_TESTED_CONTROLLERS);
  for (std::string name; std::getline(tested, name, ',');) r["params"].erase(name);
  return r;
}

// Runs two simulations of the same scenario, one with the fast clocking (fixed points skipped,
// clock jumps) and one with every controller clocked every cycle, requiring the mechanism's register
// digest to be equal on every cycle the fast one stops at and the results to be equal at the end
// (the controllers' register toggles included: skipping an edge must skip only edges that toggle
// nothing).
inline void RequireSameEveryCycle(Run& fast, Run& slow) {
  const icn::Mechanism* a = fast.mechanism();
  const icn::Mechanism* b = slow.mechanism();
  bool running = true;
  while (running) {
    running = fast.sim->Tick();
    bool slow_running = true;
    while (slow_running && slow.sim->cycle() < fast.sim->cycle()) slow_running = slow.sim->Tick();
    REQUIRE(slow_running == running);
    INFO("cycle " << fast.sim->cycle());
    REQUIRE(slow.sim->cycle() == fast.sim->cycle());
    REQUIRE(a->Digest() == b->Digest());
  }
  const nlohmann::json results = WithoutTiming(fast.sim->Finish(0));
  CHECK(results == WithoutTiming(slow.sim->Finish(0)));
  CHECK(results["energy"]["controllers_j"].get<double>() > 0);
}

inline void RequireSameEveryCycle(const std::vector<std::string>& sets) {
  icn::RunOptions reference;
  reference.every_edge = true;
  Run fast(sets);
  Run slow(sets, reference);
  RequireSameEveryCycle(fast, slow);
}

// Sizes not built in neither verilated on first use nor found in a cache (mech/model_catalogue.h)
// while this lives: a test of the refusal that depends neither on the machine's toolchain nor on
// its user's cache. The variables are restored.
class NoSizesOnDemand {
 public:
  NoSizesOnDemand()
      : policy_("ICNSIM_ON_DEMAND", "off"), cache_("XDG_CACHE_HOME", "/nonexistent/icnsim-tests") {}

 private:
  class Setting {
   public:
    Setting(const char* variable, const char* value) : variable_(variable) {
      if (const char* before = std::getenv(variable)) before_ = before;
      setenv(variable, value, 1);
    }
    ~Setting() { before_ ? setenv(variable_, before_->c_str(), 1) : unsetenv(variable_); }

   private:
    const char* variable_;
    std::optional<std::string> before_;
  };
  Setting policy_, cache_;
};

}  // namespace tb
