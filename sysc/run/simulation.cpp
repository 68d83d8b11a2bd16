// SPDX-License-Identifier: Apache-2.0
#include "run/simulation.h"

#include <sched.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <thread>

#include "core/controller_cost.h"
#include "net/data_plane.h"
#include "run/census.h"

namespace icn {

Simulation::Simulation(const Scenario& scenario, const RunParams& params, const RunOptions& options)
    : scenario_(scenario),
      params_(params),
      options_(options),
      fabric_(MakeFabric(params.net, params.topology, pool_, *this)),
      traffic_(params.traffic, params.workload, params.sim, params.topology->nodes,
               params.topology->PatternDims()),
      create_(
          [this](int src, int dst, uint32_t flits, uint32_t message) { Create(src, dst, flits, message); }),
      tracer_(std::make_unique<Tracer>(options.trace, params.sim.cycle_ns)),
      ledger_(std::make_unique<EnergyLedger>(params.sim.cycle_ns, params.process)),
      measure_begin_(params.sim.warmup),
      measure_end_(params.sim.warmup + params.sim.measure),
      deadline_(measure_end_ + params.sim.drain_limit),
      watchdog_(params.sim.stall_limit, params.sim.starvation_limit),
      jumps_(params.sim.clock_jumps && !options.every_edge && options.trace.path.empty()) {
  UseThreads();
  AddMechanisms(scenario);
  if (params.sim.timeseries > 0) {
    std::vector<std::string> columns = {"offered_flits_per_node_cycle", "accepted_flits_per_node_cycle",
                                        "latency_avg", "link_power_relative", "link_utilisation"};
    for (const auto& m : mechanisms_) {
      for (auto& c : m->TimeseriesColumns()) columns.push_back(std::move(c));
    }
    timeseries_ = std::make_unique<Timeseries>(columns);
  }
  for (const auto& m : mechanisms_) settle_cycles_ = std::max(settle_cycles_, m->SettleCycles());
  if (traffic_.workload()) {
    // A workload is measured whole: from cycle 0 until its last message is delivered.
    measure_begin_ = 0;
    measure_end_ = deadline_ = params.workload.max_cycles;
  } else if (params.sim.steady_warmup) {
    measure_begin_ = measure_end_ = deadline_ = kUndecided;  // ClosePeriod() opens the window
  } else {
    period_phase_ =
        static_cast<uint64_t>(params.sim.warmup % params.sim.steady_period);  // periods end at the window
  }
  stats_.set_measuring(measure_begin_ == 0);
  window_ = LedgerNow();
  if (options.progress_s >= 0)
    progress_ = std::make_unique<ProgressLine>(options.progress_s, params.sim.cycle_ns);
}

Simulation::~Simulation() = default;

// The active mechanisms build their adapters, which account for the energy of what they drive;
// if none does, every mechanism that declares the energy of its hardware when off adds it, charged
// at nominal power (Ethernet ports without EEE are always awake).
void Simulation::AddMechanisms(const Scenario& scenario) {
  const MechanismContext context{params_.sim, params_.net, *params_.topology,   *fabric_,
                                 *tracer_,    *ledger_,    options_.every_edge, *team_};
  for (const ActiveMechanism& m : params_.mechanisms) mechanisms_.push_back(m.info->make(*m.config, context));
  if (!ledger_->groups().empty()) return;
  for (const MechanismInfo& m : Mechanisms()) {
    if (!m.energy_when_off) continue;
    if (EnergyLedger::Group* group = m.energy_when_off(scenario, *fabric_, *ledger_))
      undriven_.push_back(group);
  }
}

namespace {

// The cores this process may run on (its affinity: a Slurm task's or taskset's CPUs, not the
// machine's).
int UsableCores() {
  cpu_set_t cpus;
  if (sched_getaffinity(0, sizeof cpus, &cpus) == 0) return std::max(1, CPU_COUNT(&cpus));
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

}  // namespace

// sim.threads, or with 0 one thread per core for every kRoutersPerThread routers, at most one per
// part the network can be split into; a waveform is written by one thread.
void Simulation::UseThreads() {
  int threads = params_.sim.threads;
  if (threads == 0) {
    const int cores = UsableCores();
    threads = std::clamp(params_.topology->routers / kRoutersPerThread, 1, cores);
  }
  threads = std::min(threads, fabric_->MaxParts());
  if (options_.every_edge) threads = 1;  // (the reference clocking: every model on the run's thread)
  if (threads > 1 && !options_.trace.path.empty()) {
    thread_note_ =
        "tracing: the run uses one thread (sim.threads would give it " + std::to_string(threads) + ")";
    threads = 1;
  }
  team_ = std::make_unique<ThreadTeam>(threads);
  fabric_->UseTeam(*team_);
}

uint32_t Simulation::Create(int src, int dst, uint32_t flits, uint32_t message) {
  const bool labelled = stats_.measuring();
  const uint32_t id = pool_.Allocate();
  Packet& p = pool_[id];
  p = Packet{};
  p.created = cycle_;
  p.src = src;
  p.dst = dst;
  p.flits = flits;
  p.message = message;
  p.measured = labelled;
  p.live = true;
  watchdog_.OnCreated(id, cycle_);
  fabric_->Inject(id);
  stats_.OnCreated(labelled, flits);
  generated_flits_ += flits;
  return id;
}

void Simulation::Attach(ExternalTraffic& source) {
  if (cycle_ != 0 || external_) throw std::logic_error("Simulation::Attach: once, before the first cycle");
  external_ = &source;
  external_create_ = [this](int src, int dst, uint32_t flits) {
    ++external_created_;
    return Create(src, dst, flits, Packet::kNoMessage);
  };
  jumps_ = false;
}

void Simulation::OnDelivered(uint32_t packet, uint64_t now) {
  const Packet& p = pool_[packet];
  stats_.OnDelivered(p.measured, now - p.created, now - p.injected, p.hops, p.flits);
  if (starved_ && starved_->packet == packet && starved_->created == p.created)
    starved_->waited = now - p.created;
  traffic_.OnDelivered(p, now);
  if (external_) external_->OnDelivered(packet, p, now);
  if (on_delivery) on_delivery(p, now - p.created);
  pool_.Release(packet);
}

// One cycle: arrivals, the packets generated this cycle, the network's move, then every
// controller on the clock edge that closes the cycle.
void Simulation::Step() {
  fabric_->DeliverArrivals(cycle_);
  if (generating_) traffic_.Generate(cycle_, create_);
  if (generating_ && external_) external_->Generate(cycle_, external_create_);
  fabric_->Advance(cycle_);
  for (auto& m : mechanisms_) m->Step(cycle_);
  for (EnergyLedger::Group* g : undriven_) g->ChargeAllNominal(1);
}

// Over cycles on which nothing would happen: an empty network whose controllers rest, or a still
// one (packets inside that wait for controllers, Fabric::NextMove) whose controllers rest too.
void Simulation::Jump() {
  const bool empty = stats_.created() == stats_.delivered();
  uint64_t until = generating_ ? traffic_.NextCreation(cycle_) : UINT64_MAX;
  for (const auto& m : mechanisms_) {
    if (until <= cycle_) return;
    until = std::min(until, empty ? m->RestsUntil(cycle_) : m->RestsWhileStill(cycle_));
  }
  if (!empty) {
    if (until <= cycle_) return;
    until = std::min(until, fabric_->NextMove(cycle_));
    // The watchdog looks at a run with packets outstanding on its every look.
    until = std::min(until, (cycle_ | (ProgressWatchdog::kPeriod - 1)));
  }
  // The cycles Tick() looks at after a cycle: the window's edges, a time-series sample, the drain
  // limit. Cycle b - 1 must run for the look at b.
  const uint64_t next = cycle_ + 1;
  for (uint64_t b : {measure_begin_, measure_end_, deadline_}) {
    if (b >= next) until = std::min(until, b - 1);
  }
  if (timeseries_) {
    const uint64_t period = static_cast<uint64_t>(params_.sim.timeseries);
    until = std::min(until, (next + period - 1) / period * period - 1);
  }
  if (next <= measure_begin_ && !traffic_.workload()) until = std::min(until, NextPeriodEnd(next) - 1);
  if (until <= cycle_ || !fabric_->Quiet()) return;
  const uint64_t cycles = until - cycle_;  // the mechanisms charge them when they settle the ledger
  for (EnergyLedger::Group* g : undriven_) g->ChargeAllNominal(cycles);
  // The watchdog's looks in between would each have found nothing outstanding: the last one stands
  // for all.
  const uint64_t last_look = until & ~(ProgressWatchdog::kPeriod - 1);
  if (last_look > cycle_) Watch(last_look);
  cycle_ = until;
  jumped_cycles_ += cycles;
}

bool Simulation::Tick() {
  if (done_) return false;
  if (jumps_) Jump();
  Step();
  ++cycle_;
  if (cycle_ <= measure_begin_ && !traffic_.workload() && cycle_ == NextPeriodEnd(cycle_)) ClosePeriod();
  if (cycle_ == measure_begin_) {
    stats_.set_measuring(true);
    window_ = LedgerNow();
    if (!params_.sim.steady_warmup) converged_ = Steady();
  }
  const WorkloadDriver* workload = traffic_.workload();
  if (cycle_ == measure_end_ || (workload && workload->done() && !done_)) {
    stats_.set_measuring(false);
    CloseWindow();
    if (workload && workload->done()) {
      measure_end_ = cycle_;
      done_ = true;
    }
  }
  if (timeseries_ && cycle_ % params_.sim.timeseries == 0) SampleTimeseries();
  if (!workload && cycle_ >= measure_end_ && stats_.labelled_delivered() == stats_.labelled_created())
    done_ = true;
  if (!done_ && cycle_ >= deadline_) {
    saturated_ = true;
    done_ = true;
  }
  if (!done_ && (cycle_ & (ProgressWatchdog::kPeriod - 1)) == 0) Watch(cycle_);
  if (progress_ && (++ticks_ & 0x3ff) == 0) ReportProgress();
  return !done_;
}

uint64_t Simulation::NextPeriodEnd(uint64_t from) const {
  const uint64_t period = static_cast<uint64_t>(params_.sim.steady_period);
  if (from <= period_phase_) return period_phase_;
  return period_phase_ + (from - period_phase_ + period - 1) / period * period;
}

// The periods compared must all lie after the mechanisms' settling time.
bool Simulation::Steady() const { return steady_.Agrees() && cycle_ >= LeastSteadyWarmup(); }

uint64_t Simulation::LeastSteadyWarmup() const {
  return settle_cycles_ + SteadyState::kPeriods * static_cast<uint64_t>(params_.sim.steady_period);
}

// The end of a steady-state period (only whole periods count). With sim.warmup = steady, opens the
// window once the run is steady past the least warm-up, or at the limit.
void Simulation::ClosePeriod() {
  const auto [flits, latency] = stats_.TakePeriod();
  const uint64_t period = static_cast<uint64_t>(params_.sim.steady_period);
  if (cycle_ < period) return;
  steady_.Add(cycle_, static_cast<double>(flits) / (fabric_->nodes() * static_cast<double>(period)), latency);
  if (!params_.sim.steady_warmup) return;
  converged_ = Steady() && cycle_ >= static_cast<uint64_t>(params_.sim.warmup);
  if (!converged_ && cycle_ < static_cast<uint64_t>(params_.sim.warmup_limit)) return;
  measure_begin_ = cycle_;
  measure_end_ = cycle_ + params_.sim.measure;
  deadline_ = measure_end_ + params_.sim.drain_limit;
}

void Simulation::RunToEnd() {
  while (Tick()) {
  }
}

void Simulation::Interrupt(int signal) {
  interrupted_by_ = signal;
  done_ = true;
}

bool Simulation::DrainAll(uint64_t limit) {
  generating_ = false;
  for (uint64_t i = 0; i < limit && stats_.delivered() < stats_.created(); ++i) {
    Step();
    ++cycle_;
  }
  return stats_.delivered() == stats_.created();
}

void Simulation::SettleLedger() {
  for (auto& m : mechanisms_) m->Settle(cycle_);
}

Simulation::Window Simulation::LedgerNow() {
  SettleLedger();
  Window w{ledger_->EnergyJ(), ledger_->NominalJ(), {}, {}};
  for (const EnergyLedger::Group& g : ledger_->groups()) {
    auto& cycles = w.state_cycles.emplace_back();
    for (size_t s = 0; s < g.state_names().size(); ++s) cycles.push_back(g.StateCycles(static_cast<int>(s)));
  }
  for (const EnergyLedger::Controllers& c : ledger_->controllers()) w.toggles.push_back(c.toggles);
  return w;
}

void Simulation::CloseWindow() {
  const Window now = LedgerNow();
  window_.energy_j = now.energy_j - window_.energy_j;
  window_.nominal_j = now.nominal_j - window_.nominal_j;
  for (size_t g = 0; g < now.state_cycles.size(); ++g) {
    for (size_t s = 0; s < now.state_cycles[g].size(); ++s) {
      window_.state_cycles[g][s] = now.state_cycles[g][s] - window_.state_cycles[g][s];
    }
  }
  for (size_t c = 0; c < now.toggles.size(); ++c) window_.toggles[c] = now.toggles[c] - window_.toggles[c];
}

void Simulation::SampleTimeseries() {
  const double window = static_cast<double>(params_.sim.timeseries);
  const double nodes = fabric_->nodes();
  const uint64_t busy = fabric_->BusyChannelCycles(cycle_);
  SettleLedger();
  const double energy = ledger_->EnergyJ();
  const double nominal = ledger_->NominalJ();
  const auto [delivered_flits, latency] = stats_.TakeSeriesWindow();
  const double generated = static_cast<double>(generated_flits_);
  std::vector<double> row = {
      generated / (nodes * window), static_cast<double>(delivered_flits) / (nodes * window), latency,
      nominal - ts_nominal_ > 0 ? (energy - ts_energy_) / (nominal - ts_nominal_) : 1.0,
      static_cast<double>(busy - ts_busy_) / (static_cast<double>(fabric_->channels().size()) * window)};
  for (const auto& m : mechanisms_) m->SampleTimeseries(row);
  timeseries_->AddRow(cycle_, row);
  generated_flits_ = 0;
  ts_busy_ = busy;
  ts_energy_ = energy;
  ts_nominal_ = nominal;
}

void Simulation::Watch(uint64_t now) {
  const uint64_t busy = fabric_->BusyChannelCycles(now);
  stalled_ = watchdog_.Look(now, busy, stats_.delivered(), stats_.created() - stats_.delivered(), pool_);
  if (stalled_ != ProgressWatchdog::Verdict::kNone) done_ = true;
  if (params_.sim.starved_factor > 0 && watchdog_.waiting()) NoteStarved(now);
}

void Simulation::NoteStarved(uint64_t now) {
  const uint32_t id = watchdog_.oldest();
  const Packet& p = pool_[id];
  const uint64_t waited = now - p.created;
  if (!p.measured || (starved_ && waited <= starved_->waited)) return;  // (the median is of labelled ones)
  starved_ = Starved{id, p.src, p.dst, p.created, waited, fabric_->Locate(id)};
}

std::string Simulation::StarvedWarning(nlohmann::json& results) const {
  const double median = static_cast<double>(stats_.MedianLatency());
  if (!starved_ || median == 0 ||
      static_cast<double>(starved_->waited) <= params_.sim.starved_factor * median)
    return "";
  const Starved& s = *starved_;
  results["starved"] = {{"packet", s.packet},
                        {"src", s.src},
                        {"dst", s.dst},
                        {"created", s.created},
                        {"waited_cycles", s.waited},
                        {"median_latency", median},
                        {"waits_at", s.waits_at}};
  char text[256];
  std::snprintf(text, sizeof text,
                "starved: packet %u from node %d to node %d waited %llu cycles, %.0f times the run's median "
                "latency of %.0f cycles (sim.starved_factor = %g); a look last saw it at ",
                s.packet, s.src, s.dst, static_cast<unsigned long long>(s.waited),
                static_cast<double>(s.waited) / median, median, params_.sim.starved_factor);
  return text + s.waits_at;
}

// The oldest packet not delivered when the watchdog stopped the run, and where it waits.
nlohmann::json Simulation::StalledPacket() const {
  const uint32_t id = watchdog_.oldest();
  const Packet& p = pool_[id];
  nlohmann::json stalled = {{"packet", id},
                            {"src", p.src},
                            {"dst", p.dst},
                            {"created", p.created},
                            {"age_cycles", cycle_ - p.created},
                            {"flits", p.flits},
                            {"flits_delivered", p.next_index},
                            {"waits_at", fabric_->Locate(id)}};
  if (p.message != Packet::kNoMessage) stalled["message"] = p.message;
  return stalled;
}

void Simulation::ReportProgress() {
  ProgressLine::Status status;
  status.cycle = cycle_;
  if (const WorkloadDriver* workload = traffic_.workload()) {
    status.done = workload->completed();
    status.total = workload->messages();
  } else {
    status.phase = cycle_ < measure_begin_ ? "warm-up" : cycle_ < measure_end_ ? "measure" : "drain";
    status.done = stats_.labelled_delivered();
    status.unit = "labelled packets delivered";
    if (measure_end_ != kUndecided && cycle_ < measure_end_) status.end_cycle = measure_end_;
  }
  progress_->Offer(status);
}

nlohmann::json Simulation::PacketResults(const Census& census) const {
  const uint64_t outstanding = stats_.created() - stats_.delivered();
  const uint64_t unaccounted = outstanding > census.in_flight ? outstanding - census.in_flight : 0;
  return {{"injected", stats_.created()},          {"delivered", stats_.delivered()},
          {"in_flight", census.in_flight},         {"lost", unaccounted},
          {"labelled", stats_.labelled_created()}, {"labelled_delivered", stats_.labelled_delivered()}};
}

nlohmann::json Simulation::EnergyResults() {
  SettleLedger();
  nlohmann::json groups = nlohmann::json::object();
  size_t index = 0;
  for (const EnergyLedger::Group& g : ledger_->groups()) {
    nlohmann::json cycles = nlohmann::json::object();
    // Component-cycles in states that draw power, and their energy over the nominal state's.
    uint64_t all = 0, powered = 0;
    double powered_w = 0;
    for (size_t s = 0; s < g.state_names().size(); ++s) {
      const uint64_t c = window_.state_cycles[index][s];
      cycles[g.state_names()[s]] = c;
      all += c;
      if (g.power_w(static_cast<int>(s)) <= 0) continue;
      powered += c;
      powered_w += static_cast<double>(c) * g.power_w(static_cast<int>(s));
    }
    const double nominal_w = g.power_w(g.nominal_state());
    groups[g.name()] = {
        {"components", g.components()},
        {"state_cycles", cycles},
        {"powered_mean",
         all ? static_cast<double>(powered) * g.components() / static_cast<double>(all) : 0.0},
        {"powered_relative", powered ? nlohmann::json(powered_w / (nominal_w * static_cast<double>(powered)))
                                     : nlohmann::json(nullptr)}};
    ++index;
  }
  // The controllers' switching energy in the window, per kind and in all, and what the links saved
  // net of it (negative: the controllers cost more than they save).
  nlohmann::json controllers = nlohmann::json::object();
  double controllers_j = 0;
  index = 0;
  for (const EnergyLedger::Controllers& c : ledger_->controllers()) {
    const uint64_t toggles = window_.toggles[index++];
    const double joules = static_cast<double>(toggles) * c.joules_per_toggle;
    controllers_j += joules;
    controllers[c.model] = {{"models", c.models},
                            {"register_bits", c.register_bits},
                            {"ge_logic", c.cost->ge_logic},
                            {"register_toggles", toggles},
                            {"j", joules}};
  }
  nlohmann::json energy = {
      {"links_j", window_.energy_j},
      {"links_nominal_j", window_.nominal_j},
      {"links_relative", window_.nominal_j > 0 ? window_.energy_j / window_.nominal_j : 1.0},
      {"link_ends", ledger_->components()},
      {"groups", groups},
      {"controllers_j", controllers_j},
      {"net_saving_j", window_.nominal_j - window_.energy_j - controllers_j},
      {"controllers", controllers}};
  // Only where the ledger powers link ends: a network of one-way optical wires has none to add.
  if (traffic_.workload() && ledger_->components() > 0) energy["system"] = SystemEnergyResults(controllers_j);
  return energy;
}

// The system around the network over the workload's run: nodes at the utilisation of their
// compute phases and switches (system.*), with the link ends and controllers of the ledger; the
// savings are against the same run with every port awake (an experiment compares runs instead,
// which also counts a longer execution).
nlohmann::json Simulation::SystemEnergyResults(double controllers_j) const {
  const SystemPowerParams& power = params_.system;
  const double cycle_s = params_.sim.cycle_ns * 1e-9;
  const uint64_t end = std::min(cycle_, measure_end_);
  const double nodes = fabric_->nodes();
  const double compute = traffic_.workload()->BusyCycles(end);
  const double nodes_j = cycle_s * (nodes * power.node_idle_w * static_cast<double>(end) +
                                    (power.node_busy_w - power.node_idle_w) * compute);
  const double switches_j = params_.topology->routers * power.switch_w * cycle_s * static_cast<double>(end);
  const double network_j = switches_j + window_.energy_j + controllers_j;
  const double network_nominal_j = switches_j + window_.nominal_j;
  const double system_j = nodes_j + network_j;
  const double system_nominal_j = nodes_j + network_nominal_j;
  return {{"nodes", fabric_->nodes()},
          {"switches", params_.topology->routers},
          {"node_utilisation", end > 0 ? compute / (nodes * static_cast<double>(end)) : 0.0},
          {"nodes_j", nodes_j},
          {"switches_j", switches_j},
          {"network_j", network_j},
          {"system_j", system_j},
          {"network_saving", network_nominal_j > 0 ? 1 - network_j / network_nominal_j : 0.0},
          {"system_saving", system_nominal_j > 0 ? 1 - system_j / system_nominal_j : 0.0}};
}

nlohmann::json Simulation::WorkloadResults() const {
  const WorkloadDriver* w = traffic_.workload();
  const uint64_t exec = w->done() ? w->finish_cycle() : cycle_;
  return {{"kind", params_.workload.kind},
          {"messages", w->messages()},
          {"messages_delivered", w->completed()},
          {"packets", w->packets()},
          {"busiest_node_packets", w->busiest_node_packets()},
          {"mean_node_packets", w->mean_node_packets()},
          {"exec_cycles", exec},
          {"exec_ns", static_cast<double>(exec) * params_.sim.cycle_ns}};
}

std::string Simulation::SaturationReason() const {
  if (const WorkloadDriver* w = traffic_.workload()) {
    return "the workload did not finish within workload.max_cycles = " +
           std::to_string(params_.workload.max_cycles) + " cycles (" + std::to_string(w->completed()) +
           " of " + std::to_string(w->messages()) + " messages delivered)";
  }
  return "labelled packets still undelivered " + std::to_string(params_.sim.drain_limit) +
         " cycles after the measurement window: the network is saturated or deadlocked";
}

// Controllers whose logic depth (cost/cost.json) is too deep for the run's clock.
std::vector<std::string> Simulation::ClockWarnings() const {
  std::vector<std::string> warnings;
  const double clock_mhz = 1e3 / params_.sim.cycle_ns;
  for (const EnergyLedger::Controllers& c : ledger_->controllers()) {
    const double fmax = EstimatedFmaxMhz(c.cost->logic_depth, params_.process.gate_delay_ps);
    if (fmax >= clock_mhz) continue;
    char text[320];
    std::snprintf(
        text, sizeof text,
        "controller %s: estimated fmax %.0f MHz ((%d gate levels + %d) x process.gate_delay_ps = %g "
        "ps) is below the %.4g MHz clock of sim.cycle_ns = %g",
        c.model.c_str(), fmax, c.cost->logic_depth, kFlopOverheadLevels, params_.process.gate_delay_ps,
        clock_mhz, params_.sim.cycle_ns);
    warnings.emplace_back(text);
  }
  return warnings;
}

// The census, what the sinks saw and what the controllers saw.
std::vector<std::string> Simulation::Problems(const Census& census) const {
  std::vector<std::string> problems = census.problems;
  for (const auto& v : stats_.violations()) problems.push_back(v);
  for (const auto& m : mechanisms_) {
    for (auto& p : m->Problems()) problems.push_back(std::move(p));
  }
  return problems;
}

nlohmann::json Simulation::Finish(double wall_s) {
  tracer_->Close();
  if (cycle_ < measure_end_) CloseWindow();  // the run ended before the window closed
  const Census census = TakeCensus(pool_, *fabric_, stats_);
  const LatencySummary lat = stats_.Latency();
  const WorkloadDriver* workload = traffic_.workload();
  // A workload is measured from cycle 0 to its end; Bernoulli traffic over sim.measure_cycles.
  const double nodes = fabric_->nodes();
  const double window =
      static_cast<double>(workload ? std::max<uint64_t>(1, measure_end_) : params_.sim.measure);
  nlohmann::json r;
  r["scenario"] = scenario_.name();
  r["seed"] = params_.sim.seed;
  r["params"] = scenario_.ToJson();
  r["topology"] = fabric_->Name();
  r["packets"] = PacketResults(census);
  r["latency"] = {{"avg", lat.avg},          {"p50", lat.p50},         {"p99", lat.p99},
                  {"max", lat.max},          {"samples", lat.samples}, {"network_avg", lat.network_avg},
                  {"hops_avg", lat.hops_avg}};
  const double offered = static_cast<double>(stats_.labelled_flits_created()) / (nodes * window);
  const double accepted = static_cast<double>(stats_.window_flits_delivered()) / (nodes * window);
  r["throughput"] = {{"offered", offered}, {"accepted", accepted}};
  if (const double capacity = params_.topology->UniformCapacity(); capacity > 0) {
    r["throughput"]["capacity"] = capacity;
    r["throughput"]["offered_of_capacity"] = offered / capacity;
    r["throughput"]["accepted_of_capacity"] = accepted / capacity;
  }
  r["energy"] = EnergyResults();
  if (workload) r["workload"] = WorkloadResults();
  if (external_) {
    r["external_traffic"] = {{"packets", external_created_}};
    external_->Report(r["external_traffic"]);
  }
  r["sim"] = {{"cycles", cycle_},
              {"wall_s", wall_s},
              {"cycles_per_s", wall_s > 0 ? static_cast<double>(cycle_) / wall_s : 0.0},
              {"jumped_cycles", jumped_cycles_},
              {"threads", team_->size()},
              {"warmup_cycles", measure_begin_ == kUndecided ? cycle_ : measure_begin_},
              {"measure_cycles", params_.sim.measure}};
  if (!workload) {
    r["converged"] = converged_;
    r["steady_state"] = {{"rule", params_.sim.steady_warmup ? "steady" : "fixed"},
                         {"period_cycles", params_.sim.steady_period},
                         {"tolerance", params_.sim.steady_tolerance},
                         {"settle_cycles", settle_cycles_},
                         {"periods", steady_.Periods()}};
  }
  for (const auto& m : mechanisms_) m->Report(r);  // after "sim": they may read the run's length
  if (stalled_ == ProgressWatchdog::Verdict::kDeadlocked) {
    r["verdict"] = "deadlocked";
    r["verdict_reason"] = "no flit moved on any wire for " +
                          std::to_string(cycle_ - watchdog_.still_since()) +
                          " cycles (sim.stall_limit_cycles) while packets were outstanding";
    r["stalled_packet"] = StalledPacket();
  } else if (stalled_ == ProgressWatchdog::Verdict::kStarved) {
    r["verdict"] = "starved";
    r["verdict_reason"] = "a packet waited longer than sim.starvation_limit_cycles = " +
                          std::to_string(params_.sim.starvation_limit) + " while others were delivered";
    r["stalled_packet"] = StalledPacket();
  } else if (interrupted_by_ != 0) {
    r["verdict"] = "interrupted";
    r["verdict_reason"] = std::string(interrupted_by_ == SIGINT ? "SIGINT" : "SIGTERM") + " at cycle " +
                          std::to_string(cycle_) + ": the results of the cycles run";
  } else {
    r["verdict"] = saturated_ ? "saturated" : "ok";
    if (saturated_) r["verdict_reason"] = SaturationReason();
  }
  nlohmann::json warnings = params_.warnings;
  if (!thread_note_.empty()) warnings.push_back(thread_note_);
  for (std::string& w : ClockWarnings()) warnings.push_back(std::move(w));
  if (std::string starved = StarvedWarning(r); !starved.empty()) warnings.push_back(std::move(starved));
  if (!tracer_->failure().empty()) warnings.push_back(tracer_->failure());
  // (Only for a mechanism that needs settling: any short warm-up is not converged, but says so itself.)
  if (!workload && !params_.sim.steady_warmup && settle_cycles_ > 0 &&
      static_cast<uint64_t>(params_.sim.warmup) < LeastSteadyWarmup()) {
    warnings.push_back("sim.warmup_cycles = " + std::to_string(params_.sim.warmup) +
                       " is shorter than the mechanisms' settling time (" + std::to_string(settle_cycles_) +
                       " cycles) plus three sim.steady_period_cycles periods: the window cannot open in "
                       "steady state (converged: false); allowed: sim.warmup_cycles >= " +
                       std::to_string(LeastSteadyWarmup()) + ", or sim.warmup = steady");
  }
  r["warnings"] = warnings;
  const std::vector<std::string> problems = Problems(census);
  r["check"] = {{"ok", problems.empty()}, {"problems", problems}};
  return r;
}

}  // namespace icn
