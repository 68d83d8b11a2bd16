// One run without the SystemC kernel in the way: the network, the mechanisms in the loop, the
// energy ledger, the phases (warm-up, labelled measurement window, drain with a limit), the
// time series and the end-of-run checks. Tick() advances one cycle; SimTop drives it from the
// SystemC clock, tests may call it directly.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/energy_ledger.h"
#include "core/params.h"
#include "core/tracer.h"
#include "mech/mechanism.h"
#include "net/network.h"

namespace icn {

struct RunOptions {
  TraceOptions trace;
  bool progress = false;  // progress lines on stderr
  bool two_evals = false;  // clock controllers with two evals per cycle (reference for the faster one)
};

class Simulation {
 public:
  Simulation(const Scenario& scenario, const Params& params, const RunOptions& options);
  ~Simulation();

  // Advances one cycle; returns false once the run is over.
  bool Tick();
  // Runs Tick() until the end.
  void RunToEnd();
  // After the run: stops generating and keeps clocking network and controllers until every
  // packet has arrived or `limit` cycles pass. Returns true when the network emptied.
  bool DrainAll(uint64_t limit);
  // End-of-run checks and every result field. Throws ConservationError when a packet was lost,
  // reordered or corrupted (after the census is in the JSON, see last_results()).
  nlohmann::json Finish(double wall_s);

  uint64_t cycle() const { return cycle_; }
  Network& network() { return *network_; }
  Mechanism* mechanism() { return mechanism_.get(); }
  const std::string& timeseries_csv() const { return timeseries_; }
  const Tracer& tracer() const { return *tracer_; }

 private:
  void SampleTimeseries();

  const Scenario& scenario_;
  const Params& params_;
  RunOptions options_;
  std::unique_ptr<Network> network_;
  std::unique_ptr<Tracer> tracer_;
  std::unique_ptr<EnergyLedger> ledger_;
  std::unique_ptr<Mechanism> mechanism_;
  uint64_t cycle_ = 0;
  uint64_t measure_begin_;
  uint64_t measure_end_;
  uint64_t deadline_;
  bool saturated_ = false;
  bool done_ = false;
  std::string timeseries_;
  uint64_t ts_busy_ = 0;  // channel busy cycles at the last sample
  double ts_energy_ = 0;  // ledger at the last sample
  double ts_nominal_ = 0;
  double window_energy_ = 0;  // ledger at the start of the measurement window
  double window_nominal_ = 0;
  double progress_at_ = 0;
};

}  // namespace icn
