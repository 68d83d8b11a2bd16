// SPDX-License-Identifier: Apache-2.0
// Runs a workload on the network: releases each message at its time or once its dependencies have
// been delivered and its compute gap has passed, splits it into MTU packets of whole flits, and
// records the cycle its last message is delivered (the execution time). A dependency waits for a
// message's delivery or, for a sent one, its release.
//
// Messages come from a MessageStream as the run reaches them: the driver asks for the next batch
// whenever a rank's dependencies are all met (the stream's rank contract: only then may a message
// not produced yet be due), and forgets a message once it is delivered and no message to come can
// depend on it. Memory follows the messages in flight, not the workload; results equal those of
// the workload held whole.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <queue>
#include <tuple>
#include <vector>

#include "traffic/message_stream.h"

namespace icn {

class WorkloadDriver {
 public:
  WorkloadDriver(std::unique_ptr<MessageStream> stream, double cycle_ns, uint32_t mtu_bytes,
                 uint32_t flit_bytes);
  WorkloadDriver(const Workload& workload, double cycle_ns, uint32_t mtu_bytes, uint32_t flit_bytes)
      : WorkloadDriver(std::make_unique<WholeWorkload>(workload), cycle_ns, mtu_bytes, flit_bytes) {}

  // Hands every packet of the messages released by cycle `now` to enqueue(src, dst, flits, message).
  void Release(uint64_t now, const std::function<void(int, int, uint32_t, uint32_t)>& enqueue);
  void OnPacketDelivered(uint32_t message, uint64_t now);
  // The first cycle >= now at which a message is due (UINT64_MAX: none until a delivery).
  uint64_t NextRelease(uint64_t now) const {
    return ready_.empty() ? UINT64_MAX : std::max(now, ready_.top().first);
  }

  bool done() const { return completed_ == messages_; }
  uint64_t finish_cycle() const { return finish_; }
  size_t messages() const { return messages_; }
  size_t completed() const { return completed_; }
  uint64_t packets() const { return packets_; }
  // The most messages held at once (produced and not forgotten).
  size_t peak_held() const { return peak_held_; }
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
  static constexpr uint32_t kNone = UINT32_MAX;
  struct State {
    uint64_t start = 0;    // cycle its dependencies and its source's previous message allow
    uint64_t release = 0;  // max(start + gap, at), once it is ready
    uint64_t at = 0;       // release time of a message without dependencies
    uint64_t gap = 0;      // cycles of compute before the release
    uint64_t bytes = 0;
    uint64_t released_at = 0, delivered_at = 0;
    float utilisation = 1;   // float: a share, kept small in a state per message
    uint32_t waiting = 0;    // dependencies not met yet
    uint32_t in_flight = 0;  // packets not delivered yet
    uint32_t batch = 0;      // the stream's batch that produced it
    int src = 0, dst = 0;
    bool released = false, delivered = false;
    std::vector<uint32_t> on_delivery, on_release;  // messages waiting for its delivery / release
  };
  // What the stream's next message from a rank would depend on (see MessageStream).
  struct Rank {
    uint32_t frontier_batch = kNone;  // the last batch in which it received
    uint32_t frontier_first = kNone;  // the first of those receptions
    uint32_t frontier_unmet = 0;      // those not delivered yet
    uint32_t last_sent = kNone;
    bool ready = true;  // every dependency met: a message not produced may be due
  };
  struct Phase {  // a compute phase that has begun: its node's cycles [from, to) at a utilisation
    int node;
    uint64_t from, to;
    float utilisation;
    bool operator<(const Phase& o) const {
      return std::tie(node, from, to, utilisation) < std::tie(o.node, o.from, o.to, o.utilisation);
    }
  };

  State& state(uint32_t id) { return held_[id - first_held_]; }
  void Produce();                        // batches while a rank may have a message due
  void Append(WorkloadMessage&& m);      // the next message, its met dependencies accounted
  void Ready(uint32_t id);               // its last dependency is met: schedule its release
  void Wait(uint32_t id, uint64_t now);  // one of its waits ended at `now`
  void Reconsider(int rank);             // its dependencies changed: is it ready?
  void Forget();                         // the delivered messages nobody can depend on any more

  std::unique_ptr<MessageStream> stream_;
  double cycle_ns_;
  uint32_t mtu_bytes_;
  uint32_t flit_bytes_;
  std::deque<State> held_;  // messages first_held_, first_held_ + 1, ...
  uint32_t first_held_ = 0;
  uint32_t batches_ = 0;
  bool exhausted_ = false;  // the stream has produced everything
  std::vector<Rank> ranks_;
  size_t ready_ranks_ = 0;
  std::vector<WorkloadMessage> batch_;  // scratch
  std::vector<Phase> phases_;
  std::priority_queue<std::pair<uint64_t, uint32_t>, std::vector<std::pair<uint64_t, uint32_t>>,
                      std::greater<>>
      ready_;
  uint64_t now_ = 0;  // the cycle of the last release or delivery (the rank contract's check)
  size_t messages_ = 0;
  size_t completed_ = 0;
  size_t peak_held_ = 0;
  uint64_t finish_ = 0;
  uint64_t packets_ = 0;
  uint64_t busiest_node_packets_ = 0;
  double mean_node_packets_ = 0;
};

}  // namespace icn
