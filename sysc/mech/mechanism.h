// SPDX-License-Identifier: Apache-2.0
// A power or reconfiguration mechanism in the loop: adapters around verilated controllers that
// read harness observables, evaluate the RTL on the clock edge, and apply its outputs. Each
// mechanism is a folder sysc/mech/<m>/ that describes itself with a MechanismInfo (its keys, the
// parsing and validation of its parameters, a factory for its adapter, its energy when off, its
// waveform view and bundled scenarios) and is listed once in mech/registry.cpp.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/energy_ledger.h"
#include "core/scenario.h"
#include "core/sim_params.h"
#include "core/tracer.h"
#include "net/fabric.h"
#include "net/net_params.h"
#include "net/topology.h"

namespace icn {

class Mechanism {
 public:
  virtual ~Mechanism() = default;
  // Evaluates every controller on the edge closing cycle `now`, after the network's own step, and
  // charges the cycle to the energy ledger groups it added.
  virtual void Step(uint64_t now) = 0;
  // Mechanism figures for results.json.
  virtual void Report(nlohmann::json& results) const = 0;
  // What broke the "nothing is lost" rule on its side (each problem a sentence); empty when clean.
  virtual std::vector<std::string> Problems() const { return {}; }
  // Hash of every controller register: equal digests on every cycle = the same behaviour.
  virtual uint64_t Digest() const = 0;
  // Clock jumps. After Step(now - 1): the first cycle >= now on which a controller must be
  // evaluated if the network stays empty (no flit, no packet, no credit anywhere): now unless
  // every controller is at a fixed point with the inputs an empty network gives it and no message
  // of its own in flight; else its earliest deadline (a time-base compare, a harness pulse), or
  // UINT64_MAX. The default never lets the run jump. The run then skips the cycles before it
  // without calling Step(): an adapter charges its ledger per power-state change, not per cycle.
  virtual uint64_t RestsUntil(uint64_t now) const { return now; }
  // The same for a still network (Fabric::NextMove): packets inside that do not move, so every
  // input a controller reads holds its value (a queue's length, the cycle a flit last passed).
  // The default never lets such a run jump.
  virtual uint64_t RestsWhileStill(uint64_t now) const { return now; }
  // Brings the energy ledger up to date with cycles 0 .. end - 1 (charged since the last change
  // of each controller's power state); the run calls it before reading the ledger.
  virtual void Settle(uint64_t end) { (void)end; }
  // Cycles from the start before its controllers can have reached the decisions a load leads to in
  // steady state (E-RAPID: ten reconfiguration windows). A shorter warm-up is not converged, and
  // sim.warmup = steady waits at least this long.
  virtual uint64_t SettleCycles() const { return 0; }
  // Columns it adds to timeseries.csv, and their values at a sample (in the same order).
  virtual std::vector<std::string> TimeseriesColumns() const { return {}; }
  virtual void SampleTimeseries(std::vector<double>& row) const { (void)row; }
};

// A mechanism's parameters after parsing and validation.
struct MechanismConfig {
  virtual ~MechanismConfig() = default;
};

// What parsing may read besides the mechanism's own keys.
struct MechanismParseContext {
  const Scenario& scenario;
  const SimParams& sim;
  const NetParams& net;
  const Topology& topology;
  std::vector<std::string>& warnings;  // conversions the user should know about
};

// What an adapter is built from.
struct MechanismContext {
  const SimParams& sim;
  const NetParams& net;
  const Topology& topology;
  Fabric& fabric;
  Tracer& tracer;
  EnergyLedger& ledger;
  // Give every model every clock edge (the reference, and always so while tracing, so that the
  // waveform has every cycle) instead of skipping the models at a fixed point.
  bool every_edge;
  // The run's threads, one per part of the fabric (Fabric::EndParts): an adapter may visit each
  // part's controllers on its thread, each model evaluated by that thread only.
  ThreadTeam& team;
};

struct MechanismInfo {
  const char* name;        // its section in results.json, e.g. "eee"
  const char* switch_key;  // the key that turns it on, e.g. "eee.mode"
  const char* off_value;   // that key's value when it is off
  const char* drives;      // what its controllers drive ("link power"): two at once may not drive the same
  std::vector<KeySpec> keys;
  // Parses and validates its keys (errors name the key and the allowed range); null when the
  // scenario leaves the mechanism off.
  std::unique_ptr<MechanismConfig> (*parse)(const MechanismParseContext& context);
  // Builds the adapter, which adds its energy groups to the ledger.
  std::unique_ptr<Mechanism> (*make)(const MechanismConfig& config, const MechanismContext& context);
  // The energy of its hardware when no active mechanism accounts for link energy, always in the
  // nominal state (EEE: every port awake). Null if it has none. Returns the group it added, or null
  // when this network has none of its hardware.
  EnergyLedger::Group* (*energy_when_off)(const Scenario& scenario, const Fabric& fabric,
                                          EnergyLedger& ledger);
  // The GTKWave view of a traced run, e.g. "waves/eee_port.gtkw".
  std::string (*view)(const MechanismConfig& config);
  std::vector<std::string> scenarios;  // bundled scenarios (sim/scenarios/) that run it
  std::vector<KeyRule> rules = {};     // between its keys and others (none: {})
};

}  // namespace icn
