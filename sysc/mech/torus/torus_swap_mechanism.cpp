// SPDX-License-Identifier: Apache-2.0
// Registration of the reconfigurable torus's node-swap controllers (Shafarenko and Vasekin): keys,
// validation, adapter, view.
#include "mech/torus/torus_swap_config.h"
#include "mech/torus/torus_swap_control.h"

namespace icn {
namespace {

std::vector<KeySpec> Keys() {
  return {
      BoolKey(
          "torus_swap.enabled", "false",
          "node swaps in the packet-step torus (network.switching = packet_step): one controller per node "
          "per directed cycle"),
      ChoiceKey(
          "torus_swap.variant", "adaptive", {"fixed", "randomised", "adaptive"},
          "threshold R: fixed; randomised each period, uniform in [0, 2R); adaptive, starting at R, up a "
          "step after a period with a swap, down a step after rare_periods without"),
      IntKey("torus_swap.threshold", "100", 0, 65535, "hops",
             "R: a swap when M - C_r > R (M: hops the last period's traffic would have saved)"),
      IntKey("torus_swap.period_cycles", "256", 2, 32767, "steps", "T: the observation period"),
      IntKey("torus_swap.block_cycles", "32", 1, 32767, "steps",
             "Tr: a re-steered receiver is blocked this long while the beams switch (b's in the paper's "
             "protocol; a's, b's and c's with drain)"),
      ChoiceKey("torus_swap.protocol", "paper", {"paper", "drain"},
                "a swap: paper, the beams switch at once and only b's input is blocked for Tr (a pair's "
                "packets may cross; absorption restores their order); drain, a holds its output and b "
                "drains its queues in this cycle first, then the receivers of a, b and c are blocked"),
      ChoiceKey("torus_swap.back_credit", "hops", {"hops", "ring"},
                "F'_ba in M (b's packets to a in the opposite cycle): hops, the hops the swap saves each "
                "(d - 1 for a packet taking d hops there; our reading of the paper's M); ring, l = P - 2 "
                "per packet (the paper's formula as written)"),
      IntKey("torus_swap.cost_hops", "32", 0, 65535, "hops", "C_r: a swap's cost in the criterion"),
      IntKey("torus_swap.step", "8", 1, 65535, "hops", "the adaptive threshold's step"),
      IntKey("torus_swap.rare_periods", "4", 1, 255, "periods",
             "the adaptive threshold goes down after this many periods without a swap at the node"),
  };
}

std::unique_ptr<MechanismConfig> Parse(const MechanismParseContext& context) {
  const Scenario& s = context.scenario;
  auto c = std::make_unique<TorusSwapConfig>();
  c->variant = s.Text("torus_swap.variant");
  c->variant_code = c->variant == "fixed" ? 0 : c->variant == "randomised" ? 1 : 2;
  c->threshold = static_cast<int>(s.Int("torus_swap.threshold"));
  c->period = static_cast<int>(s.Int("torus_swap.period_cycles"));
  c->block = static_cast<int>(s.Int("torus_swap.block_cycles"));
  c->drain = s.Text("torus_swap.protocol") == "drain";
  c->back_credit_hops = s.Text("torus_swap.back_credit") == "hops";
  c->cost = static_cast<int>(s.Int("torus_swap.cost_hops"));
  c->step = static_cast<int>(s.Int("torus_swap.step"));
  c->rare_periods = static_cast<int>(s.Int("torus_swap.rare_periods"));
  c->seed = context.sim.seed;
  if (!s.Bool("torus_swap.enabled")) return nullptr;
  c->nodes = context.topology.PatternDims().front();
  return c;
}

// Rules of enabled swaps: they move nodes of the packet-step torus, whose rings (every side) are
// of one size the controllers take, and a swap's blocking fits in a period.
std::vector<KeyRule> Rules() {
  const auto enabled = [](const Scenario& s) { return s.Bool("torus_swap.enabled"); };
  return {
      {{"torus_swap.enabled", "network.switching"},
       "torus_swap.enabled = true with network.switching = packet_step (node swaps run in the packet-step "
       "torus)",
       [enabled](const Scenario& s) -> std::string {
         if (!enabled(s) || s.Text("network.switching") == "packet_step") return "";
         return "torus_swap.enabled = true with " + s.Show("network.switching");
       }},
      {{"torus_swap.enabled", "topology.dims"},
       "torus_swap.enabled = true on a torus of equal sides of " +
           std::to_string(TorusSwapControl::kFewestNodes) + " to " +
           std::to_string(TorusSwapControl::kMostNodes) + " nodes (topology.dims, or topology.k)",
       [enabled](const Scenario& s) -> std::string {
         std::vector<int64_t> sides = s.IntList("topology.dims");
         if (sides.empty()) sides.assign(static_cast<size_t>(s.Int("topology.n")), s.Int("topology.k"));
         bool fits = true;
         for (int64_t side : sides)
           fits &= side == sides.front() && side >= TorusSwapControl::kFewestNodes &&
                   side <= TorusSwapControl::kMostNodes;
         if (!enabled(s) || fits) return "";
         return "torus_swap.enabled = true with " +
                (s.IntList("topology.dims").empty() ? s.Show("topology.k") : s.Show("topology.dims"));
       }},
      {{"torus_swap.block_cycles", "torus_swap.period_cycles"},
       "torus_swap.block_cycles < torus_swap.period_cycles (1 <= Tr < T)",
       [enabled](const Scenario& s) -> std::string {
         if (!enabled(s) || s.Int("torus_swap.block_cycles") < s.Int("torus_swap.period_cycles")) return "";
         return s.Show("torus_swap.block_cycles") + " is not below " + s.Show("torus_swap.period_cycles");
       }},
  };
}

std::unique_ptr<Mechanism> Make(const MechanismConfig& config, const MechanismContext& context) {
  return std::make_unique<TorusSwapControl>(static_cast<const TorusSwapConfig&>(config), context);
}

std::string View(const MechanismConfig&) { return "waves/torus_swap.gtkw"; }

}  // namespace

MechanismInfo TorusSwapMechanism() {
  return {"torus_swap", "torus_swap.enabled",     "false", "node places", Keys(), Parse, Make, nullptr,
          View,         {"torus_swap_livermore"}, Rules()};
}

}  // namespace icn
