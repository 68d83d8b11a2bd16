// k-ary n-cube: torus (wrap-around links) or mesh, 2 or 3 dimensions, one node per router.
// Ports: 0 = node, 1 + 2d = +direction of dimension d, 2 + 2d = -direction.
// Routing: dimension order (x, then y, then z), shortest direction per dimension (ties go +).
// Torus deadlock freedom: dateline VC classes per dimension; a packet uses the lower half of the
// VCs in a dimension until it takes the wrap-around link, the upper half from then on.
#include "core/errors.h"
#include "net/topology.h"

namespace icn {
namespace {

class CubeRouting : public Routing {
 public:
  CubeRouting(std::vector<int> dims, bool torus, int vcs)
      : dims_(std::move(dims)), torus_(torus), vcs_(vcs) {}

  Route Compute(RouteContext& ctx) const override {
    Packet& packet = ctx.packet;
    int here = ctx.router;
    int there = packet.dst;
    for (int d = 0; d < static_cast<int>(dims_.size()); ++d) {
      const int k = dims_[d];
      const int a = here % k;
      const int b = there % k;
      here /= k;
      there /= k;
      if (a == b) continue;
      bool plus = b > a;
      if (torus_) {
        const int ahead = (b - a + k) % k;
        plus = 2 * ahead <= k;
      }
      if (!torus_) return {plus ? 1 + 2 * d : 2 + 2 * d, 0, vcs_};
      if (packet.dim != d) {
        packet.dim = static_cast<int8_t>(d);
        packet.vc_class = 0;
      }
      const bool wraps = plus ? a == k - 1 : a == 0;
      if (wraps) packet.vc_class = 1;
      const int half = vcs_ / 2;
      return {plus ? 1 + 2 * d : 2 + 2 * d, packet.vc_class ? half : 0, packet.vc_class ? vcs_ : half};
    }
    return {0, 0, vcs_};
  }

 private:
  std::vector<int> dims_;
  bool torus_;
  int vcs_;
};

class Cube : public Topology {
 public:
  Cube(const std::vector<int>& dims, bool torus, int vcs) : dims_(dims), torus_(torus) {
    nodes = 1;
    for (int k : dims) nodes *= k;
    routers = nodes;
    ports = 1 + 2 * static_cast<int>(dims.size());
    for (int node = 0; node < nodes; ++node) {
      attach.push_back({node, 0, {}});
      int stride = 1;
      for (int d = 0; d < static_cast<int>(dims.size()); ++d) {
        const int k = dims[d];
        const int coord = node / stride % k;
        if (torus || coord + 1 < k) {
          const int next = node + ((coord + 1) % k - coord) * stride;
          wires.push_back({node, 1 + 2 * d, next, 2 + 2 * d, {}});
        }
        stride *= k;
      }
    }
    routing = std::make_unique<CubeRouting>(dims, torus, vcs);
  }

  std::string Name() const override {
    std::string name;
    for (size_t d = 0; d < dims_.size(); ++d) name += (d ? "x" : "") + std::to_string(dims_[d]);
    return name + (torus_ ? " torus" : " mesh");
  }

  int RoutersOnPath(int src, int dst) const override {
    int hops = 0;
    for (int k : dims_) {
      const int a = src % k;
      const int b = dst % k;
      src /= k;
      dst /= k;
      const int forward = (b - a + k) % k;
      hops += torus_ ? std::min(forward, k - forward) : std::abs(b - a);
    }
    return hops + 1;
  }

  std::vector<int> PatternDims() const override { return dims_; }

 private:
  std::vector<int> dims_;
  bool torus_;
};

// Nodes per dimension: topology.dims, or topology.n dimensions of topology.k nodes.
std::vector<int> Dims(const Scenario& s, const char* kind) {
  std::vector<int> dims;
  for (int64_t d : s.IntList("topology.dims")) dims.push_back(static_cast<int>(d));
  if (!dims.empty()) return dims;
  const int n = static_cast<int>(s.Int("topology.n"));
  if (n != 2 && n != 3) {
    throw ScenarioError(std::string("topology.n: a ") + kind + " has 2 or 3 dimensions, got " +
                        std::to_string(n) + "; allowed: 2 or 3 (or give topology.dims)");
  }
  return std::vector<int>(n, static_cast<int>(s.Int("topology.k")));
}

std::unique_ptr<Topology> MakeTorus(const Scenario& s, const RouterParams& router) {
  const std::vector<int> dims = Dims(s, "torus");
  if (router.vcs < 2)
    throw ScenarioError("router.vcs: the torus needs two dateline VC classes; allowed: [2, 16]");
  return std::make_unique<Cube>(dims, true, router.vcs);
}

std::unique_ptr<Topology> MakeMesh(const Scenario& s, const RouterParams& router) {
  return std::make_unique<Cube>(Dims(s, "mesh"), false, router.vcs);
}

}  // namespace

TopologyInfo TorusTopology() { return {"torus", {}, MakeTorus}; }
TopologyInfo MeshTopology() { return {"mesh", {}, MakeMesh}; }

}  // namespace icn
