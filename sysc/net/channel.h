// SPDX-License-Identifier: Apache-2.0
// One direction of a link: a delay line for flits (downstream) and one for credits (upstream), a
// rate in flits per cycle (a fractional rate is a serialiser, 1/rate cycles per flit), busy
// counters, and the state a controller owns: whether the link may send (tx_enabled), whether
// routing may choose it (routable), whether it takes new packets at all (accepting: quiesced when
// false), its rate (changed at run time) and a stretch of cycles it is disabled for (a receiver
// relocking).
#pragma once
#include <cstdint>

#include "net/active_set.h"
#include "net/end_touches.h"
#include "net/flit.h"
#include "net/ring.h"

namespace icn {

class Router;
class Nic;

// Either end of a channel: a router port or a NIC.
struct Endpoint {
  Router* router = nullptr;
  Nic* nic = nullptr;
  int port = 0;
};

class Channel {
 public:
  Channel(int latency, double rate, uint8_t link_class);
  Channel(const Channel&) = delete;  // its slots may point into itself
  Channel& operator=(const Channel&) = delete;

  void set_source(const Endpoint& e) { src_ = e; }
  void set_destination(const Endpoint& e) { dst_ = e; }
  const Endpoint& source() const { return src_; }
  const Endpoint& destination() const { return dst_; }

  // The sender may start a flit this cycle: the controller allows it, the link is not disabled and
  // its serialiser frees up during this cycle. A flit takes 1/rate cycles on the wire; a backlogged
  // link starts one whenever the previous one ends within the cycle, so it carries `rate` flits
  // per cycle (10/12.8: 39 flits in 50 cycles), and after an idle stretch it starts at once.
  bool CanSend(uint64_t now) const {
    return tx_enabled_ &&
           (full_rate_ ? last_tx_ != now : now >= enabled_from_ && Tokens(now) > 1.0 - rate_ + 1e-9);
  }
  void Send(Flit flit, uint64_t now);
  // The first cycle >= now on which CanSend() holds if no controller changes the channel;
  // UINT64_MAX while it may not send. A link slower than a flit per cycle says `now` once its
  // disable is over (its tokens are not looked ahead: a guess too early costs a cycle, never one
  // skipped).
  uint64_t NextSend(uint64_t now) const {
    if (!tx_enabled_) return UINT64_MAX;
    if (full_rate_) return last_tx_ == now ? now + 1 : now;
    return now < enabled_from_ ? enabled_from_ : now;
  }
  // Credit for `vc` of the buffer at the destination, travelling back to the source.
  void ReturnCredit(uint8_t vc, uint64_t now) {
    credits_.push_back({now + latency_, vc});
    credits_busy_.Join();
  }
  // Hands every flit whose time has come to the destination, every such credit to the source
  // (the two may run on different threads: each touches only its own end's state).
  void DeliverFlits(uint64_t now);
  void DeliverCredits(uint64_t now);
  bool Quiet() const { return flits_.empty() && credits_.empty(); }
  bool FlitsQuiet() const { return flits_.empty(); }
  bool CreditsQuiet() const { return credits_.empty(); }

  // Controller-owned state. tx_enabled: the link may carry a new flit now. routable: routing may
  // choose this channel (an on/off mechanism clears it while the link turns off or is off).
  bool tx_enabled() const { return tx_enabled_; }
  void set_tx_enabled(bool on) { tx_enabled_ = on; }
  bool routable() const { return routable_; }
  void set_routable(bool on) { routable_ = on; }
  // Whether the sender may start a new packet on this channel; packets already on it finish, so a
  // quiesced channel drains (WormholeNetwork::Drained) and can then be re-aimed.
  bool accepting() const { return accepting_; }
  void set_accepting(bool on) { accepting_ = on; }
  // A new rate from the cycle after `now` on; tokens gathered up to `now` at the old rate are kept.
  // Flits already on the wire arrive when they were due.
  void SetRate(double rate, uint64_t now);
  // No flit starts on cycles now + 1 .. now + cycles (flits on the wire and credits still arrive).
  // A full-rate channel leaves its one-compare fast path for the accumulator's until it sends
  // again, so the check costs nothing on links that are never disabled.
  void DisableFor(uint64_t cycles, uint64_t now);
  double rate() const { return rate_; }
  int latency() const { return latency_; }
  uint8_t link_class() const { return link_class_; }

  // Activity: flits sent in total, and whether a flit left on cycle `now` (arrivals: the mirror).
  uint64_t busy_cycles() const { return busy_cycles_; }
  bool sent_at(uint64_t now) const { return last_tx_ == now; }
  // A data plane that moves whole packets itself (packet_step) counts each move here; a
  // circuit-switched one the cycles a transfer keeps the channel busy.
  void CountMove() { ++busy_cycles_; }
  void CountBusy(uint64_t cycles) { busy_cycles_ += cycles; }
  // Also write the cycle of the last flit sent / received into these (a flat array of the link
  // ends, which controllers read without touching the channel).
  void MirrorActivity(uint64_t* sent, uint64_t* received) {
    if (sent) sent_mirror_ = sent;
    if (received) received_mirror_ = received;
  }
  // Joins a set through `flits` whenever a flit goes on the wire, through `credits` whenever a
  // credit does (the network delivers only the busy channels' arrivals and takes each out once
  // quiet; the destination's thread delivers flits, the source's credits).
  void TrackBusy(ActiveSet::Slot flits, ActiveSet::Slot credits) {
    flits_busy_ = flits;
    credits_busy_ = credits;
  }
  // Also touch these link ends in `touches` on each flit sent / delivered (Fabric::WatchEnds).
  void WatchEnds(EndTouches* touches, uint32_t sender, uint32_t receiver) {
    touches_ = touches;
    sender_end_ = sender;
    receiver_end_ = receiver;
  }
  // Flits on the wire, for the end-of-run census.
  const Ring<std::pair<uint64_t, Flit>>& in_flight() const { return flits_; }

 private:
  double Tokens(uint64_t now) const;
  double TokensNow(uint64_t now) const;

  struct Credit {
    uint64_t arrive;
    uint8_t vc;
  };
  int latency_;
  double rate_;
  bool full_rate_;
  uint8_t link_class_;
  double tokens_ = 1.0;
  uint64_t tokens_at_ = 0;
  uint64_t enabled_from_ = 0;  // first cycle a flit may start after a disable
  bool tx_enabled_ = true;
  bool routable_ = true;
  bool accepting_ = true;
  uint64_t busy_cycles_ = 0;
  uint64_t last_tx_ = ~0ULL;
  uint64_t unmirrored_[2] = {~0ULL, ~0ULL};
  uint64_t* sent_mirror_ = &unmirrored_[0];
  uint64_t* received_mirror_ = &unmirrored_[1];
  uint64_t untracked_ = 0;  // the word the slots set until TrackBusy
  ActiveSet::Slot flits_busy_{&untracked_, 1};
  ActiveSet::Slot credits_busy_{&untracked_, 1};
  EndTouches* touches_ = nullptr;
  uint32_t sender_end_ = 0;
  uint32_t receiver_end_ = 0;
  Endpoint src_;
  Endpoint dst_;
  Ring<std::pair<uint64_t, Flit>> flits_;
  Ring<Credit> credits_;
};

}  // namespace icn
