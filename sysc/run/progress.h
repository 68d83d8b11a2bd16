// SPDX-License-Identifier: Apache-2.0
// Progress lines on stderr for long runs: where the run is in simulated time, how fast it goes,
// how much of its work is done and about how long it has left. At most one line per interval of
// wall time; the simulation asks often (every 1024 ticks) and this decides.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

namespace icn {

class ProgressLine {
 public:
  // Where the run stands: `done` of `total` units of work (messages or labelled packets; total 0
  // when unknown); `end_cycle` the cycle the run is planned to reach (0 when unknown), used for
  // the time left only when `total` is 0.
  struct Status {
    uint64_t cycle = 0;
    const char* phase = "";  // "warm-up", "measure", "drain", or empty
    uint64_t done = 0;
    uint64_t total = 0;
    const char* unit = "messages delivered";
    uint64_t end_cycle = 0;
  };

  ProgressLine(double interval_s, double cycle_ns, FILE* out = stderr);

  // Writes a line when the interval has passed since the last (or since construction).
  void Offer(const Status& status);
  // The line for `status`, `elapsed_s` of wall time into the run, at `cycles_per_s` lately.
  std::string Format(const Status& status, double elapsed_s, double cycles_per_s) const;
  // "45 s", "12 min 5 s", "2 h 03 min".
  static std::string Duration(double seconds);

 private:
  double interval_s_;
  double cycle_ns_;
  FILE* out_;
  double started_;
  double last_at_;
  uint64_t last_cycle_ = 0;
};

}  // namespace icn
