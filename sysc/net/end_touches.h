// SPDX-License-Identifier: Apache-2.0
// The link ends whose observables changed since a controller adapter last looked: a flit sent or
// received there, or a packet newly queued for its output. An adapter that visits these ends (and
// those its controllers' deadlines name) does work in proportion to the network's activity
// instead of walking every link end every cycle.
#pragma once
#include <cstdint>
#include <vector>

namespace icn {

class EndTouches {
 public:
  explicit EndTouches(size_t ends) : seen_(ends, 0), owner_(ends, 0), touched_(1) {}

  // With sim.threads > 1 each end belongs to the partition of its router, whose thread alone
  // touches it: the ends are listed per owner, so that threads never write the same list.
  void SetOwners(std::vector<uint16_t> owner, int owners) {
    owner_ = std::move(owner);
    touched_.assign(static_cast<size_t>(owners), {});
  }
  void Touch(uint32_t end) {
    if (seen_[end] == epoch_) return;
    seen_[end] = epoch_;
    touched_[owner_[end]].push_back(end);
  }
  // The ends touched since the last Take(), each once, per owner in the order first touched;
  // valid until the next Take().
  const std::vector<std::vector<uint32_t>>& Take() {
    taken_each_.resize(touched_.size());
    for (size_t o = 0; o < touched_.size(); ++o) {
      taken_each_[o].swap(touched_[o]);
      touched_[o].clear();
    }
    ++epoch_;
    return taken_each_;
  }

 private:
  std::vector<uint64_t> seen_;  // the epoch in which each end was last touched (64 bits: no wrap)
  uint64_t epoch_ = 1;
  std::vector<uint16_t> owner_;                 // per end, the list its touches go to
  std::vector<std::vector<uint32_t>> touched_;  // per owner
  std::vector<std::vector<uint32_t>> taken_each_;
};

}  // namespace icn
