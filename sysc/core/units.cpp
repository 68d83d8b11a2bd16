// SPDX-License-Identifier: Apache-2.0
#include "core/units.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace icn {

uint64_t NsToCycles(const std::string& key, double ns, double cycle_ns, std::vector<std::string>& warnings) {
  const double cycles = std::ceil(ns / cycle_ns - 1e-9);
  if (ns > 0 && ns < cycle_ns) {
    warnings.push_back(key + " = " + std::to_string(ns) + " ns is shorter than one cycle (" +
                       std::to_string(cycle_ns) + " ns): rounded up to 1 cycle");
  }
  return cycles >= 1.8e19 ? std::numeric_limits<uint64_t>::max()
                          : static_cast<uint64_t>(std::max(0.0, cycles));
}

}  // namespace icn
