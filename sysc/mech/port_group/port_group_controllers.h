// SPDX-License-Identifier: Apache-2.0
// The adapter of switch and node controllers (mech/port_group/port_group_contract.h): one verilated
// model per router or per NIC, a port of it per link end the router or NIC has. Maps the harness
// observables of each port (packets queued for its output, flit sent, flit received) onto the
// contract's vectors, and its outputs onto the links (transmit enable) and the energy ledger (each
// port's power state). Visits only the controllers whose ports the network touched, that are due or
// that asked for the next cycle, and skips one at a fixed point until its deadline: work in
// proportion to activity, as the link-end adapter (mech/link_end/link_end_controllers.h).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <verilated.h>
#include <verilated_fst_c.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "mech/clocking.h"
#include "mech/due_calendar.h"
#include "mech/link_end/link_end_contract.h"
#include "mech/mechanism.h"
#include "mech/port_group/port_group_contract.h"
#include "mech/register_activity.h"
#include "mech/signal_bits.h"
#include "net/end_touches.h"

namespace icn {

namespace port_group {
template <typename M, typename = void>
struct HasPorts : std::false_type {};
template <typename M>
struct HasPorts<M, std::void_t<decltype(std::declval<M&>().ports_i)>> : std::true_type {};
// The width of the optional ports_i, or -1.
template <typename M>
constexpr int PortsStrapBits() {
  if constexpr (HasPorts<M>::value) {
    return ModelInfo<M>::PortBits::ports_i;
  } else {
    return -1;
  }
}
}  // namespace port_group

// The spec is that of link-end controllers (a port is a link end's output): its section, switch
// key, ledger group and power states; link_wide and counted_messages do not apply.
template <typename Model>
class PortGroupControllers : public Mechanism {
  using Widths = typename ModelInfo<Model>::PortBits;
  static constexpr int kPorts = Widths::tx_en_o;
  static constexpr int kPowerBits = Widths::power_o / kPorts;
  static_assert(Widths::now_i == 32 && Widths::deadline_o == 32, "the contract's time base is 32 bits");
  static_assert(Widths::tx_queue_i == 16 * kPorts, "tx_queue_i is 16 bits per port");
  static_assert(Widths::tx_busy_i == kPorts && Widths::rx_busy_i == kPorts, "one flag per port");
  static_assert(Widths::power_o == kPowerBits * kPorts && kPowerBits <= 8, "power_o: up to 8 bits per port");
  static_assert(Widths::deadline_valid_o == 1, "deadline_valid_o is a flag");
  static_assert(kPorts <= 64, "a port mask of 64 bits");
  static_assert(port_group::PortsStrapBits<Model>() < 0 || port_group::PortsStrapBits<Model>() == kPorts,
                "ports_i has a bit per port");

  // A port: the output of one link end.
  struct Port {
    uint32_t end;
    Channel* tx;
    const int32_t* tx_queue;
    uint8_t index;        // its place in the controller's vectors
    uint32_t inputs = 0;  // queue | sent << 16 | received << 17, at the last eval
    bool tx_en = true;    // outputs of the last eval
    uint8_t power = 0;
    uint64_t power_since = 0;  // charged to the ledger up to here (Settle())
    uint64_t* energy;          // its ledger counters, by power state
  };
  // One controller and its ports [first, last) of ports_.
  struct Group {
    std::unique_ptr<Model> model;
    uint32_t first, last;
    uint16_t part;
    RegisterActivity registers;
    bool fixed_point = false;  // the last eval changed no register
    uint64_t due = 0;          // the first cycle the time base acts on a register
    bool unsettled = true;     // not at a fixed point, or some input not 0
    bool restless = true;      // not at a fixed point, or a flit this cycle
    uint64_t visited = ~0ULL;
  };
  // What one thread visits: its controllers, the lists that pick those that need a visit, counts.
  struct Part {
    std::vector<uint32_t> groups;
    std::vector<uint32_t> visits, again, spare;
    DueCalendar due;
    uint64_t unsettled = 0, restless = 0;
    uint64_t sleeps = 0, wakeups = 0;
    uint64_t sleeping_tx = 0;  // flits that left a port not awake (must stay 0)
    uint64_t bad_power = 0;    // power_o values beyond the declared states (must stay 0)
    uint64_t toggles = 0;
  };
  static constexpr uint32_t kNoGroup = ~0u;

