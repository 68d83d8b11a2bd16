// SPDX-License-Identifier: Apache-2.0
// fattree_switch_ctrl against its reference model on random stimulus for every role, and the
// mechanism's rules as directed tests: turn-off order, turn-on order, Minimal-Tree links, the
// hysteresis band, and the propagation from a leaf to the switch above.
#include "catch.h"

#include <cmath>
#include <sstream>

#include "Vfattree_switch_ctrl.h"
#include "core/rng.h"
#include "net/topologies/kary_ntree.h"
#include "ref/fattree_switch_ctrl_ref.h"
#include "unit/dut.h"

namespace {

using Ctrl = tb::Dut<Vfattree_switch_ctrl>;

ref::FattreeOut Read(Vfattree_switch_ctrl& m) {
  return {m.active_o,     m.routable_o, m.tx_en_o,     m.powered_o,
          m.link_state_o, m.up_busy_o,  m.up_usable_o, m.decision_o};
}

std::string Describe(const ref::FattreeOut& o) {
  std::ostringstream s;
  s << std::hex << "active=" << o.active << " routable=" << o.routable << " tx_en=" << o.tx_en
    << " powered=" << o.powered << " states=" << o.link_state << std::dec << " busy=" << o.up_busy
    << " usable=" << o.up_usable << " decision=" << int(o.decision);
  return s.str();
}

void Drive(Ctrl& dut, ref::FattreeSwitchCtrl* model, const ref::FattreeIn& in) {
  dut->in_mt_i = in.in_mt;
  dut->is_root_i = in.is_root;
  dut->connected_i = in.connected;
  dut->u_off_i = in.u_off;
  dut->u_on_i = in.u_on;
  dut->occupancy_i = in.occupancy;
  dut->check_i = dut.cycles() % in.check_cycles == in.check_cycles - 1u;  // the period's last cycle
  dut->t_on_i = in.t_on;
  dut->t_off_i = in.t_off;
  dut->busy_i = in.busy;
  dut->committed_i = in.committed;
  dut->in_active_i = in.in_active;
  dut->empty_i = in.empty;
  dut->need_up_i = in.need_up;
  dut.Clock();
  if (model) model->Clock(in);
}

// Ports of a k-ary switch in the controller's 8 + 8 layout: down 0..k-1, up 8..8+k-1.
uint16_t Connected(int k, bool root) {
  const uint16_t down = static_cast<uint16_t>((1u << k) - 1);
  return root ? down : static_cast<uint16_t>(down | down << 8);
}

uint16_t Q16(double u) { return static_cast<uint16_t>(std::lround(u * 65536)); }

// A leaf of a 4-ary tree with the given share of its usable up-link cycles busy.
ref::FattreeIn Leaf() {
  ref::FattreeIn in;
  in.connected = Connected(4, false);
  in.u_off = Q16(0.3);
  in.u_on = Q16(0.65);
  in.check_cycles = 100;
  in.t_on = 10;
  in.t_off = 10;
  in.in_active = in.connected;
  return in;
}

}  // namespace

TEST_CASE("fattree_switch_ctrl matches its reference model on random stimulus in every role", "[unit]") {
  const uint64_t seed = tb::TestSeed();
  INFO("seed " << seed << " (rerun with --rng-seed " << seed << ")");
  icn::Rng rng(seed + 23);
  for (int config = 0; config < 24; ++config) {
    Ctrl dut;
    ref::FattreeSwitchCtrl model;
    ref::FattreeIn in;
    const int k = 2 + static_cast<int>(rng.Below(7));
    in.in_mt = config % 4 < 2;
    in.is_root = config % 2 == 1;
    in.connected = Connected(k, in.is_root);
    in.u_off = static_cast<uint16_t>(1000 + rng.Below(20000));
    in.u_on = static_cast<uint16_t>(2 * in.u_off + rng.Below(20000));
    in.check_cycles = static_cast<uint16_t>(20 + rng.Below(80));
    in.t_on = static_cast<uint16_t>(rng.Below(12));
    in.t_off = static_cast<uint16_t>(rng.Below(12));
    in.occupancy = config >= 12;  // both meters, every role
    INFO("k " << k << ", in MT " << in.in_mt << ", root " << in.is_root << ", occupancy meter "
              << in.occupancy);
    double load = 0.5;
    for (int cycle = 0; cycle < 10000; ++cycle) {
      if (cycle % 300 == 0) load = rng.Uniform();
      const uint16_t tx_en = dut->tx_en_o;
      in.busy = 0;
      for (int p = 0; p < 16; ++p) {
        if ((tx_en >> p & 1) && rng.Uniform() < load) in.busy |= 1u << p;
      }
      if (rng.Below(50) == 0) in.committed = static_cast<uint16_t>(rng.Next()) & in.connected;
      if (rng.Below(200) == 0) in.in_active = static_cast<uint16_t>(rng.Next()) & in.connected;
      if (rng.Below(30) == 0) in.empty = rng.Below(2);
      if (rng.Below(40) == 0) in.need_up = !in.empty && rng.Below(2);
      Drive(dut, &model, in);
      INFO("cycle " << cycle);
      REQUIRE(Describe(Read(*dut)) == Describe(model.Outputs()));
    }
  }
}

