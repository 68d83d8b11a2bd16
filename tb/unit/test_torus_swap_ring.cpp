// SPDX-License-Identifier: Apache-2.0
// torus_swap_ring (P node-swap controllers of one directed cycle and its order) in lock-step with
// its reference model on random flux, drain status and straps (both protocols, both F'_ba
// credits), for P = 8 and P = 5; and directed tests of one swap in each protocol: the handshake's
// words, b's input (the paper's) or a's, b's and c's (drain) blocked exactly Tr steps, the new
// order, every routing table updated by the notification within P steps, a drain that never
// completes aborting the swap, and a busy node denying a lock.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "catch.h"

#include "Vtorus_swap_ring.h"
#include "Vtorus_swap_ring5.h"
#include "core/rng.h"
#include "mech/signal_bits.h"
#include "ref/torus_swap_ring_ref.h"
#include "unit/dut.h"

namespace {

constexpr int kCount = 16, kBack = 24, kTime = 16, kM = 26;

using icn::Bits;
using icn::SetBits;

template <typename Model>
struct Ring {
  explicit Ring(int nodes)
      : nodes(nodes),
        label_width(nodes <= 2   ? 1
                    : nodes <= 4 ? 2
                    : nodes <= 8 ? 3
                                 : 4),
        model(nodes) {}
  int nodes, label_width;
  tb::Dut<Model> dut;
  ref::TorusSwapRing model;
  std::vector<std::vector<int>> blocked_runs;  // per node, lengths of its block_in runs
  std::vector<int> run;
  std::vector<int> truth;  // each node's place, followed through the swaps

  void Clock(const ref::SwapStraps& s, const std::vector<ref::TorusSwapRing::NodeInputs>& in) {
    const auto& c = s.criterion;
    dut->period_i = c.period;
    dut->variant_i = c.variant;
    dut->threshold_i = c.threshold;
    dut->cost_i = c.cost;
    dut->extra_hops_i = c.extra_hops;
    dut->back_credit_i = c.back_credit_hops;
    dut->step_i = c.step;
    dut->rare_periods_i = c.rare_periods;
    dut->seed_i = c.seed;
    dut->block_i = s.block;
    dut->drain_i = s.drain;
    for (int k = 0; k < nodes; ++k) {
      SetBits(dut->arrive_self_i, k, 1, in[k].arrive_self);
      SetBits(dut->arrive_next_i, k, 1, in[k].arrive_next);
      SetBits(dut->orig_near_i, k, 1, in[k].orig_near);
      SetBits(dut->orig_far_i, k, 1, in[k].orig_far);
      SetBits(dut->orig_back_i, k, 1, in[k].orig_back);
      SetBits(dut->back_hops_i, k * label_width, label_width, in[k].back_hops);
      SetBits(dut->drained_i, k, 1, in[k].drained);
      SetBits(dut->back_i, k * kBack, kBack, in[k].back);
    }
    if (truth.empty())
      for (int k = 0; k < nodes; ++k) truth.push_back(k);
    for (int b = 0; b < nodes; ++b)
      if (model.node(b).switching()) std::swap(truth[b], truth[model.pred(b)]);
    model.Clock(static_cast<uint16_t>(dut.cycles()), s, in);
    dut.Clock();
    run.resize(nodes);
    blocked_runs.resize(nodes);
    for (int k = 0; k < nodes; ++k) {
      if (model.node(k).block_in()) {
        ++run[k];
      } else if (run[k]) {
        blocked_runs[k].push_back(run[k]);
        run[k] = 0;
      }
    }
  }

  int Succ(int k) { return static_cast<int>(Bits(dut->succ_o, k * label_width, label_width)); }
  int Role(int k) { return static_cast<int>(Bits(dut->role_o, k * 4, 4)); }
  int Position(int viewer, int label) {
    return static_cast<int>(Bits(dut->table_o, (viewer * nodes + label) * label_width, label_width));
  }

