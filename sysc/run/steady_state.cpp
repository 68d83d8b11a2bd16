#include "run/steady_state.h"

#include <algorithm>

namespace icn {

void SteadyState::Add(uint64_t end, double accepted, double latency) {
  last_.push_back({end, accepted, latency});
  if (last_.size() > kPeriods) last_.pop_front();
}

bool SteadyState::Agrees() const {
  if (last_.size() < kPeriods) return false;
  const auto agree = [this](double Period::*quantity) {
    const auto [lo, hi] = std::minmax_element(
        last_.begin(), last_.end(),
        [quantity](const Period& a, const Period& b) { return a.*quantity < b.*quantity; });
    return (*hi).*quantity <= (1 + tolerance_) * (*lo).*quantity;
  };
  return agree(&Period::accepted) && agree(&Period::latency);
}

nlohmann::json SteadyState::Periods() const {
  nlohmann::json periods = nlohmann::json::array();
  for (const Period& p : last_)
    periods.push_back({{"end", p.end}, {"accepted", p.accepted}, {"latency", p.latency}});
  return periods;
}

}  // namespace icn
