// SPDX-License-Identifier: Apache-2.0
// The process the controllers are assumed built in (process.*): energy per toggled flip-flop bit and
// per toggled gate equivalent, and the delay of one gate level. Defaults: a 45 nm library
// (docs/hardware-cost.md gives the sources).
#pragma once
#include <vector>

#include "core/scenario.h"

namespace icn {

struct ProcessParams {
  double ff_toggle_j = 6e-15;   // one flip-flop bit toggling (6 GE of internal nodes)
  double ge_toggle_j = 1e-15;   // one gate equivalent of logic toggling
  double gate_delay_ps = 22.5;  // one gate level (FO4 at 45 nm)
};

const std::vector<KeySpec>& ProcessKeys();
ProcessParams ParseProcessParams(const Scenario& scenario);

}  // namespace icn
