// SPDX-License-Identifier: Apache-2.0
#include "core/run_stats.h"

namespace icn {

LatencySummary RunStats::Latency() const {
  LatencySummary s;
  s.samples = latencies_.count();
  if (s.samples == 0) return s;
  s.avg = latencies_.average();
  s.network_avg = static_cast<double>(network_latency_sum_) / static_cast<double>(s.samples);
  s.hops_avg = static_cast<double>(hops_sum_) / static_cast<double>(s.samples);
  s.p50 = static_cast<double>(latencies_.Percentile(0.50));
  s.p99 = static_cast<double>(latencies_.Percentile(0.99));
  s.max = static_cast<double>(latencies_.max());
  return s;
}

}  // namespace icn
