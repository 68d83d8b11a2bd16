// SPDX-License-Identifier: Apache-2.0
// k-ary n-tree (the fat-tree of Alonso et al.): N = k^n nodes, n levels of k^(n-1) switches <w, l>, level 0 =
// roots. Switches <w, l> and <w', l+1> are linked iff w_i = w'_i for all i != l, on port w'_l of the upper
// switch and port k + w_l of the lower one. Ports 0..k-1 go down, k..2k-1 go up. Routing: up to a nearest
// common ancestor (by the least occupied up port, or a random one: topology.up_port), then down
// deterministically.
#include "net/topologies/kary_ntree.h"

#include <cmath>

#include "core/errors.h"
#include "net/channel.h"

namespace icn {
namespace {

int Pow(int base, int exp) {
  int r = 1;
  for (int i = 0; i < exp; ++i) r *= base;
  return r;
}

class KaryNTreeRouting : public Routing {
 public:
  KaryNTreeRouting(int k, int n, int vcs, bool random_up)
      : k_(k), n_(n), vcs_(vcs), per_level_(Pow(k, n - 1)), random_up_(random_up) {}

  Route Compute(RouteContext& ctx) const override {
    const int down = TreeDownPort({k_, n_}, ctx.router, ctx.packet.dst);
    if (down >= 0) return {down, 0, vcs_};
    return {random_up_ ? RandomUp(ctx.outputs) : ChooseUp(ctx.outputs), 0, vcs_};
  }

 private:
  // A routable up port drawn uniformly; -1 if none is.
  int RandomUp(OutputView& outputs) const {
    int routable[64];
    int count = 0;
    for (int j = 0; j < k_; ++j) {
      if (outputs.output(k_ + j)->routable()) routable[count++] = k_ + j;
    }
    return count == 0 ? -1 : routable[outputs.Random(count)];
  }

  // Least-occupied up link among those routing may choose; among equally occupied ones an awake
  // link first (at low load traffic stays on links already awake), then round-robin. A sleeping
  // link that is chosen is woken by its controller. None routable (every up link of a switch
  // outside the Minimal Tree is off or still turning on): -1, the packet waits.
  int ChooseUp(OutputView& outputs) const {
    const int start = static_cast<int>(outputs.NextTieBreak() % k_);
    int best = -1;
    int best_load = 0;
    bool best_awake = false;
    for (int i = 0; i < k_; ++i) {
      const int port = k_ + (start + i) % k_;
      const Channel* ch = outputs.output(port);
      if (!ch->routable()) continue;
      const bool awake = ch->tx_enabled();
      const int load = outputs.OutputLoad(port);
      if (best < 0 || load < best_load || (load == best_load && awake && !best_awake)) {
        best = port;
        best_load = load;
        best_awake = awake;
      }
    }
    return best;
  }

  int k_, n_, vcs_, per_level_;
  bool random_up_;
};

class KaryNTree : public Topology {
 public:
  KaryNTree(int k, int n, int vcs, bool random_up) : shape_{k, n} {
    const int per_level = Pow(k, n - 1);
    nodes = Pow(k, n);
    routers = n * per_level;
    ports = 2 * k;
    for (int l = 0; l + 1 < n; ++l) {
      for (int lower = 0; lower < per_level; ++lower) {
        const int place = Pow(k, n - 2 - l);  // weight of digit l in a switch index
        const int lower_digit = lower / place % k;
        for (int j = 0; j < k; ++j) {
          const int upper = lower - lower_digit * place + j * place;
          wires.push_back({l * per_level + upper, lower_digit, (l + 1) * per_level + lower, k + j, {}});
        }
      }
    }
    for (int node = 0; node < nodes; ++node) attach.push_back({(n - 1) * per_level + node / k, node % k, {}});
    routing = std::make_unique<KaryNTreeRouting>(k, n, vcs, random_up);
  }

  std::string Name() const override {
    return std::to_string(shape_.k) + "-ary " + std::to_string(shape_.n) + "-tree";
  }

  int RoutersOnPath(int src, int dst) const override {
    // Common prefix of the first n-1 digits decides the level of the nearest common ancestor.
    const int k = shape_.k, n = shape_.n;
    int common = 0;
    for (int i = 0; i < n - 1; ++i) {
      const int place = Pow(k, n - 1 - i);
      if (src / place % k != dst / place % k) break;
      ++common;
    }
    return 2 * (n - 1 - common) + 1;
  }

  const KaryNTreeShape& shape() const { return shape_; }
  // A pod: the switches below one top-level digit (switch <w, l> with the same first digit of w),
  // the top level's shared out among them.
  int Region(int router) const override {
    const int per_level = Pow(shape_.k, shape_.n - 1);
    return shape_.n < 2 ? 0 : router % per_level / Pow(shape_.k, shape_.n - 2);
  }

 private:
  KaryNTreeShape shape_;
};

std::unique_ptr<Topology> Make(const Scenario& s, const RouterParams& router) {
  const int k = static_cast<int>(s.Int("topology.k"));
  const int n = static_cast<int>(s.Int("topology.n"));
  if (std::pow(k, n) > (1 << 20)) {
    throw ScenarioError("topology.k, topology.n: k^n = " + std::to_string(std::pow(k, n)) +
                        " nodes is too many; allowed: k^n <= 1048576");
  }
  return std::make_unique<KaryNTree>(k, n, router.vcs, s.Text("topology.up_port") == "random");
}

}  // namespace

TopologyInfo KaryNTreeTopology() {
  return {
      "kary_ntree",
      {ChoiceKey("topology.up_port", "least_occupied", {"least_occupied", "random"},
                 "k-ary n-tree: up port of a packet on its way up (least_occupied: fewest packets waiting "
                 "plus flits downstream, awake first, then round-robin; random: uniform among routable)")},
      Make};
}

const KaryNTreeShape* TreeShape(const Topology& topology) {
  const auto* tree = dynamic_cast<const KaryNTree*>(&topology);
  return tree ? &tree->shape() : nullptr;
}

int TreeLevel(const KaryNTreeShape& tree, int router) { return router / Pow(tree.k, tree.n - 1); }

int TreeDownPort(const KaryNTreeShape& tree, int router, int dst) {
  const int per_level = Pow(tree.k, tree.n - 1);
  const int level = router / per_level, w = router % per_level;
  // The destination is below when its first `level` digits equal the switch's.
  if (dst / Pow(tree.k, tree.n - level) != w / Pow(tree.k, tree.n - 1 - level)) return -1;
  return dst / Pow(tree.k, tree.n - 1 - level) % tree.k;
}

// Switch <w, l> is in the Minimal Tree if l = n-1, or w_i = 0 for every i in l..n-2.
bool InMinimalTree(const KaryNTreeShape& tree, int router) {
  const int level = TreeLevel(tree, router);
  const int w = router % Pow(tree.k, tree.n - 1);
  return level == tree.n - 1 || w % Pow(tree.k, tree.n - 1 - level) == 0;
}

double MinimalTreePowerFraction(const KaryNTreeShape& tree) {
  const int switches = tree.n * Pow(tree.k, tree.n - 1);
  int in_mt = 0;
  for (int r = 0; r < switches; ++r) in_mt += InMinimalTree(tree, r);
  return static_cast<double>(in_mt) / switches;
}

}  // namespace icn
