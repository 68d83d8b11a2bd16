#include "traffic/traffic_source.h"

namespace icn {

TrafficSource::TrafficSource(const TrafficParams& traffic, const WorkloadParams& workload,
                             const SimParams& sim, int nodes, const std::vector<int>& pattern_dims)
    : traffic_(traffic),
      nodes_(nodes),
      rng_(sim.seed),
      pattern_(traffic.pattern, pattern_dims, traffic.hotspot_nodes, traffic.hotspot_fraction),
      profile_(traffic) {
  if (workload.kind != "none") {
    workload_ = std::make_unique<WorkloadDriver>(LoadWorkload(workload, nodes, sim.seed), sim.cycle_ns,
                                                 workload.mtu_bytes, workload.flit_bytes);
  }
}

void TrafficSource::Generate(uint64_t now, const Create& create) {
  if (workload_) {
    workload_->Release(now, create);
    return;
  }
  const double rate = profile_.LoadAt(now) / traffic_.packet_flits;
  if (rate <= 0) return;
  const uint32_t flits = static_cast<uint32_t>(traffic_.packet_flits);
  for (int node = 0; node < nodes_; ++node) {
    if (rng_.Uniform() >= rate) continue;
    create(node, pattern_.Destination(node, rng_), flits, Packet::kNoMessage);
  }
}

}  // namespace icn
