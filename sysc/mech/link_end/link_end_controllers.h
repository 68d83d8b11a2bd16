// SPDX-License-Identifier: Apache-2.0
// The adapter of link-end controllers (mech/link_end/link_end_contract.h): one verilated model at
// each end of every link. Maps the harness observables (packets queued for the port, flit sent,
// flit received, the partner's messages after the link latency) onto the contract's inputs, and its
// outputs onto the link (transmit enable), the partner (messages) and the energy ledger (power
// state). Skips a model at a fixed point until its deadline, and visits only the ends the network
// touched, whose partner's message changes, or that are due: work in proportion to activity.
//
// What a mechanism adds beyond the contract is an Extension (PerfBound's search pulse and its
// prediction counts, mech/eee/eee_links.cpp); NoExtension for a controller the contract carries.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
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
#include "mech/register_activity.h"
#include "net/end_touches.h"

namespace icn {

// No more than the contract.
template <typename Model>
struct NoExtension {
  struct EndState {};
  // A pulse input set on the last cycle of every period (0: none).
  uint64_t Period() const { return 0; }
  void SetPulse(Model&, bool) const {}
  // Before an end's edge: whether an idle period ends (a packet queued or a flit sent), and the
  // end's power state.
  void BeforeEdge(EndState&, bool, uint8_t) const {}
  // After an evaluated edge (or the reset).
  void Applied(EndState&, const Model&) const {}
  // Its results, given each_end(fn) calling fn(model, state) for every end.
  template <typename EachEnd>
  void Report(nlohmann::json&, EachEnd) const {}
};

namespace link_end {
// Whether the contract's optional ports are there.
template <typename M, typename = void>
struct HasMaster : std::false_type {};
template <typename M>
struct HasMaster<M, std::void_t<decltype(std::declval<M&>().master_i)>> : std::true_type {};
template <typename M, typename = void>
struct HasLatency : std::false_type {};
template <typename M>
struct HasLatency<M, std::void_t<decltype(std::declval<M&>().latency_i)>> : std::true_type {};
}  // namespace link_end

template <typename Model, typename Extension = NoExtension<Model>>
class LinkEndControllers : public Mechanism {
  using Bits = typename ModelInfo<Model>::PortBits;
  static_assert(Bits::now_i == 32 && Bits::deadline_o == 32, "the contract's time base is 32 bits");
  static_assert(Bits::tx_queue_i == 16, "the contract's tx_queue_i is 16 bits");
  static_assert(Bits::ctl_rx_i == 3 && Bits::ctl_tx_o == 3, "the contract's messages are 3 bits");
  static_assert(Bits::tx_busy_i == 1 && Bits::rx_busy_i == 1 && Bits::tx_en_o == 1 &&
                    Bits::deadline_valid_o == 1,
                "the contract's flags are 1 bit");
  static_assert(Bits::power_o <= 8, "power_o indexes at most 256 states");
  // The longest link: what latency_i holds, and in any case what the outbox ring (one byte of
  // latency per end) is built for.
  static constexpr int LatencyBits() {
    if constexpr (link_end::HasLatency<Model>::value) return Bits::latency_i < 8 ? Bits::latency_i : 8;
    return 8;
  }
  static constexpr int kMaxLatency = (1 << LatencyBits()) - 1;

  // What one thread visits: the ends of its part of the network (Fabric::EndParts), the lists that
  // pick out those that need a visit (PickVisits()): the ends to visit again next cycle, the
  // partners whose message its ends changed, by the cycle it arrives [cycle mod ring_], and its
  // ends' deadlines; and the counts it adds to.
  struct Part {
    std::vector<uint32_t> ends;  // in index order
    std::vector<uint32_t> visits;
    std::vector<uint32_t> again, spare;
    std::vector<std::vector<uint32_t>> arriving;
    DueCalendar due;
    uint64_t unsettled = 0;          // ends not settled (End::unsettled): no rest while any is
    uint64_t restless = 0;           // ends restless (End::restless): no rest of a still network while any is
    uint64_t sleeps = 0;             // times a link (an end) left the awake state
    uint64_t wakeups = 0;            // times it left a sleeping state
    std::array<uint64_t, 8> sent{};  // cycles on which an end sent each message
    uint64_t sleeping_rx = 0;        // flits that reached an end not awake (must stay 0)
    uint64_t bad_power = 0;          // power_o values beyond the declared states (must stay 0)
    uint64_t toggles = 0;            // register toggles this cycle (added to the ledger's after it)
    uint64_t last_message = 0;       // the last cycle one of its ends sent a message
  };

