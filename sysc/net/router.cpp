// SPDX-License-Identifier: Apache-2.0
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

Router::Router(int id, int ports, const RouterParams& params, uint64_t seed, const Routing* routing,
               PacketPool& pool)
    : id_(id),
      ports_(ports),
      vcs_(params.vcs),
      pipeline_(params.pipeline_cycles),
      iterations_(params.allocator_iterations),
      release_on_send_(params.vc_release == VcRelease::kTailSent),
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
      sa_rr_(ports, 0),
      in_matched_(ports, 0),
      out_matched_(ports, 0),
      request_words_((ports + 63) / 64),
      requests_(static_cast<size_t>(ports) * request_words_, 0),
      request_vc_(ports, 0),
      rng_(seed ^ (0x9e3779b97f4a7c15ULL * (static_cast<uint64_t>(id) + 1))) {
  for (auto& ivc : in_) ivc.buf = Ring<Flit>(params.vc_buffer_flits);
  if (oq_depth_ > 0) {
    for (auto& ovc : out_) ovc.queue = Ring<Flit>(oq_depth_);
  }
}

void Router::Connect(int port, Channel* out, Channel* in, int downstream_depth) {
  in_ch_[port] = in;
  set_output(port, out, downstream_depth);
}

void Router::set_output(int port, Channel* out, int downstream_depth) {
  out_ch_[port] = out;
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
  if (buffered_++ == 0) busy_.Join();  // (a busy router stays in the set until it empties)
  ++port_flits_[port];
}

