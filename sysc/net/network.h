// The network of one run: topology, routers, NICs and channels in flat arrays, the packet pool,
// traffic generation, and the end-of-run census. Step() advances everything by one cycle.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/params.h"
#include "core/rng.h"
#include "core/run_stats.h"
#include "net/channel.h"
#include "net/nic.h"
#include "net/router.h"
#include "net/topology.h"
#include "traffic/load_profile.h"
#include "traffic/pattern.h"
#include "traffic/workload_driver.h"

namespace icn {

// One end of a bidirectional link: the channel it sends on, the one it receives on, and the
// packets queued for its output. A controller sits at each end.
struct LinkEnd {
  std::string name;  // e.g. "r12_p5" (router 12, port 5) or "nic3"
  Channel* tx = nullptr;
  Channel* rx = nullptr;
  const int32_t* tx_queue = nullptr;
  int partner = -1;     // index of the other end
  bool master = false;  // wins simultaneous handshake requests
};

struct Census {
  uint64_t in_flight = 0;  // packets generated and not yet delivered, found by a scan
  std::vector<std::string> problems;
};

class Network : private SinkObserver {
 public:
  explicit Network(const Params& params);

  void Step(uint64_t now);
  // Stops generating new packets (tests use it to drain completely).
  void set_generating(bool on) { generating_ = on; }
  // Observer of every delivered packet (tests: per-packet latency checks). Empty = none.
  std::function<void(const Packet&, uint64_t latency)> on_delivery;

  const Topology& topology() const { return *topology_; }
  const std::vector<LinkEnd>& link_ends() const { return ends_; }
  std::vector<std::unique_ptr<Channel>>& channels() { return channels_; }
  const std::vector<std::unique_ptr<Router>>& routers() const { return routers_; }
  RunStats& stats() { return stats_; }
  const RunStats& stats() const { return stats_; }
  int nodes() const { return topology_->nodes; }
  // Flits generated since the last call (time series).
  uint64_t TakeGeneratedFlits() {
    const uint64_t f = generated_flits_;
    generated_flits_ = 0;
    return f;
  }
  // The workload being run, or null for Bernoulli traffic.
  const WorkloadDriver* workload() const { return workload_.get(); }
  // Per link end, the share of source-destination pairs routed through it that travel h links
  // (h = 1 .. max_hops, longer paths counted as max_hops), found by walking the routing function
  // over every pair, or a deterministic sample of destinations on large networks.
  std::vector<std::vector<double>> HopShares(int max_hops);
  // Zero-load latency of a packet from src to dst (cycles, generation to tail delivery).
  uint64_t ZeroLoadLatency(int src, int dst) const;
  // Scans every queue, buffer and wire: each live packet's flits must all be accounted for.
  Census TakeCensus() const;

 private:
  void OnDelivered(uint32_t packet, uint64_t now) override;
  void OnViolation(const std::string& what) override { stats_.OnViolation(what); }
  void Generate(uint64_t now);
  void Create(int src, int dst, uint32_t flits, uint32_t message, uint64_t now);
  Channel* NewChannel();

  const Params& params_;
  std::unique_ptr<Topology> topology_;
  PacketPool pool_;
  RunStats stats_;
  Rng rng_;
  Pattern pattern_;
  LoadProfile profile_;
  std::vector<std::unique_ptr<Router>> routers_;
  std::vector<std::unique_ptr<Nic>> nics_;
  std::vector<std::unique_ptr<Channel>> channels_;
  std::vector<LinkEnd> ends_;
  std::unique_ptr<WorkloadDriver> workload_;
  bool generating_ = true;
  uint64_t generated_flits_ = 0;
};

}  // namespace icn
