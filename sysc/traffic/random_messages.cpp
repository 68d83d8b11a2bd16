// SPDX-License-Identifier: Apache-2.0
#include "traffic/random_messages.h"

#include <cmath>

#include "core/rng.h"

namespace icn {

Workload MakeRandomMessages(const RandomMessages& spec, int nodes, uint64_t seed) {
  Workload w;
  w.ranks = nodes;
  Rng rng(seed * 0x2545f4914f6cdd1dULL + 0x4d5a);
  Rng arrivals(seed * 0x9e3779b97f4a7c15ULL + 0x7a11);
  const double mean_bits =
      8 * (spec.large_fraction * spec.large_bytes + (1 - spec.large_fraction) * spec.small_bytes);
  const double mean_gap_ns = mean_bits / spec.offered_gbps;
  for (int src = 0; src < nodes; ++src) {
    double at_ns = 0;
    for (int i = 0; i < spec.per_node; ++i) {
      WorkloadMessage m;
      if (spec.poisson) {
        at_ns += -std::log(1 - arrivals.Uniform()) * mean_gap_ns;  // exponential gaps
        m.at_ns = at_ns;
      }
      m.src = src;
      m.dst = static_cast<int>(rng.Below(static_cast<uint32_t>(nodes - 1)));
      if (m.dst >= src) ++m.dst;
      m.bytes = rng.Uniform() < spec.large_fraction ? spec.large_bytes : spec.small_bytes;
      w.bytes += m.bytes;
      w.messages.push_back(m);
    }
  }
  return w;
}

}  // namespace icn