TEST_CASE("a Minimal-Tree switch turns up links off from the highest index and never link k",
          "[unit][directed]") {
  Ctrl dut;
  ref::FattreeIn in = Leaf();
  std::vector<int> order;
  uint16_t last = dut->active_o;
  for (int cycle = 0; cycle < 2000; ++cycle) {
    Drive(dut, nullptr, in);  // no traffic: u = 0 < U_off every period
    const uint16_t now = dut->active_o;
    for (int p = 0; p < 16; ++p) {
      if ((last >> p & 1) && !(now >> p & 1) && (in.connected >> p & 1)) order.push_back(p);
    }
    last = now;
  }
  // Tree ports 2k-1, 2k-2, k+1 are controller ports 11, 10, 9; port 8 (tree port k) stays.
  CHECK(order == std::vector<int>{11, 10, 9});
  CHECK((dut->active_o & in.connected) == (0x0f | 1u << 8));
  CHECK((dut->powered_o & in.connected) == (0x0f | 1u << 8));
}

TEST_CASE("a saturated Minimal-Tree switch turns up links on from the lowest index", "[unit][directed]") {
  Ctrl dut;
  ref::FattreeIn in = Leaf();
  for (int cycle = 0; cycle < 1000; ++cycle) Drive(dut, nullptr, in);
  REQUIRE((dut->active_o & 0xff00) == 1u << 8);
  std::vector<int> order;
  uint16_t last = dut->active_o;
  for (int cycle = 0; cycle < 1000; ++cycle) {
    in.busy = dut->tx_en_o & 0xff00;  // every usable up link busy: u = 1 > U_on
    Drive(dut, nullptr, in);
    for (int p = 8; p < 16; ++p) {
      if (!(last >> p & 1) && (dut->active_o >> p & 1)) order.push_back(p);
    }
    last = dut->active_o;
  }
  CHECK(order == std::vector<int>{9, 10, 11});
}

TEST_CASE("utilisation inside the hysteresis band changes nothing", "[unit][directed]") {
  Ctrl dut;
  ref::FattreeIn in = Leaf();
  icn::Rng rng(9);
  int decisions = 0;
  for (int cycle = 0; cycle < 20000; ++cycle) {
    in.busy = 0;
    for (int p = 8; p < 16; ++p) {
      if ((dut->tx_en_o >> p & 1) && rng.Uniform() < 0.45) in.busy |= 1u << p;  // U_off < 0.45 < U_on
    }
    Drive(dut, nullptr, in);
    decisions += dut->decision_o != 0 && dut.cycles() % in.check_cycles == 1;  // just after a check
  }
  CHECK(decisions == 0);
  CHECK((dut->active_o & in.connected) == in.connected);
}

