// SPDX-License-Identifier: Apache-2.0
#include "net/channel.h"

#include <algorithm>

#include "net/nic.h"
#include "net/router.h"

namespace icn {

Channel::Channel(int latency, double rate, uint8_t link_class)
    : latency_(latency),
      rate_(rate),
      full_rate_(rate >= 1.0),
      link_class_(link_class),
      flits_(latency + 1),
      credits_(latency + 1) {}

double Channel::Tokens(uint64_t now) const { return tokens_ + rate_ * static_cast<double>(now - tokens_at_); }

// Tokens at `now`: at full rate the only limit is one flit per cycle, so a token is there unless
// one left at `now`.
double Channel::TokensNow(uint64_t now) const {
  return full_rate_ ? (last_tx_ == now ? 0.0 : 1.0) : Tokens(now);
}

void Channel::SetRate(double rate, uint64_t now) {
  tokens_ = TokensNow(now);
  tokens_at_ = now;
  rate_ = rate;
  full_rate_ = rate >= 1.0 && now + 1 >= enabled_from_;  // a disable in progress keeps the slow path
}

void Channel::DisableFor(uint64_t cycles, uint64_t now) {
  tokens_ = TokensNow(now);
  tokens_at_ = now;
  full_rate_ = false;
  enabled_from_ = std::max(enabled_from_, now + cycles + 1);
}

void Channel::Send(Flit flit, uint64_t now) {
  if (!full_rate_) {
    tokens_ = std::min(1.0, Tokens(now)) - 1.0;  // an idle link saves up one flit, no more
    tokens_at_ = now;
    full_rate_ = rate_ >= 1.0;  // back from a disable: the fast path again
  }
  last_tx_ = now;
  *sent_mirror_ = now;
  if (touches_) touches_->Touch(sender_end_);
  ++busy_cycles_;
  flits_.push_back({now + latency_, flit});
  flits_busy_.Join();
}

void Channel::DeliverFlits(uint64_t now) {
  while (!flits_.empty() && flits_.front().first == now) {
    const Flit& flit = flits_.front().second;
    *received_mirror_ = now;
    if (touches_) touches_->Touch(receiver_end_);
    if (dst_.router) {
      dst_.router->Receive(dst_.port, flit, now);
    } else {
      dst_.nic->Receive(flit, now);
    }
    flits_.pop_front();
  }
}

void Channel::DeliverCredits(uint64_t now) {
  while (!credits_.empty() && credits_.front().arrive == now) {
    if (src_.router) {
      src_.router->Credit(src_.port, credits_.front().vc);
    } else {
      src_.nic->Credit(credits_.front().vc);
    }
    credits_.pop_front();
  }
}

}  // namespace icn