 public:
  PortGroupControllers(PortGroupKind kind, LinkEndSpec spec, std::function<void(Model&)> straps,
                       const MechanismContext& context)
      : spec_(std::move(spec)),
        tracer_(context.tracer),
        activity_(context.fabric.activity().data()),
        context_(std::make_unique<VerilatedContext>()),
        team_(context.team),
        every_edge_(context.every_edge || context.tracer.enabled()) {
    if (kind == PortGroupKind::kNode && kPorts != 1) throw std::logic_error("a node controller has one port");
    context_->traceEverOn(tracer_.enabled());
    const std::vector<LinkEnd>& links = context.fabric.link_ends();
    const std::vector<std::vector<uint32_t>> members = Members(kind, links);
    const std::vector<uint16_t> end_part = context.fabric.EndParts();
    end_group_.assign(links.size(), kNoGroup);
    // Every link end is in the ledger group: the controllers' ports in the states power_o names,
    // the others (a switch's NIC outputs, a node's router outputs) always in state 0.
    EnergyLedger::Group& energy = AddPowerGroup(context.ledger, spec_, static_cast<int>(links.size()));
    controllers_ = &AddControllers<Model>(context.ledger, static_cast<int>(members.size()));
    parts_ = std::vector<Part>(static_cast<size_t>(team_.size()));
    for (const std::vector<uint32_t>& ends : members) {
      const uint32_t g = static_cast<uint32_t>(groups_.size());
      const LinkEnd& first = links[ends.front()];
      const std::string name =
          kind == PortGroupKind::kSwitch ? "r" + std::to_string(first.router) : first.name;
      Group& group = groups_.emplace_back();
      group.model = std::make_unique<Model>(context_.get(), name.c_str());
      group.first = static_cast<uint32_t>(ports_.size());
      group.part = end_part[ends.front()];
      Model& m = *group.model;
      uint64_t connected = 0;
      for (const uint32_t end : ends) {
        const int index = kind == PortGroupKind::kSwitch ? links[end].port : 0;
        if (!links[end].tx) {
          throw ScenarioError(spec_.switch_key + ": link end " + links[end].name +
                              " sends on no wire; allowed: " + spec_.off_value + " on this topology");
        }
        if (index >= kPorts) {
          throw ScenarioError(spec_.switch_key + ": router " + std::to_string(first.router) + " has port " +
                              std::to_string(index) + " and the controller's vectors take " +
                              std::to_string(kPorts) + " ports; allowed: " + spec_.off_value +
                              " on this topology, or the controller built for more ports");
        }
        end_group_[end] = g;
        connected |= uint64_t{1} << index;
        ports_.push_back({end, links[end].tx, links[end].tx_queue, static_cast<uint8_t>(index), 0, true, 0, 0,
                          energy.Counters(static_cast<int>(end))});
      }
      group.last = static_cast<uint32_t>(ports_.size());
      if constexpr (port_group::HasPorts<Model>::value) SetBits(m.ports_i, 0, kPorts, connected);
      straps(m);
      for (int p = 0; p < kPorts; ++p) SetInputs(m, p, 0);  // (a port without a link keeps these)
      m.now_i = 0;
      Reset(m);
      group.registers.Start(m);
      for (uint32_t k = group.first; k < group.last; ++k) {  // the outputs after reset, from cycle 0
        Port& port = ports_[k];
        port.power = PowerOf(m, port.index);
        if (port.power >= spec_.states.size()) {
          throw ScenarioError(spec_.switch_key + ": the controller's power state after reset is " +
                              std::to_string(port.power) + "; allowed: its " +
                              std::to_string(spec_.states.size()) + " power states");
        }
        port.tx_en = Bits(m.tx_en_o, port.index, 1);
        port.tx->set_tx_enabled(port.tx_en);
      }
      parts_[group.part].groups.push_back(g);
      if (tracer_.enabled() && tracer_.Matches(name)) m.trace(tracer_.fst(), 99);
    }
    for (uint32_t end = 0; end < links.size(); ++end) {
      if (end_group_[end] == kNoGroup) uncovered_.push_back(energy.Counters(static_cast<int>(end)));
    }
    touches_ = every_edge_ ? nullptr : context.fabric.WatchEnds();
    for (Part& p : parts_) {
      p.due = DueCalendar(groups_.size());
      p.again = p.groups;  // the first edge: all of them
      p.unsettled = p.restless = p.groups.size();
    }
  }

  ~PortGroupControllers() override {
    Verilated::threadContextp(context_.get());  // (see ~LinkEndControllers)
    for (Group& g : groups_) g.model->final();
    groups_.clear();
  }

