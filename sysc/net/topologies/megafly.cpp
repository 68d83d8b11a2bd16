// SPDX-License-Identifier: Apache-2.0
// Megafly / Dragonfly+ (the network of Sanchez de la Rosa et al.): G groups; in each, `leaves` leaf switches
// with `nodes_per_leaf` nodes, fully connected to `spines` spine switches; each spine has `global_per_spine`
// global ports, one global link between every pair of groups (G - 1 = spines x global_per_spine). Group g's
// global port j (0..G-2, spine j / h, port j % h) leads to group (g + j + 1) mod G. Ports: leaf 0..p-1 nodes,
// p..p+s-1 spines; spine 0..a-1 leaves, a..a+h-1 global. Routing, minimal and deterministic: same leaf, down;
// same group, up to spine dst mod s (D-mod-k), down; other group, up to the spine that holds the global link
// to the destination's group, across it, down from the spine it reaches. One VC suffices: no cycle of
// channels.
#include <algorithm>

#include "core/errors.h"
#include "net/topology.h"

namespace icn {
namespace {

struct Shape {
  int groups, leaves, spines, nodes_per_leaf, global_per_spine;
  int SwitchesPerGroup() const { return leaves + spines; }
  int NodesPerGroup() const { return leaves * nodes_per_leaf; }
  int Group(int node) const { return node / NodesPerGroup(); }
  int Leaf(int node) const { return node / nodes_per_leaf; }  // global leaf index
  int LeafRouter(int leaf) const { return leaf / leaves * SwitchesPerGroup() + leaf % leaves; }
  int SpineRouter(int group, int spine) const { return group * SwitchesPerGroup() + leaves + spine; }
  // Global port index j of group `from` toward group `to`.
  int GlobalIndex(int from, int to) const { return ((to - from - 1) % groups + groups) % groups; }
};

class MegaflyRouting : public Routing {
 public:
  MegaflyRouting(Shape s, int vcs) : s_(s), vcs_(vcs) {}

  Route Compute(RouteContext& ctx) const override {
    const Packet& packet = ctx.packet;
    const int group = ctx.router / s_.SwitchesPerGroup();
    const int local = ctx.router % s_.SwitchesPerGroup();
    const int dst_group = s_.Group(packet.dst);
    const int dst_leaf_local = s_.Leaf(packet.dst) % s_.leaves;
    if (local < s_.leaves) {  // leaf switch
      if (group == dst_group && local == dst_leaf_local) return {packet.dst % s_.nodes_per_leaf, 0, vcs_};
      const int spine = group == dst_group ? packet.dst % s_.spines
                                           : s_.GlobalIndex(group, dst_group) / s_.global_per_spine;
      return {s_.nodes_per_leaf + spine, 0, vcs_};
    }
    if (group == dst_group) return {dst_leaf_local, 0, vcs_};  // spine: down
    return {s_.leaves + s_.GlobalIndex(group, dst_group) % s_.global_per_spine, 0, vcs_};
  }

 private:
  Shape s_;
  int vcs_;
};

class Megafly : public Topology {
 public:
  Megafly(Shape s, int vcs) : s_(s) {
    // The shape (groups - 1 = spines x global_per_spine) is checked by Make().
    nodes = s.groups * s.NodesPerGroup();
    routers = s.groups * s.SwitchesPerGroup();
    ports = std::max(s.nodes_per_leaf + s.spines, s.leaves + s.global_per_spine);
    for (int g = 0; g < s.groups; ++g) {
      for (int l = 0; l < s.leaves; ++l) {
        for (int sp = 0; sp < s.spines; ++sp) {
          wires.push_back({g * s.SwitchesPerGroup() + l, s.nodes_per_leaf + sp, s.SpineRouter(g, sp), l, {}});
        }
      }
      for (int j = 0; j < s.groups - 1; ++j) {
        const int other = (g + j + 1) % s.groups;
        if (other < g) continue;  // each pair once
        const int back = s.GlobalIndex(other, g);
        wires.push_back({s.SpineRouter(g, j / s.global_per_spine),
                         s.leaves + j % s.global_per_spine,
                         s.SpineRouter(other, back / s.global_per_spine),
                         s.leaves + back % s.global_per_spine,
                         {}});
      }
    }
    for (int node = 0; node < nodes; ++node) {
      attach.push_back({s.LeafRouter(s.Leaf(node)), node % s.nodes_per_leaf, {}});
    }
    routing = std::make_unique<MegaflyRouting>(s, vcs);
  }

  std::string Name() const override {
    return "Megafly " + std::to_string(s_.groups) + " groups x " + std::to_string(s_.NodesPerGroup()) +
           " nodes";
  }

  int RoutersOnPath(int src, int dst) const override {
    if (s_.Leaf(src) == s_.Leaf(dst)) return 1;
    return s_.Group(src) == s_.Group(dst) ? 3 : 4;
  }
  int Region(int router) const override { return router / s_.SwitchesPerGroup(); }

 private:
  Shape s_;
};

std::unique_ptr<Topology> Make(const Scenario& s, const RouterParams& router) {
  Shape shape;
  shape.groups = static_cast<int>(s.Int("topology.megafly.groups"));
  shape.leaves = static_cast<int>(s.Int("topology.megafly.leaves"));
  shape.spines = static_cast<int>(s.Int("topology.megafly.spines"));
  shape.nodes_per_leaf = static_cast<int>(s.Int("topology.megafly.nodes_per_leaf"));
  shape.global_per_spine = static_cast<int>(s.Int("topology.megafly.global_per_spine"));
  if (shape.groups - 1 != shape.spines * shape.global_per_spine) {
    throw ScenarioError(
        "topology.megafly.groups: " + std::to_string(shape.groups) +
        " groups need groups - 1 = topology.megafly.spines x topology.megafly.global_per_spine = " +
        std::to_string(shape.spines * shape.global_per_spine) +
        " (one global link between every pair of groups)");
  }
  return std::make_unique<Megafly>(shape, router.vcs);
}

}  // namespace

TopologyInfo MegaflyTopology() {
  return {
      "megafly",
      {IntKey("topology.megafly.groups", "9", 2, 1024, "", "Megafly: groups (groups - 1 = spines x global)"),
       IntKey("topology.megafly.leaves", "4", 1, 64, "", "Megafly: leaf switches per group"),
       IntKey("topology.megafly.spines", "4", 1, 64, "", "Megafly: spine switches per group"),
       IntKey("topology.megafly.nodes_per_leaf", "4", 1, 64, "", "Megafly: nodes per leaf switch"),
       IntKey("topology.megafly.global_per_spine", "2", 1, 64, "", "Megafly: global ports per spine")},
      Make};
}

}  // namespace icn
