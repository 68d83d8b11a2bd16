// SPDX-License-Identifier: Apache-2.0
// Where packets come from: a Bernoulli source at every node with a destination pattern and a load
// profile, or an MPI-like workload whose messages wait for the ones they depend on. Each cycle
// Generate() hands the packets of that cycle to the run, which creates and injects them;
// NextCreation() says when the next one can come, so that a run may jump over quiet cycles.
//
// A Bernoulli source is drawn as gaps, not cycle by cycle: each node's next candidate cycle is
// geometric with the profile's highest rate, and a candidate becomes a packet with probability
// rate(cycle) / highest rate (thinning). Every cycle is still an independent trial at the
// profile's rate; the draws cost one per packet instead of one per node and cycle. A candidate
// that falls where the profile is off (a burst's off phase) is drawn again from the next cycle the
// load is on: the candidates form a memoryless process, so this changes no statistics and lets a
// run jump over the off phase.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/rng.h"
#include "core/sim_params.h"
#include "net/flit.h"
#include "traffic/load_profile.h"
#include "traffic/pattern.h"
#include "traffic/traffic_params.h"
#include "traffic/workload_driver.h"

namespace icn {

class TrafficSource {
 public:
  using Create = std::function<void(int src, int dst, uint32_t flits, uint32_t message)>;

  // `pattern_dims`: nodes per dimension of the topology (see Topology::PatternDims).
  TrafficSource(const TrafficParams& traffic, const WorkloadParams& workload, const SimParams& sim, int nodes,
                const std::vector<int>& pattern_dims);

  void Generate(uint64_t now, const Create& create);
  // The first cycle >= now at which Generate() may create a packet (UINT64_MAX: never).
  uint64_t NextCreation(uint64_t now) const;
  // A packet arrived whole: a workload counts it towards its message.
  void OnDelivered(const Packet& packet, uint64_t now) {
    if (workload_ && packet.message != Packet::kNoMessage) workload_->OnPacketDelivered(packet.message, now);
  }
  // The workload being run, or null for Bernoulli traffic.
  const WorkloadDriver* workload() const { return workload_.get(); }

 private:
  const TrafficParams& traffic_;
  int nodes_;
  Rng rng_;
  Pattern pattern_;
  LoadProfile profile_;
  std::unique_ptr<WorkloadDriver> workload_;
  double max_rate_ = 0;                   // packets per node and cycle at the profile's highest load
  std::vector<uint64_t> candidate_;       // per node: its next candidate cycle
  uint64_t next_candidate_ = UINT64_MAX;  // the earliest of them
  // The first candidate at or after `from` (geometric, skipping phases where the load is 0).
  uint64_t NextCandidate(uint64_t from);
};

}  // namespace icn
