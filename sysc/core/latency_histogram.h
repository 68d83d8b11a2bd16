// SPDX-License-Identifier: Apache-2.0
// Latency samples in a fixed amount of memory: exact counts below 2^16 cycles, and above that
// buckets of 1/128 of their size (a percentile there is the bucket's lower end, at most 0.8 % low).
// Average and maximum stay exact. Memory does not grow with the number of packets.
#pragma once
#include <cstdint>
#include <vector>

namespace icn {

class LatencyHistogram {
 public:
  LatencyHistogram() : exact_(kExact, 0), coarse_(64 * kSteps, 0) {}

  void Add(uint64_t latency) {
    ++count_;
    sum_ += latency;
    if (latency > max_) max_ = latency;
    if (latency < kExact) {
      ++exact_[latency];
    } else {
      ++coarse_[Bucket(latency)];
    }
  }

  uint64_t count() const { return count_; }
  double average() const { return count_ ? static_cast<double>(sum_) / count_ : 0.0; }
  uint64_t max() const { return max_; }
  // Nearest-rank percentile, q in (0, 1].
  uint64_t Percentile(double q) const;

 private:
  static constexpr uint64_t kExact = 1 << 16;
  static constexpr int kStepBits = 7;  // buckets per power of two above kExact: 2^7
  static constexpr int kSteps = 1 << kStepBits;
  static int Bucket(uint64_t v) {
    const int top = 63 - __builtin_clzll(v);  // >= 16
    return top * kSteps + static_cast<int>((v >> (top - kStepBits)) & (kSteps - 1));
  }
  static uint64_t BucketStart(int bucket) {
    const int top = bucket / kSteps;
    return (uint64_t{1} << top) | (static_cast<uint64_t>(bucket % kSteps) << (top - kStepBits));
  }

  std::vector<uint32_t> exact_;
  std::vector<uint64_t> coarse_;
  uint64_t count_ = 0;
  uint64_t sum_ = 0;
  uint64_t max_ = 0;
};

}  // namespace icn
