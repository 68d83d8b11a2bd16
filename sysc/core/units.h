// SPDX-License-Identifier: Apache-2.0
// Scenario times are given in ns and converted once, at load, into the cycles every RTL counter
// counts: rounding up, with a warning when a non-zero time is shorter than one cycle.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace icn {

// Cycles of `ns` at `cycle_ns` per cycle, rounded up; saturates at UINT64_MAX. `key` names the
// value in the warning.
uint64_t NsToCycles(const std::string& key, double ns, double cycle_ns, std::vector<std::string>& warnings);

}  // namespace icn