  // Every output of every node against the model.
  void Compare() {
    for (int k = 0; k < nodes; ++k) {
      INFO("node " << k << " at cycle " << dut.cycles());
      const ref::TorusSwapCtrl& n = model.node(k);
      REQUIRE(Role(k) == n.role());
      REQUIRE(Bits(dut->hold_out_o, k, 1) == n.hold_out());
      REQUIRE(Bits(dut->hold_admit_o, k, 1) == n.hold_admit());
      REQUIRE(Bits(dut->block_in_o, k, 1) == n.block_in());
      REQUIRE(Bits(dut->switching_o, k, 1) == n.switching());
      REQUIRE(Bits(dut->updated_o, k, 1) == n.updated());
      REQUIRE(Succ(k) == model.succ(k));
      REQUIRE(static_cast<int>(Bits(dut->pred_o, k * label_width, label_width)) == model.pred(k));
      REQUIRE(Bits(dut->near_o, k * kCount, kCount) == n.criterion().near());
      REQUIRE(Bits(dut->back_o, k * kBack, kBack) == n.criterion().back());
      REQUIRE(Bits(dut->threshold_o, k * kCount, kCount) == n.criterion().threshold());
      const uint64_t m = Bits(dut->m_o, k * kM, kM);
      REQUIRE(static_cast<int64_t>(m >= (1ULL << (kM - 1)) ? m - (1ULL << kM) : m) == n.criterion().m());
      REQUIRE(Bits(dut->deadline_o, k * kTime, kTime) == n.deadline());
      for (int label = 0; label < nodes; ++label) REQUIRE(Position(k, label) == n.table()[label]);
    }
  }

