// Runs a Workload on the network: releases each message at its time or once its dependencies have
// been delivered and its compute gap has passed, splits it into MTU packets of whole flits, and
// records the cycle its last message is delivered (the execution time). A dependency waits for a
// message's delivery or, for a sent one, its release.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "traffic/workload.h"

namespace icn {

class WorkloadDriver {
 public:
  WorkloadDriver(const Workload& workload, double cycle_ns, uint32_t mtu_bytes, uint32_t flit_bytes);

  // Hands every packet of the messages released by cycle `now` to enqueue(src, dst, flits, message).
  void Release(uint64_t now, const std::function<void(int, int, uint32_t, uint32_t)>& enqueue);
  void OnPacketDelivered(uint32_t message, uint64_t now);
  // The first cycle >= now at which a message is due (UINT64_MAX: none until a delivery).
  uint64_t NextRelease(uint64_t now) const {
    return ready_.empty() ? UINT64_MAX : std::max(now, ready_.top().first);
  }

  bool done() const { return completed_ == state_.size(); }
  uint64_t finish_cycle() const { return finish_; }
  size_t messages() const { return state_.size(); }
  size_t completed() const { return completed_; }
  uint64_t packets() const { return packets_; }
  // A node's share of the whole workload: the larger of the packets it sends and those it receives.
  // The busiest node's bounds the execution time of any network whose nodes inject and absorb one
  // packet per cycle (the packet-step torus); busiest over mean is the workload's imbalance.
  uint64_t busiest_node_packets() const { return busiest_node_packets_; }
  double mean_node_packets() const { return mean_node_packets_; }
  // The nodes' compute by cycle `end`: over every node, the cycles it computed (the union of its
  // messages' compute phases that have begun, so that overlapping phases count once; the presets'
  // never overlap), each weighted by its utilisation. Divided by nodes x end: the mean utilisation.
  double BusyCycles(uint64_t end) const;

 private:
  struct State {
    uint64_t start = 0;     // cycle its dependencies and its source's previous message allow
    uint64_t release = 0;   // max(start + gap, at), once it is ready
    uint64_t at = 0;        // release time of a message without dependencies
    uint64_t gap = 0;       // cycles of compute before the release
    float utilisation = 1;  // float: a share, kept small in a state per message
    uint64_t bytes = 0;
    uint32_t waiting = 0;    // dependencies not met yet
    uint32_t in_flight = 0;  // packets not delivered yet
    int src = 0, dst = 0;
  };
  void Wait(uint32_t id, uint64_t now);  // one of its waits ended at `now`
  std::vector<State> state_;
  // Per message, the messages waiting for its delivery or for its release (compressed rows).
  struct Dependents {
    std::vector<uint32_t> first;  // message m's are ids[first[m] .. first[m + 1])
    std::vector<uint32_t> ids;
  };
  // Of every message's dependencies on a delivery, or (sent) on a release.
  static Dependents Invert(const Workload& workload, bool sent);
  Dependents on_delivery_;
  Dependents on_release_;
  std::priority_queue<std::pair<uint64_t, uint32_t>, std::vector<std::pair<uint64_t, uint32_t>>,
                      std::greater<>>
      ready_;
  uint32_t mtu_bytes_;
  uint32_t flit_bytes_;
  size_t completed_ = 0;
  uint64_t finish_ = 0;
  uint64_t packets_ = 0;
  uint64_t busiest_node_packets_ = 0;
  double mean_node_packets_ = 0;
};

}  // namespace icn
