// SPDX-License-Identifier: Apache-2.0
#include "core/process_params.h"

namespace icn {

const std::vector<KeySpec>& ProcessKeys() {
  static const std::vector<KeySpec> keys = {
      RealKey("process.ff_toggle_fj", "6", 0, 1e6, "fJ",
              "energy of one controller flip-flop bit toggling (45 nm: 6 GE x process.ge_toggle_fj)"),
      RealKey("process.ge_toggle_fj", "1", 0, 1e6, "fJ",
              "energy of one gate equivalent of controller logic toggling (45 nm: C V^2 / 2, C ~ 2 fF, 1 V)"),
      RealKey("process.gate_delay_ps", "22.5", 1e-3, 1e6, "ps",
              "delay of one gate level, for the controllers' estimated maximum clock (45 nm: one FO4)"),
  };
  return keys;
}

ProcessParams ParseProcessParams(const Scenario& s) {
  return {s.Real("process.ff_toggle_fj") * 1e-15, s.Real("process.ge_toggle_fj") * 1e-15,
          s.Real("process.gate_delay_ps")};
}

}  // namespace icn