 public:
  // straps(model, end) sets the controller's own straps of link end `end` (those of its keys).
  LinkEndControllers(LinkEndSpec spec, std::function<void(Model&, size_t)> straps, Extension extension,
                     const MechanismContext& context)
      : spec_(std::move(spec)),
        extension_(std::move(extension)),
        tracer_(context.tracer),
        activity_(context.fabric.activity().data()),
        context_(std::make_unique<VerilatedContext>()),
        team_(context.team),
        period_(extension_.Period()),
        every_edge_(context.every_edge || context.tracer.enabled()) {
    Tracer& tracer = context.tracer;
    context_->traceEverOn(tracer.enabled());
    const auto& links = context.fabric.link_ends();
    // Each end charges its own counters in the ledger (power_o indexes the states).
    EnergyLedger::Group& energy = AddPowerGroup(context.ledger, spec_, static_cast<int>(links.size()));
    controllers_ = &AddControllers<Model>(context.ledger, static_cast<int>(links.size()));
    ends_.resize(links.size());
    for (size_t i = 0; i < links.size(); ++i) {
      End& e = ends_[i];
      e.model = std::make_unique<Model>(context_.get(), links[i].name.c_str());
      if (!links[i].tx || !links[i].rx) {  // a link-end controller pairs a transmitter with a receiver
        throw ScenarioError(spec_.switch_key + ": link end " + links[i].name +
                            " is one end of a one-way wire; allowed: " + spec_.off_value +
                            " on this topology");
      }
      e.tx = links[i].tx;
      e.tx_queue = links[i].tx_queue;
      e.partner = links[i].partner;
      e.counts_transitions = links[i].master || !spec_.link_wide;
      e.rx_latency = static_cast<uint8_t>(links[i].rx->latency());
      e.energy = energy.Counters(static_cast<int>(i));
      ring_ = std::max<size_t>(ring_, e.rx_latency + 1);
      Model& m = *e.model;
      if constexpr (link_end::HasMaster<Model>::value) m.master_i = links[i].master;
      if (e.tx->latency() > kMaxLatency) {
        throw ScenarioError(spec_.switch_key + ": link " + links[i].name + " has a latency of " +
                            std::to_string(e.tx->latency()) + " cycles; allowed: [1, " +
                            std::to_string(kMaxLatency) + "]" +
                            (link_end::HasLatency<Model>::value ? " (the port's latency strap)" : ""));
      }
      if constexpr (link_end::HasLatency<Model>::value) m.latency_i = static_cast<uint8_t>(e.tx->latency());
      straps(m, i);
      m.tx_queue_i = 0;
      m.tx_busy_i = 0;
      m.rx_busy_i = 0;
      m.ctl_rx_i = 0;
      m.now_i = 0;
      extension_.SetPulse(m, false);
      Reset(m);
      e.registers.Start(m);
      extension_.Applied(e.extension, m);
      // The state the reset leaves, from cycle 0 (the network moves before the first edge).
      if (m.power_o >= spec_.states.size()) {
        throw ScenarioError(spec_.switch_key + ": the controller's power_o after reset is " +
                            std::to_string(m.power_o) + "; allowed: its " +
                            std::to_string(spec_.states.size()) + " power states");
      }
      e.power = m.power_o;
      e.tx_en = m.tx_en_o;
      e.tx->set_tx_enabled(e.tx_en);
    }
    outbox_.assign(ring_ * ends_.size(), 0);
    read_row_.assign(ring_, nullptr);
    // Without the fabric's touches (or with every edge) every end is visited every cycle.
    touches_ = every_edge_ ? nullptr : context.fabric.WatchEnds();
    end_part_ = context.fabric.EndParts();
    parts_ = std::vector<Part>(static_cast<size_t>(team_.size()));
    for (Part& p : parts_) {
      p.arriving.resize(ring_);
      p.due = DueCalendar(ends_.size());
    }
    for (uint32_t i = 0; i < ends_.size(); ++i) parts_[end_part_[i]].ends.push_back(i);
    for (Part& p : parts_) {
      p.again = p.ends;  // the first edge: all of them
      p.unsettled = p.restless = p.ends.size();
    }
    if (tracer.enabled()) {
      for (size_t i = 0; i < ends_.size(); ++i) {
        if (tracer.Matches(links[i].name)) ends_[i].model->trace(tracer.fst(), 99);
      }
    }
  }

