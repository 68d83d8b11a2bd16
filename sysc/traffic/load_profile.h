// SPDX-License-Identifier: Apache-2.0
// Offered load as a function of the cycle: constant, piecewise-linear ramp through (cycle, load)
// points (flat before the first and after the last), or on/off bursts.
#pragma once
#include <cstdint>

#include "traffic/traffic_params.h"

namespace icn {

class LoadProfile {
 public:
  explicit LoadProfile(const TrafficParams& params) : p_(params) {}
  double LoadAt(uint64_t cycle) const;
  // The highest load the profile ever reaches.
  double MaxLoad() const;
  // The first cycle >= cycle at which the load may be above 0 (the next burst's first cycle for an
  // off phase; UINT64_MAX if never).
  uint64_t NextLoaded(uint64_t cycle) const;

 private:
  const TrafficParams& p_;
};

}  // namespace icn