  // The order is one cycle through every node (no two merged, none lost), places follow it, and
  // each node knows its own place exactly.
  void CheckOrder() {
    std::vector<bool> seen(nodes, false);
    int node = 0;
    for (int p = 0; p < nodes; ++p) {
      REQUIRE(!seen[node]);
      seen[node] = true;
      REQUIRE(truth[Succ(node)] == (truth[node] + 1) % nodes);
      node = Succ(node);
    }
    REQUIRE(node == 0);
    for (int k = 0; k < nodes; ++k) REQUIRE(Position(k, k) == truth[k]);
  }
};

ref::SwapStraps SwapStraps(uint32_t period, uint32_t threshold, bool drain = false) {
  ref::SwapStraps s;
  s.drain = drain;
  s.criterion.period = period;
  s.criterion.threshold = threshold;
  s.criterion.cost = 2;
  s.criterion.extra_hops = 6;
  s.block = 32;
  return s;
}

template <typename Model>
void RandomLockStep(int nodes, uint64_t seed) {
  icn::Rng rng(seed);
  int swaps = 0, aborts = 0, denies = 0;
  for (int run = 0; run < 4; ++run) {
    Ring<Model> ring(nodes);
    ref::SwapStraps s = SwapStraps(40 + rng.Below(80), rng.Below(12));
    s.criterion.variant = static_cast<uint8_t>(run % 3);
    s.criterion.cost = rng.Below(6);
    s.criterion.extra_hops = static_cast<uint32_t>(nodes - 2);
    s.criterion.step = 1 + rng.Below(4);
    s.criterion.rare_periods = 1 + rng.Below(3);
    s.criterion.seed = static_cast<uint16_t>(rng.Below(65536));
    s.block = 1 + rng.Below(40);
    s.drain = run % 2 == 1;
    s.criterion.back_credit_hops = run < 2;
    INFO("run " << run << ": T " << s.criterion.period << ", R " << s.criterion.threshold << ", Tr "
                << s.block << ", drain " << s.drain << ", F'_ba in hops " << s.criterion.back_credit_hops);
    std::vector<uint32_t> p_next(nodes), p_self(nodes), p_drain(nodes);
    for (int k = 0; k < nodes; ++k) {
      p_next[k] = rng.Below(100);
      p_self[k] = rng.Below(40);
      p_drain[k] = rng.Below(4) == 0 ? 0 : 5 + rng.Below(90);  // some never drain: aborts
    }
    std::vector<int> last_role(nodes, ref::kIdle);
    for (int cycle = 0; cycle < 12000; ++cycle) {
      std::vector<ref::TorusSwapRing::NodeInputs> in(nodes);
      for (int k = 0; k < nodes; ++k) {
        in[k].arrive_next = rng.Below(100) < p_next[k];
        in[k].arrive_self = rng.Below(100) < p_self[k];
        in[k].orig_near = rng.Below(100) < 10;
        in[k].orig_far = rng.Below(100) < 50;
        in[k].orig_back = rng.Below(100) < 10;
        in[k].back_hops = 1 + rng.Below(nodes - 1);
        in[k].drained = rng.Below(100) < p_drain[k];
        in[k].back = s.criterion.back_credit_hops ? rng.Below(60) : rng.Below(20);
      }
      ring.Clock(s, in);
      ring.Compare();
      ring.CheckOrder();
      for (int k = 0; k < nodes; ++k) {
        const int role = ring.model.node(k).role();
        swaps += role == ref::kBSwitch && last_role[k] != ref::kBSwitch;
        aborts += last_role[k] == ref::kBDrain && role == ref::kIdle;
        denies += last_role[k] == ref::kAWait && role == ref::kIdle;
        last_role[k] = role;
      }
    }
    // Every block lasted exactly Tr steps.
    for (int k = 0; k < nodes; ++k)
      for (int length : ring.blocked_runs[k]) REQUIRE(length == static_cast<int>(s.block));
  }
  INFO("swaps " << swaps << ", aborts " << aborts << ", denies " << denies);
  CHECK(swaps > 20);
  CHECK(aborts > 0);
  CHECK(denies > 0);
}

// Traffic that makes node 2 want to swap with node 3 (much passes node 2 for node 3), and nobody
// else want anything.
std::vector<ref::TorusSwapRing::NodeInputs> Pull(int nodes, bool drained, int want_at = 2) {
  std::vector<ref::TorusSwapRing::NodeInputs> in(nodes);
  for (auto& x : in) x.drained = drained;
  in[want_at].arrive_next = true;
  return in;
}

// One swap in either protocol: node 2 sees 50 packets pass it for node 3 in the first period
// (M = 50 > C_r + R = 12), swaps with it, and the Tr-step block falls on b alone (the paper's) or
// on a, b and c (drain); every table learns the new order.
void OneSwap(bool drain) {
  Ring<Vtorus_swap_ring> ring(8);
  const ref::SwapStraps s = SwapStraps(50, 10, drain);
  uint64_t switched = 0;
  for (int cycle = 0; cycle < 400 && ring.Succ(1) != 3; ++cycle) {
    ring.Clock(s, Pull(8, true));
    ring.Compare();
    if (!switched && ring.model.node(3).switching()) switched = ring.dut.cycles();
  }
  REQUIRE(switched > 0);
  // u = 1 -> b = 3 -> a = 2 -> c = 4
  REQUIRE(ring.Succ(1) == 3);
  REQUIRE(ring.Succ(3) == 2);
  REQUIRE(ring.Succ(2) == 4);
  std::vector<ref::TorusSwapRing::NodeInputs> quiet(8);
  for (auto& x : quiet) x.drained = true;
  for (int cycle = 0; cycle < 3 * 50; ++cycle) {
    ring.Clock(s, quiet);
    ring.Compare();
  }
  const std::vector<int> blocked = drain ? std::vector<int>{2, 3, 4} : std::vector<int>{3};
  for (int k = 0; k < 8; ++k) {
    INFO("node " << k);
    if (std::find(blocked.begin(), blocked.end(), k) == blocked.end()) {
      REQUIRE(ring.blocked_runs[k].empty());
    } else {
      REQUIRE(ring.blocked_runs[k].size() == 1);
      REQUIRE(ring.blocked_runs[k][0] == 32);
    }
  }
  // Every node's table now has 3 at position 2 and 2 at position 3.
  for (int viewer = 0; viewer < 8; ++viewer) {
    INFO("viewer " << viewer);
    REQUIRE(ring.Position(viewer, 3) == 2);
    REQUIRE(ring.Position(viewer, 2) == 3);
  }
}

}  // namespace

TEST_CASE("torus_swap_ring matches its reference model on random flux (P = 8 and P = 5)", "[unit][torus]") {
  const uint64_t seed = tb::TestSeed();
  INFO("seed " << seed << " (rerun with --rng-seed " << seed << ")");
  RandomLockStep<Vtorus_swap_ring>(8, seed);
  RandomLockStep<Vtorus_swap_ring5>(5, seed + 1);
}