  ~LinkEndControllers() override {
    // Verilator 5.006 unregisters a model through the thread's current context, which is whichever
    // context evaluated last (maybe another simulation's, maybe gone): make it ours first.
    Verilated::threadContextp(context_.get());
    for (End& e : ends_) e.model->final();
    ends_.clear();
  }

  void Step(uint64_t now) override {
    now_ = now;
    // A message sent on cycle c over a link of latency L is read on cycle c + L. With (longest L)
    // + 1 slots the slot an end reads is never the one written this cycle, so every end can be
    // evaluated in one pass.
    uint8_t* const write = &outbox_[(now % ring_) * ends_.size()];
    for (size_t latency = 1; latency < ring_; ++latency) {
      read_row_[latency] = &outbox_[((now + ring_ - latency) % ring_) * ends_.size()];
    }
    const bool pulse = period_ != 0 && now % period_ == period_ - 1;
    // Each part's ends on its own thread: a visit reads what the network did (its own ends'
    // activity and queues) and the outbox rows of earlier cycles, and writes only its end's
    // state, outbox slot and channel, and its part's lists and counts.
    if (touches_ && (dense_ || leaving_ > 0)) {
      StepDense(now, write, pulse);
    } else {
      const bool all = !touches_ || TakeLists(pulse);
      ForEachPart([&](Part& p, uint16_t q) {
        if (all) {
          if (touches_) p.due.TakeDue(now, [](uint32_t, uint64_t) {});  // (every end is visited)
          for (const uint32_t i : p.ends) Visit(p, i, now, write, pulse, true);
        } else {
          PickVisits(p, q, now);
          for (const uint32_t i : p.visits) Visit(p, i, now, write, pulse, true);
        }
        p.due.DropStale([&](uint32_t i) { return ends_[i].due; });
      });
      if (all) dense_ = touches_ && 2 * (last_touched_ + last_again_) > ends_.size();
    }
    for (Part& p : parts_) {
      p.arriving[now % ring_].clear();  // (read by PickVisits, or every end was visited)
      controllers_->toggles += p.toggles;
      p.toggles = 0;
    }
    if (!every_edge_) return;
    const auto model_of = [](End& e) -> Model& { return *e.model; };
    EdgeOfAll(ends_, model_of, tracer_, now);
    for (End& e : ends_) controllers_->toggles += e.registers.Toggles(*e.model);
    for (size_t i = 0; i < ends_.size(); ++i) Apply(parts_[end_part_[i]], i, write);
  }

  void Report(nlohmann::json& results) const override {
    auto& r = results[spec_.section];
    r["sleeps"] = Sum([](const Part& p) { return p.sleeps; });
    r["wakeups"] = Sum([](const Part& p) { return p.wakeups; });
    for (const auto& [key, message] : spec_.counted_messages) {
      r[key] = Sum([message = message](const Part& p) { return p.sent[message & 7]; });
    }
    r["flits_at_sleeping_port"] = Sum([](const Part& p) { return p.sleeping_rx; });
    extension_.Report(r, [&](const auto& fn) {
      for (const End& e : ends_) fn(*e.model, e.extension);
    });
  }

  uint64_t RestsUntil(uint64_t now) const override {
    return Rests(now, Sum([](const Part& p) { return p.unsettled; }));
  }
  // A still network keeps every end's inputs but its queue length: an end whose other inputs are
  // 0 and whose last edge changed nothing waits for its deadline.
  uint64_t RestsWhileStill(uint64_t now) const override {
    return Rests(now, Sum([](const Part& p) { return p.restless; }));
  }

  // The ledger is charged when an end's power state changes (Apply) and here: the cycles since.
  void Settle(uint64_t end) override {
    for (End& e : ends_) {
      e.energy[e.power] += end - e.power_since;
      e.power_since = end;
    }
  }

  std::vector<std::string> Problems() const override {
    std::vector<std::string> problems;
    const uint64_t sleeping_rx = Sum([](const Part& p) { return p.sleeping_rx; });
    if (sleeping_rx != 0)
      problems.push_back(std::to_string(sleeping_rx) + " flits reached a link end that was not awake");
    const uint64_t bad_power = Sum([](const Part& p) { return p.bad_power; });
    if (bad_power != 0) {
      problems.push_back(std::to_string(bad_power) + " times a link end's power_o named none of its " +
                         std::to_string(spec_.states.size()) + " power states");
    }
    return problems;
  }

