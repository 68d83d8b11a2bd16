#include "mech/eee/eee_links.h"

#include <algorithm>

#include <verilated.h>
#include <verilated_fst_c.h>

#include "Veee_port.h"
#include "Veee_port___024root.h"
#include "mech/rising_edge.h"

namespace icn {

EeeLinks::EeeLinks(const Params& params, Network& network, Tracer& tracer, EnergyLedger& ledger, bool two_evals)
    : network_(network),
      tracer_(tracer),
      ledger_(ledger),
      context_(std::make_unique<VerilatedContext>()),
      latency_(params.net.link_latency),
      two_evals_(two_evals || tracer.enabled()) {
  context_->traceEverOn(tracer.enabled());
  const auto& links = network.link_ends();
  ends_.resize(links.size());
  for (size_t i = 0; i < links.size(); ++i) {
    End& e = ends_[i];
    e.model = std::make_unique<Veee_port>(context_.get(), links[i].name.c_str());
    e.root = e.model->rootp;
    e.tx = links[i].tx;
    e.rx = links[i].rx;
    e.tx_queue = links[i].tx_queue;
    e.partner = links[i].partner;
    Veee_port& m = *e.model;
    m.master_i = links[i].master;
    m.lpi_deep_i = params.eee.mode == EeeMode::kDeepSleep;
    m.latency_i = static_cast<uint8_t>(latency_);
    m.sleep_cycles_i = params.eee.sleep_cycles;
    m.wake_cycles_i = params.eee.wake_cycles;
    m.pdt_cycles_i = params.eee.pdt_cycles;
    m.tx_queue_i = 0;
    m.tx_busy_i = 0;
    m.rx_busy_i = 0;
    m.ctl_rx_i = 0;
    Reset(m);
  }
  outbox_.assign((latency_ + 1) * ends_.size(), 0);
  if (tracer.enabled()) {
    for (size_t i = 0; i < ends_.size(); ++i) {
      if (tracer.Matches(links[i].name)) ends_[i].model->trace(tracer.fst(), 99);
    }
  }
}

EeeLinks::~EeeLinks() {
  // Verilator 5.006 unregisters a model through the thread's current context, which is whichever
  // context evaluated last (maybe another simulation's, maybe gone): make it ours first.
  Verilated::threadContextp(context_.get());
  for (End& e : ends_) e.model->final();
  ends_.clear();
}

void EeeLinks::Step(uint64_t now) {
  // A message sent on cycle c is read on cycle c + L. With L + 1 slots the slot read this cycle
  // is never the one written this cycle, so every end can be evaluated in one pass.
  const size_t ring = static_cast<size_t>(latency_) + 1;
  uint8_t* const write = &outbox_[(now % ring) * ends_.size()];
  const uint8_t* const read = &outbox_[((now + 1) % ring) * ends_.size()];
  for (size_t i = 0; i < ends_.size(); ++i) {
    End& e = ends_[i];
    Veee_port___024root& m = *e.root;  // the ports, without the wrapper's references
    const uint16_t queue = static_cast<uint16_t>(std::min<int32_t>(*e.tx_queue, 0xffff));
    const bool sent = e.tx->sent_at(now);
    const bool received = e.rx->received_at(now);
    const uint8_t message = read[e.partner];
    if (received && m.power_o != 0) ++sleeping_rx_;
    // A port whose last edge changed nothing, and whose inputs are those of that edge, is at a
    // fixed point: the next state is a function of state and inputs only, so this edge would
    // change nothing either and its eval can be skipped (exact; tested cycle for cycle).
    const uint32_t inputs = queue | (sent << 16) | (received << 17) | (message << 18);
    if (!two_evals_ && e.fixed_point && inputs == e.inputs) {
      Apply(i, write);
      continue;
    }
    m.tx_queue_i = queue;
    m.tx_busy_i = sent;
    m.rx_busy_i = received;
    m.ctl_rx_i = message;
    e.inputs = inputs;
    if (two_evals_) continue;
    RisingEdge(*e.model, m);
    const PortState state = State(m);
    e.fixed_point = state == e.state;
    e.state = state;
    Apply(i, write);
  }
  if (!two_evals_) return;
  TwoEvalEdge(ends_, [](End& e) -> Veee_port& { return *e.model; }, tracer_, now);
  for (size_t i = 0; i < ends_.size(); ++i) Apply(i, write);
}

// Every register of the port, packed without loss (eee_port exposes them all on its outputs):
// 32 + 24 + 8 counter bits in one word, the 9 bits of small registers in the other.
EeeLinks::PortState EeeLinks::State(const Veee_port___024root& m) {
  return {static_cast<uint64_t>(m.pdt_count_o) | static_cast<uint64_t>(m.trans_count_o) << 32 |
              static_cast<uint64_t>(m.sync_count_o) << 56,
          static_cast<uint16_t>(m.hs_state_o | m.seq_state_o << 2 | m.pdt_armed_o << 4 | m.go_o << 5 |
                                m.ctl_tx_o << 6)};
}

uint64_t EeeLinks::Digest() const {
  uint64_t digest = 0;
  for (const End& e : ends_) {
    const PortState state = State(*e.root);
    digest = (digest ^ state.counters) * 0x100000001b3ULL;
    digest = (digest ^ state.flags) * 0x100000001b3ULL;
  }
  return digest;
}

void EeeLinks::Apply(size_t i, uint8_t* write) {
  const Veee_port___024root& m = *ends_[i].root;
  write[i] = m.ctl_tx_o;
  if (m.ctl_tx_o == 3 /* Accept */) ++(m.seq_state_o == 0 ? sleeps_ : wakeups_);
  if (m.ctl_tx_o == 4 /* Refuse */) ++refusals_;
  ends_[i].tx->set_tx_enabled(m.tx_en_o);
  ledger_.Charge(static_cast<int>(i), m.power_o);
}

void EeeLinks::Report(nlohmann::json& results) const {
  results["eee"]["sleeps"] = sleeps_;
  results["eee"]["wakeups"] = wakeups_;
  results["eee"]["refused_requests"] = refusals_;
  results["eee"]["flits_at_sleeping_port"] = sleeping_rx_;
}

}  // namespace icn
