// SPDX-License-Identifier: Apache-2.0
// The EEE port controllers: one verilated port at each end of every link, run as link-end
// controllers (mech/link_end/link_end_controllers.h) with power states 0 wake, 1 transition,
// 2 fast LPI, 3 deep LPI. The port is eee_port for a fixed t_PDT, which the contract carries whole,
// or eee_pb_port (one model per histogram strategy) for PerfBound and PerfBoundCorrect, which adds
// a search pulse every period X, the port's hop-share table from the routing and its predictions'
// report.
#pragma once
#include <memory>

#include "mech/eee/eee_config.h"
#include "mech/mechanism.h"

namespace icn {

std::unique_ptr<Mechanism> MakeEeeLinks(const EeeConfig& config, const MechanismContext& context);

}  // namespace icn
