#include "mech/eee/eee_links.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <verilated.h>
#include <verilated_fst_c.h>

#include "Veee_pb_port_s0.h"
#include "Veee_pb_port_s0_info.h"
#include "Veee_pb_port_s1.h"
#include "Veee_pb_port_s1_info.h"
#include "Veee_pb_port_s2.h"
#include "Veee_pb_port_s2_info.h"
#include "Veee_port.h"
#include "Veee_port_info.h"
#include "core/errors.h"
#include "mech/clocking.h"
#include "mech/due_calendar.h"
#include "mech/register_activity.h"
#include "net/end_touches.h"

namespace icn {
namespace {

template <typename Model>
class EeeLinks : public Mechanism {
  static constexpr bool kAdaptive = !std::is_same_v<Model, Veee_port>;
  static constexpr uint8_t kSeqOn = 0;  // link_power_seq's seq_state_e
  static constexpr uint8_t kSeqOff = 2;
  // eee_pb_port's geometry as verilated (rtl/eee/pb_geometry.svh), from the build (its top's
  // parameters: scripts/sim_models.py): the hop-share table's length and fraction bits, and what
  // results.json reports.
  using Params = typename ModelInfo<Model>::Params;
  static constexpr int MaxHops() { return Params::MaxHops; }
  static constexpr double FracOne() { return static_cast<double>(1u << Params::FracBits); }
  static nlohmann::json Geometry() {
    static_assert(Params::TtlCycles == 0, "the fixed-point skip needs eee_pb_port's TtlCycles = 0");
    return {{"bins", Params::NumBins},
            {"bins_per_octave", 1u << Params::SubBinBits},
            {"counter_bits", Params::CounterWidth},
            {"max_n", Params::MaxN},
            {"max_value_cycles", Params::MaxValCycles},
            {"correction_history", Params::HistLen},
            {"cf_max", Params::CfMaxQ8 / 256}};
  }

  // What one thread visits: the ports of its part of the network (Fabric::EndParts), the lists that
  // pick out those that need a visit (PickVisits()): the ports to visit again next cycle, the
  // partners whose message its ports changed, by the cycle it arrives [cycle mod ring_], and its
  // ports' deadlines; and the counts it adds to.
  struct Part {
    std::vector<uint32_t> ends;  // in index order
    std::vector<uint32_t> visits;
    std::vector<uint32_t> again, spare;
    std::vector<std::vector<uint32_t>> arriving;
    DueCalendar due;
    uint64_t unsettled = 0;     // ports not settled (End::unsettled): no rest while any is
    uint64_t restless = 0;      // ports restless (End::restless): no rest of a still network while any is
    uint64_t sleeps = 0;        // links that started to power down
    uint64_t wakeups = 0;       // links that started to wake
    uint64_t refusals = 0;      // power-down requests refused
    uint64_t sleeping_rx = 0;   // flits that reached a port not awake (must stay 0)
    uint64_t toggles = 0;       // register toggles this cycle (added to the ledger's after it)
    uint64_t last_message = 0;  // the last cycle one of its ports sent a message
  };

