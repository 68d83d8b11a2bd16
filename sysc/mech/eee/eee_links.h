// Adapter of the EEE port controllers: one verilated port at each end of every link. Maps the
// harness observables (packets queued for the port, flit sent, flit received, control messages
// from the partner after the link latency) onto the RTL inputs, and its outputs onto the link
// (transmit enable) and the energy ledger (power state: 0 wake, 1 transition, 2 fast LPI, 3 deep LPI).
// The port is eee_port for a fixed t_PDT, or eee_pb_port (one model per histogram strategy) for
// PerfBound and PerfBoundCorrect, strapped with the port's hop-share table from the routing.
#pragma once
#include <memory>

#include "core/energy_ledger.h"
#include "core/params.h"
#include "core/tracer.h"
#include "mech/mechanism.h"
#include "net/network.h"

namespace icn {

// two_evals: clock every model with "clk=0; eval; clk=1; eval" (always so while tracing, so the
// clock shows in the waveform) instead of the equivalent single eval per cycle.
std::unique_ptr<Mechanism> MakeEeeLinks(const Params& params, Network& network, Tracer& tracer, EnergyLedger& ledger,
                                        bool two_evals);

}  // namespace icn
