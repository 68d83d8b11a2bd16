#include "net/photonic/photonic_params.h"

#include "core/errors.h"
#include "net/topologies/kary_ntree.h"

namespace icn {

std::vector<uint8_t> BufferedSwitches(const Topology& topology, const std::string& layout) {
  std::vector<uint8_t> buffered(topology.routers, layout == "all");
  if (layout == "none" || layout == "all") return buffered;
  const KaryNTreeShape* tree = TreeShape(topology);
  if (layout.rfind("top_", 0) == 0) {
    const int levels = layout.back() - '0';
    if (!tree || levels > tree->n) {
      throw ScenarioError(
          "photonic.buffer.layout: " + layout + " needs a k-ary n-tree with at least " +
          std::to_string(levels) + " levels; allowed on " + topology.Name() +
          (tree ? ": none, all, top_1 .. top_" + std::to_string(tree->n) : ": none, all, every_2, every_4"));
    }
    for (int r = 0; r < topology.routers; ++r) buffered[r] = TreeLevel(*tree, r) < levels;
    return buffered;
  }
  const int every = layout.back() - '0';  // every_2, every_4
  const std::vector<int> dims = topology.PatternDims();
  bool fits = !tree && static_cast<int>(dims.size()) > 1 && topology.routers == topology.nodes;
  for (int k : dims) fits &= k % every == 0;
  if (!fits) {
    throw ScenarioError("photonic.buffer.layout: " + layout + " needs a torus whose sides are multiples of " +
                        std::to_string(every) + "; allowed on " + topology.Name() + ": none, all" +
                        (tree ? ", top_1 .. top_" + std::to_string(tree->n) : ""));
  }
  for (int r = 0; r < topology.routers; ++r) {
    int sum = 0;
    for (int d = 0, rest = r; d < static_cast<int>(dims.size()); rest /= dims[d], ++d) sum += rest % dims[d];
    buffered[r] = sum % every == 0;
  }
  return buffered;
}

}  // namespace icn
