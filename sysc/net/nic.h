// SPDX-License-Identifier: Apache-2.0
// Network interface: a source (packets wait in an unbounded source queue and are sent one at a
// time, flit by flit, on a free VC with credit) and a sink (checks that every flit arrives at the
// right node in order and reports whole packets).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "net/active_set.h"
#include "net/channel.h"
#include "net/flit.h"
#include "net/net_params.h"
#include "net/ring.h"

namespace icn {

// Called by a sink for each whole packet, and for each broken flit with a reason.
struct SinkObserver {
  virtual ~SinkObserver() = default;
  virtual void OnDelivered(uint32_t packet, uint64_t now) = 0;
  virtual void OnViolation(const std::string& what) = 0;
};

class Nic {
 public:
  // `release`: whether a new packet may start on a VC whose previous packet's tail has left
  // (kTailSent) or only once all its credits are back (kTailCredit), as the routers do.
  Nic(int id, int vcs, VcRelease release, PacketPool& pool, SinkObserver& observer);
  Nic(const Nic&) = delete;  // busy_ may point into itself
  Nic& operator=(const Nic&) = delete;

  void Connect(Channel* out, Channel* in, int downstream_depth);
  void Enqueue(uint32_t packet) {
    queue_.push_back(packet);
    ++queued_;
    busy_.Join();
    if (touches_) touches_->Touch(end_);
  }
  // Joins `busy` as member `index` whenever a packet is queued (Busy()).
  void TrackBusy(ActiveSet* busy, uint32_t index) { busy_ = busy->SlotOf(index); }
  // Touch link end `end` (its output) in `touches` when a packet is queued.
  void WatchEnds(EndTouches* touches, uint32_t end) {
    touches_ = touches;
    end_ = end;
  }
  void Inject(uint64_t now);
  bool Busy() const { return queued_ != 0; }
  void Receive(const Flit& flit, uint64_t now);
  void Credit(uint8_t vc) { ++credits_[vc]; }

  int id() const { return id_; }
  // No packet in the middle of being sent and every credit back.
  bool OutputDrained() const;
  // The first cycle >= now on which Inject() could send, were no credit to come back and no
  // controller to act (Fabric::NextMove).
  uint64_t NextMove(uint64_t now) const;
  // Packets waiting in the source queue or being sent (the NIC port's output queue).
  const int32_t* queued() const { return &queued_; }
  // Packets in the source queue, the one being sent included, for the end-of-run census.
  const Ring<uint32_t>& source_queue() const { return queue_; }
  uint32_t flits_sent_of_current() const { return next_flit_; }

 private:
  int id_;
  int vcs_;
  bool wait_tail_credit_;
  PacketPool& pool_;
  SinkObserver& observer_;
  Channel* out_ = nullptr;
  Ring<uint32_t> queue_;
  int32_t queued_ = 0;
  uint64_t untracked_ = 0;  // the word busy_ sets until TrackBusy
  ActiveSet::Slot busy_{&untracked_, 1};
  EndTouches* touches_ = nullptr;
  uint32_t end_ = 0;
  std::vector<int32_t> credits_;
  int32_t depth_ = 0;       // buffer per VC at the far end of the output
  uint32_t next_flit_ = 0;  // of the packet at the front of the queue
  int current_vc_ = -1;     // VC the front packet uses once its head has left
  uint8_t vc_rr_ = 0;
};

}  // namespace icn
