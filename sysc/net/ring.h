// SPDX-License-Identifier: Apache-2.0
// FIFO on a power-of-two array that grows when full: the per-cycle loop never allocates once the
// network has reached its steady occupancy.
#pragma once
#include <cstdint>
#include <vector>

namespace icn {

template <typename T>
class Ring {
 public:
  explicit Ring(uint32_t capacity = 4) {
    uint32_t size = 1;
    while (size < capacity) size <<= 1;
    items_.resize(size);
  }
  bool empty() const { return count_ == 0; }
  uint32_t size() const { return count_; }
  T& front() { return items_[head_]; }
  const T& front() const { return items_[head_]; }
  const T& at(uint32_t i) const { return items_[(head_ + i) & (items_.size() - 1)]; }
  void push_back(const T& item) {
    if (count_ == items_.size()) Grow();
    items_[(head_ + count_) & (items_.size() - 1)] = item;
    ++count_;
  }
  void pop_front() {
    head_ = (head_ + 1) & (items_.size() - 1);
    --count_;
  }

 private:
  void Grow() {
    std::vector<T> bigger(items_.size() * 2);
    for (uint32_t i = 0; i < count_; ++i) bigger[i] = at(i);
    items_.swap(bigger);
    head_ = 0;
  }
  std::vector<T> items_;
  uint32_t head_ = 0;
  uint32_t count_ = 0;
};

}  // namespace icn