  std::vector<std::string> TimeseriesColumns() const override { return {spec_.section + ".ports_asleep"}; }
  // Share of link ends in a low-power state at the sample.
  void SampleTimeseries(std::vector<double>& row) const override {
    size_t asleep = 0;
    for (const End& e : ends_) asleep += IsAsleep(e.model->power_o);
    row.push_back(static_cast<double>(asleep) / static_cast<double>(ends_.size()));
  }

  uint64_t Digest() const override {
    uint64_t digest = 0xcbf29ce484222325ULL;
    for (const End& e : ends_) digest = RegisterDigest(*e.model, digest);
    return digest;
  }

 private:
  // What the per-cycle loop touches, copied out of the LinkEnd to save pointer chasing.
  struct End {
    std::unique_ptr<Model> model;
    Channel* tx;
    const int32_t* tx_queue;
    int partner;
    bool counts_transitions;  // its power-state changes are the link's (LinkEndSpec::link_wide)
    uint8_t rx_latency;       // cycles a message from the partner takes
    uint64_t* energy;         // its ledger counters, by power state
    RegisterActivity registers;
    uint32_t inputs = ~0u;     // inputs of the last eval
    bool fixed_point = false;  // the last eval changed no register
    uint64_t due = 0;          // first cycle the time base acts on a register (DeadlineCycle())
    bool unsettled = true;     // not at a fixed point, or some input not 0
    bool restless = true;      // not at a fixed point, or some input but its queue not 0
    uint64_t visited = ~0ULL;  // the cycle it was last visited
    uint8_t written = 0;       // the message it wrote into the outbox when last visited, and when
    uint64_t written_at = ~0ULL;
    uint64_t sent_message_at = 0;  // the last cycle it wrote a message (not 0)
    // Outputs of the last eval that Apply() uses, so that a skipped end's model is not touched,
    // and the power state charged to the ledger since power_since (see Settle()).
    uint8_t ctl_tx = 0;
    bool tx_en = true;
    uint8_t power = 0;
    uint64_t power_since = 0;
    typename Extension::EndState extension;
  };

  bool IsAsleep(uint32_t power) const { return power < spec_.states.size() && spec_.states[power].asleep; }

  // A count of the parts' in all: count(part) added up.
  template <typename Count>
  uint64_t Sum(Count count) const {
    uint64_t sum = 0;
    for (const Part& p : parts_) sum += count(p);
    return sum;
  }

  // A message sent on cycle c is read on c + latency < c + ring_, and its outbox slot must be
  // written again (0) before a jump: its end is on the next-cycle list until it has been. A busy
  // network keeps no calendar (StepDense): no rest until it has rebuilt it. `not_resting`: ends
  // that keep the run from resting.
  uint64_t Rests(uint64_t now, uint64_t not_resting) const {
    if (every_edge_ || dense_ || leaving_ > 0 || not_resting != 0) return now;
    uint64_t until = UINT64_MAX;
    for (const Part& p : parts_) {
      if (now < p.last_message + ring_ || (touches_ && !p.again.empty())) return now;
      until = std::min(until, p.due.First());
    }
    if (period_ != 0) until = std::min(until, now + (period_ - 1 - now % period_));  // the pulse
    return std::max(until, now);
  }

  // A busy network (most ends touched or restless every cycle) visits every end without keeping
  // the lists that pick out a few (no next-cycle list, no message arrivals, no calendar: no rest
  // either). When it calms down, ring_ cycles of visits to all with the lists rebuild them: every
  // message sent while they were not kept has arrived by then.
  // Flattened: the visit inlined into this loop over every end saves a call's spills per end
  // (fast wake at load 0.2: 5 % of the instructions, 3 % of the CPU time).
  [[gnu::flatten]] void StepDense(uint64_t now, uint8_t* write, bool pulse) {
    size_t need_look = Sum([](const Part& p) { return p.restless; });  // (the lists would hold them again)
    for (const std::vector<uint32_t>& list : touches_->Take()) need_look += list.size();
    if (2 * need_look > ends_.size()) {
      dense_ = true;
      leaving_ = 0;
    } else if (dense_) {
      dense_ = false;
      leaving_ = ring_;
    }
    ForEachPart([&](Part& p, uint16_t) {
      p.again.clear();  // (every end is visited: only the last cycle's list counts)
      for (const uint32_t i : p.ends) Visit(p, i, now, write, pulse, !dense_);
      p.due.DropStale([&](uint32_t i) { return ends_[i].due; });
    });
    if (leaving_ > 0) --leaving_;
  }

