// SPDX-License-Identifier: Apache-2.0
// The deadlines of an adapter's controllers (a PDT expiring, a transition ending), earliest first,
// so that a cycle visits only the controllers due and a rest knows when it ends. A member keeps
// one entry per deadline it was put on with; an entry whose member has another deadline since is
// stale, and makes First() early, never late.
#pragma once
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

namespace icn {

class DueCalendar {
 public:
  explicit DueCalendar(size_t members = 0) : queued_(members, UINT64_MAX) {}

  // Member i is due at `due` (UINT64_MAX: never); nothing new if it is on the calendar for it.
  void Put(uint32_t i, uint64_t due) {
    if (due == UINT64_MAX || due == queued_[i]) return;
    heap_.push({due, i});
    queued_[i] = due;
  }
  // The earliest entry's cycle, UINT64_MAX when none.
  uint64_t First() const { return heap_.empty() ? UINT64_MAX : heap_.top().first; }
  // Takes off every entry due by `now`, oldest first, calling fn(member, due).
  template <typename Fn>
  void TakeDue(uint64_t now, Fn fn) {
    while (!heap_.empty() && heap_.top().first <= now) {
      const auto [due, i] = heap_.top();
      Pop();
      fn(i, due);
    }
  }
  // Drops stale entries from the front: those whose member's deadline is now another
  // (current_due(member) != the entry's).
  template <typename CurrentDue>
  void DropStale(CurrentDue current_due) {
    while (!heap_.empty() && current_due(heap_.top().second) != heap_.top().first) Pop();
  }

 private:
  void Pop() {
    const auto [due, i] = heap_.top();
    if (queued_[i] == due) queued_[i] = UINT64_MAX;
    heap_.pop();
  }

  std::priority_queue<std::pair<uint64_t, uint32_t>, std::vector<std::pair<uint64_t, uint32_t>>,
                      std::greater<>>
      heap_;
  std::vector<uint64_t> queued_;  // per member: the deadline it is on the calendar for
};

}  // namespace icn
