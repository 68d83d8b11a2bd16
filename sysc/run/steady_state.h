// SPDX-License-Identifier: Apache-2.0
// The steady-state rule: a run is in steady state once its last three sample periods agree within a
// tolerance on accepted load and on mean packet latency. With sim.warmup = steady the measurement
// window opens at the first period end where they agree; with a fixed warm-up the same test, on the
// three periods before the window, says whether that warm-up reached steady state.
#pragma once
#include <cstdint>
#include <deque>

#include <nlohmann/json.hpp>

namespace icn {

class SteadyState {
 public:
  static constexpr size_t kPeriods = 3;

  explicit SteadyState(double tolerance) : tolerance_(tolerance) {}

  // A period that ended at cycle `end`: accepted flits/node/cycle and mean latency of its deliveries
  // (latency 0 when it delivered nothing).
  void Add(uint64_t end, double accepted, double latency);
  // The last kPeriods periods agree: each delivered something, and on each quantity the largest is
  // at most (1 + tolerance) times the smallest. False before kPeriods periods.
  bool Agrees() const;
  // The last periods, oldest first: [{end, accepted, latency}, ...].
  nlohmann::json Periods() const;

 private:
  struct Period {
    uint64_t end;
    double accepted;
    double latency;
  };
  double tolerance_;
  std::deque<Period> last_;
};

}  // namespace icn
