// Input-queued virtual-channel router: wormhole switching, credit-based flow control, route
// computation -> VC allocation -> separable round-robin switch allocation -> switch traversal.
// A flit that arrives at cycle t may leave at t + pipeline_cycles at the earliest.
// With router.output_queue_flits > 0 the router is CIOQ: the crossbar runs `speedup` rounds per
// cycle into per-VC output queues, and a packet whose link is asleep waits there. Any radix.
#pragma once
#include <cstdint>
#include <vector>

#include "net/channel.h"
#include "net/flit.h"
#include "net/net_params.h"
#include "net/ring.h"
#include "net/routing.h"

namespace icn {

class Router final : public OutputView {
 public:
  Router(int id, int ports, const RouterParams& params, const Routing* routing, PacketPool& pool);
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

  int id() const { return id_; }
  int ports() const { return ports_; }
  const Channel* output(int port) const override { return out_ch_[port]; }
  const Channel* input(int port) const { return in_ch_[port]; }
  // Re-aiming a channel at this port (WormholeNetwork::Reaim): credits for its flits go back on it.
  void set_input(int port, Channel* in) { in_ch_[port] = in; }
  // Packets routed to `port` whose tail has not left on its link yet (the port's output queue).
  const int32_t* demand(int port) const { return &demand_[port]; }
  // Occupancy of an output for adaptive routing: packets waiting plus flits held downstream.
  int OutputLoad(int port) const override;
  // Every output VC of `port` free with all its credits back: nothing of this router's is on the
  // link or in the buffer at its far end.
  bool OutputDrained(int port) const;
  // A packet found no output that routing may choose this cycle (all its candidates are off).
  bool route_stalled() const { return route_stalled_; }
  // Round-robin start for routing tie-breaks.
  uint32_t NextTieBreak() override { return tie_break_++; }

  // Calls fn(flit) for every flit buffered here (end-of-run census).
  template <typename Fn>
  void ForEachFlit(Fn fn) const {
    for (const auto& ivc : in_) {
      for (uint32_t i = 0; i < ivc.buf.size(); ++i) fn(ivc.buf.at(i));
    }
    for (const auto& ovc : out_) {
      for (uint32_t i = 0; i < ovc.queue.size(); ++i) fn(ovc.queue.at(i));
    }
  }

 private:
  enum : uint8_t { kIdle, kVcWait, kActive };
  struct InputVc {
    Ring<Flit> buf;
    uint8_t state = kIdle;
    uint8_t out_vc = 0;
    uint8_t vc_lo = 0;
    uint8_t vc_hi = 0;
    int16_t out_port = -1;
  };
  // An output VC is handed to a new packet only once the previous one has left the downstream
  // buffer entirely (its tail sent and every credit back): with a FIFO per VC, a packet queued
  // behind another one's tail could otherwise wait for a VC that this one holds (deadlock).
  enum : int32_t { kFree = -1, kDraining = -2 };
  struct OutputVc {
    int32_t credits = 0;
    int32_t depth = 0;
    int32_t owner = kFree;  // input VC index holding it, kFree or kDraining
    bool tail_sent = false;
    Ring<Flit> queue;  // CIOQ only
  };
  void ReleaseIfDrained(OutputVc& ovc) {
    if (ovc.tail_sent && (ovc.credits == ovc.depth || ovc.depth == kSinkDepth)) {
      ovc.owner = kFree;
      ovc.tail_sent = false;
    }
  }

  void RouteAndAllocateVcs();
  // One separable allocation; kNarrow: up to 64 ports, one request word per output.
  template <bool kNarrow>
  void SwitchRound(uint64_t now);
  bool CanCross(const InputVc& ivc, uint64_t now) const;
  void Cross(int in_port, int vc, uint64_t now);
  void SendFromOutputQueues(uint64_t now);
  void SendOnLink(int port, OutputVc& ovc, Flit flit, uint64_t now);

  int id_;
  int ports_;
  int vcs_;
  int pipeline_;
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
  std::vector<int32_t> port_flits_;  // flits in each input port's buffers
  std::vector<int32_t> oq_flits_;    // flits in each output port's queues
  std::vector<uint8_t> in_rr_;
  std::vector<uint8_t> oq_rr_;
  std::vector<uint8_t> va_rr_;
  std::vector<uint16_t> sa_rr_;
  int request_words_;               // 64-bit words of input ports per output
  std::vector<uint64_t> requests_;  // [output][word]: bit p = input port p asks this round
  std::vector<uint8_t> request_vc_;
  int buffered_ = 0;
  int routing_pending_ = 0;  // input VCs with a head waiting for a route or an output VC
  uint32_t tie_break_ = 0;
  bool route_stalled_ = false;
};

}  // namespace icn
