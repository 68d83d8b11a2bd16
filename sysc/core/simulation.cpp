#include "core/simulation.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "core/errors.h"
#include "mech/eee/eee_links.h"
#include "mech/fattree/fattree_links.h"

namespace icn {
namespace {

double WallNow() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

Simulation::Simulation(const Scenario& scenario, const Params& params, const RunOptions& options)
    : scenario_(scenario),
      params_(params),
      options_(options),
      network_(std::make_unique<Network>(params)),
      tracer_(std::make_unique<Tracer>(options.trace, params.sim.cycle_ns)),
      measure_begin_(params.sim.warmup),
      measure_end_(params.sim.warmup + params.sim.measure),
      deadline_(measure_end_ + params.sim.drain_limit) {
  const EeeParams& eee = params.eee;
  if (params.fattree.enabled) {
    // On/off links: one component per unidirectional link, powered (state 0) or off (state 2).
    const double p = params.fattree.link_power_w;
    ledger_ = std::make_unique<EnergyLedger>(static_cast<int>(network_->channels().size()),
                                             std::array<double, 4>{p, p, 0, 0}, params.sim.cycle_ns);
    mechanism_ = std::make_unique<FattreeLinks>(params, *network_, *tracer_, *ledger_, options.two_evals);
  } else {
    // EEE ports: one component per link end, in the power states of eee_port's power_o.
    const double lpi_fast = eee.mode == EeeMode::kFastWake ? eee.lpi_power_w : 0;
    const double lpi_deep = eee.mode == EeeMode::kDeepSleep ? eee.lpi_power_w : 0;
    ledger_ = std::make_unique<EnergyLedger>(
        static_cast<int>(network_->link_ends().size()),
        std::array<double, 4>{eee.wake_power_w, eee.wake_power_w, lpi_fast, lpi_deep}, params.sim.cycle_ns);
    if (eee.mode != EeeMode::kOff) {
      mechanism_ = MakeEeeLinks(params, *network_, *tracer_, *ledger_, options.two_evals);
    }
  }
  if (params.sim.timeseries > 0) {
    timeseries_ = "# scenario " + scenario.name() + ", seed " + std::to_string(params.sim.seed) +
                  " (all parameters in results.json)\n"
                  "cycle,offered_flits_per_node_cycle,accepted_flits_per_node_cycle,latency_avg,"
                  "link_power_relative,link_utilisation\n";
  }
  if (network_->workload()) {
    // A workload is measured whole: from cycle 0 until its last message is delivered.
    measure_begin_ = 0;
    measure_end_ = deadline_ = params.workload.max_cycles;
  }
  network_->stats().set_measuring(measure_begin_ == 0);
  progress_at_ = WallNow();
}

Simulation::~Simulation() = default;

bool Simulation::Tick() {
  if (done_) return false;
  network_->Step(cycle_);
  if (mechanism_) {
    mechanism_->Step(cycle_);
  } else {
    ledger_->ChargeAllAwake(1);
  }
  ++cycle_;
  if (cycle_ == measure_begin_) {
    network_->stats().set_measuring(true);
    window_energy_ = ledger_->EnergyJ();
    window_nominal_ = ledger_->NominalJ();
  }
  const WorkloadDriver* workload = network_->workload();
  if (cycle_ == measure_end_ || (workload && workload->done() && !done_)) {
    network_->stats().set_measuring(false);
    window_energy_ = ledger_->EnergyJ() - window_energy_;
    window_nominal_ = ledger_->NominalJ() - window_nominal_;
    if (workload && workload->done()) {
      measure_end_ = cycle_;
      done_ = true;
    }
  }
  if (params_.sim.timeseries > 0 && cycle_ % params_.sim.timeseries == 0) SampleTimeseries();
  const RunStats& stats = network_->stats();
  if (!workload && cycle_ >= measure_end_ && stats.labelled_delivered() == stats.labelled_created()) done_ = true;
  if (!done_ && cycle_ >= deadline_) {
    saturated_ = true;
    done_ = true;
  }
  if (options_.progress && (cycle_ & 0x3ff) == 0) {
    const double now = WallNow();
    if (now - progress_at_ > 2.0) {
      progress_at_ = now;
      if (workload) {
        std::fprintf(stderr, "[icnsim] cycle %llu, %zu/%zu workload messages delivered\n",
                     static_cast<unsigned long long>(cycle_), workload->completed(), workload->messages());
      } else {
        const char* phase = cycle_ < measure_begin_ ? "warm-up" : cycle_ < measure_end_ ? "measure" : "drain";
        std::fprintf(stderr, "[icnsim] cycle %llu (%s), %llu/%llu labelled packets delivered\n",
                     static_cast<unsigned long long>(cycle_), phase,
                     static_cast<unsigned long long>(stats.labelled_delivered()),
                     static_cast<unsigned long long>(stats.labelled_created()));
      }
    }
  }
  return !done_;
}

void Simulation::RunToEnd() {
  while (Tick()) {
  }
}

bool Simulation::DrainAll(uint64_t limit) {
  network_->set_generating(false);
  const RunStats& stats = network_->stats();
  for (uint64_t i = 0; i < limit && stats.delivered() < stats.created(); ++i) {
    network_->Step(cycle_);
    if (mechanism_) mechanism_->Step(cycle_);
    ++cycle_;
  }
  return stats.delivered() == stats.created();
}

void Simulation::SampleTimeseries() {
  const double window = static_cast<double>(params_.sim.timeseries);
  const double nodes = network_->nodes();
  uint64_t busy = 0;
  for (const auto& ch : network_->channels()) busy += ch->busy_cycles();
  const double energy = ledger_->EnergyJ();
  const double nominal = ledger_->NominalJ();
  const auto [delivered_flits, latency] = network_->stats().TakeWindow();
  const double generated = static_cast<double>(network_->TakeGeneratedFlits());
  std::ostringstream line;
  line << cycle_ << ',' << generated / (nodes * window) << ',' << static_cast<double>(delivered_flits) / (nodes * window) << ','
       << latency << ',' << (nominal - ts_nominal_ > 0 ? (energy - ts_energy_) / (nominal - ts_nominal_) : 1.0)
       << ',' << static_cast<double>(busy - ts_busy_) / (static_cast<double>(network_->channels().size()) * window)
       << '\n';
  timeseries_ += line.str();
  ts_busy_ = busy;
  ts_energy_ = energy;
  ts_nominal_ = nominal;
}

nlohmann::json Simulation::Finish(double wall_s) {
  tracer_->Close();
  const Census census = network_->TakeCensus();
  const RunStats& stats = network_->stats();
  const LatencySummary lat = stats.Latency();
  const double nodes = network_->nodes();
  // A workload is measured from cycle 0 to its end; Bernoulli traffic over sim.measure_cycles.
  const double window = static_cast<double>(network_->workload() ? std::max<uint64_t>(1, measure_end_) : params_.sim.measure);
  if (cycle_ < measure_end_) {  // the run ended before the window closed (cannot happen, kept honest)
    window_energy_ = ledger_->EnergyJ() - window_energy_;
    window_nominal_ = ledger_->NominalJ() - window_nominal_;
  }

  const uint64_t outstanding = stats.created() - stats.delivered();
  const uint64_t unaccounted = outstanding > census.in_flight ? outstanding - census.in_flight : 0;

  nlohmann::json r;
  r["scenario"] = scenario_.name();
  r["seed"] = params_.sim.seed;
  r["params"] = scenario_.ToJson();
  r["topology"] = network_->topology().Name();
  r["packets"] = {{"injected", stats.created()},
                  {"delivered", stats.delivered()},
                  {"in_flight", census.in_flight},
                  {"lost", unaccounted},
                  {"labelled", stats.labelled_created()},
                  {"labelled_delivered", stats.labelled_delivered()}};
  r["latency"] = {{"avg", lat.avg}, {"p50", lat.p50}, {"p99", lat.p99}, {"max", lat.max}, {"samples", lat.samples}};
  r["throughput"] = {{"offered", static_cast<double>(stats.labelled_flits_created()) / (nodes * window)},
                     {"accepted", static_cast<double>(stats.window_flits_delivered()) / (nodes * window)}};
  r["energy"] = {{"links_j", window_energy_},
                 {"links_nominal_j", window_nominal_},
                 {"links_relative", window_nominal_ > 0 ? window_energy_ / window_nominal_ : 1.0},
                 {"link_ends", ledger_->components()}};
  if (const WorkloadDriver* w = network_->workload()) {
    r["workload"] = {{"kind", params_.workload.kind},
                     {"messages", w->messages()},
                     {"messages_delivered", w->completed()},
                     {"packets", w->packets()},
                     {"exec_cycles", w->done() ? w->finish_cycle() : cycle_},
                     {"exec_ns", static_cast<double>(w->done() ? w->finish_cycle() : cycle_) * params_.sim.cycle_ns}};
  }
  if (mechanism_) mechanism_->Report(r);
  r["sim"] = {{"cycles", cycle_},
              {"wall_s", wall_s},
              {"cycles_per_s", wall_s > 0 ? static_cast<double>(cycle_) / wall_s : 0.0},
              {"warmup_cycles", params_.sim.warmup},
              {"measure_cycles", params_.sim.measure}};
  r["verdict"] = saturated_ ? "saturated" : "ok";
  if (saturated_) {
    const WorkloadDriver* w = network_->workload();
    r["verdict_reason"] = w ? "the workload did not finish within workload.max_cycles = " +
                                  std::to_string(params_.workload.max_cycles) + " cycles (" +
                                  std::to_string(w->completed()) + " of " + std::to_string(w->messages()) +
                                  " messages delivered)"
                            : "labelled packets still undelivered " + std::to_string(params_.sim.drain_limit) +
                                  " cycles after the measurement window: the network is saturated or deadlocked";
  }
  r["warnings"] = params_.warnings;

  std::vector<std::string> problems = census.problems;
  for (const auto& v : stats.violations()) problems.push_back(v);
  if (mechanism_ && mechanism_->violations() > 0) {
    problems.push_back(std::to_string(mechanism_->violations()) + " flits reached a link end that was not awake");
  }
  r["check"] = {{"ok", problems.empty()}, {"problems", problems}};
  return r;
}

}  // namespace icn
