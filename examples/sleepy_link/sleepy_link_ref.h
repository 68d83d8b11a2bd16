// SPDX-License-Identifier: Apache-2.0
// The reference model of sleepy_link.sv, cycle for cycle: the lock-step test of the example
// (tb/unit/test_sleepy_link.cpp) compares every output with it on random traffic.
#pragma once
#include <cstdint>

namespace sleepy_link {

enum Msg : uint8_t { kNone = 0, kSleep = 1, kWake = 2, kAwake = 3 };
enum State : uint8_t { kAwakeState = 0, kDraining = 1, kAsleep = 2, kWaking = 3 };

struct Inputs {
  uint32_t now = 0;
  uint16_t tx_queue = 0;
  bool tx_busy = false;
  bool rx_busy = false;
  uint8_t ctl_rx = kNone;
};

class Reference {
 public:
  Reference(uint8_t latency, uint32_t idle_cycles, uint32_t wake_cycles)
      : latency_(latency), idle_cycles_(idle_cycles), wake_cycles_(wake_cycles) {}

  // One clock edge with these inputs.
  void Edge(const Inputs& in) {
    const bool active = in.tx_queue != 0 || in.tx_busy || in.rx_busy;
    const bool idle_long = !active && !active_ && in.now - idle_since_ + 1 >= idle_cycles_;
    const bool ends = in.now == until_;
    State state = state_;
    uint32_t until = until_;
    uint8_t ctl = kNone;
    bool partner_asleep = partner_asleep_, wake_sent = wake_sent_, awake_now = false;
    if (in.ctl_rx == kSleep) partner_asleep = true;
    if (in.ctl_rx == kAwake) partner_asleep = wake_sent = false;
    switch (state_) {
      case kAwakeState:
        if (in.ctl_rx == kWake) {
          ctl = kAwake;
        } else if (idle_long) {
          ctl = kSleep;
          state = kDraining;
          until = in.now + 2u * latency_ + 1u;
        }
        break;
      case kDraining:
        if (active || in.ctl_rx == kWake) {
          ctl = kAwake;
          state = kAwakeState;
        } else if (ends) {
          state = kAsleep;
        }
        break;
      case kAsleep:
        if (in.tx_queue != 0 || in.ctl_rx == kWake) {
          state = kWaking;
          until = in.now + wake_cycles_;
          awake_now = wake_cycles_ == 0;
        }
        break;
      case kWaking:
        awake_now = ends;
        break;
    }
    if (awake_now) {
      ctl = kAwake;
      state = kAwakeState;
    }
    if (state == kAwakeState && ctl == kNone && in.tx_queue != 0 && partner_asleep && !wake_sent) {
      ctl = kWake;
      wake_sent = true;
    }
    if ((!active && active_) || (state == kAwakeState && state_ != kAwakeState)) idle_since_ = in.now;
    active_ = active;
    state_ = state;
    until_ = until;
    ctl_ = ctl;
    partner_asleep_ = partner_asleep;
    wake_sent_ = wake_sent;
  }

  uint8_t ctl_tx() const { return ctl_; }
  bool tx_en() const { return state_ == kAwakeState && !partner_asleep_; }
  uint8_t power() const { return state_ == kAsleep ? 2 : state_ == kWaking ? 1 : 0; }
  bool deadline_valid() const {
    return (state_ == kAwakeState && !active_) || state_ == kDraining || state_ == kWaking;
  }
  uint32_t deadline() const { return state_ == kAwakeState ? idle_since_ + idle_cycles_ - 1 : until_; }

 private:
  uint8_t latency_;
  uint32_t idle_cycles_, wake_cycles_;
  State state_ = kAwakeState;
  uint32_t until_ = 0, idle_since_ = 0;
  bool active_ = true, partner_asleep_ = false, wake_sent_ = false;
  uint8_t ctl_ = kNone;
};

}  // namespace sleepy_link
