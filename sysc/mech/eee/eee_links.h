// Adapter of the EEE port controllers: one verilated port at each end of every link. Maps the
// harness observables (packets queued for the port, flit sent, flit received, control messages
// from the partner after the link latency) onto the RTL inputs, and its outputs onto the link
// (transmit enable) and the energy ledger (power state: 0 wake, 1 transition, 2 fast LPI, 3 deep LPI).
// The port is eee_port for a fixed t_PDT, or eee_pb_port (one model per histogram strategy) for
// PerfBound and PerfBoundCorrect, strapped with the port's hop-share table from the routing.
#pragma once
#include <memory>

#include "mech/eee/eee_config.h"
#include "mech/mechanism.h"

namespace icn {

std::unique_ptr<Mechanism> MakeEeeLinks(const EeeConfig& config, const MechanismContext& context);

}  // namespace icn
