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

double Channel::Tokens(uint64_t now) const {
  return std::min(1.0, tokens_ + rate_ * static_cast<double>(now - tokens_at_));
}

void Channel::SetRate(double rate, uint64_t now) {
  // At full rate the only limit is one flit per cycle: a token is there unless one left at `now`.
  tokens_ = full_rate_ ? (last_tx_ == now ? 0.0 : 1.0) : Tokens(now);
  tokens_at_ = now;
  rate_ = rate;
  full_rate_ = rate >= 1.0;
}

void Channel::Send(Flit flit, uint64_t now) {
  if (!full_rate_) {
    tokens_ = Tokens(now) - 1.0;
    tokens_at_ = now;
  }
  last_tx_ = now;
  next_free_ = now + 1;  // a disabled channel never sends, so this is never earlier
  ++busy_cycles_;
  flits_.push_back({now + latency_, flit});
}

void Channel::Deliver(uint64_t now) {
  while (!flits_.empty() && flits_.front().first == now) {
    const Flit& flit = flits_.front().second;
    last_rx_ = now;
    if (dst_.router) {
      dst_.router->Receive(dst_.port, flit, now);
    } else {
      dst_.nic->Receive(flit, now);
    }
    flits_.pop_front();
  }
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