void Router::Step(uint64_t now) {
  last_step_ = now;
  route_stalled_ = false;
  for (int it = 0; it < iterations_ && routing_pending_ > 0; ++it) {
    if (!AllocateVcs(it == 0)) break;
  }
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

// At once while a head waits for a route (routing may draw a random number each try) or an
// output VC is free for a head that waits for one, or while a fractional speed-up's accumulator
// moves; else when the first waiting flit that has a credit (or room in its output queue) is
// ready and its link may send.
uint64_t Router::NextMove(uint64_t now) const {
  if (oq_depth_ > 0 && speedup_ != std::floor(speedup_)) return now;
  uint64_t next = UINT64_MAX;
  for (const InputVc& ivc : in_) {
    if (ivc.buf.empty()) continue;
    if (ivc.state == kIdle) return now;
    const int o = ivc.out_port;
    if (ivc.state == kVcWait) {
      if (!out_ch_[o]->accepting()) continue;
      for (int v = ivc.vc_lo; v < ivc.vc_hi; ++v) {
        if (out_[o * vcs_ + v].owner == kFree) return now;
      }
      continue;
    }
    const OutputVc& ovc = out_[o * vcs_ + ivc.out_vc];
    const uint64_t ready = std::max(now, ivc.buf.front().ready);
    if (oq_depth_ > 0) {
      if (static_cast<int>(ovc.queue.size()) < oq_depth_) next = std::min(next, ready);
    } else if (ovc.credits > 0) {
      next = std::min(next, std::max(ready, out_ch_[o]->NextSend(now)));
    }
  }
  for (int o = 0; o < ports_ && oq_depth_ > 0; ++o) {
    for (int v = 0; v < vcs_ && oq_flits_[o] > 0; ++v) {
      const OutputVc& ovc = out_[o * vcs_ + v];
      if (!ovc.queue.empty() && ovc.credits > 0) next = std::min(next, out_ch_[o]->NextSend(now));
    }
  }
  return next;
}

// Route computation of the head at the front of an idle input VC; false if no output may take it.
bool Router::RouteHead(int port, InputVc& ivc) {
  const Flit& head = ivc.buf.front();
  assert(head.head());
  Packet& packet = pool_[head.packet];
  RouteContext context{id_, port, packet, *this};
  const Route route = routing_->Compute(context);
  if (route.port < 0) {  // no output may take it yet: try again next cycle
    route_stalled_ = true;
    return false;
  }
  ++packet.hops;
  ivc.out_port = static_cast<int16_t>(route.port);
  ivc.vc_lo = static_cast<uint8_t>(route.vc_lo);
  ivc.vc_hi = static_cast<uint8_t>(route.vc_hi);
  ++demand_[route.port];
  if (touches_ && port_ends_[route.port] != kNoEnd) touches_->Touch(port_ends_[route.port]);
  ivc.state = kVcWait;
  return true;
}

// Separable input-first VC allocation: every waiting input VC asks for the first free output VC
// of its range at or after its pointer; every asked output VC grants the first asking input VC at
// or after its own pointer.
bool Router::AllocateVcs(bool first) {
  const int inputs = ports_ * vcs_;
  for (int p = 0; p < ports_; ++p) {
    if (port_flits_[p] == 0) continue;
    for (int v = 0; v < vcs_; ++v) {
      InputVc& ivc = in_[p * vcs_ + v];
      if (ivc.state == kActive || ivc.buf.empty()) continue;
      if (ivc.state == kIdle && (!first || !RouteHead(p, ivc))) continue;
      const int o = ivc.out_port;
      if (!out_ch_[o]->accepting()) continue;  // quiesced: the head waits
      const int range = ivc.vc_hi - ivc.vc_lo;
      for (int i = 0; i < range; ++i) {
        const int ov = o * vcs_ + ivc.vc_lo + (ivc.va_next + i) % range;
        OutputVc& ovc = out_[ov];
        if (ovc.owner != kFree) continue;
        const int me = p * vcs_ + v;
        if (ovc.asked_by < 0) {
          va_asked_.push_back(ov);
          ovc.asked_by = me;
        } else if ((me - ovc.va_next + inputs) % inputs < (ovc.asked_by - ovc.va_next + inputs) % inputs) {
          ovc.asked_by = me;
        }
        break;
      }
    }
  }
  const bool granted = !va_asked_.empty();
  for (const int ov : va_asked_) {
    OutputVc& ovc = out_[ov];
    InputVc& ivc = in_[ovc.asked_by];
    ovc.owner = ovc.asked_by;
    ivc.out_vc = static_cast<uint8_t>(ov % vcs_);
    ivc.state = kActive;
    --routing_pending_;
    if (first) {
      ovc.va_next = (ovc.asked_by + 1) % inputs;
      ivc.va_next = static_cast<uint8_t>((ivc.out_vc - ivc.vc_lo + 1) % (ivc.vc_hi - ivc.vc_lo));
    }
    ovc.asked_by = -1;
  }
  va_asked_.clear();
  return granted;
}

bool Router::CanCross(const InputVc& ivc, uint64_t now) const {
  const OutputVc& ovc = out_[ivc.out_port * vcs_ + ivc.out_vc];
  if (oq_depth_ > 0) return static_cast<int>(ovc.queue.size()) < oq_depth_;
  return ovc.credits > 0 && out_ch_[ivc.out_port]->CanSend(now);
}

// Separable input-first switch allocation: every input port asks with one ready VC, round-robin
// from its pointer; every output grants one asking input, round-robin from its pointer; the
// winners cross at once. Later iterations match the ports left unmatched.
template <bool kNarrow>
void Router::SwitchRound(uint64_t now) {
  if (iterations_ > 1) ++round_;
  if (!SwitchIteration<kNarrow, true>(now)) return;
  for (int it = 1; it < iterations_; ++it) {
    if (!SwitchIteration<kNarrow, false>(now)) return;
  }
}

template <bool kNarrow, bool kFirst>
bool Router::SwitchIteration(uint64_t now) {
  const int words = kNarrow ? 1 : request_words_;
  bool any = false;
  for (int p = 0; p < ports_; ++p) {
    if (port_flits_[p] == 0 || (!kFirst && Matched(in_matched_, p))) continue;
    for (int i = 0; i < vcs_; ++i) {
      const int v = (in_rr_[p] + i) % vcs_;
      const InputVc& ivc = in_[p * vcs_ + v];
      if (ivc.state != kActive || ivc.buf.empty() || ivc.buf.front().ready > now) continue;
      if ((!kFirst && Matched(out_matched_, ivc.out_port)) || !CanCross(ivc, now)) continue;
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
  if (!any) return false;
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
    const int v = request_vc_[p];
    if constexpr (kFirst) {
      sa_rr_[o] = static_cast<uint16_t>((p + 1) % ports_);
      in_rr_[p] = static_cast<uint8_t>((v + 1) % vcs_);
    }
    if (iterations_ > 1) {
      in_matched_[p] = round_;
      out_matched_[o] = round_;
    }
    Cross(p, v, now);
  }
  return true;
}

void Router::Cross(int in_port, int vc, uint64_t now) {
  InputVc& ivc = in_[in_port * vcs_ + vc];
  Flit flit = ivc.buf.front();
  ivc.buf.pop_front();
  --buffered_;
  --port_flits_[in_port];
  if (in_ch_[in_port]) in_ch_[in_port]->ReturnCredit(static_cast<uint8_t>(vc), now);
  const int o = ivc.out_port;
  OutputVc& ovc = out_[o * vcs_ + ivc.out_vc];
  flit.vc = ivc.out_vc;
  if (flit.tail()) {
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
    ovc.owner = release_on_send_ ? kFree : kDraining;
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