  // The ends that need a look this cycle: those whose observables the network touched, those
  // whose partner's message changes now, those due (a deadline their registers hold), those that
  // asked for the next cycle, and all of them on a pulse. Any other end is at a fixed point with
  // the inputs of its last edge: its edge would change nothing (see Visit). TakeLists() takes the
  // touches and the next-cycle lists and returns true when most ends need a look (a busy network,
  // a pulse): all of them in order cost less than sorting out which; otherwise PickVisits()
  // lists, on each part's thread, those of the part that do.
  bool TakeLists(bool pulse) {
    touched_ = &touches_->Take();
    last_touched_ = 0;
    size_t again = 0;
    for (size_t q = 0; q < parts_.size(); ++q) {
      Part& p = parts_[q];
      last_touched_ += (*touched_)[q].size();
      p.again.swap(p.spare);
      p.again.clear();
      again += p.spare.size();
    }
    last_again_ = again;
    return pulse || 2 * (last_touched_ + again) > ends_.size();
  }

  void PickVisits(Part& p, uint16_t q, uint64_t now) {
    p.visits.clear();
    const auto add = [&](uint32_t i) {
      if (ends_[i].visited == now) return;
      ends_[i].visited = now;
      p.visits.push_back(i);
    };
    for (const uint32_t i : (*touched_)[q]) add(i);
    for (const uint32_t i : p.spare) add(i);
    for (const Part& writer : parts_) {  // messages changed by any part's ends
      for (const uint32_t i : writer.arriving[now % ring_]) {
        if (end_part_[i] == q) add(i);
      }
    }
    p.due.TakeDue(now, [&](uint32_t i, uint64_t due) {
      if (ends_[i].due == due) add(i);
    });
  }

  // fn(part, index) for every part, on its thread.
  template <typename Fn>
  void ForEachPart(Fn fn) {
    auto job = [&](int q) {
      // A model reports a failed assertion through its thread's context: ours, on every thread.
      Verilated::threadContextp(context_.get());
      fn(parts_[static_cast<size_t>(q)], static_cast<uint16_t>(q));
    };
    team_.Run(job);
  }

  // An end's inputs from this cycle's observables, and its edge unless it is at a fixed point (with
  // every edge, the edges come after, for all ends at once); then what the next cycles need.
  void Visit(Part& p, uint32_t i, uint64_t now, uint8_t* write, bool pulse, bool keep_lists) {
    End& e = ends_[i];
    Model& m = *e.model;
    const uint16_t queue = static_cast<uint16_t>(std::min<int32_t>(*e.tx_queue, 0xffff));
    const bool sent = activity_[i].sent == now;
    const bool received = activity_[i].received == now;
    const uint8_t message = read_row_[e.rx_latency][e.partner];
    if (received && e.power != 0) ++p.sleeping_rx;
    extension_.BeforeEdge(e.extension, queue != 0 || sent, e.power);
    // An end whose last edge changed nothing, and whose inputs are those of that edge, is at a
    // fixed point until its deadline: this edge would change nothing either and its eval can be
    // skipped (exact; tested cycle for cycle).
    const uint32_t inputs = queue | (sent << 16) | (received << 17) | (message << 18) | (pulse << 21);
    if (!every_edge_ && e.fixed_point && inputs == e.inputs && now < e.due) {
      write[i] = e.ctl_tx;
      if (e.ctl_tx != 0) Count(p, e);  // (a message repeated at a fixed point)
    } else {
      m.tx_queue_i = queue;
      m.tx_busy_i = sent;
      m.rx_busy_i = received;
      m.ctl_rx_i = message;
      m.now_i = static_cast<uint32_t>(now);
      extension_.SetPulse(m, pulse);
      e.inputs = inputs;
      if (every_edge_) return;
      Edge(m);
      // No register toggled: the same inputs give the same edge again.
      const uint64_t toggled = e.registers.Toggles(m);
      p.toggles += toggled;
      e.fixed_point = toggled == 0 && !Busy(m);
      e.due = DeadlineCycle(m.deadline_valid_o, m.deadline_o, now);
      Apply(p, i, write);
    }
    const bool unsettled = !e.fixed_point || e.inputs != 0;  // a rest needs every end settled
    p.unsettled = p.unsettled + unsettled - e.unsettled;
    e.unsettled = unsettled;
    const bool restless = !e.fixed_point || (e.inputs >> 16) != 0;  // the same, but for its queue
    p.restless = p.restless + restless - e.restless;
    e.restless = restless;
    Follow(p, i, now, write[i], keep_lists);
  }

