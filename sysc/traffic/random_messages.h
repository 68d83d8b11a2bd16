// SPDX-License-Identifier: Apache-2.0
// The workload of "Segment Switching: A New Switching Strategy for Optical HPC Networks": every node sends
// `per_node` messages to destinations drawn uniformly from the other nodes, each large with probability
// `large_fraction` (512 KB) and small otherwise (4 KB). The paper does not say when they are released:
// all at time 0 (the network carries them as fast as it can), or as Poisson arrivals at each node
// offering `offered_gbps` (drawn from their own stream: destinations and sizes stay those of time 0).
#pragma once
#include <cstdint>

#include "traffic/workload.h"

namespace icn {

struct RandomMessages {
  int per_node = 100;
  uint64_t small_bytes = 4096;
  uint64_t large_bytes = 524288;
  double large_fraction = 0.2;
  bool poisson = false;
  double offered_gbps = 320;
};

// Deterministic for a seed.
Workload MakeRandomMessages(const RandomMessages& spec, int nodes, uint64_t seed);

}  // namespace icn
