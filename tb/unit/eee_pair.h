// SPDX-License-Identifier: Apache-2.0
// Two EEE port RTL instances (eee_port, or eee_pb_port with its policy straps) joined by a link of
// L cycles, each in lock-step with a reference model, and a small traffic source at each end. Every cycle the
// RTL and the model outputs are compared, and the link-level rules are checked: both ends always in the same
// power state (with eager wake the partner may lag a wake by the link's latency), no flit sent unless the
// sender is enabled, no flit arriving at a port that is not awake.
#pragma once
#include <cstdint>
#include <deque>
#include <sstream>
#include <string>

#include "Veee_port.h"
#include "ref/eee_port_ref.h"
#include "unit/dut.h"

namespace tb {

struct PortConfig {
  uint8_t latency = 2;
  uint32_t sleep_cycles = 5;
  uint32_t wake_cycles = 7;
  uint32_t pdt_cycles = 10;
  bool deep = false;
  bool eager_wake = false;
};

template <typename Model>
ref::EeePortOut Read(Model& m) {
  return {static_cast<uint8_t>(m.ctl_tx_o),
          m.tx_en_o != 0,
          static_cast<uint8_t>(m.power_o),
          static_cast<uint8_t>(m.hs_state_o),
          static_cast<uint8_t>(m.seq_state_o),
          m.trans_count_o,
          m.pdt_armed_o != 0,
          m.pdt_count_o,
          static_cast<uint8_t>(m.sync_count_o),
          m.go_o != 0};
}

inline std::string Describe(const ref::EeePortOut& o) {
  std::ostringstream s;
  s << "ctl=" << int(o.ctl_tx) << " tx_en=" << o.tx_en << " power=" << int(o.power)
    << " hs=" << int(o.hs_state) << " seq=" << int(o.seq_state) << " trans=" << o.trans_count
    << " pdt_armed=" << o.pdt_armed << " pdt=" << o.pdt_count << " sync=" << int(o.sync_count)
    << " go=" << o.go;
  return s.str();
}

// Straps beyond the plain port's (set by the constructor); none for the plain port.
inline void Strap(Veee_port&, const ref::EeePortIn&) {}
// Inputs that change every cycle beyond the traffic; none for the plain port.
inline void Tick(Veee_port&, ref::EeePortIn&, uint64_t) {}
// What an eee_pb_port adds to the comparison; nothing for the plain port.
inline std::string ExtraMismatch(Veee_port&, const ref::EeePort&, const ref::EeePortIn&) { return ""; }

// Model: the verilated port; Ref: its reference model, with Ref::In its inputs.
template <typename Model = Veee_port, typename Ref = ref::EeePort>
class EeePair {
 public:
  using In = typename Ref::In;
  struct End {
    explicit End(const Ref& r) : model(r) {}
    Dut<Model> rtl;
    Ref model;
    In in;                    // straps of this end (the traffic inputs are overwritten each cycle)
    uint32_t queued = 0;      // packets waiting or being sent
    uint32_t flits_left = 0;  // of the packet being sent
    uint32_t packet_flits = 4;
    bool hold = false;     // test control: do not send (as if out of credit)
    bool sent = false;     // sent a flit this cycle
    uint64_t waiting = 0;  // cycles the queue has been non-empty without sending
    uint64_t max_wait = 0;
  };

  explicit EeePair(const PortConfig& cfg, const Ref& model = Ref(), const In& straps = In())
      : cfg_(cfg),
        ends_{End(model), End(model)},
        wires_{std::deque<uint8_t>(cfg.latency, 0), std::deque<uint8_t>(cfg.latency, 0)},
        flits_{std::deque<bool>(cfg.latency, false), std::deque<bool>(cfg.latency, false)} {
    for (int i = 0; i < 2; ++i) {
      ends_[i].model.Reset();
      Model& m = *ends_[i].rtl;
      In& in = ends_[i].in;
      in = straps;
      in.master = i == 0;
      in.lpi_deep = cfg.deep;
      in.eager_wake = cfg.eager_wake;
      in.latency = cfg.latency;
      in.sleep_cycles = cfg.sleep_cycles;
      in.wake_cycles = cfg.wake_cycles;
      in.pdt_cycles = cfg.pdt_cycles;
      Strap(m, in);
      m.master_i = i == 0;
      m.lpi_deep_i = cfg.deep;
      m.eager_wake_i = cfg.eager_wake;
      m.latency_i = cfg.latency;
      m.sleep_cycles_i = cfg.sleep_cycles;
      m.wake_cycles_i = cfg.wake_cycles;
      m.pdt_cycles_i = cfg.pdt_cycles;
    }
  }

