// SPDX-License-Identifier: Apache-2.0
// Registration of the fat-tree on/off link controllers: keys, validation, adapter, view.
#include "mech/fattree/fattree_config.h"
#include "mech/fattree/fattree_links.h"

namespace icn {
namespace {

std::vector<KeySpec> Keys() {
  return {
      BoolKey("fattree_onoff.enabled", "false", "on/off links with a Minimal Tree (k-ary n-tree)"),
      RealKey("fattree_onoff.u_off", "0.3", 0, 1, "",
              "turn an up link off below this utilisation (0 < U_off < U_on)"),
      RealKey("fattree_onoff.u_on", "0.65", 0, 1, "",
              "turn an up link on above this utilisation (U_on >= 2 U_off advised)"),
      // Occupancy by default: with the flit meter a wormhole bottleneck stalled on credits reads
      // at most ~0.7-0.8, so U_on >= 0.75 can hold a network in saturation (docs/fattree_onoff.md,
      // fattree_grid).
      ChoiceKey("fattree_onoff.meter", "occupancy", {"occupancy", "flits"},
                "what makes an up link busy in the utilisation: a flit sent or a packet committed to it "
                "and waiting (occupancy), or a flit sent only (flits, the paper's: a link stalled on "
                "credits reads idle, and with U_on >= 0.75 the network can stay saturated at loads it "
                "carries without the mechanism)"),
      IntKey("fattree_onoff.check_cycles", "2000", 1, 65535, "cycles", "check period of the thresholds"),
      IntKey("fattree_onoff.t_on_cycles", "1000", 0, 65535, "cycles",
             "a link carries flits this long after turning on"),
      IntKey("fattree_onoff.t_off_cycles", "1000", 0, 65535, "cycles",
             "a link draws power this long after turning off"),
      RealKey("fattree_onoff.link_power_w", "1", 0, 1e6, "W",
              "power of one unidirectional link when powered"),
  };
}

// Rules of an enabled mechanism: its thresholds ordered; a k-ary n-tree of switches its
// controller is built for.
std::vector<KeyRule> Rules() {
  const auto enabled = [](const Scenario& s) { return s.Bool("fattree_onoff.enabled"); };
  return {
      {{"fattree_onoff.u_off", "fattree_onoff.u_on"},
       "0 < fattree_onoff.u_off < fattree_onoff.u_on (0 < U_off < U_on <= 1) when enabled",
       [enabled](const Scenario& s) -> std::string {
         const double off = s.Real("fattree_onoff.u_off"), on = s.Real("fattree_onoff.u_on");
         if (!enabled(s) || (off > 0 && on > off)) return "";
         return s.Show("fattree_onoff.u_off") + " with " + s.Show("fattree_onoff.u_on");
       }},
      {{"fattree_onoff.enabled", "topology.kind", "topology.k"},
       "fattree_onoff.enabled = true with topology.kind = kary_ntree and topology.k <= " +
           std::to_string(FattreeLinks::kMaxArity) + " (the controller's switches)",
       [enabled](const Scenario& s) -> std::string {
         if (!enabled(s)) return "";
         if (s.Text("topology.kind") != "kary_ntree")
           return "fattree_onoff.enabled = true with " + s.Show("topology.kind");
         if (s.Int("topology.k") > FattreeLinks::kMaxArity)
           return "fattree_onoff.enabled = true with " + s.Show("topology.k");
         return "";
       }},
  };
}

std::unique_ptr<MechanismConfig> Parse(const MechanismParseContext& context) {
  const Scenario& s = context.scenario;
  auto f = std::make_unique<FattreeOnOffConfig>();
  f->u_off = s.Real("fattree_onoff.u_off");
  f->u_on = s.Real("fattree_onoff.u_on");
  f->occupancy_meter = s.Text("fattree_onoff.meter") == "occupancy";
  f->check_cycles = static_cast<int>(s.Int("fattree_onoff.check_cycles"));
  f->t_on = static_cast<int>(s.Int("fattree_onoff.t_on_cycles"));
  f->t_off = static_cast<int>(s.Int("fattree_onoff.t_off_cycles"));
  f->link_power_w = s.Real("fattree_onoff.link_power_w");
  if (!s.Bool("fattree_onoff.enabled")) return nullptr;
  // Alonso et al. advise U_on >= 2 U_off: turning the second-last up link off doubles the load of
  // the last one, which then crosses U_on, and the links may oscillate. Advice, not a rule: the
  // paper runs pairs that break it.
  if (f->u_on < 2 * f->u_off - 1e-12) {
    context.warnings.push_back(
        "fattree_onoff.u_on = " + std::to_string(f->u_on) +
        " < 2 x fattree_onoff.u_off = " + std::to_string(2 * f->u_off) +
        ": Alonso et al. advise U_on >= 2 U_off, else the last up links may turn off and on "
        "in turn");
  }
  return f;
}

std::unique_ptr<Mechanism> Make(const MechanismConfig& config, const MechanismContext& context) {
  return std::make_unique<FattreeLinks>(static_cast<const FattreeOnOffConfig&>(config), context);
}

std::string View(const MechanismConfig&) { return "waves/fattree_onoff.gtkw"; }

}  // namespace

MechanismInfo FattreeOnOffMechanism() {
  return {"fattree_onoff",
          "fattree_onoff.enabled",
          "false",
          "link power",
          Keys(),
          Parse,
          Make,
          nullptr,
          View,
          {"fattree_onoff_load", "fattree_onoff_ramp", "fattree_onoff_low_penalty"},
          Rules()};
}

}  // namespace icn