  void Step(uint64_t now) override {
    now_ = now;
    const auto* touched = touches_ ? &touches_->Take() : nullptr;
    auto visit_part = [&](int q) {
      Verilated::threadContextp(context_.get());
      Part& p = parts_[static_cast<size_t>(q)];
      if (!touched) {  // (every controller is visited: the lists are not needed)
        p.again.clear();
        p.due.TakeDue(now, [](uint32_t, uint64_t) {});
        for (const uint32_t g : p.groups) Visit(p, g, now);
      } else {
        PickVisits(p, (*touched)[static_cast<size_t>(q)], now);
        for (const uint32_t g : p.visits) Visit(p, g, now);
      }
      p.due.DropStale([&](uint32_t g) { return groups_[g].due; });
    };
    team_.Run(visit_part);
    for (Part& p : parts_) {
      controllers_->toggles += p.toggles;
      p.toggles = 0;
    }
    if (!every_edge_) return;
    const auto model_of = [](Group& g) -> Model& { return *g.model; };
    EdgeOfAll(groups_, model_of, tracer_, now);
    for (Group& g : groups_) {
      controllers_->toggles += g.registers.Toggles(*g.model);
      Apply(parts_[g.part], g);
    }
  }

  void Report(nlohmann::json& results) const override {
    auto& r = results[spec_.section];
    r["sleeps"] = Sum([](const Part& p) { return p.sleeps; });
    r["wakeups"] = Sum([](const Part& p) { return p.wakeups; });
    r["flits_from_sleeping_port"] = Sum([](const Part& p) { return p.sleeping_tx; });
  }

  uint64_t RestsUntil(uint64_t now) const override {
    return Rests(now, Sum([](const Part& p) { return p.unsettled; }));
  }
  uint64_t RestsWhileStill(uint64_t now) const override {
    return Rests(now, Sum([](const Part& p) { return p.restless; }));
  }

  void Settle(uint64_t end) override {
    for (Port& port : ports_) {
      port.energy[port.power] += end - port.power_since;
      port.power_since = end;
    }
    for (uint64_t* counters : uncovered_) counters[0] += end - uncovered_since_;
    uncovered_since_ = end;
  }

  std::vector<std::string> Problems() const override {
    std::vector<std::string> problems;
    if (const uint64_t n = Sum([](const Part& p) { return p.sleeping_tx; }); n != 0)
      problems.push_back(std::to_string(n) + " flits left a port that was not awake");
    if (const uint64_t n = Sum([](const Part& p) { return p.bad_power; }); n != 0) {
      problems.push_back(std::to_string(n) + " times a port's power state named none of its " +
                         std::to_string(spec_.states.size()) + " power states");
    }
    return problems;
  }

  std::vector<std::string> TimeseriesColumns() const override { return {spec_.section + ".ports_asleep"}; }
  // Share of ports in a low-power state at the sample.
  void SampleTimeseries(std::vector<double>& row) const override {
    size_t asleep = 0;
    for (const Port& port : ports_) asleep += IsAsleep(port.power);
    row.push_back(ports_.empty() ? 0.0 : static_cast<double>(asleep) / static_cast<double>(ports_.size()));
  }

  uint64_t Digest() const override {
    uint64_t digest = 0xcbf29ce484222325ULL;
    for (const Group& g : groups_) digest = RegisterDigest(*g.model, digest);
    return digest;
  }

 private:
  // The link ends of each controller: a router's ends (by port), or each NIC's end.
  static std::vector<std::vector<uint32_t>> Members(PortGroupKind kind, const std::vector<LinkEnd>& links) {
    std::vector<std::vector<uint32_t>> members;
    std::vector<int> of_router;
    for (uint32_t i = 0; i < links.size(); ++i) {
      const int router = links[i].router;
      if (kind == PortGroupKind::kNode) {
        if (router < 0) members.push_back({i});
        continue;
      }
      if (router < 0) continue;
      if (of_router.size() <= static_cast<size_t>(router))
        of_router.resize(static_cast<size_t>(router) + 1, -1);
      int& g = of_router[static_cast<size_t>(router)];
      if (g < 0) {
        g = static_cast<int>(members.size());
        members.emplace_back();
      }
      members[static_cast<size_t>(g)].push_back(i);
    }
    return members;
  }

  // Port `index`'s inputs: queue | sent << 16 | received << 17.
  static void SetInputs(Model& m, int index, uint32_t inputs) {
    SetBits(m.tx_queue_i, 16 * index, 16, inputs & 0xffff);
    SetBits(m.tx_busy_i, index, 1, (inputs >> 16) & 1);
    SetBits(m.rx_busy_i, index, 1, (inputs >> 17) & 1);
  }
  static uint8_t PowerOf(const Model& m, int index) {
    return static_cast<uint8_t>(Bits(m.power_o, index * kPowerBits, kPowerBits));
  }
  bool IsAsleep(uint32_t power) const { return power < spec_.states.size() && spec_.states[power].asleep; }

  template <typename Count>
  uint64_t Sum(Count count) const {
    uint64_t sum = 0;
    for (const Part& p : parts_) sum += count(p);
    return sum;
  }

