// SPDX-License-Identifier: Apache-2.0
// Parameters of the fat-tree on/off link controllers (fattree_onoff.*).
#pragma once

#include "mech/mechanism.h"

namespace icn {

struct FattreeOnOffConfig : MechanismConfig {
  double u_off = 0.3;
  double u_on = 0.65;
  bool occupancy_meter = true;  // fattree_onoff.meter = occupancy: waiting packets count as busy
  int check_cycles = 2000;
  int t_on = 1000;
  int t_off = 1000;
  double link_power_w = 1.0;
};

}  // namespace icn
