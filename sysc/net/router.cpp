#include "net/router.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace icn {

namespace {

// The first set bit at or after `from` in a bitset of `words` 64-bit words, wrapping around;
// -1 if none is set.
int FirstAtOrAfter(const uint64_t* bits, int words, int from) {
  const int w = from >> 6;
  const uint64_t high = bits[w] & (~0ULL << (from & 63));
  if (high) return (w << 6) + __builtin_ctzll(high);
  for (int i = 1; i <= words; ++i) {
    const int v = (w + i) % words;
    // Back at the first word: only the bits below `from` are left.
    const uint64_t b = v == w ? bits[v] & ~(~0ULL << (from & 63)) : bits[v];
    if (b) return (v << 6) + __builtin_ctzll(b);
  }
  return -1;
}

}  // namespace

Router::Router(int id, int ports, const RouterParams& params, const Routing* routing, PacketPool& pool)
    : id_(id),
      ports_(ports),
      vcs_(params.vcs),
      pipeline_(params.pipeline_cycles),
      oq_depth_(params.output_queue_flits),
      speedup_(oq_depth_ > 0 ? params.speedup : 1.0),
      routing_(routing),
      pool_(pool),
      in_(ports * params.vcs),
      out_(ports * params.vcs),
      out_ch_(ports, nullptr),
      in_ch_(ports, nullptr),
      demand_(ports, 0),
      port_flits_(ports, 0),
      oq_flits_(ports, 0),
      in_rr_(ports, 0),
      oq_rr_(ports, 0),
      va_rr_(ports, 0),
      sa_rr_(ports, 0),
      request_words_((ports + 63) / 64),
      requests_(static_cast<size_t>(ports) * request_words_, 0),
      request_vc_(ports, 0) {
  for (auto& ivc : in_) ivc.buf = Ring<Flit>(params.vc_buffer_flits);
  if (oq_depth_ > 0) {
    for (auto& ovc : out_) ovc.queue = Ring<Flit>(oq_depth_);
  }
}

void Router::Connect(int port, Channel* out, Channel* in, int downstream_depth) {
  out_ch_[port] = out;
  in_ch_[port] = in;
  for (int v = 0; v < vcs_; ++v) {
    out_[port * vcs_ + v].credits = downstream_depth;
    out_[port * vcs_ + v].depth = downstream_depth;
  }
}

bool Router::OutputDrained(int port) const {
  for (int v = 0; v < vcs_; ++v) {
    const OutputVc& ovc = out_[port * vcs_ + v];
    if (ovc.owner != kFree || !ovc.queue.empty() || (ovc.credits != ovc.depth && ovc.depth != kSinkDepth)) {
      return false;
    }
  }
  return true;
}

int Router::OutputLoad(int port) const {
  int load = demand_[port] + oq_flits_[port];
  for (int v = 0; v < vcs_; ++v) {
    const OutputVc& ovc = out_[port * vcs_ + v];
    load += ovc.depth - ovc.credits;
  }
  return load;
}

void Router::Receive(int port, const Flit& flit, uint64_t now) {
  InputVc& ivc = in_[port * vcs_ + flit.vc];
  if (ivc.buf.empty() && ivc.state == kIdle) ++routing_pending_;
  Flit stored = flit;
  stored.ready = now + pipeline_;
  ivc.buf.push_back(stored);
  ++buffered_;
  ++port_flits_[port];
}

void Router::Step(uint64_t now) {
  route_stalled_ = false;
  if (routing_pending_ > 0) RouteAndAllocateVcs();
  speedup_acc_ += speedup_;
  const int rounds = static_cast<int>(speedup_acc_ + 1e-9);
  speedup_acc_ -= rounds;
  for (int r = 0; r < rounds; ++r) {
    if (request_words_ == 1) {
      SwitchRound<true>(now);
    } else {
      SwitchRound<false>(now);
    }
  }
  if (oq_depth_ > 0) SendFromOutputQueues(now);
}

// Route computation for new heads, then VC allocation: each waiting input VC, in round-robin order
// of its output, takes the first free output VC in its allowed range.
void Router::RouteAndAllocateVcs() {
  for (int p = 0; p < ports_; ++p) {
    if (port_flits_[p] == 0) continue;
    for (int v = 0; v < vcs_; ++v) {
      InputVc& ivc = in_[p * vcs_ + v];
      if (ivc.state == kActive || ivc.buf.empty()) continue;
      if (ivc.state == kIdle) {
        const Flit& head = ivc.buf.front();
        assert(head.head());
        Packet& packet = pool_[head.packet];
        RouteContext context{id_, p, packet, *this};
        const Route route = routing_->Compute(context);
        if (route.port < 0) {  // no output may take it yet: try again next cycle
          route_stalled_ = true;
          continue;
        }
        ++packet.hops;
        ivc.out_port = static_cast<int16_t>(route.port);
        ivc.vc_lo = static_cast<uint8_t>(route.vc_lo);
        ivc.vc_hi = static_cast<uint8_t>(route.vc_hi);
        ++demand_[route.port];
        ivc.state = kVcWait;
      }
      const int o = ivc.out_port;
      if (!out_ch_[o]->accepting()) continue;  // quiesced: the head waits
      const int range = ivc.vc_hi - ivc.vc_lo;
      for (int i = 0; i < range; ++i) {
        const int ov = ivc.vc_lo + (va_rr_[o] + i) % range;
        OutputVc& ovc = out_[o * vcs_ + ov];
        if (ovc.owner != kFree) continue;
        ovc.owner = p * vcs_ + v;
        ivc.out_vc = static_cast<uint8_t>(ov);
        ivc.state = kActive;
        va_rr_[o] = static_cast<uint8_t>((ov - ivc.vc_lo + 1) % range);
        --routing_pending_;
        break;
      }
    }
  }
}

