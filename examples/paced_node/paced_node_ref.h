// SPDX-License-Identifier: Apache-2.0
// The reference model of paced_node.sv, cycle for cycle: the lock-step test of the example
// (tb/unit/test_paced_node.cpp) compares every output with it on random traffic.
#pragma once
#include <cstdint>

namespace paced_node {

class Reference {
 public:
  explicit Reference(uint16_t gap_cycles) : gap_(gap_cycles) {}

  // One clock edge: whether a flit left the node on cycle `now`.
  void Edge(uint32_t now, bool tx_busy) {
    if (tx_busy && gap_ != 0) {
      hold_ = true;
      until_ = now + gap_;
    } else if (hold_ && now == until_) {
      hold_ = false;
    }
  }

  bool tx_en() const { return !hold_; }
  bool deadline_valid() const { return hold_; }
  uint32_t deadline() const { return until_; }

 private:
  uint16_t gap_;
  bool hold_ = false;
  uint32_t until_ = 0;
};

}  // namespace paced_node
