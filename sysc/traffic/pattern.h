// SPDX-License-Identifier: Apache-2.0
// Destination patterns. Bit patterns act on the node id (power-of-two node counts); tornado and
// neighbor act per dimension of a cube, and on the node id as a ring for trees.
#pragma once
#include <string>
#include <vector>

#include "core/rng.h"

namespace icn {

class Pattern {
 public:
  // dims: nodes per dimension (a tree passes {N}). hot: hotspot nodes and the share sent to them.
  Pattern(const std::string& name, std::vector<int> dims, std::vector<int> hot, double hot_fraction);
  int Destination(int src, Rng& rng) const;

 private:
  enum class Kind {
    kUniform,
    kComplement,
    kButterfly,
    kShuffle,
    kTranspose,
    kBitReverse,
    kTornado,
    kHotspot,
    kNeighbor
  };
  int PerDimension(int src, bool tornado) const;

  Kind kind_;
  std::vector<int> dims_;
  std::vector<int> hot_;
  double hot_fraction_;
  int nodes_;
  int bits_ = 0;
};

}  // namespace icn
