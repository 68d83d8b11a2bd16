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
  explicit EndTouches(size_t ends) : seen_(ends, 0) {}

  void Touch(uint32_t end) {
    if (seen_[end] == epoch_) return;
    seen_[end] = epoch_;
    touched_.push_back(end);
  }
  // The ends touched since the last Take(), each once, in the order first touched; valid until
  // the next Take().
  const std::vector<uint32_t>& Take() {
    taken_.swap(touched_);
    touched_.clear();
    ++epoch_;
    return taken_;
  }

 private:
  std::vector<uint64_t> seen_;  // the epoch in which each end was last touched (64 bits: no wrap)
  uint64_t epoch_ = 1;
  std::vector<uint32_t> touched_;
  std::vector<uint32_t> taken_;
};

}  // namespace icn
