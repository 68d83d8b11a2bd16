// SPDX-License-Identifier: Apache-2.0
#include "run/steady_state.h"

#include <algorithm>

namespace icn {

void SteadyState::Add(uint64_t end, double accepted, double latency) {
  last_.push_back({end, accepted, latency});
  if (last_.size() > kPeriods) last_.pop_front();
}

bool SteadyState::Agrees() const {
  if (last_.size() < kPeriods) return false;
  double accepted_lo = last_.front().accepted, accepted_hi = accepted_lo;
  double latency_lo = last_.front().latency, latency_hi = latency_lo;
  for (const Period& p : last_) {
    if (p.accepted <= 0) return false;  // an empty period measures nothing
    accepted_lo = std::min(accepted_lo, p.accepted);
    accepted_hi = std::max(accepted_hi, p.accepted);
    latency_lo = std::min(latency_lo, p.latency);
    latency_hi = std::max(latency_hi, p.latency);
  }
  return accepted_hi <= (1 + tolerance_) * accepted_lo && latency_hi <= (1 + tolerance_) * latency_lo;
}

nlohmann::json SteadyState::Periods() const {
  nlohmann::json periods = nlohmann::json::array();
  for (const Period& p : last_)
    periods.push_back({{"end", p.end}, {"accepted", p.accepted}, {"latency", p.latency}});
  return periods;
}

}  // namespace icn