TEST_CASE("the Minimal Tree root and the down links of Minimal-Tree switches never turn off",
          "[unit][directed]") {
  Ctrl root;
  ref::FattreeIn in = Leaf();
  in.is_root = true;
  in.connected = Connected(4, true);
  in.in_active = 0;  // no input active at all
  for (int cycle = 0; cycle < 1000; ++cycle) Drive(root, nullptr, in);
  CHECK(root->active_o == in.connected);
  CHECK((root->powered_o & in.connected) == in.connected);
  // Another root goes to standby: all inputs off and nothing buffered turns its down links off.
  Ctrl other;
  in.in_mt = false;
  for (int cycle = 0; cycle < 1000; ++cycle) Drive(other, nullptr, in);
  CHECK((other->active_o & in.connected) == 0);
  CHECK((other->powered_o & in.connected) == 0);
  // Until one input starts turning on.
  in.in_active = 1u << 2;
  Drive(other, nullptr, in);
  CHECK((other->active_o & in.connected) == in.connected);
}

TEST_CASE("turning a leaf's up link off or on propagates to the switch above at once", "[unit][directed]") {
  // Leaf <w0, w1 = 2, level 2> of a 4-ary 3-tree: its up link k + 3 goes to the level-1 switch
  // <w0, 3, 1> (outside the Minimal Tree) and enters it on down port w1 = 2.
  Ctrl leaf;
  Ctrl upper;
  ref::FattreeIn leaf_in = Leaf();
  ref::FattreeIn up_in = Leaf();
  up_in.in_mt = false;
  const int leaf_port = 8 + 3;
  const int upper_input = 2;
  const int upper_up = 8 + upper_input;
  int64_t leaf_off = -1, upper_off = -1, leaf_on = -1, upper_on = -1;
  for (int cycle = 0; cycle < 3000; ++cycle) {
    // Traffic on the leaf's up links after cycle 1500: its links come back on.
    leaf_in.busy = cycle > 1500 ? static_cast<uint16_t>(leaf->tx_en_o & 0xff00) : 0;
    const bool link_active = leaf->active_o >> leaf_port & 1;
    up_in.in_active =
        static_cast<uint16_t>((up_in.in_active & ~(1u << upper_input)) | (link_active << upper_input));
    up_in.empty = true;
    Drive(leaf, nullptr, leaf_in);
    Drive(upper, nullptr, up_in);
    const bool leaf_now = leaf->active_o >> leaf_port & 1;
    const bool upper_now = upper->active_o >> upper_up & 1;
    if (!leaf_now && leaf_off < 0) leaf_off = cycle;
    if (!upper_now && upper_off < 0) upper_off = cycle;
    if (leaf_off >= 0 && leaf_now && leaf_on < 0) leaf_on = cycle;
    if (upper_off >= 0 && upper_now && upper_on < 0) upper_on = cycle;
  }
  REQUIRE(leaf_off >= 0);
  REQUIRE(leaf_on >= 0);
  CHECK(upper_off == leaf_off + 1);  // the edge after the leaf's decision
  CHECK(upper_on == leaf_on + 1);
}

TEST_CASE("p_min from the tree labels matches the paper's formula", "[unit]") {
  for (const auto& [k, n] :
       std::vector<std::pair<int, int>>{{4, 3}, {2, 4}, {3, 3}, {8, 2}, {2, 2}, {4, 4}}) {
    const double mt_switches = (std::pow(k, n) - 1) / (k - 1);
    const double switches = n * std::pow(k, n - 1);
    INFO(k << "-ary " << n << "-tree");
    CHECK(icn::MinimalTreePowerFraction({k, n}) == Approx(mt_switches / switches));
  }
  CHECK(icn::MinimalTreePowerFraction({4, 3}) == Approx(0.4375));
}

TEST_CASE("the occupancy meter counts a link whose packet waits as busy, the flit meter does not",
          "[unit][directed]") {
  for (bool occupancy : {false, true}) {
    Ctrl dut;
    ref::FattreeIn in = Leaf();
    in.occupancy = occupancy;
    in.committed = static_cast<uint16_t>(1u << 8);  // a packet waits for up link 8 (stalled: nothing sent)
    for (int cycle = 0; cycle < 100; ++cycle) Drive(dut, nullptr, in);  // one check period
    INFO("occupancy " << occupancy);
    CHECK(dut->up_usable_o >= 4 * 100);  // four up links on (and the unconnected ones in their first cycles)
    CHECK(dut->up_busy_o == (occupancy ? 100u : 0u));
  }
}
