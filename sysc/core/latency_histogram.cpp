// SPDX-License-Identifier: Apache-2.0
#include "core/latency_histogram.h"

#include <algorithm>
#include <cmath>

namespace icn {

uint64_t LatencyHistogram::Percentile(double q) const {
  if (count_ == 0) return 0;
  const uint64_t rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(q * count_)));
  uint64_t seen = 0;
  for (uint64_t v = 0; v < kExact; ++v) {
    seen += exact_[v];
    if (seen >= rank) return v;
  }
  for (size_t b = 0; b < coarse_.size(); ++b) {
    seen += coarse_[b];
    if (seen >= rank) return BucketStart(static_cast<int>(b));
  }
  return max_;
}

}  // namespace icn
