// SPDX-License-Identifier: Apache-2.0
// k-ary n-tree labels, for mechanisms that act on the tree's structure (the fat-tree on/off
// links keep a Minimal Tree): router r is switch <w, l> with l = r / k^(n-1) (0 = roots) and
// w = r % k^(n-1).
#pragma once

#include "net/topology.h"

namespace icn {

struct KaryNTreeShape {
  int k;
  int n;
};

// The shape of a k-ary n-tree topology, or null for any other topology.
const KaryNTreeShape* TreeShape(const Topology& topology);
int TreeLevel(const KaryNTreeShape& tree, int router);
// The down port of switch `router` toward node `dst`, or -1 when dst is not below it (go up).
int TreeDownPort(const KaryNTreeShape& tree, int router, int dst);
bool InMinimalTree(const KaryNTreeShape& tree, int router);
// p_min = |MT_S| / S, counted from the labels: the least link power an on/off mechanism that
// keeps the Minimal Tree can reach, relative to every link on.
double MinimalTreePowerFraction(const KaryNTreeShape& tree);

}  // namespace icn
