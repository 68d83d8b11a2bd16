// SPDX-License-Identifier: Apache-2.0
// Adapter of the fat-tree on/off link controllers: one verilated fattree_switch_ctrl per switch
// of a k-ary n-tree. Maps the switch's observables (flit sent per output, packets committed per
// output, whether each incoming link is active, whether the switch is empty, whether a packet
// found no up link to take) onto the RTL inputs,
// and its outputs onto the outgoing channels (routable, transmit enable) and the energy ledger
// (one component per unidirectional link, powered or not). Links from the NICs are always on.
#pragma once
#include <array>
#include <memory>
#include <vector>

#include "mech/due_calendar.h"
#include "mech/fattree/fattree_config.h"
#include "mech/mechanism.h"
#include "mech/register_activity.h"
#include "net/router.h"

class VerilatedContext;
class Vfattree_switch_ctrl;

namespace icn {

class WormholeNetwork;

class FattreeLinks : public Mechanism {
 public:
  // The verilated controller has room for 8-ary switches; smaller arities leave ports unconnected.
  static constexpr int kMaxArity = 8;

  FattreeLinks(const FattreeOnOffConfig& config, const MechanismContext& context);
  ~FattreeLinks() override;

  void Step(uint64_t now) override;
  uint64_t RestsUntil(uint64_t now) const override;
  void Settle(uint64_t end) override;
  void Report(nlohmann::json& results) const override;
  uint64_t Digest() const override;
  std::vector<std::string> TimeseriesColumns() const override { return {"fattree_onoff.links_powered"}; }
  void SampleTimeseries(std::vector<double>& row) const override { row.push_back(PoweredFraction()); }

  // Links powered now / all links (tests, time series).
  double PoweredFraction() const { return static_cast<double>(powered_) / ledger_.components(); }

 private:
  struct Port {
    Channel* out = nullptr;      // outgoing channel, null if unconnected
    int model_port = 0;          // bit in the controller's port vectors
    int upstream = -1;           // switch sending on the incoming channel, -1 = a NIC (always on)
    int upstream_bit = 0;        // that switch's bit for the channel
    uint64_t* energy = nullptr;  // ledger counters of the outgoing channel, by power state
    bool powered = true;         // its power state, charged to the ledger from cycle `since`
    uint64_t since = 0;
  };
  struct Switch {
    std::unique_ptr<Vfattree_switch_ctrl> model;
    const Router* router;
    std::vector<Port> ports;
    uint16_t active = 0;       // active_o after the last edge (read by the switches downstream)
    uint64_t inputs = ~0ull;   // inputs of the last edge
    bool fixed_point = false;  // the last edge changed no output
    bool skip = false;         // this cycle's edge is skipped
    uint64_t due = 0;          // first cycle a transition of one of its links ends (TrackTransitions)
    std::array<uint64_t, 2 * kMaxArity> transition_end{};  // per controller port, while in transition
    RegisterActivity registers;
    bool restless = true;      // not at a fixed point, or its router not empty
    uint64_t visited = ~0ull;  // the cycle it was last visited
  };
  // The switches this cycle looks at (visits_), or false: all of them.
  bool PickVisits(uint64_t now, bool all);
  // What a visited switch's edge (or skip) means for the next cycles: looked at again next cycle,
  // or at its due from the calendar, or when its router next steps.
  void Follow(int s, uint64_t now);
  void Prepare(Switch& sw, uint64_t now, bool check, bool neighbours_same);
  void Apply(Switch& sw, uint64_t now);
  static uint64_t Outputs(const Vfattree_switch_ctrl& m);
  void TrackTransitions(Switch& sw, uint64_t states_before, uint64_t now);

  Tracer& tracer_;
  EnergyLedger::Group& ledger_;
  EnergyLedger::Controllers* controllers_;
  std::unique_ptr<VerilatedContext> context_;
  std::vector<Switch> switches_;
  // Visiting only the switches that need it: those whose router stepped, those that asked for the
  // next cycle, and those due (a calendar of (due, switch); an entry whose switch has another due
  // since is stale).
  std::vector<int> visits_, again_, spare_;
  DueCalendar due_;
  size_t restless_ = 0;               // switches restless (Switch::restless): no rest while any is
  std::vector<uint64_t*> always_on_;  // ledger counters of the NICs' links
  bool every_edge_;
  uint64_t check_cycles_;
  uint64_t counted_;  // input bits the meters count: up ports' busy_i, and committed_i (occupancy meter)
  uint64_t t_on_, t_off_;
  double p_min_;
  const WormholeNetwork& network_;
  int powered_ = 0;             // links powered now
  bool active_changed_ = true;  // a switch's active bits changed at the last edge
  uint64_t always_on_since_ = 0;
  double min_powered_fraction_ = 1.0;
  uint64_t transitions_ = 0;
};

}  // namespace icn
