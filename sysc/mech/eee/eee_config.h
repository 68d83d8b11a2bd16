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
  PdtPolicy policy = PdtPolicy::kFixed;
  double bound = 0.01;
  uint64_t period_cycles = 31250;  // PerfBound X
  int hist_strategy = 0;           // 0 self-clearing, 1 sliding window, 2 unbounded
};

}  // namespace icn
