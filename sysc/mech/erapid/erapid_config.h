// SPDX-License-Identifier: Apache-2.0
// Parameters of the E-RAPID controllers (Kodi and Louri), parsed and validated from the erapid.* keys.
#pragma once
#include <string>

#include "mech/mechanism.h"

namespace icn {

struct ErapidConfig : MechanismConfig {
  std::string mode;      // p_nb, np_b or p_b (np_nb: the mechanism is off)
  bool dbr = false;      // bandwidth re-allocation
  bool dpm = false;      // power-level scaling
  int rw_cycles = 1000;  // reconfiguration window Rw
  double l_min = 0, b_min = 0.1, b_max = 0.3, b_con = 0.5;
  int degree = 8;          // N: wavelengths a source may hold toward one board
  int vdd_cycles = 20;     // one supply step
  int relock_cycles = 65;  // receiver relock after a bit-rate change
  int queue_packets = 8;   // a transmitter queue's capacity, Buffer_util's normaliser
};

// Threshold in the controllers' fixed point (1/256).
inline int Q8(double fraction) { return static_cast<int>(fraction * 256 + 0.5); }

}  // namespace icn
