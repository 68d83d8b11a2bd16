// SPDX-License-Identifier: Apache-2.0
#include "mech/fattree/fattree_links.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <verilated.h>
#include <verilated_fst_c.h>

#include "Vfattree_switch_ctrl.h"
#include "Vfattree_switch_ctrl_info.h"
#include "mech/clocking.h"
#include "net/topologies/kary_ntree.h"
#include "net/wormhole_network.h"

namespace icn {
namespace {

// Bits of a switch's packed inputs (FattreeLinks::Prepare).
constexpr uint64_t kQuietMask = 0xffffull | 0xffffull << 16 | 0xfull << 48;  // all inputs but in_active
constexpr uint64_t kQuiet = uint64_t{1} << 48;  // those of an empty router: only empty_i
constexpr uint64_t kPulse = uint64_t{1} << 50;  // check_i
// The up ports' bits of busy_i (and, shifted, of committed_i): the meters count only those. A
// down port's busy bit feeds nothing; its committed bit only gates its sequencer's power-down, a
// function of the inputs, which a changed input reaches anyway (the edge is taken).
static_assert(ModelInfo<Vfattree_switch_ctrl>::Params::Arity == FattreeLinks::kMaxArity,
              "busy_i and committed_i hold kMaxArity down ports, then as many up ports");
constexpr uint64_t kUpBusy = 0xffffull & ~((uint64_t{1} << FattreeLinks::kMaxArity) - 1);

uint16_t Fixed16(double fraction) {
  return static_cast<uint16_t>(std::min(65535.0, std::lround(fraction * 65536.0) * 1.0));
}

}  // namespace

FattreeLinks::FattreeLinks(const FattreeOnOffConfig& config, const MechanismContext& context)
    : tracer_(context.tracer),
      ledger_(context.ledger.AddGroup("link", {"powered", "off"}, {config.link_power_w, 0},
                                      static_cast<int>(context.fabric.channels().size()))),
      context_(std::make_unique<VerilatedContext>()),
      every_edge_(context.every_edge || context.tracer.enabled()),
      check_cycles_(config.check_cycles),
      counted_(kUpBusy | (config.occupancy_meter ? kUpBusy << 16 : 0)),
      t_on_(config.t_on),
      t_off_(config.t_off),
      p_min_(MinimalTreePowerFraction(*TreeShape(context.topology))),
      network_(WormholeOf(context.fabric, "fattree_onoff.enabled")) {
  Tracer& tracer = context.tracer;
  context_->traceEverOn(tracer.enabled());
  const WormholeNetwork& network = network_;
  const KaryNTreeShape& tree = *TreeShape(context.topology);
  const int k = tree.k;
  const auto model_port = [k](int port) { return port < k ? port : kMaxArity + port - k; };
  std::unordered_map<const Channel*, int> index;
  for (size_t c = 0; c < network.channels().size(); ++c)
    index[network.channels()[c].get()] = static_cast<int>(c);

  const auto& routers = network.routers();
  switches_.resize(routers.size());
  controllers_ = &AddControllers<Vfattree_switch_ctrl>(context.ledger, static_cast<int>(routers.size()));
  std::vector<bool> from_switch(network.channels().size(), false);
  for (size_t r = 0; r < routers.size(); ++r) {
    Switch& sw = switches_[r];
    sw.router = routers[r].get();
    sw.model = std::make_unique<Vfattree_switch_ctrl>(context_.get(), ("s" + std::to_string(r)).c_str());
    uint16_t connected = 0;
    for (int p = 0; p < sw.router->ports(); ++p) {
      Port port;
      port.model_port = model_port(p);
      if (const Channel* out = sw.router->output(p)) {
        const int c = index.at(out);
        port.out = network.channels()[c].get();
        port.energy = ledger_.Counters(c);
        from_switch[c] = true;
        connected |= 1u << port.model_port;
      }
      if (const Channel* in = sw.router->input(p); in && in->source().router) {
        port.upstream = in->source().router->id();
        port.upstream_bit = model_port(in->source().port);
      }
      sw.ports.push_back(port);
    }
    Vfattree_switch_ctrl& m = *sw.model;
    m.in_mt_i = InMinimalTree(tree, static_cast<int>(r));
    m.is_root_i = TreeLevel(tree, static_cast<int>(r)) == 0;
    m.connected_i = connected;
    m.u_off_i = Fixed16(config.u_off);
    m.u_on_i = Fixed16(config.u_on);
    m.occupancy_i = config.occupancy_meter;
    m.t_on_i = static_cast<uint16_t>(config.t_on);
    m.t_off_i = static_cast<uint16_t>(config.t_off);
    m.busy_i = 0;
    m.committed_i = 0;
    m.in_active_i = 0;
    m.empty_i = 1;
    m.need_up_i = 0;
    m.now_i = 0;
    m.check_i = 0;
    Reset(m);
    sw.registers.Start(m);
    sw.active = m.active_o;
  }
  for (size_t c = 0; c < from_switch.size(); ++c) {
    if (!from_switch[c]) always_on_.push_back(ledger_.Counters(static_cast<int>(c)));
  }
  powered_ = static_cast<int>(ledger_.components());  // every link is on out of reset
  for (int s = 0; s < static_cast<int>(switches_.size()); ++s) again_.push_back(s);  // the first edge
  restless_ = switches_.size();
  due_ = DueCalendar(switches_.size());
  if (tracer.enabled()) {
    for (size_t r = 0; r < switches_.size(); ++r) {
      if (tracer.Matches("s" + std::to_string(r))) switches_[r].model->trace(tracer.fst(), 99);
    }
  }
}

FattreeLinks::~FattreeLinks() {
  Verilated::threadContextp(context_.get());  // see LinkEndControllers::~LinkEndControllers
  for (Switch& sw : switches_) sw.model->final();
  switches_.clear();
}

void FattreeLinks::Step(uint64_t now) {
  // The check period's pulse, on the last cycle of every period counted from cycle 0.
  const bool check = now % check_cycles_ == check_cycles_ - 1;
  // Inputs of every switch first: a switch reads its neighbours' outputs of the last edge.
  const bool neighbours_same = !active_changed_;
  const bool all = PickVisits(now, every_edge_ || check || !neighbours_same);
  const auto each = [&](auto fn) {
    if (all) {
      for (int s = 0; s < static_cast<int>(switches_.size()); ++s) fn(switches_[s], s);
    } else {
      for (const int s : visits_) fn(switches_[s], s);
    }
  };
  each([&](Switch& sw, int) { Prepare(sw, now, check, neighbours_same); });
  if (every_edge_) {
    const auto model_of = [](Switch& sw) -> Vfattree_switch_ctrl& { return *sw.model; };
    EdgeOfAll(switches_, model_of, tracer_, now);
    for (Switch& sw : switches_) controllers_->toggles += sw.registers.Toggles(*sw.model);
  } else {
    each([&](Switch& sw, int) {
      if (sw.skip) return;
      // Only an edge without a flit or a pulse can start a fixed point worth knowing: skipping
      // needs the same inputs again, without either.
      const bool may_rest = (sw.inputs & (counted_ | kPulse)) == 0;
      const uint64_t before = may_rest ? Outputs(*sw.model) : 0;
      const uint64_t states_before = sw.model->link_state_o;
      Edge(*sw.model);
      controllers_->toggles += sw.registers.Toggles(*sw.model);
      sw.fixed_point = may_rest && Outputs(*sw.model) == before;
      TrackTransitions(sw, states_before, now);
    });
  }
  each([&](Switch&, int s) { Follow(s, now); });
  active_changed_ = false;
  each([&](Switch& sw, int) {
    if (!sw.skip) Apply(sw, now);
  });
  min_powered_fraction_ = std::min(min_powered_fraction_, PoweredFraction());
}

// A switch not visited would have skipped its edge: its router did not step (so it sent nothing,
// holds nothing and nothing was committed), no neighbour's active bits changed, no pulse, it is
// at a fixed point with the inputs of an empty router, and before its due.
bool FattreeLinks::PickVisits(uint64_t now, bool all) {
  visits_.clear();
  again_.swap(spare_);
  again_.clear();
  const auto add = [&](int s) {
    if (switches_[s].visited == now) return;
    switches_[s].visited = now;
    visits_.push_back(s);
  };
  if (!all) {
    for (const uint32_t r : network_.stepped_routers()) add(static_cast<int>(r));
    for (const int s : spare_) add(s);
  }
  due_.TakeDue(now, [&](uint32_t s, uint64_t due) {
    if (!all && switches_[s].due == due) add(static_cast<int>(s));
  });
  return all;
}

void FattreeLinks::Follow(int s, uint64_t now) {
  Switch& sw = switches_[s];
  // At rest: a fixed point with the inputs of an empty network (nothing sent or committed, empty,
  // no pulse).
  const bool restless = !sw.fixed_point || (sw.inputs & kQuietMask) != kQuiet;
  restless_ = restless_ + restless - sw.restless;
  sw.restless = restless;
  if (restless || sw.due <= now + 1) {
    again_.push_back(s);
  } else {
    due_.Put(static_cast<uint32_t>(s), sw.due);
  }
}

// The switch's inputs for this cycle's edge, or sw.skip when the edge would change nothing.
void FattreeLinks::Prepare(Switch& sw, uint64_t now, bool check, bool neighbours_same) {
  // A router that neither stepped this cycle nor holds a flit sent nothing, has nothing committed
  // or stalled; with no neighbour's active bits changed, a switch whose last inputs were those of
  // a quiet router has them again: no need to read its ports.
  if (neighbours_same && (sw.inputs & kQuietMask) == kQuiet && !sw.router->Stepped(now) &&
      !sw.router->Busy()) {
    sw.skip = !every_edge_ && sw.fixed_point && !check && now < sw.due;
    if (sw.skip) return;
  }
  uint16_t busy = 0, committed = 0, in_active = 0;
  for (int p = 0; p < static_cast<int>(sw.ports.size()); ++p) {
    const Port& port = sw.ports[p];
    const uint16_t bit = static_cast<uint16_t>(1u << port.model_port);
    if (port.out && port.out->sent_at(now)) busy |= bit;
    if (*sw.router->demand(p) > 0) committed |= bit;
    const bool active = port.upstream < 0 || (switches_[port.upstream].active >> port.upstream_bit & 1);
    if (active) in_active |= bit;
  }
  const bool empty = !sw.router->Busy();
  const bool need_up = sw.router->route_stalled();
  const uint64_t inputs = busy | uint64_t{committed} << 16 | uint64_t{in_active} << 32 |
                          uint64_t{empty} << 48 | uint64_t{need_up} << 49 | uint64_t{check} << 50;
  // At a fixed point (the last edge changed no output) with the same inputs, nothing the meters
  // count (a flit leaving on an up link, or a packet waiting for one with the occupancy meter:
  // registers no output shows), no check pulse and before the end of any transition (which the
  // sequencer reads off now_i), the edge would change nothing: skip it.
  sw.skip = !every_edge_ && sw.fixed_point && inputs == sw.inputs && (inputs & counted_) == 0 && !check &&
            now < sw.due;
  if (sw.skip) return;
  sw.inputs = inputs;
  Vfattree_switch_ctrl& m = *sw.model;
  m.now_i = static_cast<uint16_t>(now);
  m.check_i = check;
  m.busy_i = busy;
  m.committed_i = committed;
  m.in_active_i = in_active;
  m.empty_i = empty;
  m.need_up_i = need_up;
}

// The outputs of an edge onto the links; the ledger is charged when a link's power changes (and
// by Settle()).
void FattreeLinks::Apply(Switch& sw, uint64_t now) {
  const Vfattree_switch_ctrl& m = *sw.model;
  const uint16_t changed = static_cast<uint16_t>((m.active_o ^ sw.active) & m.connected_i);
  transitions_ += __builtin_popcount(changed);
  active_changed_ = active_changed_ || changed != 0;
  sw.active = m.active_o;
  for (Port& port : sw.ports) {
    if (!port.out) continue;
    const bool powered = m.powered_o >> port.model_port & 1;
    port.out->set_tx_enabled(m.tx_en_o >> port.model_port & 1);
    port.out->set_routable(m.routable_o >> port.model_port & 1);
    if (powered != port.powered) {  // this cycle is the first in the new state
      port.energy[port.powered ? 0 : 1] += now - port.since;
      port.powered = powered;
      port.since = now;
      powered_ += powered ? 1 : -1;
    }
  }
}

uint64_t FattreeLinks::RestsUntil(uint64_t now) const {
  if (every_edge_ || restless_ != 0 || !again_.empty()) return now;
  return std::max(now,
                  std::min(due_.First(), now + (check_cycles_ - 1 - now % check_cycles_)));  // or a pulse
}

// After the edge closing cycle `now`: a link that entered a transition at this edge leaves it on
// the edge at which now_i equals the sequencer's stored end, now + T_off (or T_on); the switch is
// due at the earliest end of its links' transitions.
void FattreeLinks::TrackTransitions(Switch& sw, uint64_t states_before, uint64_t now) {
  const uint64_t states = sw.model->link_state_o;
  if (states == states_before && sw.due != 0) return;  // the same transitions, the same ends
  sw.due = UINT64_MAX;
  for (int p = 0; p < 2 * kMaxArity; ++p) {
    const unsigned state = states >> (2 * p) & 3;
    if (!(state & 1)) continue;  // On or Off
    if (state != (states_before >> (2 * p) & 3)) sw.transition_end[p] = now + (state == 1 ? t_off_ : t_on_);
    sw.due = std::min(sw.due, sw.transition_end[p]);
  }
}

void FattreeLinks::Settle(uint64_t end) {
  for (uint64_t* energy : always_on_) energy[0] += end - always_on_since_;
  always_on_since_ = end;
  for (Switch& sw : switches_) {
    for (Port& port : sw.ports) {
      if (!port.out) continue;
      port.energy[port.powered ? 0 : 1] += end - port.since;
      port.since = end;
    }
  }
}

// Every output of a switch controller, hashed (equal before and after an edge = a fixed point).
uint64_t FattreeLinks::Outputs(const Vfattree_switch_ctrl& m) {
  const uint64_t words[] = {m.link_state_o, m.active_o,   m.routable_o, m.tx_en_o,
                            m.powered_o,    m.decision_o, m.up_busy_o,  m.up_usable_o};
  uint64_t h = 0;
  for (uint64_t w : words) h = (h ^ w) * 0x100000001b3ULL;
  return h;
}

uint64_t FattreeLinks::Digest() const {
  uint64_t digest = 0;
  for (const Switch& sw : switches_) {
    const Vfattree_switch_ctrl& m = *sw.model;
    const uint64_t words[] = {m.link_state_o, m.active_o, m.decision_o, m.up_busy_o, m.up_usable_o};
    for (uint64_t w : words) digest = (digest ^ w) * 0x100000001b3ULL;
  }
  return digest;
}

void FattreeLinks::Report(nlohmann::json& results) const {
  results["fattree_onoff"] = {{"p_min", p_min_},
                              {"min_active_fraction", min_powered_fraction_},
                              {"final_active_fraction", PoweredFraction()},
                              {"transitions", transitions_}};
}

}  // namespace icn