  // What end i's visit means for the next cycles. It is visited again next cycle while its inputs
  // hold a cycle's event (a flit, a message, a pulse), while it is not at a fixed point, and for a
  // full turn of the outbox after it last sent a message (so that every slot of an end not visited
  // holds 0); its deadline goes on the calendar. A change in the message it sends reaches its
  // partner a latency later.
  void Follow(Part& p, uint32_t i, uint64_t now, uint8_t message, bool keep_lists) {
    End& e = ends_[i];
    if (message != 0) e.sent_message_at = now;
    if (!keep_lists) return;
    const bool again = !e.fixed_point || (e.inputs >> 16) != 0 || now < e.sent_message_at + ring_;
    // On the calendar unless visited next cycle anyway and kept from resting (a rest reads the
    // calendar for every end's deadline).
    if (!again || !e.unsettled) p.due.Put(i, e.due);
    if (!touches_) return;                                           // every end is visited every cycle
    const uint8_t before = e.written_at + 1 == now ? e.written : 0;  // not visited last cycle: 0
    if (message != before) {
      const int partner = e.partner;
      p.arriving[(now + ends_[partner].rx_latency) % ring_].push_back(static_cast<uint32_t>(partner));
    }
    e.written = message;
    e.written_at = now;
    if (again) p.again.push_back(i);
  }

  // The outputs of an eval onto the link, the outbox and the ledger.
  void Apply(Part& p, size_t i, uint8_t* write) {
    End& e = ends_[i];
    const Model& m = *e.model;
    e.ctl_tx = m.ctl_tx_o;
    extension_.Applied(e.extension, m);
    write[i] = e.ctl_tx;
    Count(p, e);
    if (m.tx_en_o != e.tx_en) {
      e.tx_en = m.tx_en_o;
      e.tx->set_tx_enabled(e.tx_en);
    }
    if (m.power_o != e.power && m.power_o >= spec_.states.size()) {
      ++p.bad_power;  // (a state it did not declare: kept out of the ledger, and a failed check)
    } else if (m.power_o != e.power) {  // this cycle is the first in the new state
      // Leaving the awake state is a sleep, leaving a sleeping one a wake-up (a transition state
      // between them is neither), counted once per link where both ends change together.
      if (e.counts_transitions) {
        if (e.power == 0) ++p.sleeps;
        if (IsAsleep(e.power)) ++p.wakeups;
      }
      e.energy[e.power] += now_ - e.power_since;
      e.power = m.power_o;
      e.power_since = now_;
    }
  }

  // The report's counters for the message an end sends this cycle.
  void Count(Part& p, const End& e) {
    if (e.ctl_tx == 0) return;
    p.last_message = now_;
    ++p.sent[e.ctl_tx & 7];
  }

  LinkEndSpec spec_;
  Extension extension_;
  Tracer& tracer_;
  const EndActivity* activity_;  // the link ends' last flit sent and received, flat (Fabric)
  std::unique_ptr<VerilatedContext> context_;
  std::vector<End> ends_;
  EnergyLedger::Controllers* controllers_;
  size_t ring_ = 1;                       // slots of the outbox: the longest link latency + 1
  std::vector<uint8_t> outbox_;           // control messages: [cycle mod ring_][end]
  std::vector<const uint8_t*> read_row_;  // this cycle: the outbox row sent a latency of [L] ago
  ThreadTeam& team_;
  std::vector<uint16_t> end_part_;
  std::vector<Part> parts_;
  EndTouches* touches_ = nullptr;
  const std::vector<std::vector<uint32_t>>* touched_ = nullptr;  // this cycle's, by part
  size_t last_touched_ = 0;  // link ends the network touched for this cycle
  size_t last_again_ = 0;    // link ends that asked to be visited this cycle
  bool dense_ = false;       // StepDense: the lists are not kept
  size_t leaving_ = 0;       // StepDense: cycles left of visiting all while rebuilding the lists
  uint64_t period_;          // the extension's pulse every period_ cycles (0: none)
  bool every_edge_;
  uint64_t now_ = 0;  // the cycle being stepped
};

}  // namespace icn