TEST_CASE("one swap as the paper makes it: handshake and b's input alone blocked Tr steps", "[unit][torus]") {
  OneSwap(false);
}

TEST_CASE("one swap with the drain protocol: a b and c blocked Tr steps", "[unit][torus]") { OneSwap(true); }

TEST_CASE("a swap whose drain never completes is aborted after a period, and the order stays",
          "[unit][torus]") {
  Ring<Vtorus_swap_ring> ring(8);
  const ref::SwapStraps s = SwapStraps(50, 10, true);
  bool aborted = false, drained_seen = false;
  int last = ref::kIdle;
  for (int cycle = 0; cycle < 300; ++cycle) {
    ring.Clock(s, Pull(8, false));
    ring.Compare();
    const int role = ring.model.node(3).role();
    drained_seen |= role == ref::kBDrain;
    aborted |= last == ref::kBDrain && role == ref::kIdle;
    last = role;
    REQUIRE(ring.Succ(2) == 3);
  }
  REQUIRE(drained_seen);
  REQUIRE(aborted);
  for (int k = 0; k < 8; ++k) REQUIRE(ring.blocked_runs[k].empty());
}

TEST_CASE("a lock request to a node already in a swap is denied", "[unit][torus]") {
  Ring<Vtorus_swap_ring> ring(8);
  const ref::SwapStraps s = SwapStraps(50, 10);
  // Nodes 2 and 3 both want: 3 locks 4 and 5 first (its LockB reaches 4 while 2's reaches 3,
  // which is already initiating), so 2 is denied and only 3 -> 4 swaps.
  int denied = 0;
  int last = ref::kIdle;
  for (int cycle = 0; cycle < 100; ++cycle) {  // one decision (at step 50) and its swap
    auto in = Pull(8, true);
    in[3].arrive_next = true;
    ring.Clock(s, in);
    ring.Compare();
    const int role = ring.model.node(2).role();
    denied += last == ref::kAWait && role == ref::kIdle;
    last = role;
  }
  REQUIRE(denied >= 1);
  REQUIRE(ring.Succ(2) == 4);  // 2 -> 4 -> 3 -> 5
  REQUIRE(ring.Succ(4) == 3);
  REQUIRE(ring.Succ(3) == 5);
}

// Node 2 swaps with 3 in the drain protocol while node 1 asks node 2 for a swap of its own; node 2
// denies it, but if node 3 switches on the step the Deny leaves, node 1's successor is 3 when the
// Deny would arrive and it never does. Node 1 must give up after ref::kReplySteps, not wait for good.
TEST_CASE("a Deny lost to a switch: the requester gives up after a bounded wait", "[unit][torus]") {
  const ref::SwapStraps s = SwapStraps(50, 10, true);
  // Node 2 wants to swap with 3 at the first decision, node 1 with 2 at the second; node 3 drains
  // from `drains_at` on. Returns the step node 1 asks and its longest wait for an answer.
  const auto run = [&](int drains_at) {
    Ring<Vtorus_swap_ring> ring(8);
    int asked = -1, waiting = 0, longest = 0;
    for (int cycle = 0; cycle < 250; ++cycle) {
      auto in = Pull(8, false);
      in[1].arrive_next = cycle >= 50;
      in[3].drained = drains_at >= 0 && cycle >= drains_at;
      ring.Clock(s, in);
      ring.Compare();
      const int role = ring.model.node(1).role();
      if (role == ref::kAWait && asked < 0) asked = cycle;
      waiting = role == ref::kAWait ? waiting + 1 : 0;
      longest = std::max(longest, waiting);
    }
    return std::pair{asked, longest};
  };
  const int asked = run(-1).first;  // (node 3 never drains: its swap aborts)
  REQUIRE(asked > 0);
  int lost = 0;
  for (int delay = -3; delay <= 3; ++delay) {
    INFO("node 3 drains " << delay << " steps after node 1 asks");
    const int longest = run(asked + delay).second;
    REQUIRE(longest <= static_cast<int>(ref::kReplySteps));
    lost += longest == static_cast<int>(ref::kReplySteps);
  }
  CHECK(lost == 1);  // one alignment of the switch with the Deny
}
