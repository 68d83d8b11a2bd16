// SPDX-License-Identifier: Apache-2.0
// Input-queued virtual-channel router: wormhole switching, credit-based flow control, route
// computation -> VC allocation -> switch allocation -> switch traversal. Both allocators are
// separable input-first with iSLIP pointers (a pointer moves only when its choice wins, in the
// first iteration), `allocator_iterations` passes per cycle.
// A flit that arrives at cycle t may leave at t + pipeline_cycles at the earliest.
// With router.output_queue_flits > 0 the router is CIOQ: the crossbar runs `speedup` rounds per
// cycle into per-VC output queues, and a packet whose link is asleep waits there. Any radix.
#pragma once
#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "net/active_set.h"
#include "net/channel.h"
#include "net/flit.h"
#include "net/net_params.h"
#include "net/ring.h"
#include "net/routing.h"

namespace icn {

class Router final : public OutputView {
 public:
  // `seed` seeds the generator of the routing's random choices (with the router id).
  Router(int id, int ports, const RouterParams& params, uint64_t seed, const Routing* routing,
         PacketPool& pool);
  Router(const Router&) = delete;  // busy_ may point into itself
  Router& operator=(const Router&) = delete;
  // The routing function heads are routed with from now on (a mechanism may install another).
  void set_routing(const Routing* routing) { routing_ = routing; }

  // Credits of a port whose far end consumes every flit at once (a NIC's sink).
  static constexpr int kSinkDepth = 1 << 30;

  // Either channel may be null for an unconnected port. `downstream_depth` is the buffer per VC at
  // the other end of `out` (the initial credits), or kSinkDepth.
  void Connect(int port, Channel* out, Channel* in, int downstream_depth);

  void Receive(int port, const Flit& flit, uint64_t now);
  void Credit(int port, uint8_t vc) {
    OutputVc& ovc = out_[port * vcs_ + vc];
    ++ovc.credits;
    ReleaseIfDrained(ovc);
  }
  void Step(uint64_t now);
  bool Busy() const { return buffered_ != 0; }
  // The first cycle >= now on which Step() could change anything, were no flit, credit or
  // controller to reach the router (Fabric::NextMove).
  uint64_t NextMove(uint64_t now) const;
  // Whether Step() ran on cycle `now` (a router that did not step sent nothing that cycle).
  bool Stepped(uint64_t now) const { return last_step_ == now; }

  int id() const { return id_; }
  int ports() const { return ports_; }
  const Channel* output(int port) const override { return out_ch_[port]; }
  const Channel* input(int port) const { return in_ch_[port]; }
  // Re-aiming a channel at this port (WormholeNetwork::Reaim): credits for its flits go back on it.
  void set_input(int port, Channel* in) { in_ch_[port] = in; }
  // Sending on another channel, or none, from `port`, with every credit of a drained downstream
  // buffer (WormholeNetwork::MoveSource).
  void set_output(int port, Channel* out, int downstream_depth);
  // Packets routed to `port` whose tail has not left on its link yet (the port's output queue).
  const int32_t* demand(int port) const { return &demand_[port]; }
  // Joins `busy` as member `index` whenever a flit is buffered (Busy()).
  void TrackBusy(ActiveSet* busy, uint32_t index) { busy_ = busy->SlotOf(index); }
  // Touch link end port_ends[port] in `touches` when a packet is routed to `port` (none if kNoEnd).
  static constexpr uint32_t kNoEnd = UINT32_MAX;
  void WatchEnds(EndTouches* touches, std::vector<uint32_t> port_ends) {
    touches_ = touches;
    port_ends_ = std::move(port_ends);
  }
  // Occupancy of an output for adaptive routing: packets waiting plus flits held downstream.
  int OutputLoad(int port) const override;
  // Every output VC of `port` free with all its credits back: nothing of this router's is on the
  // link or in the buffer at its far end.
  bool OutputDrained(int port) const;
  // A packet found no output that routing may choose this cycle (all its candidates are off).
  bool route_stalled() const { return route_stalled_; }
  // Round-robin start for routing tie-breaks.
  uint32_t NextTieBreak() override { return tie_break_++; }
  uint32_t Random(uint32_t n) override { return rng_.Below(n); }