 public:
  EeeLinks(const EeeConfig& config, const MechanismContext& context)
      : tracer_(context.tracer),
        activity_(context.fabric.activity().data()),
        context_(std::make_unique<VerilatedContext>()),
        team_(context.team),
        period_(std::max<uint64_t>(1, config.period_cycles)),
        every_edge_(context.every_edge || context.tracer.enabled()) {
    Tracer& tracer = context.tracer;
    context_->traceEverOn(tracer.enabled());
    const auto& links = context.fabric.link_ends();
    // Each port charges its own counters in the ledger (power_o indexes the states).
    EnergyLedger::Group& energy = context.ledger.AddGroup(
        "eee_port", {"wake", "transition", "fast_lpi", "deep_lpi"},
        {config.wake_power_w, config.wake_power_w, config.mode == EeeMode::kFastWake ? config.lpi_power_w : 0,
         config.mode == EeeMode::kDeepSleep ? config.lpi_power_w : 0},
        static_cast<int>(links.size()));
    controllers_ = &AddControllers<Model>(context.ledger, static_cast<int>(links.size()));
    std::vector<std::vector<double>> shares;
    if constexpr (kAdaptive) shares = context.fabric.HopShares(MaxHops());
    ends_.resize(links.size());
    for (size_t i = 0; i < links.size(); ++i) {
      End& e = ends_[i];
      e.model = std::make_unique<Model>(context_.get(), links[i].name.c_str());
      if (!links[i].tx || !links[i].rx) {  // an EEE port pairs a transmitter with a receiver
        throw ScenarioError("eee.mode: link end " + links[i].name +
                            " is one end of a one-way wire; allowed: off on this topology");
      }
      e.tx = links[i].tx;
      e.tx_queue = links[i].tx_queue;
      e.partner = links[i].partner;
      e.master = links[i].master;
      if (e.tx->latency() > 0xff) {
        throw ScenarioError("eee.mode: link " + links[i].name + " has a latency of " +
                            std::to_string(e.tx->latency()) +
                            " cycles; allowed: [1, 255] (the port's latency strap)");
      }
      e.rx_latency = static_cast<uint8_t>(links[i].rx->latency());
      e.energy = energy.Counters(static_cast<int>(i));
      ring_ = std::max<size_t>(ring_, e.rx_latency + 1);
      Model& m = *e.model;
      m.master_i = links[i].master;
      m.lpi_deep_i = config.mode == EeeMode::kDeepSleep;
      m.eager_wake_i = config.eager_wake;
      m.latency_i = static_cast<uint8_t>(e.tx->latency());
      m.sleep_cycles_i = config.sleep_cycles;
      m.wake_cycles_i = config.wake_cycles;
      m.pdt_cycles_i = kAdaptive ? config.initial_pdt_cycles : config.pdt_cycles;
      m.tx_queue_i = 0;
      m.tx_busy_i = 0;
      m.rx_busy_i = 0;
      m.ctl_rx_i = 0;
      m.now_i = 0;
      if constexpr (kAdaptive) StrapPolicy(m, config, shares[i]);
      Reset(m);
      e.registers.Start(m);
      if constexpr (kAdaptive) {
        e.idle = m.idle_o;
        e.slept = m.slept_o;
      }
    }
    outbox_.assign(ring_ * ends_.size(), 0);
    read_row_.assign(ring_, nullptr);
    // Without the fabric's touches (or with every edge) every port is visited every cycle.
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

  ~EeeLinks() override {
    // Verilator 5.006 unregisters a model through the thread's current context, which is whichever
    // context evaluated last (maybe another simulation's, maybe gone): make it ours first.
    Verilated::threadContextp(context_.get());
    for (End& e : ends_) e.model->final();
    ends_.clear();
  }

  void Step(uint64_t now) override {
    now_ = now;
    // A message sent on cycle c over a link of latency L is read on cycle c + L. With (longest L)
    // + 1 slots the slot a port reads is never the one written this cycle, so every end can be
    // evaluated in one pass.
    uint8_t* const write = &outbox_[(now % ring_) * ends_.size()];
    for (size_t latency = 1; latency < ring_; ++latency) {
      read_row_[latency] = &outbox_[((now + ring_ - latency) % ring_) * ends_.size()];
    }
    const bool search = kAdaptive && now % period_ == period_ - 1;  // eee_pb_port's search pulse
    // Each part's ports on its own thread: a visit reads what the network did (its own ports'
    // activity and queues) and the outbox rows of earlier cycles, and writes only its port's
    // state, outbox slot and channel, and its part's lists and counts.
    if (touches_ && (dense_ || leaving_ > 0)) {
      StepDense(now, write, search);
    } else {
      const bool all = !touches_ || TakeLists(search);
      ForEachPart([&](Part& p, uint16_t q) {
        if (all) {
          if (touches_) p.due.TakeDue(now, [](uint32_t, uint64_t) {});  // (every port is visited)
          for (const uint32_t i : p.ends) VisitPort(p, i, now, write, search, true);
        } else {
          PickVisits(p, q, now);
          for (const uint32_t i : p.visits) VisitPort(p, i, now, write, search, true);
        }
        p.due.DropStale([&](uint32_t i) { return ends_[i].due; });
      });
      if (all) dense_ = touches_ && 2 * (last_touched_ + last_again_) > ends_.size();
    }
    for (Part& p : parts_) {
      p.arriving[now % ring_].clear();  // (read by PickVisits, or every port was visited)
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
    auto& r = results["eee"];
    r["sleeps"] = Sum([](const Part& p) { return p.sleeps; });
    r["wakeups"] = Sum([](const Part& p) { return p.wakeups; });
    r["refused_requests"] = Sum([](const Part& p) { return p.refusals; });
    r["flits_at_sleeping_port"] = Sum([](const Part& p) { return p.sleeping_rx; });
    if constexpr (kAdaptive) {
      // Where the policy left t_PDT: ports none of whose idle periods ended, and those at never, are
      // left out (a port not searched yet counts with its initial t_PDT).
      std::vector<double> pdts;
      uint64_t hits = 0, misses = 0;
      for (const End& e : ends_) {
        if (e.model->pdt_applied_o != 0xffffffffu && e.outcomes > 0) pdts.push_back(e.model->pdt_applied_o);
        hits += e.outcomes - e.misses;
        misses += e.misses;
      }
      std::sort(pdts.begin(), pdts.end());
      r["predictions"] = {{"hits", hits}, {"misses", misses}};
      r["final_pdt_cycles"] = {{"ports_with_traffic", pdts.size()},
                               {"median", pdts.empty() ? 0.0 : pdts[pdts.size() / 2]},
                               {"min", pdts.empty() ? 0.0 : pdts.front()},
                               {"max", pdts.empty() ? 0.0 : pdts.back()}};
      r["histogram"] = Geometry();
    }
  }

  // A count of the parts' in all: count(part) added up.
  template <typename Count>
  uint64_t Sum(Count count) const {
    uint64_t sum = 0;
    for (const Part& p : parts_) sum += count(p);
    return sum;
  }

  uint64_t RestsUntil(uint64_t now) const override {
    return Rests(now, Sum([](const Part& p) { return p.unsettled; }));
  }
  // A still network keeps every port's inputs but its queue length: a port whose other inputs are
  // 0 and whose last edge changed nothing waits for its deadline.
  uint64_t RestsWhileStill(uint64_t now) const override {
    return Rests(now, Sum([](const Part& p) { return p.restless; }));
  }

  // A message sent on cycle c is read on c + latency < c + ring_, and its outbox slot must be
  // written again (0) before a jump: its port is on the next-cycle list until it has been. A busy
  // network keeps no calendar (StepDense): no rest until it has rebuilt it. `not_resting`: ports
  // that keep the run from resting.
  uint64_t Rests(uint64_t now, uint64_t not_resting) const {
    if (every_edge_ || dense_ || leaving_ > 0 || not_resting != 0) return now;
    uint64_t until = UINT64_MAX;
    for (const Part& p : parts_) {
      if (now < p.last_message + ring_ || (touches_ && !p.again.empty())) return now;
      until = std::min(until, p.due.First());
    }
    if constexpr (kAdaptive) until = std::min(until, now + (period_ - 1 - now % period_));  // search pulse
    return std::max(until, now);
  }

  // The ledger is charged when a port's power state changes (Apply) and here: the cycles since.
  void Settle(uint64_t end) override {
    for (End& e : ends_) {
      e.energy[e.power] += end - e.power_since;
      e.power_since = end;
    }
  }

  std::vector<std::string> Problems() const override {
    const uint64_t sleeping_rx = Sum([](const Part& p) { return p.sleeping_rx; });
    if (sleeping_rx == 0) return {};
    return {std::to_string(sleeping_rx) + " flits reached a link end that was not awake"};
  }

  std::vector<std::string> TimeseriesColumns() const override { return {"eee.ports_asleep"}; }
  // Share of link ends in low-power idle at the sample.
  void SampleTimeseries(std::vector<double>& row) const override {
    size_t asleep = 0;
    for (const End& e : ends_) asleep += e.model->power_o >= 2;
    row.push_back(static_cast<double>(asleep) / static_cast<double>(ends_.size()));
  }

  uint64_t Digest() const override {
    uint64_t digest = 0;
    for (const End& e : ends_) {
      const PortState state = State(*e.model);
      digest = (digest ^ state.counters) * 0x100000001b3ULL;
      digest = (digest ^ state.flags) * 0x100000001b3ULL;
      if constexpr (kAdaptive) {
        // (not idle_count_o: it reads the time base, and a skipped port's outputs keep the last eval's)
        digest = (digest ^ e.model->pdt_applied_o) * 0x100000001b3ULL;
        digest = (digest ^ e.model->cf_o) * 0x100000001b3ULL;
      }
    }
    return digest;
  }

 private:
  struct PortState {
    uint64_t counters = 0;
    uint16_t flags = 0xffff;
  };
  // What the per-cycle loop touches, copied out of the LinkEnd to save pointer chasing.
  struct End {
    std::unique_ptr<Model> model;
    Channel* tx;
    const int32_t* tx_queue;
    int partner;
    bool master;         // the link's transitions are counted at this end
    uint8_t rx_latency;  // cycles a message from the partner takes
    uint64_t* energy;    // its ledger counters, by power state
    RegisterActivity registers;
    uint32_t inputs = ~0u;     // inputs of the last eval
    bool fixed_point = false;  // the last eval changed no register
    uint64_t due = 0;          // first cycle the time base acts on a register (Due())
    bool unsettled = true;     // not at a fixed point, or some input not 0
    bool restless = true;      // not at a fixed point, or some input but its queue not 0
    uint64_t visited = ~0ULL;  // the cycle it was last visited
    uint8_t written = 0;       // the message it wrote into the outbox when last visited, and when
    uint64_t written_at = ~0ULL;
    uint64_t sent_message_at = 0;  // the last cycle it wrote a message (not 0)
    // Outputs of the last eval that Apply() uses, so that a skipped port's model is not touched,
    // and the power state charged to the ledger since power_since (see Settle()).
    uint8_t ctl_tx = 0;
    uint8_t seq = 0;  // link_power_seq state: On, ToOff, Off, ToOn
    bool tx_en = true;
    uint8_t power = 0;
    bool idle = false;  // eee_pb_port's idle_o and slept_o
    bool slept = false;
    uint64_t power_since = 0;
    uint64_t outcomes = 0;  // idle periods ended (eee_pb_port)
    uint64_t misses = 0;    // of which the link had powered down
  };

  // A busy network (most ports touched or restless every cycle) visits every port without keeping
  // the lists that pick out a few (no next-cycle list, no message arrivals, no calendar: no rest
  // either). When it calms down, ring_ cycles of visits to all with the lists rebuild them: every
  // message sent while they were not kept has arrived by then.
  // Flattened: the visit inlined into this loop over every port saves a call's spills per port
  // (fast wake at load 0.2: 5 % of the instructions, 3 % of the CPU time).
  [[gnu::flatten]] void StepDense(uint64_t now, uint8_t* write, bool search) {
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
      p.again.clear();  // (every port is visited: only the last cycle's list counts)
      for (const uint32_t i : p.ends) VisitPort(p, i, now, write, search, !dense_);
      p.due.DropStale([&](uint32_t i) { return ends_[i].due; });
    });
    if (leaving_ > 0) --leaving_;
  }