  End& end(int i) { return ends_[i]; }
  uint64_t cycle() const { return cycle_; }
  // Queues a packet at end i (it enters the output queue this cycle).
  void Enqueue(int i, uint32_t flits) {
    if (ends_[i].queued == 0) ends_[i].flits_left = flits;
    ends_[i].packet_flits = flits;
    ++ends_[i].queued;
  }

  // One cycle: decide sends from this cycle's enables, drive both ends, clock, compare.
  // Returns an empty string, or what went wrong.
  std::string Step() {
    In in[2];
    bool rx[2];
    uint8_t ctl_rx[2];
    for (int i = 0; i < 2; ++i) {
      rx[i] = flits_[1 - i].front();
      ctl_rx[i] = wires_[1 - i].front();
    }
    for (int i = 0; i < 2; ++i) {
      End& e = ends_[i];
      const bool enabled = e.rtl->tx_en_o;
      e.sent = false;
      if (e.queued > 0 && enabled && !e.hold) {
        e.sent = true;
        if (--e.flits_left == 0) {
          --e.queued;
          e.flits_left = e.packet_flits;
        }
      }
      e.waiting = e.queued > 0 && !e.sent ? e.waiting + 1 : 0;
      if (!e.hold && e.waiting > e.max_wait) e.max_wait = e.waiting;
      if (rx[i] && e.rtl->power_o != 0)
        return "flit arrived at end " + std::to_string(i) + " while not awake";
      Tick(*e.rtl, e.in, cycle_);
      in[i] = e.in;
      in[i].tx_queue = static_cast<uint16_t>(e.queued);
      in[i].tx_busy = e.sent;
      in[i].rx_busy = rx[i];
      in[i].ctl_rx = ctl_rx[i];
      Model& m = *e.rtl;
      m.tx_queue_i = in[i].tx_queue;
      m.tx_busy_i = in[i].tx_busy;
      m.rx_busy_i = in[i].rx_busy;
      m.ctl_rx_i = in[i].ctl_rx;
    }
    for (int i = 0; i < 2; ++i) {
      ends_[i].rtl.Clock();
      ends_[i].model.Clock(in[i]);
      flits_[i].pop_front();
      flits_[i].push_back(ends_[i].sent);
      wires_[i].pop_front();
      wires_[i].push_back(static_cast<uint8_t>(ends_[i].rtl->ctl_tx_o));
    }
    ++cycle_;
    for (int i = 0; i < 2; ++i) {
      const ref::EeePortOut got = Read(*ends_[i].rtl);
      const ref::EeePortOut want = ends_[i].model.Outputs(cfg_.deep);
      if (!(got == want)) {
        return "end " + std::to_string(i) + " RTL {" + Describe(got) + "} != model {" + Describe(want) + "}";
      }
      const std::string extra = ExtraMismatch(*ends_[i].rtl, ends_[i].model, ends_[i].in);
      if (!extra.empty()) return "end " + std::to_string(i) + ": " + extra;
    }
    // With eager wake one end may wake up to L - 1 cycles before the other: {Off, ToOn} or
    // {ToOn, On}, never anything else.
    const int a = ends_[0].rtl->seq_state_o;
    const int b = ends_[1].rtl->seq_state_o;
    const auto pair_is = [&](int x, int y) { return (a == x && b == y) || (a == y && b == x); };
    const bool lag = cfg_.eager_wake && (pair_is(ref::LinkPowerSeq::kOff, ref::LinkPowerSeq::kToOn) ||
                                         pair_is(ref::LinkPowerSeq::kToOn, ref::LinkPowerSeq::kOn));
    lagging_ = a != b ? lagging_ + 1 : 0;
    if (a != b && (!lag || lagging_ > cfg_.latency - 1u)) return "the two ends are in different power states";
    return "";
  }

 private:
  PortConfig cfg_;
  End ends_[2];
  std::deque<uint8_t> wires_[2];  // control messages in flight from end i
  std::deque<bool> flits_[2];     // flits in flight from end i
  uint64_t cycle_ = 0;
  uint32_t lagging_ = 0;  // cycles in a row the ends have been in different states
};

}  // namespace tb
