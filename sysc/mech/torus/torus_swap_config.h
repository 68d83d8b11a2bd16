// SPDX-License-Identifier: Apache-2.0
// Parameters of the reconfigurable torus's node-swap controllers (Shafarenko and Vasekin), parsed and
// validated from the torus_swap.* keys.
#pragma once
#include <cstdint>
#include <string>

#include "mech/mechanism.h"

namespace icn {

struct TorusSwapConfig : MechanismConfig {
  std::string variant = "adaptive";  // fixed | randomised | adaptive
  int variant_code = 2;              // torus_swap_criterion's threshold_variant_e
  int threshold = 100;               // R (hops per period), or the adaptive R's start
  int period = 256;                  // T, steps
  int block = 32;                    // Tr, steps a switching receiver is blocked
  bool drain = false;                // the drain protocol (false: the paper's swap)
  bool back_credit_hops = true;      // F'_ba as hops saved (false: l per packet)
  int cost = 32;                     // C_r, hops
  int step = 8;                      // the adaptive R's step
  int rare_periods = 4;              // ... lowered after this many periods without a swap
  int nodes = 8;                     // P, nodes per cycle (every dimension)
  uint64_t seed = 1;                 // of the randomised thresholds' LFSRs (sim.seed)
};

}  // namespace icn
