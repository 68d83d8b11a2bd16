// SPDX-License-Identifier: Apache-2.0
// Tells a run that is slow from one that stopped. Looked at every few cycles: a deadlock is no
// channel busy (no flit moving, no circuit transferring) for `stall_limit` cycles while packets are
// outstanding; starvation is a packet older than `starvation_limit` cycles while other packets are
// still being delivered.
// Saturation (packets flowing, the backlog growing) is neither: the run's drain limit reports it.
#pragma once
#include <cstdint>
#include <deque>
#include <utility>

#include "net/flit.h"

namespace icn {

class ProgressWatchdog {
 public:
  enum class Verdict { kNone, kDeadlocked, kStarved };
  static constexpr uint64_t kPeriod = 1024;  // cycles between looks (a power of two)

  // A limit of 0 turns that check off.
  ProgressWatchdog(uint64_t stall_limit, uint64_t starvation_limit)
      : stall_limit_(stall_limit), starvation_limit_(starvation_limit) {}

  void OnCreated(uint32_t packet, uint64_t cycle) {
    if (starvation_limit_ || stall_limit_) created_.emplace_back(packet, cycle);
  }
  // `busy`: the channels' busy cycles so far (Fabric::BusyChannelCycles); `delivered`,
  // `outstanding`: packets.
  Verdict Look(uint64_t now, uint64_t busy, uint64_t delivered, uint64_t outstanding, const PacketPool& pool);
  // Whether a packet is still waiting at the last look, and the oldest one (after Look).
  bool waiting() const { return !created_.empty(); }
  uint32_t oldest() const { return created_.front().first; }
  uint64_t still_since() const { return still_since_; }

 private:
  // Drops delivered (or recycled) packets from the front of the creation order.
  void DropDelivered(const PacketPool& pool);

  uint64_t stall_limit_;
  uint64_t starvation_limit_;
  std::deque<std::pair<uint32_t, uint64_t>> created_;  // (packet, creation cycle), oldest first
  uint64_t last_busy_ = 0;
  uint64_t still_since_ = 0;
  uint64_t last_delivered_ = 0;
};

}  // namespace icn
