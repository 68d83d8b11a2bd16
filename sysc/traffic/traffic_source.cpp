// SPDX-License-Identifier: Apache-2.0
#include "traffic/traffic_source.h"

#include <algorithm>

namespace icn {

TrafficSource::TrafficSource(const TrafficParams& traffic, const WorkloadParams& workload,
                             const SimParams& sim, int nodes, const std::vector<int>& pattern_dims)
    : traffic_(traffic),
      nodes_(nodes),
      rng_(sim.seed),
      pattern_(traffic.pattern, pattern_dims, traffic.hotspot_nodes, traffic.hotspot_fraction),
      profile_(traffic) {
  if (workload.kind != "none") {
    workload_ = std::make_unique<WorkloadDriver>(OpenWorkload(workload, nodes, sim.seed), sim.cycle_ns,
                                                 workload.mtu_bytes, workload.flit_bytes);
    return;
  }
  max_rate_ = std::min(1.0, profile_.MaxLoad() / traffic.packet_flits);
  if (max_rate_ <= 0) return;
  candidate_.resize(nodes);
  for (uint64_t& c : candidate_) {
    c = NextCandidate(0);
    next_candidate_ = std::min(next_candidate_, c);
  }
}

uint64_t TrafficSource::NextCandidate(uint64_t from) {
  for (uint64_t c = from;;) {
    c = profile_.NextLoaded(c);
    if (c == UINT64_MAX) return c;
    c += rng_.Geometric(max_rate_) - 1;
    if (profile_.NextLoaded(c) == c) return c;
  }
}

uint64_t TrafficSource::NextCreation(uint64_t now) const {
  if (!workload_) return std::max(now, next_candidate_);
  return workload_->NextRelease(now);
}

void TrafficSource::Generate(uint64_t now, const Create& create) {
  if (workload_) {
    workload_->Release(now, create);
    return;
  }
  if (now < next_candidate_) return;
  const double rate = profile_.LoadAt(now) / traffic_.packet_flits;
  const uint32_t flits = static_cast<uint32_t>(traffic_.packet_flits);
  next_candidate_ = UINT64_MAX;
  for (int node = 0; node < nodes_; ++node) {
    uint64_t& candidate = candidate_[node];
    if (candidate == now) {
      if (rate >= max_rate_ || rng_.Uniform() * max_rate_ < rate) {
        create(node, pattern_.Destination(node, rng_), flits, Packet::kNoMessage);
      }
      candidate = NextCandidate(now + 1);
    }
    next_candidate_ = std::min(next_candidate_, candidate);
  }
}

}  // namespace icn
