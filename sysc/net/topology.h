// A topology describes the wiring (routers, bidirectional router-router links, where each node
// attaches) and supplies its routing function. The Network builds channels from it.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/params.h"
#include "net/routing.h"

namespace icn {

struct Wire {
  int a_router, a_port;
  int b_router, b_port;
};

struct Attachment {
  int router, port;
};

class Topology {
 public:
  virtual ~Topology() = default;
  virtual std::string Name() const = 0;
  // Routers a minimal route from src to dst traverses (zero-load analysis).
  virtual int RoutersOnPath(int src, int dst) const = 0;

  int nodes = 0;
  int routers = 0;
  int ports = 0;  // per router
  std::vector<Wire> wires;
  std::vector<Attachment> attach;  // per node
  std::unique_ptr<Routing> routing;
};

std::unique_ptr<Topology> MakeKaryNTree(int k, int n, int vcs);
// k-ary n-tree labels: router r is switch <w, l> with l = r / k^(n-1) (0 = roots), w = r % k^(n-1).
int TreeLevel(int k, int n, int router);
bool InMinimalTree(int k, int n, int router);
// p_min = |MT_S| / S, counted from the labels: the least link power an on/off mechanism that
// keeps the Minimal Tree can reach, relative to every link on.
double MinimalTreePowerFraction(int k, int n);
std::unique_ptr<Topology> MakeMegafly(int groups, int leaves, int spines, int nodes_per_leaf, int global_per_spine,
                                      int vcs);
std::unique_ptr<Topology> MakeCube(const std::vector<int>& dims, bool torus, int vcs);
std::unique_ptr<Topology> MakeTopology(const NetworkParams& params);

}  // namespace icn
