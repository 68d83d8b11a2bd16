// SPDX-License-Identifier: Apache-2.0
// Registration of the E-RAPID controllers (Kodi and Louri): keys, validation, adapter, energy when off, view.
#include "mech/erapid/erapid_config.h"
#include "mech/erapid/erapid_control.h"
#include "net/topologies/erapid.h"

namespace icn {
namespace {

std::vector<KeySpec> Keys() {
  return {
      ChoiceKey("erapid.mode", "np_nb", {"np_nb", "p_nb", "np_b", "p_b"},
                "E-RAPID Lock-Step: np_nb static at full power (the controllers off), p_nb power levels "
                "(DPM), np_b bandwidth re-allocation (DBR), p_b both"),
      IntKey("erapid.rw_cycles", "1000", 1, 65535, "cycles",
             "reconfiguration window Rw (at least the Lock-Step's own length: 333 cycles for 8 boards)"),
      RealKey("erapid.l_min", "0", 0, 1, "", "Link_util at or below which a source is under-utilised (Lmin)"),
      RealKey("erapid.b_min", "0.1", 0, 1, "", "Buffer_util at or below which a laser steps down (Bmin)"),
      RealKey("erapid.b_max", "0.3", 0, 1, "", "Buffer_util above which a laser steps up (Bmax > Bmin)"),
      RealKey("erapid.b_con", "0.5", 0, 1, "", "Buffer_util above which a source is over-utilised (Bcon)"),
      IntKey("erapid.degree", "8", 1, 64, "",
             "degree of re-allocation N: wavelengths a source may hold toward one board (<= boards)"),
      IntKey("erapid.queue_packets", "0", 0, 255, "packets",
             "capacity of a transmitter queue, the normaliser of Buffer_util (0: nodes_per_board, one packet "
             "per node of the board)"),
      IntKey("erapid.vdd_cycles", "20", 1, 65535, "cycles",
             "one supply-voltage step of a laser's power level"),
      IntKey("erapid.relock_cycles", "65", 1, 65535, "cycles",
             "the link is silent this long after a bit-rate change or lighting (receiver relock)"),
  };
}

// The controllers run (any mode but np_nb) on E-RAPID boards of a size they take, within the
// window their Lock-Step needs; the thresholds of the modes that use them are ordered (a laser steps
// up, Bmax, before its source counts as over-utilised, Bcon); a source holds at most one wavelength
// of each board toward a board.
std::vector<KeyRule> Rules() {
  const auto controllers = [](const Scenario& s) { return s.Text("erapid.mode") != "np_nb"; };
  const auto boards = [](const Scenario& s) { return static_cast<int>(s.Int("topology.erapid.boards")); };
  return {
      {{"erapid.mode", "topology.kind"},
       "erapid.mode = np_nb, or the controllers' modes with topology.kind = erapid",
       [controllers](const Scenario& s) -> std::string {
         if (!controllers(s) || s.Text("topology.kind") == "erapid") return "";
         return s.Show("erapid.mode") + " with " + s.Show("topology.kind");
       }},
      {{"erapid.mode", "topology.erapid.boards"},
       "topology.erapid.boards in [" + std::to_string(ErapidControl::kFewestBoards) + ", " +
           std::to_string(ErapidControl::kMostBoards) + "] with the controllers (any number with np_nb)",
       [controllers, boards](const Scenario& s) -> std::string {
         if (!controllers(s) || s.Text("topology.kind") != "erapid" ||
             (boards(s) >= ErapidControl::kFewestBoards && boards(s) <= ErapidControl::kMostBoards))
           return "";
         return s.Show("topology.erapid.boards") + " with " + s.Show("erapid.mode");
       }},
      {{"erapid.rw_cycles", "topology.erapid.boards"},
       "erapid.rw_cycles at least the Lock-Step's own steps for the boards (333 cycles for 8) with the "
       "controllers",
       [controllers, boards](const Scenario& s) -> std::string {
         if (!controllers(s) || s.Text("topology.kind") != "erapid" ||
             s.Int("erapid.rw_cycles") >= ErapidControl::MinWindow(boards(s)))
           return "";
         return s.Show("erapid.rw_cycles") + " is shorter than the " +
                std::to_string(ErapidControl::MinWindow(boards(s))) + " cycles of " +
                s.Show("topology.erapid.boards");
       }},
      {{"erapid.b_min", "erapid.b_max", "erapid.b_con"},
       "erapid.b_min < erapid.b_max with power levels (p_nb, p_b), and erapid.b_max <= erapid.b_con with "
       "both (p_b): Bmin < Bmax <= Bcon",
       [](const Scenario& s) -> std::string {
         const std::string& mode = s.Text("erapid.mode");
         const bool levels = mode == "p_nb" || mode == "p_b";
         if (levels && !(s.Real("erapid.b_min") < s.Real("erapid.b_max")))
           return s.Show("erapid.b_max") + " is not above " + s.Show("erapid.b_min");
         if (mode == "p_b" && s.Real("erapid.b_con") < s.Real("erapid.b_max"))
           return s.Show("erapid.b_con") + " is below " + s.Show("erapid.b_max");
         return "";
       }},
      {{"erapid.degree", "topology.erapid.boards"},
       "erapid.degree <= topology.erapid.boards on E-RAPID boards (a board receives one wavelength from "
       "each board); the default degree is held to it only where the controllers run (not np_nb)",
       [controllers, boards](const Scenario& s) -> std::string {
         const bool used = s.given().count("erapid.degree") || controllers(s);
         if (!used || s.Text("topology.kind") != "erapid" || s.Int("erapid.degree") <= boards(s)) return "";
         return s.Show("erapid.degree") + " is above " + s.Show("topology.erapid.boards");
       }},
  };
}

std::unique_ptr<MechanismConfig> Parse(const MechanismParseContext& context) {
  const Scenario& s = context.scenario;
  auto e = std::make_unique<ErapidConfig>();
  e->mode = s.Text("erapid.mode");
  e->dpm = e->mode == "p_nb" || e->mode == "p_b";
  e->dbr = e->mode == "np_b" || e->mode == "p_b";
  e->rw_cycles = static_cast<int>(s.Int("erapid.rw_cycles"));
  e->l_min = s.Real("erapid.l_min");
  e->b_min = s.Real("erapid.b_min");
  e->b_max = s.Real("erapid.b_max");
  e->b_con = s.Real("erapid.b_con");
  e->degree = static_cast<int>(s.Int("erapid.degree"));
  e->vdd_cycles = static_cast<int>(s.Int("erapid.vdd_cycles"));
  e->relock_cycles = static_cast<int>(s.Int("erapid.relock_cycles"));
  if (e->mode == "np_nb") return nullptr;
  const ErapidShape* shape = ErapidShapeOf(context.topology);
  // A laser's transmitter queue is the packets routed to it (at most one per input VC of the
  // board's nodes). Buffer_util is its mean over a capacity of one packet per node by default: a
  // source whose packets for one board wait at half its nodes on average is over-utilised (Bcon
  // 0.5), whatever share of the nodes sends there (a larger capacity would hide butterfly and
  // perfect shuffle, where four of eight nodes send to a board).
  e->queue_packets = static_cast<int>(s.Int("erapid.queue_packets"));
  if (e->queue_packets == 0) e->queue_packets = shape->nodes_per_board;  // (at most 64: within 8 bits)
  return e;
}

std::unique_ptr<Mechanism> Make(const MechanismConfig& config, const MechanismContext& context) {
  return std::make_unique<ErapidControl>(static_cast<const ErapidConfig&>(config), context);
}

// The static network: every statically assigned laser lit at 10 Gb/s, the spares dark.
EnergyLedger::Group* EnergyWhenOff(const Scenario& s, const Fabric&, EnergyLedger& ledger) {
  if (s.Text("topology.kind") != "erapid") return nullptr;
  const int boards = static_cast<int>(s.Int("topology.erapid.boards"));
  return &ledger.AddGroup("laser", {"10gbps"}, {ErapidControl::kLaserPowerW[5]}, boards * (boards - 1));
}

std::string View(const MechanismConfig&) { return "waves/erapid_rc.gtkw"; }

}  // namespace

MechanismInfo ErapidMechanism() {
  return {"erapid", "erapid.mode", "np_nb",       "link power", Keys(),
          Parse,    Make,          EnergyWhenOff, View,         {"erapid_p_b", "erapid_step"},
          Rules()};
}

}  // namespace icn
