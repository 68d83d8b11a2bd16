// SPDX-License-Identifier: Apache-2.0
// Reference model of rtl/eee/eee_port.sv, cycle for cycle: the handshake (request, answer,
// synchronised start L cycles after the answer), the PDT timer and the power sequencer.
// Outputs() are the values during a cycle (before its closing edge); Clock() is the edge.
#pragma once
#include <cstdint>

#include "ref/eee_pdt_timer_ref.h"
#include "ref/link_power_seq_ref.h"

namespace ref {

enum Msg : uint8_t { kNone = 0, kReqSleep = 1, kReqWake = 2, kAccept = 3, kRefuse = 4 };
enum Hs : uint8_t { kIdle = 0, kReq = 1, kSync = 2, kStart = 3 };

struct EeePortIn {
  bool master = false;
  bool lpi_deep = false;
  bool eager_wake = false;
  uint8_t latency = 1;
  uint32_t sleep_cycles = 0;
  uint32_t wake_cycles = 0;
  uint32_t pdt_cycles = 0;
  uint16_t tx_queue = 0;
  bool tx_busy = false;
  bool rx_busy = false;
  uint8_t ctl_rx = kNone;
};

struct EeePortOut {
  uint8_t ctl_tx;
  bool tx_en;
  uint8_t power;  // 0 wake, 1 transition, 2 fast LPI, 3 deep LPI
  uint8_t hs_state;
  uint8_t seq_state;
  uint32_t trans_count;
  bool pdt_armed;
  uint32_t pdt_count;
  uint8_t sync_count;
  bool go;
  bool operator==(const EeePortOut& o) const {
    return ctl_tx == o.ctl_tx && tx_en == o.tx_en && power == o.power && hs_state == o.hs_state &&
           seq_state == o.seq_state && trans_count == o.trans_count && pdt_armed == o.pdt_armed &&
           pdt_count == o.pdt_count && sync_count == o.sync_count && go == o.go;
  }
};

class EeePort {
 public:
  using In = EeePortIn;
  void Reset() {
    hs_ = kStart;
    ctl_ = kNone;
    sync_ = 0;
    go_ = false;
    seq_.Reset();
    pdt_.Reset();
  }

  EeePortOut Outputs(bool lpi_deep) const {
    EeePortOut o{};
    o.ctl_tx = ctl_;
    o.tx_en = seq_.on() && (hs_ == kIdle || hs_ == kStart) && !go_;
    o.power = seq_.state() == LinkPowerSeq::kOn    ? 0
              : seq_.state() == LinkPowerSeq::kOff ? (lpi_deep ? 3 : 2)
                                                   : 1;
    o.hs_state = hs_;
    o.seq_state = seq_.state();
    o.trans_count = seq_.count();
    o.pdt_armed = pdt_.armed();
    o.pdt_count = pdt_.count();
    o.sync_count = static_cast<uint8_t>(sync_);
    o.go = go_;
    return o;
  }

  void Clock(const EeePortIn& in) {
    const bool queued = in.tx_queue != 0;
    const bool req_sleep = in.ctl_rx == kReqSleep;
    const bool req_wake = in.ctl_rx == kReqWake;
    const bool answer = in.ctl_rx == kAccept || in.ctl_rx == kRefuse;
    const bool settled = seq_.stable() && !go_;  // nothing running or about to start
    const bool accept_ok = settled && (req_wake ? !seq_.on() : (seq_.on() && !queued && !in.tx_busy));

    Hs hs = hs_;
    uint8_t ctl = kNone;
    uint32_t sync = sync_;
    bool go = false;
    bool consume = false;
    auto respond = [&] {
      if (accept_ok) {
        ctl = kAccept;
        hs = kSync;
        sync = in.latency;
      } else {
        ctl = kRefuse;
        hs = kIdle;
      }
    };
    // With eager wake a wake request is not answered: the partner starts on this edge.
    const bool answered_req = req_sleep || (req_wake && !in.eager_wake);
    const bool eager_start = in.eager_wake && req_wake && settled && !seq_.on();
    switch (hs_) {
      case kStart:
        hs = kIdle;
        break;
      case kIdle:
        if (answered_req) {
          respond();
        } else if (settled && seq_.on() && pdt_.expired() && !queued && !in.tx_busy) {
          ctl = kReqSleep;
          hs = kReq;
          consume = true;
        } else if (settled && !seq_.on() && queued && !eager_start) {
          ctl = kReqWake;
          if (in.eager_wake)
            go = true;
          else
            hs = kReq;
        }
        break;
      case kReq:
        if (answer) {
          hs = kIdle;
          go = in.ctl_rx == kAccept;
        } else if (answered_req && !in.master) {
          respond();
        }
        break;
      case kSync:
        if (sync_ <= 1) {
          hs = kIdle;
          go = true;
        } else {
          sync = sync_ - 1;
        }
        break;
    }

    const bool on = seq_.on();
    seq_.Clock(go_ && on, (go_ && !on) || eager_start, in.sleep_cycles, in.wake_cycles);
    pdt_.Clock(in.pdt_cycles, (in.tx_busy && !queued) || hs_ == kStart,
               queued || in.rx_busy || go_ || eager_start, consume);
    hs_ = hs;
    ctl_ = ctl;
    sync_ = sync;
    go_ = go;
  }

 private:
  Hs hs_ = kStart;
  uint8_t ctl_ = kNone;
  uint32_t sync_ = 0;
  bool go_ = false;
  LinkPowerSeq seq_;
  PdtTimer pdt_;
};

}  // namespace ref
