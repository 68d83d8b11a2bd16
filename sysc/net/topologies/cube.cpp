// SPDX-License-Identifier: Apache-2.0
// k-ary n-cube: torus (wrap-around links) or mesh, 2 or 3 dimensions, one node per router.
// Ports: 0 = node, 1 + 2d = +direction of dimension d, 2 + 2d = -direction.
// Routing: dimension order (x, then y, then z), shortest direction per dimension; a tie (k/2 hops
// either way) takes a direction at random (the router's seeded generator) when the packet enters
// the dimension, so both directions of every ring carry the same load.
// Torus deadlock freedom: VC classes per dimension, chosen when the packet enters it and kept
// for the whole dimension (topology.dateline):
//  - single (the reference simulator's rule): a packet whose way crosses the dateline (the
//    wrap-around link) uses the upper half of the VCs, any other packet the lower half;
//  - balanced (two datelines, the default): the same, but a second dateline in the middle of the
//    ring forces the lower half, and a packet that crosses neither takes either half at random.
//    The upper half never carries a packet over the middle link and the lower half never over
//    the wrap link, so each half is still free of cycles; the VCs of links near a dateline are no
//    longer half idle, which raises saturation and stops accepted throughput falling past it.
//    (A packet free to change halves from hop to hop would close a cycle through both.)
#include "core/errors.h"
#include "net/topology.h"

namespace icn {
namespace {

class CubeRouting : public Routing {
 public:
  CubeRouting(std::vector<int> dims, bool torus, bool balanced, int vcs)
      : dims_(std::move(dims)), torus_(torus), balanced_(balanced), vcs_(vcs) {}

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
      if (!torus_) return {b > a ? 1 + 2 * d : 2 + 2 * d, 0, vcs_};
      if (packet.dim != d) EnterDimension(ctx, d, a, b);
      const int port = packet.minus ? 2 + 2 * d : 1 + 2 * d;
      const int half = vcs_ / 2;
      return packet.vc_class == kUpper ? Route{port, half, vcs_} : Route{port, 0, half};
    }
    return {0, 0, vcs_};
  }

 private:
  enum : uint8_t { kLower, kUpper };  // Packet::vc_class

  // Direction (shortest; a tie at random) and VC class of the packet's way from a to b in d.
  void EnterDimension(RouteContext& ctx, int d, int a, int b) const {
    const int k = dims_[d];
    const int ahead = (b - a + k) % k;
    const bool plus = 2 * ahead < k || (2 * ahead == k && ctx.outputs.Random(2) == 0);
    Packet& packet = ctx.packet;
    packet.dim = static_cast<int8_t>(d);
    packet.minus = !plus;
    const bool wraps = plus ? b < a : b > a;
    const int mid = (k - 1) / 2;  // the middle dateline: the link between mid and mid + 1
    const bool crosses_mid = plus ? a <= mid && b > mid : a > mid && b <= mid;
    if (wraps) {
      packet.vc_class = kUpper;
    } else if (!balanced_ || crosses_mid) {
      packet.vc_class = kLower;
    } else {
      packet.vc_class = static_cast<uint8_t>(ctx.outputs.Random(2));  // kLower or kUpper
    }
  }

  std::vector<int> dims_;
  bool torus_;
  bool balanced_;
  int vcs_;
};

class Cube : public Topology {
 public:
  // `wire_latency`: of the router-router wires (0 = link.latency_cycles).
  Cube(const std::vector<int>& dims, bool torus, bool balanced, int wire_latency, int vcs)
      : dims_(dims), torus_(torus) {
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
          wires.push_back({node, 1 + 2 * d, next, 2 + 2 * d, {wire_latency}});
        }
        stride *= k;
      }
    }
    routing = std::make_unique<CubeRouting>(dims, torus, balanced, vcs);
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
  // A slab: the routers of one coordinate of the last dimension (contiguous indices).
  int Region(int router) const override { return router / (nodes / dims_.back()); }

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
  // Folded: every wire spans two router pitches, so the wrap-around links are as short as the rest.
  const int wire_latency = s.Bool("topology.folded") ? 2 * static_cast<int>(s.Int("link.latency_cycles")) : 0;
  return std::make_unique<Cube>(dims, true, s.Text("topology.dateline") == "balanced", wire_latency,
                                router.vcs);
}

std::unique_ptr<Topology> MakeMesh(const Scenario& s, const RouterParams& router) {
  return std::make_unique<Cube>(Dims(s, "mesh"), false, false, 0, router.vcs);
}

}  // namespace

TopologyInfo TorusTopology() {
  return {"torus",
          {ChoiceKey("topology.dateline", "balanced", {"single", "balanced"},
                     "torus VC classes: single = one dateline (wrap link; the reference simulator's rule), "
                     "balanced = a second one mid-ring, packets crossing neither use every VC"),
           BoolKey("topology.folded", "false",
                   "torus laid out folded: router-router wires take twice link.latency_cycles (the "
                   "reference simulator's torus); node links keep it")},
          MakeTorus};
}
TopologyInfo MeshTopology() { return {"mesh", {}, MakeMesh}; }

}  // namespace icn
