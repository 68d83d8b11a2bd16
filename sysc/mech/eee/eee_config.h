// SPDX-License-Identifier: Apache-2.0
// Parameters of the EEE port controllers (eee.*), times converted to cycles.
#pragma once
#include <cstdint>

#include "mech/mechanism.h"

namespace icn {

enum class EeeMode { kOff, kFastWake, kDeepSleep };
enum class PdtPolicy { kFixed = 0, kPerfBound = 1, kPerfBoundCorrect = 2 };

struct EeeConfig : MechanismConfig {
  EeeMode mode = EeeMode::kOff;
  uint32_t pdt_cycles = 1000;  // 0xffffffff = never
  uint32_t wake_cycles = 0;    // t_w of the chosen LPI depth
  uint32_t sleep_cycles = 0;   // t_s of the chosen LPI depth
  double wake_power_w = 24;
  double lpi_power_w = 9.6;
  bool eager_wake = false;  // eee.wake_handshake = eager
  PdtPolicy policy = PdtPolicy::kFixed;
  double bound = 0.01;
  uint64_t period_cycles = 31250;      // PerfBound X
  uint32_t initial_pdt_cycles = 3125;  // PerfBound's t_PDT before its first search
  int hist_strategy = 0;               // 0 self-clearing, 1 sliding window, 2 unbounded
};

// 1 / t_w in Q0.32, rounded (eee_pb_port's inv_tw_i strap); t_w <= 1 saturates to the largest
// fraction.
inline uint32_t InverseQ32(uint32_t wake_cycles) {
  if (wake_cycles <= 1) return 0xffffffffu;
  return static_cast<uint32_t>(((uint64_t{1} << 32) + wake_cycles / 2) / wake_cycles);
}

}  // namespace icn