  // The ports that need a look this cycle: those whose observables the network touched, those
  // whose partner's message changes now, those due (a deadline their registers hold), those that
  // asked for the next cycle, and all of them on a search pulse. Any other port is at a fixed point
  // with the inputs of its last edge: its edge would change nothing (see VisitPort). TakeLists()
  // takes the touches and the next-cycle lists and returns true when most ports need a look (a
  // busy network, a search pulse): all of them in order cost less than sorting out which;
  // otherwise PickVisits() lists, on each part's thread, those of the part that do.
  bool TakeLists(bool search) {
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
    return search || 2 * (last_touched_ + again) > ends_.size();
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
    for (const Part& writer : parts_) {  // messages changed by any part's ports
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

  // A port's inputs from this cycle's observables, and its edge unless it is at a fixed point (with
  // every edge, the edges come after, for all ports at once); then what the next cycles need.
  void VisitPort(Part& p, uint32_t i, uint64_t now, uint8_t* write, bool search, bool keep_lists) {
    End& e = ends_[i];
    Model& m = *e.model;
    const uint16_t queue = static_cast<uint16_t>(std::min<int32_t>(*e.tx_queue, 0xffff));
    const bool sent = activity_[i].sent == now;
    const bool received = activity_[i].received == now;
    const uint8_t message = read_row_[e.rx_latency][e.partner];
    if (received && e.power != 0) ++p.sleeping_rx;
    if constexpr (kAdaptive) {
      // An idle period ends this cycle (eee_pb_port's outcome_o, from the state before the edge).
      if ((queue != 0 || sent) && e.idle) {
        ++e.outcomes;
        e.misses += e.slept || e.power != 0;
      }
    }
    // A port whose last edge changed nothing, and whose inputs are those of that edge, is at a
    // fixed point until the time base reaches a register it is compared with (the PDT deadline,
    // the end of a transition: Due()): this edge would change nothing either and its eval can
    // be skipped (exact; tested cycle for cycle). eee_pb_port also reads now_i to latch it or
    // sample it on events that other inputs cause.
    const uint32_t inputs = queue | (sent << 16) | (received << 17) | (message << 18) | (search << 21);
    if (!every_edge_ && e.fixed_point && inputs == e.inputs && now < e.due) {
      write[i] = e.ctl_tx;
      if (e.ctl_tx != 0) Count(p, e);  // (a message repeated at a fixed point)
    } else {
      m.tx_queue_i = queue;
      m.tx_busy_i = sent;
      m.rx_busy_i = received;
      m.ctl_rx_i = message;
      m.now_i = static_cast<uint32_t>(now);
      if constexpr (kAdaptive) m.search_i = search;
      e.inputs = inputs;
      if (every_edge_) return;
      Edge(m);
      // No register toggled: the same inputs give the same edge again (exact for the registers'
      // activity too, which PortState alone is not: eee_pb_port moves some while its state holds).
      const uint64_t toggled = e.registers.Toggles(m);
      p.toggles += toggled;
      e.fixed_point = toggled == 0 && !Searching(m);
      e.due = Due(m, now);
      Apply(p, i, write);
    }
    const bool unsettled = !e.fixed_point || e.inputs != 0;  // a rest needs every port settled
    p.unsettled = p.unsettled + unsettled - e.unsettled;
    e.unsettled = unsettled;
    const bool restless = !e.fixed_point || (e.inputs >> 16) != 0;  // the same, but for its queue
    p.restless = p.restless + restless - e.restless;
    e.restless = restless;
    Follow(p, i, now, write[i], keep_lists);
  }

  // What port i's visit means for the next cycles. It is visited again next cycle while its inputs
  // hold a cycle's event (a flit, a message, a pulse), while it is not at a fixed point, and for a
  // full turn of the outbox after it last sent a message (so that every slot of a port not visited
  // holds 0); its deadline goes on the calendar. A change in the message it sends reaches its
  // partner a latency later.
  void Follow(Part& p, uint32_t i, uint64_t now, uint8_t message, bool keep_lists) {
    End& e = ends_[i];
    if (message != 0) e.sent_message_at = now;
    if (!keep_lists) return;
    const bool again = !e.fixed_point || (e.inputs >> 16) != 0 || now < e.sent_message_at + ring_;
    // On the calendar unless visited next cycle anyway and kept from resting (a rest reads the
    // calendar for every port's deadline).
    if (!again || !e.unsettled) p.due.Put(i, e.due);
    if (!touches_) return;                                           // every port is visited every cycle
    const uint8_t before = e.written_at + 1 == now ? e.written : 0;  // not visited last cycle: 0
    if (message != before) {
      const int partner = e.partner;
      p.arriving[(now + ends_[partner].rx_latency) % ring_].push_back(static_cast<uint32_t>(partner));
    }
    e.written = message;
    e.written_at = now;
    if (again) p.again.push_back(i);
  }

  static void StrapPolicy(Model& m, const EeeConfig& eee, const std::vector<double>& shares) {
    static_assert(Params::FracBits == 16, "hop shares are packed two Q0.16 per 32-bit word");
    m.policy_i = static_cast<uint8_t>(eee.policy);
    for (int w = 0; w < MaxHops() / 2; ++w) {
      const auto q = [&](int h) {
        return std::min<uint32_t>(0xffff, static_cast<uint32_t>(std::lround(shares[h] * FracOne())));
      };
      m.hop_share_i[w] = q(2 * w) | q(2 * w + 1) << 16;
    }
    m.bound_i = static_cast<uint16_t>(std::lround(eee.bound * FracOne()));
    m.inv_tw_i = InverseQ32(eee.wake_cycles);
    m.search_i = 0;
  }

  // The digest of a port (Digest()): every register of eee_port, packed without loss (it exposes
  // them all on its outputs): 32 + 24
  // + 8 bits of PDT deadline, transition end and handshake sync count in one word, the 11 bits of
  // small registers in the other. For eee_pb_port
  // also the registers that can change without an input changing first: the idle and miss flags
  // and whether the search runs (a running search is never a fixed point, see Searching()). Its
  // histogram and correction change only when an idle period ends, which an input causes and
  // which flips the idle flag; its TTL counter is off (TtlCycles = 0, the verilated default).
  // Tested against every port clocked every cycle, cycle for cycle.
  static PortState State(const Model& m) {
    uint16_t flags =
        static_cast<uint16_t>(m.hs_state_o | m.seq_state_o << 2 | m.pdt_armed_o << 4 | m.go_o << 5 |
                              m.ctl_tx_o << 6 | m.pdt_fired_o << 9 | m.pdt_never_o << 10);
    if constexpr (kAdaptive)
      flags |= static_cast<uint16_t>(m.idle_o << 11 | m.slept_o << 12 | m.busy_o << 13);
    return {static_cast<uint64_t>(m.pdt_deadline_o) | static_cast<uint64_t>(m.trans_until_o) << 32 |
                static_cast<uint64_t>(m.sync_count_o) << 56,
            flags};
  }

  // After the edge closing cycle `now`: the first later cycle whose time base reaches the PDT
  // deadline (armed, not yet fired, not never) or the end of a transition (sequencer states 1 and
  // 3); the registers hold the time base modulo 2^32 and 2^24.
  static uint64_t Due(const Model& m, uint64_t now) {
    uint64_t due = UINT64_MAX;
    const uint64_t next = now + 1;
    if (m.pdt_armed_o && !m.pdt_fired_o && !m.pdt_never_o) {
      due = next + ((m.pdt_deadline_o - next) & 0xffffffffULL);
    }
    if (m.seq_state_o & 1) due = std::min<uint64_t>(due, next + ((m.trans_until_o - next) & 0xffffffULL));
    return due;
  }

  // A running search changes registers every cycle that State() does not see.
  static bool Searching(const Model& m) {
    if constexpr (kAdaptive) return m.busy_o;
    return false;
  }

  // The outputs of an eval onto the link, the outbox and the ledger.
  void Apply(Part& p, size_t i, uint8_t* write) {
    End& e = ends_[i];
    const Model& m = *e.model;
    e.ctl_tx = m.ctl_tx_o;
    if constexpr (kAdaptive) {
      e.idle = m.idle_o;
      e.slept = m.slept_o;
    }
    write[i] = e.ctl_tx;
    Count(p, e);
    if (m.tx_en_o != e.tx_en) {
      e.tx_en = m.tx_en_o;
      e.tx->set_tx_enabled(e.tx_en);
    }
    // The sequencer leaves On (a sleep) or Off (a wake-up), through a transition or at once when
    // it takes 0 cycles: the link's, counted once at its master end, as with eager wake its ends
    // start apart.
    if (m.seq_state_o != e.seq) {
      if (e.master && (e.seq == kSeqOn || e.seq == kSeqOff)) ++(e.seq == kSeqOn ? p.sleeps : p.wakeups);
      e.seq = m.seq_state_o;
    }
    if (m.power_o != e.power) {  // this cycle is the first in the new state
      e.energy[e.power] += now_ - e.power_since;
      e.power = m.power_o;
      e.power_since = now_;
    }
  }

  // The report's counters for the message a port sends this cycle.
  void Count(Part& p, const End& e) {
    if (e.ctl_tx == 0) return;
    p.last_message = now_;
    if (e.ctl_tx == 4 /* Refuse */) ++p.refusals;
  }

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
  uint64_t period_ = 1;      // eee_pb_port: a search every period_ cycles
  bool every_edge_;
  uint64_t now_ = 0;  // the cycle being stepped
};

}  // namespace

std::unique_ptr<Mechanism> MakeEeeLinks(const EeeConfig& config, const MechanismContext& context) {
  if (config.policy == PdtPolicy::kFixed) return std::make_unique<EeeLinks<Veee_port>>(config, context);
  switch (config.hist_strategy) {
    case 1:
      return std::make_unique<EeeLinks<Veee_pb_port_s1>>(config, context);
    case 2:
      return std::make_unique<EeeLinks<Veee_pb_port_s2>>(config, context);
    default:
      return std::make_unique<EeeLinks<Veee_pb_port_s0>>(config, context);
  }
}

}  // namespace icn
