// Adapter of the EEE port controllers: one verilated eee_port at each end of every link. Maps the
// harness observables (packets queued for the port, flit sent, flit received, control messages
// from the partner after the link latency) onto the RTL inputs, and its outputs onto the link
// (transmit enable) and the energy ledger (power state: 0 wake, 1 transition, 2 fast LPI, 3 deep LPI).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/energy_ledger.h"
#include "core/params.h"
#include "core/tracer.h"
#include "mech/mechanism.h"
#include "net/network.h"

class VerilatedContext;
class Veee_port;
class Veee_port___024root;

namespace icn {

class EeeLinks : public Mechanism {
 public:
  // two_evals: clock every model with "clk=0; eval; clk=1; eval" (always so while tracing, so the
  // clock shows in the waveform) instead of the equivalent single eval per cycle.
  EeeLinks(const Params& params, Network& network, Tracer& tracer, EnergyLedger& ledger, bool two_evals);
  ~EeeLinks() override;

  void Step(uint64_t now) override;
  void Report(nlohmann::json& results) const override;
  uint64_t violations() const override { return sleeping_rx_; }

  // Hash of every port's registers: equal digests on every cycle = the same behaviour.
  uint64_t Digest() const;

 private:
  struct PortState {
    uint64_t counters = 0;
    uint16_t flags = 0xffff;
    bool operator==(const PortState& o) const { return counters == o.counters && flags == o.flags; }
  };
  // What the per-cycle loop touches, copied out of the LinkEnd to save pointer chasing.
  struct End {
    std::unique_ptr<Veee_port> model;
    Veee_port___024root* root;
    Channel* tx;
    Channel* rx;
    const int32_t* tx_queue;
    int partner;
    uint32_t inputs = ~0u;     // inputs of the last eval
    PortState state;           // registers after the last eval
    bool fixed_point = false;  // the last eval changed no register
  };
  void Apply(size_t end, uint8_t* write);
  static PortState State(const Veee_port___024root& m);

  Network& network_;
  Tracer& tracer_;
  EnergyLedger& ledger_;
  std::unique_ptr<VerilatedContext> context_;
  std::vector<End> ends_;
  std::vector<uint8_t> outbox_;  // control messages: [cycle mod (latency + 1)][end]
  int latency_;
  bool two_evals_;
  uint64_t sleeps_ = 0;        // power-down handshakes accepted
  uint64_t wakeups_ = 0;       // power-up handshakes accepted
  uint64_t refusals_ = 0;      // power-down requests refused
  uint64_t sleeping_rx_ = 0;   // flits that reached a port not awake (must stay 0)
};

}  // namespace icn
