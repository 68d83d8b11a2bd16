// SPDX-License-Identifier: Apache-2.0
// A set of component indices (channels, NICs, routers) walked in index order: what lets a cycle
// visit only the components with work, in the order a walk over all of them would, at the cost
// of one word per 64 components when nearly all are idle.
#pragma once
#include <cstdint>
#include <vector>

namespace icn {

class ActiveSet {
 public:
  explicit ActiveSet(size_t size = 0) : words_((size + 63) / 64, 0) {}

  // What a member keeps to join the set in one OR (no look-up of the set on its hot path). With
  // sim.threads > 1 members of one set join from several threads at once (a channel's sender and
  // receiver may run on different ones): the OR is atomic, and skipped by a member already in.
  struct Slot {
    uint64_t* word;
    uint64_t bit;
    void Join() const {
      if ((__atomic_load_n(word, __ATOMIC_RELAXED) & bit) == 0)
        __atomic_fetch_or(word, bit, __ATOMIC_RELAXED);
    }
  };
  Slot SlotOf(uint32_t i) { return {&words_[i >> 6], uint64_t{1} << (i & 63)}; }

  void Erase(uint32_t i) { words_[i >> 6] &= ~(uint64_t{1} << (i & 63)); }
  bool empty() const {
    for (const uint64_t w : words_) {
      if (w != 0) return false;
    }
    return true;
  }
  // Calls fn(i) for every member in increasing order; fn may erase i. Callers make sure nothing
  // joins during a walk (a member joining a word already read would be skipped).
  template <typename Fn>
  void ForEach(Fn fn) const {
    for (size_t w = 0; w < words_.size(); ++w) {
      for (uint64_t bits = words_[w]; bits != 0; bits &= bits - 1)
        fn(static_cast<uint32_t>(w * 64 + static_cast<size_t>(__builtin_ctzll(bits))));
    }
  }

 private:
  std::vector<uint64_t> words_;
};

}  // namespace icn
