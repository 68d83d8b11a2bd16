// SPDX-License-Identifier: Apache-2.0
#include "traffic/load_profile.h"

#include <algorithm>

namespace icn {

double LoadProfile::MaxLoad() const {
  if (p_.profile != LoadProfileKind::kRamp) return p_.load;
  double max = 0;
  for (const auto& point : p_.ramp) max = std::max(max, point.second);
  return max;
}

uint64_t LoadProfile::NextLoaded(uint64_t cycle) const {
  if (p_.profile == LoadProfileKind::kRamp) return cycle;
  if (p_.load <= 0) return UINT64_MAX;
  if (p_.profile == LoadProfileKind::kConstant) return cycle;
  const uint64_t period = static_cast<uint64_t>(p_.burst_on + p_.burst_off);
  const uint64_t phase = cycle % period;
  return phase < static_cast<uint64_t>(p_.burst_on) ? cycle : cycle + (period - phase);
}

double LoadProfile::LoadAt(uint64_t cycle) const {
  switch (p_.profile) {
    case LoadProfileKind::kConstant:
      return p_.load;
    case LoadProfileKind::kBursts: {
      const uint64_t period = static_cast<uint64_t>(p_.burst_on + p_.burst_off);
      return cycle % period < static_cast<uint64_t>(p_.burst_on) ? p_.load : 0.0;
    }
    case LoadProfileKind::kRamp: {
      const auto& pts = p_.ramp;
      const double c = static_cast<double>(cycle);
      if (c <= pts.front().first) return pts.front().second;
      for (size_t i = 1; i < pts.size(); ++i) {
        if (c <= pts[i].first) {
          const double f = (c - pts[i - 1].first) / (pts[i].first - pts[i - 1].first);
          return pts[i - 1].second + f * (pts[i].second - pts[i - 1].second);
        }
      }
      return pts.back().second;
    }
  }
  return p_.load;
}

}  // namespace icn
