#include "net/topology.h"

#include "core/errors.h"

namespace icn {

std::unique_ptr<Topology> MakeTopology(const NetworkParams& params) {
  switch (params.kind) {
    case TopologyKind::kKaryNTree:
      return MakeKaryNTree(params.k, params.n, params.vcs);
    case TopologyKind::kTorus:
      return MakeCube(params.dims, true, params.vcs);
    case TopologyKind::kMesh:
      return MakeCube(params.dims, false, params.vcs);
    case TopologyKind::kMegafly:
      return MakeMegafly(params.megafly.groups, params.megafly.leaves, params.megafly.spines,
                         params.megafly.nodes_per_leaf, params.megafly.global_per_spine, params.vcs);
  }
  throw ScenarioError("topology.kind: unknown");
}

}  // namespace icn
