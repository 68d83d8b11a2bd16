// SPDX-License-Identifier: Apache-2.0
// Registration of the EEE port controllers: keys, validation, adapter, energy, view.
#include <algorithm>

#include "core/errors.h"
#include "core/units.h"
#include "mech/eee/eee_config.h"
#include "mech/eee/eee_links.h"

namespace icn {
namespace {

std::vector<KeySpec> Keys() {
  return {
      ChoiceKey("eee.mode", "off", {"off", "fast_wake", "deep_sleep"}, "EEE low-power idle"),
      RealKey("eee.pdt_ns", "1000", 0, kUnbounded, "ns",
              "power-down threshold (2^32-1 cycles or more = never)"),
      ChoiceKey("eee.policy", "fixed", {"fixed", "perfbound", "perfbound_correct"},
                "how each port chooses t_PDT: eee.pdt_ns, PerfBound, or PerfBound with the correction"),
      RealKey("eee.bound", "0.01", 1e-4, 0.5, "", "PerfBound performance bound (0.01 = 1 %)"),
      RealKey("eee.perfbound.period_ns", "100000", 1, 1e12, "ns",
              "PerfBound period X: t_PDT is recomputed every X (the paper gives no value)"),
      RealKey("eee.perfbound.initial_pdt_ns", "100000", 0, kUnbounded, "ns",
              "PerfBound's t_PDT until a port's first search (the paper gives no value; 2^32-1 cycles "
              "or more = never)"),
      ChoiceKey("eee.hist.strategy", "self_clearing", {"self_clearing", "sliding", "unbounded"},
                "PerfBound idle-period histogram: cleared after h_maxN values, last h_maxN values, or never "
                "cleared"),
      ChoiceKey("eee.wake_handshake", "answered", {"answered", "eager"},
                "power-up handshake: answered = request, answer, both ends start together (2L + 1 cycles "
                "after the request, L = the link's latency); eager = the requester starts 1 cycle after its "
                "request, the partner when it arrives"),
      RealKey("eee.wake_power_w", "24", 0, 1e6, "W", "port power awake and in transitions"),
      RealKey("eee.fast_wake.power_w", "9.6", 0, 1e6, "W", "port power in fast-wake LPI"),
      RealKey("eee.fast_wake.t_wake_ns", "375", 0, kUnbounded, "ns", "fast-wake t_w"),
      RealKey("eee.fast_wake.t_sleep_ns", "200", 0, kUnbounded, "ns", "fast-wake t_s"),
      RealKey("eee.deep_sleep.power_w", "2.4", 0, 1e6, "W", "port power in deep-sleep LPI"),
      RealKey("eee.deep_sleep.t_wake_ns", "4480", 0, kUnbounded, "ns", "deep-sleep t_w"),
      RealKey("eee.deep_sleep.t_sleep_ns", "2000", 0, kUnbounded, "ns", "deep-sleep t_s"),
  };
}

// A transition time in cycles, within the RTL's 24-bit transition counter.
uint32_t TransitionCycles(const std::string& key, double ns, double cycle_ns,
                          std::vector<std::string>& warnings) {
  const uint64_t cycles = NsToCycles(key, ns, cycle_ns, warnings);
  constexpr uint64_t kMax = (1u << 24) - 1;
  if (cycles > kMax) {
    throw ScenarioError(key + ": " + std::to_string(cycles) + " cycles exceeds the controller's 24-bit " +
                        "transition counter; allowed: [0, " + std::to_string(kMax) + "] cycles");
  }
  return static_cast<uint32_t>(cycles);
}

// The LPI depth and its transitions.
void ParseDepth(const MechanismParseContext& context, EeeConfig& e) {
  const Scenario& s = context.scenario;
  const std::string depth = e.mode == EeeMode::kDeepSleep ? "eee.deep_sleep." : "eee.fast_wake.";
  e.lpi_power_w = s.Real(depth + "power_w");
  if (e.mode == EeeMode::kOff) return;
  const double cycle_ns = context.sim.cycle_ns;
  e.wake_cycles =
      TransitionCycles(depth + "t_wake_ns", s.Real(depth + "t_wake_ns"), cycle_ns, context.warnings);
  e.sleep_cycles =
      TransitionCycles(depth + "t_sleep_ns", s.Real(depth + "t_sleep_ns"), cycle_ns, context.warnings);
  if (e.lpi_power_w > e.wake_power_w) {
    throw ScenarioError(depth + "power_w: LPI power " + std::to_string(e.lpi_power_w) +
                        " W exceeds eee.wake_power_w; allowed: [0, " + std::to_string(e.wake_power_w) + "]");
  }
}

// A t_PDT key in cycles, 2^32 - 1 (never) and above saturating.
uint32_t PdtCycles(const std::string& key, const MechanismParseContext& context) {
  const uint64_t cycles = NsToCycles(key, context.scenario.Real(key), context.sim.cycle_ns, context.warnings);
  return cycles >= 0xffffffffULL ? 0xffffffffu : static_cast<uint32_t>(cycles);
}

// How t_PDT is chosen: fixed, or PerfBound's search every period X (with or without correction).
void ParsePolicy(const MechanismParseContext& context, EeeConfig& e) {
  const Scenario& s = context.scenario;
  const std::string& policy = s.Text("eee.policy");
  e.policy = policy == "perfbound"           ? PdtPolicy::kPerfBound
             : policy == "perfbound_correct" ? PdtPolicy::kPerfBoundCorrect
                                             : PdtPolicy::kFixed;
  e.bound = s.Real("eee.bound");
  e.period_cycles =
      std::max<uint64_t>(1, NsToCycles("eee.perfbound.period_ns", s.Real("eee.perfbound.period_ns"),
                                       context.sim.cycle_ns, context.warnings));
  e.initial_pdt_cycles = PdtCycles("eee.perfbound.initial_pdt_ns", context);
  const std::string& strategy = s.Text("eee.hist.strategy");
  e.hist_strategy = strategy == "sliding" ? 1 : strategy == "unbounded" ? 2 : 0;
  if (e.policy == PdtPolicy::kFixed) return;
  if (e.period_cycles > 0xffffffffULL) {
    throw ScenarioError(
        "eee.perfbound.period_ns: " + std::to_string(e.period_cycles) +
        " cycles exceeds the controller's 32-bit period register; allowed: [1, 4294967295] cycles");
  }
}

// Every value is converted (and warned about) even with EEE off, as the results record them all.
std::unique_ptr<MechanismConfig> Parse(const MechanismParseContext& context) {
  const Scenario& s = context.scenario;
  auto e = std::make_unique<EeeConfig>();
  const std::string& mode = s.Text("eee.mode");
  e->mode = mode == "fast_wake"    ? EeeMode::kFastWake
            : mode == "deep_sleep" ? EeeMode::kDeepSleep
                                   : EeeMode::kOff;
  e->pdt_cycles = PdtCycles("eee.pdt_ns", context);
  e->eager_wake = s.Text("eee.wake_handshake") == "eager";
  e->wake_power_w = s.Real("eee.wake_power_w");
  ParseDepth(context, *e);
  ParsePolicy(context, *e);
  if (e->mode == EeeMode::kOff) return nullptr;
  return e;
}

// The ports sit at the wormhole network's link ends; PerfBound chooses the t_PDT of ports that sleep.
std::vector<KeyRule> Rules() {
  return {
      {{"eee.mode", "network.switching"},
       "eee.mode = off, or EEE on with network.switching = wormhole",
       [](const Scenario& s) -> std::string {
         if (s.Text("eee.mode") == "off" || s.Text("network.switching") == "wormhole") return "";
         return s.Show("eee.mode") + " with " + s.Show("network.switching");
       }},
      {{"eee.policy", "eee.mode"},
       "eee.policy = fixed, or perfbound and perfbound_correct with EEE on (eee.mode not off)",
       [](const Scenario& s) -> std::string {
         if (s.Text("eee.policy") == "fixed" || s.Text("eee.mode") != "off") return "";
         return s.Show("eee.policy") + " with eee.mode = off";
       }},
  };
}

std::unique_ptr<Mechanism> Make(const MechanismConfig& config, const MechanismContext& context) {
  return MakeEeeLinks(static_cast<const EeeConfig&>(config), context);
}

// Without EEE an Ethernet port is always awake; a network of one-way (optical) wires has none.
EnergyLedger::Group* EnergyWhenOff(const Scenario& s, const Fabric& fabric, EnergyLedger& ledger) {
  for (const LinkEnd& end : fabric.link_ends()) {
    if (!end.tx || !end.rx) return nullptr;
  }
  return &ledger.AddGroup("eee_port", {"wake"}, {s.Real("eee.wake_power_w")},
                          static_cast<int>(fabric.link_ends().size()));
}

std::string View(const MechanismConfig& config) {
  return static_cast<const EeeConfig&>(config).policy == PdtPolicy::kFixed ? "waves/eee_port.gtkw"
                                                                           : "waves/perfbound.gtkw";
}

}  // namespace

MechanismInfo EeeMechanism() {
  return {"eee",  "eee.mode", "off",         "link power", Keys(),
          Parse,  Make,       EnergyWhenOff, View,         {"default", "perfbound_megafly"},
          Rules()};
}

}  // namespace icn
