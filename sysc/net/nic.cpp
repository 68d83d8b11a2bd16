// SPDX-License-Identifier: Apache-2.0
#include "net/nic.h"

namespace icn {

Nic::Nic(int id, int vcs, VcRelease release, PacketPool& pool, SinkObserver& observer)
    : id_(id),
      vcs_(vcs),
      wait_tail_credit_(release == VcRelease::kTailCredit),
      pool_(pool),
      observer_(observer),
      credits_(vcs, 0) {}

void Nic::Connect(Channel* out, Channel* in, int downstream_depth) {
  (void)in;  // the sink consumes at once and never returns credits
  out_ = out;
  depth_ = downstream_depth;
  credits_.assign(vcs_, downstream_depth);
}

bool Nic::OutputDrained() const {
  if (current_vc_ >= 0) return false;
  for (int32_t c : credits_) {
    if (c != depth_) return false;
  }
  return true;
}

uint64_t Nic::NextMove(uint64_t now) const {
  if (queue_.empty()) return UINT64_MAX;
  if (current_vc_ >= 0) return credits_[current_vc_] > 0 ? out_->NextSend(now) : UINT64_MAX;
  if (!out_->accepting()) return UINT64_MAX;
  for (int v = 0; v < vcs_; ++v) {
    if (wait_tail_credit_ ? credits_[v] == depth_ : credits_[v] > 0) return out_->NextSend(now);
  }
  return UINT64_MAX;
}

void Nic::Inject(uint64_t now) {
  if (queue_.empty() || !out_->CanSend(now)) return;
  const uint32_t id = queue_.front();
  Packet& packet = pool_[id];
  if (current_vc_ < 0) {
    if (!out_->accepting()) return;  // quiesced: no new packet starts
    // A new packet takes the VC with the most credits, round-robin among equals.
    int best = -1;
    for (int i = 0; i < vcs_; ++i) {
      const int v = (vc_rr_ + i) % vcs_;
      const bool free = wait_tail_credit_ ? credits_[v] == depth_ : credits_[v] > 0;
      if (free && (best < 0 || credits_[v] > credits_[best])) best = v;
    }
    if (best < 0) return;
    current_vc_ = best;
    vc_rr_ = static_cast<uint8_t>((best + 1) % vcs_);
  }
  if (credits_[current_vc_] == 0) return;
  Flit flit;
  flit.packet = id;
  flit.index = static_cast<uint16_t>(next_flit_);
  flit.vc = static_cast<uint8_t>(current_vc_);
  flit.flags = (next_flit_ == 0 ? Flit::kHead : 0) | (next_flit_ + 1 == packet.flits ? Flit::kTail : 0);
  --credits_[current_vc_];
  if (next_flit_ == 0) packet.injected = now;
  out_->Send(flit, now);
  if (flit.tail()) {
    queue_.pop_front();
    --queued_;
    next_flit_ = 0;
    current_vc_ = -1;
  } else {
    ++next_flit_;
  }
}

void Nic::Receive(const Flit& flit, uint64_t now) {
  Packet& packet = pool_[flit.packet];
  if (!packet.live || packet.dst != id_ || flit.index != packet.next_index ||
      flit.head() != (flit.index == 0) || flit.tail() != (flit.index + 1u == packet.flits)) {
    observer_.OnViolation("node " + std::to_string(id_) + " received flit " + std::to_string(flit.index) +
                          " of packet " + std::to_string(flit.packet) + " (to node " +
                          std::to_string(packet.dst) + ", expected flit " +
                          std::to_string(packet.next_index) + ")");
    return;
  }
  ++packet.next_index;
  if (flit.tail()) observer_.OnDelivered(flit.packet, now);
}

}  // namespace icn
