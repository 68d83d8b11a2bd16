// SPDX-License-Identifier: Apache-2.0
#include "net/photonic/photonic_params.h"

#include "core/errors.h"
#include "net/topologies/kary_ntree.h"

namespace icn {

std::vector<uint8_t> BufferedSwitches(const Topology& topology, const std::string& layout) {
  std::vector<uint8_t> buffered(topology.routers, layout == "all");
  if (layout == "none" || layout == "all") return buffered;
  // (the key table's rule puts top_N on a tree and every_N on a torus; their sizes are checked here)
  const KaryNTreeShape* tree = TreeShape(topology);
  if (layout.rfind("top_", 0) == 0) {
    const int levels = layout.back() - '0';
    if (levels > tree->n) {
      throw ScenarioError("photonic.buffer.layout, topology.n: " + layout +
                          " needs a k-ary n-tree with at least " + std::to_string(levels) +
                          " levels; allowed on " + topology.Name() + ": none, all, top_1 .. top_" +
                          std::to_string(tree->n));
    }
    for (int r = 0; r < topology.routers; ++r) buffered[r] = TreeLevel(*tree, r) < levels;
    return buffered;
  }
  const int every = layout.back() - '0';  // every_2, every_4
  const std::vector<int> dims = topology.PatternDims();
  bool fits = true;
  for (int k : dims) fits &= k % every == 0;
  if (!fits) {
    throw ScenarioError("photonic.buffer.layout, topology.dims: " + layout +
                        " needs a torus whose sides are multiples of " + std::to_string(every) +
                        "; allowed on " + topology.Name() + ": none, all");
  }
  for (int r = 0; r < topology.routers; ++r) {
    int sum = 0;
    for (int d = 0, rest = r; d < static_cast<int>(dims.size()); rest /= dims[d], ++d) sum += rest % dims[d];
    buffered[r] = sum % every == 0;
  }
  return buffered;
}

}  // namespace icn
