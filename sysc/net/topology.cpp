// SPDX-License-Identifier: Apache-2.0
#include "net/topology.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "core/errors.h"

namespace icn {

std::vector<KeySpec> TopologyKeys() {
  std::vector<std::string> kinds;
  for (const TopologyInfo& t : Topologies()) kinds.push_back(t.kind);
  std::vector<KeySpec> keys = {
      ChoiceKey("topology.kind", "kary_ntree", kinds, "network topology"),
      IntKey("topology.k", "4", 2, 64, "", "switch arity (tree) or nodes per dimension (cube)"),
      IntKey("topology.n", "3", 1, 8, "", "tree levels, or cube dimensions (2 or 3)"),
      IntListKey("topology.dims", "[]", 2, 64, "nodes",
                 "torus/mesh nodes per dimension, overrides k and n (2 or 3 entries)"),
  };
  for (const TopologyInfo& t : Topologies()) keys.insert(keys.end(), t.keys.begin(), t.keys.end());
  return keys;
}

std::vector<KeyRule> TopologyRules() {
  return {{{"router.vcs", "topology.kind"},
           "router.vcs >= 2 with topology.kind = torus (its two dateline VC classes)",
           [](const Scenario& s) -> std::string {
             if (s.Text("topology.kind") != "torus" || s.Int("router.vcs") >= 2) return "";
             return s.Show("router.vcs") + " with topology.kind = torus";
           }}};
}

std::unique_ptr<Topology> MakeTopology(const Scenario& s, const RouterParams& router) {
  const size_t dims = s.IntList("topology.dims").size();
  if (dims != 0 && dims != 2 && dims != 3) {
    throw ScenarioError("topology.dims: " + std::to_string(dims) +
                        " dimensions; allowed: 2 or 3 entries, or [] to use topology.k and topology.n");
  }
  const std::string& kind = s.Text("topology.kind");
  for (const TopologyInfo& t : Topologies()) {
    if (kind == t.kind) return t.make(s, router);
  }
  throw ScenarioError("topology.kind: '" + kind + "' is not registered");
}

int RegionCount(const Topology& t) {
  std::vector<int> regions;
  for (int r = 0; r < t.routers; ++r) regions.push_back(t.Region(r));
  std::sort(regions.begin(), regions.end());
  return static_cast<int>(std::unique(regions.begin(), regions.end()) - regions.begin());
}

std::vector<uint16_t> PartsByRegion(const Topology& t, int parts) {
  if (parts < 1 || parts > RegionCount(t)) throw std::logic_error("the network has fewer regions than parts");
  // Regions in order, each given whole to the part that is filling up; a part is full at its share
  // of the routers, or when the regions left are just enough for the parts left.
  std::vector<int> order(static_cast<size_t>(t.routers));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return t.Region(a) < t.Region(b); });
  const auto starts_region = [&](size_t i) { return i == 0 || t.Region(order[i]) != t.Region(order[i - 1]); };
  std::vector<int> regions_from(order.size() + 1, 0);  // regions that start at position i or later
  for (size_t i = order.size(); i-- > 0;) regions_from[i] = regions_from[i + 1] + (starts_region(i) ? 1 : 0);
  std::vector<uint16_t> part_of(order.size(), 0);
  int part = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    const bool share_done = i * static_cast<size_t>(parts) >= static_cast<size_t>(part + 1) * order.size();
    if (i > 0 && starts_region(i) && part + 1 < parts && (share_done || regions_from[i] == parts - part - 1))
      ++part;
    part_of[static_cast<size_t>(order[i])] = static_cast<uint16_t>(part);
  }
  return part_of;
}

}  // namespace icn
