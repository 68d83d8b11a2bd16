#include "net/topology.h"

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

}  // namespace icn
