// SPDX-License-Identifier: Apache-2.0
// The reference model of drowsy_switch.sv, cycle for cycle: the lock-step test of the example
// (tb/unit/test_drowsy_switch.cpp) compares every output with it on random traffic.
#pragma once
#include <cstdint>
#include <vector>

namespace drowsy_switch {

enum State : uint8_t { kAwake = 0, kAsleep = 1, kWaking = 2 };

// One port's inputs for a cycle.
struct PortInputs {
  uint16_t tx_queue = 0;
  bool tx_busy = false;
  bool rx_busy = false;
};

class Reference {
 public:
  Reference(int ports, uint64_t linked, uint32_t idle_cycles, uint32_t wake_cycles)
      : ports_(static_cast<size_t>(ports)),
        linked_(linked),
        idle_(idle_cycles < 2 ? 2 : idle_cycles),  // (the first idle cycle only marks the start)
        wake_(wake_cycles) {}

  // One clock edge with these inputs (one per port).
  void Edge(uint32_t now, const std::vector<PortInputs>& in) {
    for (size_t p = 0; p < ports_.size(); ++p) {
      Port& port = ports_[p];
      const bool link = (linked_ >> p) & 1;
      const bool queued = in[p].tx_queue != 0;
      const bool active = queued || in[p].tx_busy || in[p].rx_busy;
      State state = port.state;
      uint32_t mark = port.mark;
      if (link) {
        switch (port.state) {
          case kAwake:
            if (!active && !port.active && now - port.mark + 1 >= idle_) {
              state = kAsleep;
            } else if (!active && port.active) {
              mark = now;
            }
            break;
          case kAsleep:
            if (queued) {
              state = wake_ == 0 ? kAwake : kWaking;
              mark = now + wake_;
            }
            break;
          case kWaking:
            if (now == port.mark) state = kAwake;
            break;
        }
      }
      port.state = state;
      port.mark = mark;
      port.active = active || !link;
    }
  }

  bool tx_en(int p) const { return ports_[static_cast<size_t>(p)].state == kAwake; }
  uint8_t power(int p) const {
    const State s = ports_[static_cast<size_t>(p)].state;
    return s == kAsleep ? 2 : s == kWaking ? 1 : 0;
  }
  // The earliest port's deadline, compared modulo 2^32 as the RTL does; valid() says if any.
  bool deadline_valid() const { return Deadline(nullptr); }
  uint32_t deadline() const {
    uint32_t d = 0;
    Deadline(&d);
    return d;
  }

 private:
  struct Port {
    State state = kAwake;
    uint32_t mark = 0;
    bool active = true;
  };
  bool Deadline(uint32_t* out) const {
    bool valid = false;
    uint32_t best = 0;
    for (size_t p = 0; p < ports_.size(); ++p) {
      const Port& port = ports_[p];
      if (!((linked_ >> p) & 1) || !((port.state == kAwake && !port.active) || port.state == kWaking))
        continue;
      const uint32_t due = port.state == kAwake ? port.mark + idle_ - 1 : port.mark;
      if (!valid || static_cast<int32_t>(due - best) < 0) best = due;
      valid = true;
    }
    if (out) *out = best;
    return valid;
  }

  std::vector<Port> ports_;
  uint64_t linked_;
  uint32_t idle_, wake_;
};

}  // namespace drowsy_switch
