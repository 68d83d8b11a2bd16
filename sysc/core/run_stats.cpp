#include "core/run_stats.h"

#include <algorithm>
#include <cmath>

namespace icn {

LatencySummary RunStats::Latency() const {
  LatencySummary s;
  s.samples = latencies_.size();
  if (latencies_.empty()) return s;
  std::vector<uint32_t> sorted = latencies_;
  std::sort(sorted.begin(), sorted.end());
  double sum = 0;
  for (uint32_t v : sorted) sum += v;
  s.avg = sum / sorted.size();
  // Nearest-rank percentiles.
  auto rank = [&](double q) {
    return sorted[std::min(sorted.size() - 1, static_cast<size_t>(std::ceil(q * sorted.size())) - 1)];
  };
  s.p50 = rank(0.50);
  s.p99 = rank(0.99);
  s.max = sorted.back();
  return s;
}

}  // namespace icn
