// SPDX-License-Identifier: Apache-2.0
// One run, assembled from the layers below it: the data plane (chosen by network.switching), the
// traffic source, the active mechanisms with their controllers, the energy ledger, and the phases
// (warm-up, labelled measurement window, drain with a limit), the time series and the end-of-run
// checks. Runs without the SystemC kernel in the way: Tick() advances one cycle; SimTop drives it
// from the SystemC clock, tests may call it directly.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/energy_ledger.h"
#include "core/run_stats.h"
#include "core/timeseries.h"
#include "core/tracer.h"
#include "mech/mechanism.h"
#include "net/fabric.h"
#include "net/nic.h"
#include "run/census.h"
#include "run/progress.h"
#include "run/run_params.h"
#include "run/steady_state.h"
#include "run/watchdog.h"
#include "traffic/external_traffic.h"
#include "traffic/traffic_source.h"

namespace icn {

struct RunOptions {
  TraceOptions trace;
  double progress_s = -1;   // seconds between progress lines on stderr; negative: none
  bool every_edge = false;  // every controller takes every clock edge: the reference for the skipping path
};

class Simulation final : private SinkObserver {
 public:
  Simulation(const Scenario& scenario, const RunParams& params, const RunOptions& options);
  ~Simulation() override;

  // Advances one cycle; returns false once the run is over.
  bool Tick();
  // Runs Tick() until the end.
  void RunToEnd();
  // Ends the run after this cycle: the verdict is "interrupted" by `signal` (SIGINT, SIGTERM), and
  // results are those of the cycles run.
  void Interrupt(int signal);
  int interrupted_by() const { return interrupted_by_; }
  // After the run: stops generating and keeps clocking network and controllers until every
  // packet has arrived or `limit` cycles pass. Returns true when the network emptied.
  bool DrainAll(uint64_t limit);
  // The end-of-run census and every result field; check.ok is false (and icnsim exits with 3)
  // when a packet was lost, reordered or corrupted.
  nlohmann::json Finish(double wall_s);

  uint64_t cycle() const { return cycle_; }
  Fabric& fabric() { return *fabric_; }
  const std::vector<std::unique_ptr<Mechanism>>& mechanisms() const { return mechanisms_; }
  const RunStats& stats() const { return stats_; }
  RunStats& stats() { return stats_; }
  // timeseries.csv, or empty when sim.timeseries_cycles = 0.
  std::string timeseries_csv() const { return timeseries_ ? timeseries_->csv() : std::string(); }
  const Tracer& tracer() const { return *tracer_; }
  // Why the network runs on fewer threads than sim.threads asks for (empty if it does not).
  const std::string& thread_note() const { return thread_note_; }
  uint64_t jumped_cycles() const { return jumped_cycles_; }
  // Observer of every delivered packet (tests: per-packet latency checks). Empty = none.
  std::function<void(const Packet&, uint64_t latency)> on_delivery;
  // Messages from outside (run/nic_ports.h) from the first cycle on, beside traffic.*; the run then
  // visits every cycle (no clock jumps: it cannot know when the next one comes). Before Tick().
  void Attach(ExternalTraffic& source);

 private:
  // Energy at the start of the measurement window, then over it once the window has closed.
  struct Window {
    double energy_j = 0;
    double nominal_j = 0;
    std::vector<std::vector<uint64_t>> state_cycles;  // [group][state]
    std::vector<uint64_t> toggles;                    // [kind of controller]
  };