  // Calls fn(port, vc, buffer) for every input VC's buffer, oldest flit first.
  template <typename Fn>
  void ForEachInputVc(Fn fn) const {
    for (size_t i = 0; i < in_.size(); ++i)
      fn(static_cast<int>(i) / vcs_, static_cast<int>(i) % vcs_, in_[i].buf);
  }
  // Calls fn(packet) for the head of every input VC that waits for a route.
  template <typename Fn>
  void ForEachUnroutedHead(Fn fn) const {
    for (const InputVc& ivc : in_) {
      if (ivc.state == kIdle && !ivc.buf.empty()) fn(pool_[ivc.buf.front().packet]);
    }
  }
  // Calls fn(flit) for every flit buffered here (end-of-run census).
  template <typename Fn>
  void ForEachFlit(Fn fn) const {
    const auto each = [&fn](const Ring<Flit>& buf) {
      for (uint32_t i = 0; i < buf.size(); ++i) fn(buf.at(i));
    };
    ForEachInputVc([&each](int, int, const Ring<Flit>& buf) { each(buf); });
    for (const auto& ovc : out_) each(ovc.queue);
  }

 private:
  enum : uint8_t { kIdle, kVcWait, kActive };
  struct InputVc {
    Ring<Flit> buf;
    uint8_t state = kIdle;
    uint8_t out_vc = 0;
    uint8_t vc_lo = 0;
    uint8_t vc_hi = 0;
    uint8_t va_next = 0;  // VC allocation: offset in [vc_lo, vc_hi) to ask first
    int16_t out_port = -1;
  };
  enum : int32_t { kFree = -1, kDraining = -2 };  // OutputVc::owner besides an input VC index
  struct OutputVc {
    int32_t credits = 0;
    int32_t depth = 0;
    int32_t owner = kFree;  // input VC index holding it, kFree, or kDraining (tail_credit: tail sent)
    int32_t va_next = 0;    // VC allocation: input VC index to grant first
    int32_t asked_by = -1;  // VC allocation: the input VC it would grant in this iteration
    Ring<Flit> queue;       // CIOQ only
  };
  void ReleaseIfDrained(OutputVc& ovc) {
    if (ovc.owner == kDraining && (ovc.credits == ovc.depth || ovc.depth == kSinkDepth)) ovc.owner = kFree;
  }

  // Routes new heads (first iteration only), then one iteration of VC allocation. Returns whether
  // an output VC was granted.
  bool AllocateVcs(bool first);
  bool RouteHead(int port, InputVc& ivc);
  // Switch allocation and traversal; kNarrow: up to 64 ports, one request word per output.
  template <bool kNarrow>
  void SwitchRound(uint64_t now);
  // One iteration of it; false if no input asked.
  template <bool kNarrow, bool kFirst>
  bool SwitchIteration(uint64_t now);
  bool CanCross(const InputVc& ivc, uint64_t now) const;
  void Cross(int in_port, int vc, uint64_t now);
  // Whether this cycle's earlier iterations already matched the input or output port.
  bool Matched(const std::vector<uint64_t>& stamps, int port) const { return stamps[port] == round_; }
  void SendFromOutputQueues(uint64_t now);
  void SendOnLink(int port, OutputVc& ovc, Flit flit, uint64_t now);

  int id_;
  int ports_;
  int vcs_;
  int pipeline_;
  int iterations_;
  bool release_on_send_;
  int oq_depth_;
  double speedup_;
  double speedup_acc_ = 0;
  const Routing* routing_;
  PacketPool& pool_;
  std::vector<InputVc> in_;
  std::vector<OutputVc> out_;
  std::vector<Channel*> out_ch_;
  std::vector<Channel*> in_ch_;
  std::vector<int32_t> demand_;
  uint64_t untracked_ = 0;  // the word busy_ sets until TrackBusy
  ActiveSet::Slot busy_{&untracked_, 1};
  EndTouches* touches_ = nullptr;
  std::vector<uint32_t> port_ends_;  // the link end at each port (WatchEnds)
  std::vector<int32_t> port_flits_;  // flits in each input port's buffers
  std::vector<int32_t> oq_flits_;    // flits in each output port's queues
  std::vector<uint8_t> in_rr_;
  std::vector<uint8_t> oq_rr_;
  std::vector<uint16_t> sa_rr_;
  std::vector<int32_t> va_asked_;      // output VCs asked for in this VA iteration
  std::vector<uint64_t> in_matched_;   // round_ when the input port crossed in this switch round
  std::vector<uint64_t> out_matched_;  // round_ when the output port was granted in this round
  uint64_t round_ = 0;                 // (never wraps: a clock jump skips rounds, a stamp stays unique)
  int request_words_;                  // 64-bit words of input ports per output
  std::vector<uint64_t> requests_;     // [output][word]: bit p = input port p asks this round
  std::vector<uint8_t> request_vc_;
  int buffered_ = 0;
  int routing_pending_ = 0;  // input VCs with a head waiting for a route or an output VC
  uint32_t tie_break_ = 0;
  Rng rng_;
  bool route_stalled_ = false;
  uint64_t last_step_ = ~0ULL;
};

}  // namespace icn