  uint64_t Rests(uint64_t now, uint64_t not_resting) const {
    if (every_edge_ || not_resting != 0) return now;
    uint64_t until = UINT64_MAX;
    for (const Part& p : parts_) {
      if (touches_ && !p.again.empty()) return now;
      until = std::min(until, p.due.First());
    }
    return std::max(until, now);
  }

  // The controllers that need a look: those with a port the network touched, those that asked for
  // the next cycle and those due. Any other is at a fixed point with the inputs of its last edge.
  void PickVisits(Part& p, const std::vector<uint32_t>& touched, uint64_t now) {
    p.visits.clear();
    p.again.swap(p.spare);
    p.again.clear();
    const auto add = [&](uint32_t g) {
      if (g == kNoGroup || groups_[g].visited == now) return;
      groups_[g].visited = now;
      p.visits.push_back(g);
    };
    for (const uint32_t end : touched) add(end_group_[end]);
    for (const uint32_t g : p.spare) add(g);
    p.due.TakeDue(now, [&](uint32_t g, uint64_t due) {
      if (groups_[g].due == due) add(g);
    });
  }

  // A controller's inputs from this cycle's observables, and its edge unless it is at a fixed point
  // with the same inputs before its deadline (with every edge, the edges come after, for all).
  void Visit(Part& p, uint32_t index, uint64_t now) {
    Group& g = groups_[index];
    Model& m = *g.model;
    std::array<uint32_t, kPorts> inputs;  // this cycle's, by port of the group
    bool same = true, events = false, queued = false;
    for (uint32_t k = g.first; k < g.last; ++k) {
      const Port& port = ports_[k];
      const uint32_t queue = static_cast<uint32_t>(std::min<int32_t>(*port.tx_queue, 0xffff));
      const bool sent = activity_[port.end].sent == now;
      const bool received = activity_[port.end].received == now;
      if (sent && port.power != 0) ++p.sleeping_tx;
      const uint32_t in = queue | (sent << 16) | (received << 17);
      inputs[k - g.first] = in;
      same = same && in == port.inputs;
      events = events || sent || received;
      queued = queued || queue != 0;
    }
    if (every_edge_ || !g.fixed_point || !same || now >= g.due) {
      for (uint32_t k = g.first; k < g.last; ++k) {
        Port& port = ports_[k];
        port.inputs = inputs[k - g.first];
        SetInputs(m, port.index, port.inputs);
      }
      m.now_i = static_cast<uint32_t>(now);
      if (every_edge_) return;
      Edge(m);
      const uint64_t toggled = g.registers.Toggles(m);
      p.toggles += toggled;
      g.fixed_point = toggled == 0 && !Busy(m);
      g.due = DeadlineCycle(m.deadline_valid_o, m.deadline_o, now);
      Apply(p, g);
    }
    const bool unsettled = !g.fixed_point || events || queued;
    const bool restless = !g.fixed_point || events;
    p.unsettled = p.unsettled + unsettled - g.unsettled;
    p.restless = p.restless + restless - g.restless;
    g.unsettled = unsettled;
    g.restless = restless;
    // Visited again next cycle while a flit's event is on its inputs (it clears) or it is not at a
    // fixed point; otherwise its deadline goes on the calendar.
    if (restless) {
      p.again.push_back(index);
    } else {
      p.due.Put(index, g.due);
    }
  }

  // The outputs of an eval onto the links and the ledger.
  void Apply(Part& p, Group& g) {
    const Model& m = *g.model;
    for (uint32_t k = g.first; k < g.last; ++k) {
      Port& port = ports_[k];
      const bool tx_en = Bits(m.tx_en_o, port.index, 1);
      if (tx_en != port.tx_en) {
        port.tx_en = tx_en;
        port.tx->set_tx_enabled(tx_en);
      }
      const uint8_t power = PowerOf(m, port.index);
      if (power == port.power) continue;
      if (power >= spec_.states.size()) {
        ++p.bad_power;
        continue;
      }
      if (port.power == 0) ++p.sleeps;
      if (IsAsleep(port.power)) ++p.wakeups;
      port.energy[port.power] += now_ - port.power_since;
      port.power = power;
      port.power_since = now_;
    }
  }

  LinkEndSpec spec_;
  Tracer& tracer_;
  const EndActivity* activity_;
  std::unique_ptr<VerilatedContext> context_;
  ThreadTeam& team_;
  bool every_edge_;
  std::vector<Group> groups_;
  std::vector<Port> ports_;
  std::vector<uint32_t> end_group_;   // per link end, its controller (kNoGroup: none)
  std::vector<uint64_t*> uncovered_;  // ledger counters of the link ends of no controller (state 0)
  uint64_t uncovered_since_ = 0;      // charged up to here
  std::vector<Part> parts_;
  EnergyLedger::Controllers* controllers_;
  EndTouches* touches_ = nullptr;
  uint64_t now_ = 0;
};

}  // namespace icn