  void OnDelivered(uint32_t packet, uint64_t now) override;
  void OnViolation(const std::string& what) override { stats_.OnViolation(what); }
  uint32_t Create(int src, int dst, uint32_t flits, uint32_t message);
  void AddMechanisms(const Scenario& scenario);
  void UseThreads();
  static constexpr int kRoutersPerThread = 128;  // sim.threads = 0: fewer per thread do not pay
  void Step();
  // With the network empty and every controller at rest, jumps over the cycles before the next
  // one at which something can happen (a packet, a controller deadline, a cycle the run looks at).
  void Jump();
  // Lets the mechanisms charge the ledger up to this cycle (they may do it lazily).
  void SettleLedger();
  // The ledger's totals now, settled.
  Window LedgerNow();
  void CloseWindow();
  void SampleTimeseries();
  // The steady-state periods: the first period end at or after `from`; closing one; whether the
  // last periods agree and the mechanisms have had their settling time.
  uint64_t NextPeriodEnd(uint64_t from) const;
  void ClosePeriod();
  bool Steady() const;
  uint64_t LeastSteadyWarmup() const;  // settling time + three periods
  void ReportProgress();
  // Every ProgressWatchdog::kPeriod cycles: ends the run if it deadlocked or starved a packet.
  void Watch(uint64_t now);
  // At a look: keeps the oldest packet waiting if it has waited longer than any seen so far (the
  // run's median latency, which the warning compares with, is known only at its end).
  void NoteStarved(uint64_t now);
  nlohmann::json StalledPacket() const;
  // The starved warning, if the packet kept waited beyond the factor of the run's median latency.
  std::string StarvedWarning(nlohmann::json& results) const;
  nlohmann::json PacketResults(const Census& census) const;
  nlohmann::json EnergyResults();
  nlohmann::json SystemEnergyResults(double controllers_j) const;
  nlohmann::json WorkloadResults() const;
  std::string SaturationReason() const;
  std::vector<std::string> Problems(const Census& census) const;
  std::vector<std::string> ClockWarnings() const;

  const Scenario& scenario_;
  const RunParams& params_;
  RunOptions options_;
  PacketPool pool_;
  RunStats stats_;
  std::unique_ptr<ThreadTeam> team_;  // the network's and controllers' threads (outlives both)
  std::unique_ptr<Fabric> fabric_;
  TrafficSource traffic_;
  TrafficSource::Create create_;
  ExternalTraffic* external_ = nullptr;
  ExternalTraffic::Create external_create_;
  uint64_t external_created_ = 0;  // packets it created (results.json: external_traffic)
  std::unique_ptr<Tracer> tracer_;
  std::unique_ptr<EnergyLedger> ledger_;
  std::vector<std::unique_ptr<Mechanism>> mechanisms_;
  std::vector<EnergyLedger::Group*> undriven_;  // hardware no active mechanism drives: always nominal
  std::unique_ptr<Timeseries> timeseries_;
  static constexpr uint64_t kUndecided = UINT64_MAX;  // sim.warmup = steady, before the run is steady
  uint64_t cycle_ = 0;
  uint64_t measure_begin_;
  uint64_t measure_end_;
  uint64_t deadline_;
  bool generating_ = true;
  bool saturated_ = false;
  ProgressWatchdog watchdog_;
  ProgressWatchdog::Verdict stalled_ = ProgressWatchdog::Verdict::kNone;
  struct Starved {
    uint32_t packet;
    int32_t src, dst;
    uint64_t created, waited;  // to its delivery, or at least to the last look that saw it
    std::string waits_at;      // where that look found it
  };
  std::optional<Starved> starved_;
  bool done_ = false;
  int interrupted_by_ = 0;
  bool jumps_;                  // sim.clock_jumps, and not tracing or clocking every edge
  uint64_t jumped_cycles_ = 0;  // cycles jumped over (a figure for tests and the bench)
  Window window_;
  SteadyState steady_{params_.sim.steady_tolerance};
  uint64_t period_phase_ = 0;     // steady-state periods end at cycles = this mod the period
  uint64_t settle_cycles_ = 0;    // the longest of the mechanisms' settling times
  bool converged_ = false;        // the window opened in steady state
  uint64_t generated_flits_ = 0;  // since the last time-series sample
  uint64_t ts_busy_ = 0;          // channel busy cycles at the last sample
  double ts_energy_ = 0;          // ledger at the last sample
  double ts_nominal_ = 0;
  std::string thread_note_;                 // why it runs on fewer than sim.threads asks for, if it must
  std::unique_ptr<ProgressLine> progress_;  // null when options_.progress_s < 0
  uint64_t ticks_ = 0;                      // Tick() calls: how often to offer a progress line
};

}  // namespace icn
