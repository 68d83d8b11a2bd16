// SPDX-License-Identifier: Apache-2.0
// Reference model of rtl/fattree/fattree_switch_ctrl.sv (Arity 8, 16-bit counters, Q0.16
// thresholds), cycle for cycle. Ports 0..7 go down, 8..15 up; bit p of each vector is port p.
// The model counts the check period from its reset; the RTL takes it as a pulse (check_i) on the
// period's last cycle, which the harness (and the test) derive from the cycle number.
#pragma once
#include <cstdint>

#include "ref/link_power_seq_ref.h"
#include "ref/util_meter_ref.h"

namespace ref {

struct FattreeIn {
  bool in_mt = true;
  bool is_root = false;
  uint16_t connected = 0xffff;
  uint16_t u_off = 0, u_on = 0;
  bool occupancy = false;  // the meters count a committed packet waiting for a usable link as busy
  uint16_t check_cycles = 2000, t_on = 1000, t_off = 1000;
  uint16_t busy = 0, committed = 0, in_active = 0;
  bool empty = true;
  bool need_up = false;
};

struct FattreeOut {
  uint16_t active, routable, tx_en, powered;
  uint32_t link_state;
  uint32_t up_busy, up_usable;
  uint8_t decision;
  bool operator==(const FattreeOut& o) const {
    return active == o.active && routable == o.routable && tx_en == o.tx_en && powered == o.powered &&
           link_state == o.link_state && up_busy == o.up_busy && up_usable == o.up_usable &&
           decision == o.decision;
  }
};

class FattreeSwitchCtrl {
 public:
  static constexpr int kArity = 8;
  static constexpr int kPorts = 16;

  FattreeOut Outputs() const {
    FattreeOut o{};
    o.active = want_;
    for (int p = 0; p < kPorts; ++p) {
      o.routable |= (want_ >> p & 1) && seq_[p].on() ? 1u << p : 0;
      o.tx_en |= seq_[p].on() ? 1u << p : 0;
      o.powered |= seq_[p].state() != LinkPowerSeq::kOff ? 1u << p : 0;
      o.link_state |= static_cast<uint32_t>(seq_[p].state()) << (2 * p);
    }
    for (int i = 0; i < kArity; ++i) {
      o.up_busy += meter_[i].busy();
      o.up_usable += meter_[i].usable();
    }
    o.decision = decision_;
    return o;
  }

  void Clock(const FattreeIn& in) {
    const FattreeOut now = Outputs();
    const bool window_end = count_ == static_cast<uint16_t>(in.check_cycles - 1);
    // Utilisation against the thresholds, in fixed point without division.
    const uint64_t busy_scaled = static_cast<uint64_t>(now.up_busy) << 16;
    const bool below_off = busy_scaled < static_cast<uint64_t>(now.up_usable) * in.u_off;
    const bool above_on = busy_scaled > static_cast<uint64_t>(now.up_usable) * in.u_on;
    int highest_on = -1, lowest_off = -1;
    for (int p = kArity + 1; p < kPorts; ++p) {
      if (!(in.connected >> p & 1)) continue;
      if (want_ >> p & 1)
        highest_on = p;
      else if (lowest_off < 0)
        lowest_off = p;
    }
    const bool any_input = (in.in_active & in.connected) != 0;
    const bool any_below = (in.in_active & in.connected & 0xff) != 0;

    uint16_t want = want_;
    uint8_t decision = decision_;
    if (in.is_root && in.in_mt) {
      want = in.connected;  // the Minimal Tree's root never changes
    } else if (in.is_root) {
      const uint16_t down = any_input || !in.empty ? 0xff : 0;
      want = static_cast<uint16_t>((want_ & 0xff00) | (down & in.connected));
    } else if (!in.in_mt) {
      want = 0;
      int lowest = -1;
      for (int i = 0; i < kArity; ++i) {
        if ((in.connected >> i & 1) && (any_input || !in.empty)) want |= 1u << i;
        const int up = kArity + i;
        const bool keep = !any_below && !in.empty && (want_ >> up & 1);
        if ((in.connected >> up & 1) && ((in.in_active >> i & 1) || keep)) want |= 1u << up;
      }
      // A packet with no up link to take turns on the lowest-index one.
      if (in.need_up && (want & in.connected & 0xff00) == 0) {
        for (int p = kPorts - 1; p >= kArity; --p) {
          if (in.connected >> p & 1) lowest = p;
        }
        if (lowest >= 0) want |= 1u << lowest;
      }
    } else if (decide_) {
      decision = 0;
      if (below_off && highest_on >= 0) {
        want = static_cast<uint16_t>(want_ & ~(1u << highest_on));
        decision = 1;
      } else if (above_on && lowest_off >= 0) {
        want = static_cast<uint16_t>(want_ | (1u << lowest_off));
        decision = 2;
      }
    }

    for (int i = 0; i < kArity; ++i) {
      const int p = kArity + i;
      const bool waiting = in.occupancy && (in.committed >> p & 1) && seq_[p].on();
      meter_[i].Clock((in.busy >> p & 1) || waiting, seq_[p].on(), window_end);
    }
    for (int p = 0; p < kPorts; ++p) {
      const bool wanted = want_ >> p & 1;
      seq_[p].Clock(wanted == false && !(in.committed >> p & 1), wanted, in.t_off, in.t_on);
    }
    want_ = want & in.connected;
    count_ = window_end ? 0 : static_cast<uint16_t>(count_ + 1);
    decide_ = window_end;
    decision_ = decision;
  }

 private:
  uint16_t want_ = 0xffff;
  uint16_t count_ = 0;
  bool decide_ = false;
  uint8_t decision_ = 0;
  LinkPowerSeq seq_[kPorts];
  UtilMeter meter_[kArity];
};

}  // namespace ref