bool Router::CanCross(const InputVc& ivc, uint64_t now) const {
  const OutputVc& ovc = out_[ivc.out_port * vcs_ + ivc.out_vc];
  if (oq_depth_ > 0) return static_cast<int>(ovc.queue.size()) < oq_depth_;
  return ovc.credits > 0 && out_ch_[ivc.out_port]->CanSend(now);
}

// One separable allocation: every input port picks one ready VC round-robin, every output grants
// one requesting input round-robin.
template <bool kNarrow>
void Router::SwitchRound(uint64_t now) {
  const int words = kNarrow ? 1 : request_words_;
  bool any = false;
  for (int p = 0; p < ports_; ++p) {
    if (port_flits_[p] == 0) continue;
    for (int i = 0; i < vcs_; ++i) {
      const int v = (in_rr_[p] + i) % vcs_;
      const InputVc& ivc = in_[p * vcs_ + v];
      if (ivc.state != kActive || ivc.buf.empty() || ivc.buf.front().ready > now) continue;
      if (!CanCross(ivc, now)) continue;
      if constexpr (kNarrow) {
        requests_[ivc.out_port] |= 1ULL << p;
      } else {
        requests_[ivc.out_port * words + (p >> 6)] |= 1ULL << (p & 63);
      }
      request_vc_[p] = static_cast<uint8_t>(v);
      any = true;
      break;
    }
  }
  if (!any) return;
  for (int o = 0; o < ports_; ++o) {
    int p;
    if constexpr (kNarrow) {
      const uint64_t mask = requests_[o];
      if (mask == 0) continue;
      requests_[o] = 0;
      // First requesting input at or after the round-robin pointer, wrapping around.
      const uint64_t upper = mask & (~0ULL << sa_rr_[o]);
      p = __builtin_ctzll(upper ? upper : mask);
    } else {
      uint64_t* mask = &requests_[o * words];
      p = FirstAtOrAfter(mask, words, sa_rr_[o]);
      if (p < 0) continue;
      std::fill(mask, mask + words, 0);
    }
    sa_rr_[o] = static_cast<uint16_t>((p + 1) % ports_);
    Cross(p, request_vc_[p], now);
  }
}

void Router::Cross(int in_port, int vc, uint64_t now) {
  InputVc& ivc = in_[in_port * vcs_ + vc];
  Flit flit = ivc.buf.front();
  ivc.buf.pop_front();
  --buffered_;
  --port_flits_[in_port];
  in_rr_[in_port] = static_cast<uint8_t>((vc + 1) % vcs_);
  if (in_ch_[in_port]) in_ch_[in_port]->ReturnCredit(static_cast<uint8_t>(vc), now);
  const int o = ivc.out_port;
  OutputVc& ovc = out_[o * vcs_ + ivc.out_vc];
  flit.vc = ivc.out_vc;
  if (flit.tail()) {
    ovc.owner = kDraining;
    ivc.state = kIdle;
    if (!ivc.buf.empty()) ++routing_pending_;
  }
  if (oq_depth_ > 0) {
    ovc.queue.push_back(flit);
    ++oq_flits_[o];
    ++buffered_;
  } else {
    SendOnLink(o, ovc, flit, now);
  }
}

void Router::SendOnLink(int port, OutputVc& ovc, Flit flit, uint64_t now) {
  if (ovc.depth != kSinkDepth) --ovc.credits;
  out_ch_[port]->Send(flit, now);
  if (flit.tail()) {
    --demand_[port];
    ovc.tail_sent = true;
    ReleaseIfDrained(ovc);
  }
}

void Router::SendFromOutputQueues(uint64_t now) {
  for (int o = 0; o < ports_; ++o) {
    if (oq_flits_[o] == 0 || !out_ch_[o]->CanSend(now)) continue;
    for (int i = 0; i < vcs_; ++i) {
      const int v = (oq_rr_[o] + i) % vcs_;
      OutputVc& ovc = out_[o * vcs_ + v];
      if (ovc.queue.empty() || ovc.credits <= 0) continue;
      const Flit flit = ovc.queue.front();
      ovc.queue.pop_front();
      --oq_flits_[o];
      --buffered_;
      oq_rr_[o] = static_cast<uint8_t>((v + 1) % vcs_);
      SendOnLink(o, ovc, flit, now);
      break;
    }
  }
}

}  // namespace icn
