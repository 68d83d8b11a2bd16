#include "traffic/random_messages.h"

#include "core/rng.h"

namespace icn {

Workload MakeRandomMessages(const RandomMessages& spec, int nodes, uint64_t seed) {
  Workload w;
  w.ranks = nodes;
  Rng rng(seed * 0x2545f4914f6cdd1dULL + 0x4d5a);
  for (int src = 0; src < nodes; ++src) {
    for (int i = 0; i < spec.per_node; ++i) {
      WorkloadMessage m;
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
