// SPDX-License-Identifier: Apache-2.0
#include "run/watchdog.h"

namespace icn {

void ProgressWatchdog::DropDelivered(const PacketPool& pool) {
  while (!created_.empty()) {
    const auto [packet, cycle] = created_.front();
    if (pool[packet].live && pool[packet].created == cycle) return;
    created_.pop_front();
  }
}

ProgressWatchdog::Verdict ProgressWatchdog::Look(uint64_t now, uint64_t busy, uint64_t delivered,
                                                 uint64_t outstanding, const PacketPool& pool) {
  if (busy != last_busy_ || outstanding == 0) {
    last_busy_ = busy;
    still_since_ = now;
  }
  const bool others_delivered = delivered != last_delivered_;
  last_delivered_ = delivered;
  DropDelivered(pool);
  if (outstanding == 0 || created_.empty()) return Verdict::kNone;
  if (stall_limit_ && now - still_since_ >= stall_limit_) return Verdict::kDeadlocked;
  if (starvation_limit_ && others_delivered && now - created_.front().second >= starvation_limit_) {
    return Verdict::kStarved;
  }
  return Verdict::kNone;
}

}  // namespace icn
