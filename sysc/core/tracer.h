// SPDX-License-Identifier: Apache-2.0
// FST waveform of the verilated controllers: open only for the requested window of cycles and only
// for the model instances whose name matches the glob, because an always-open dump costs 7-14x in
// speed and grows without bound (docs/performance.md).
#pragma once
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

class VerilatedFstC;
class VerilatedContext;

namespace icn {

// One cycle in the waveform's unit (ps): each cycle is dumped twice, at its start and halfway.
inline uint64_t CyclePs(double cycle_ns) {
  const auto ps = static_cast<int64_t>(std::llround(cycle_ns * 1000.0));
  return ps < 2 ? 2 : static_cast<uint64_t>(ps);
}

struct TraceOptions {
  std::string path;  // empty = no trace
  uint64_t from = 0;
  uint64_t to = UINT64_MAX;
  std::string match = "*";         // comma-separated globs over instance names, e.g. "nic0,r32_p*"
  std::string option = "--trace";  // what a failure names: the option the waveform serves
};

class Tracer {
 public:
  Tracer(const TraceOptions& options, double cycle_ns);
  ~Tracer();

  bool enabled() const { return !options_.path.empty(); }
  // Whether `instance` is traced; counts the instances asked about and those selected.
  bool Matches(const std::string& instance);
  int selected() const { return selected_; }
  // Some instance names asked about (for an error message when none was selected).
  const std::vector<std::string>& examples() const { return examples_; }
  VerilatedFstC* fst() { return fst_.get(); }
  // Opens, dumps and closes as the window requires. `phase` 0 = before the cycle's clock edge (the
  // inputs applied), 1 = after it.
  void Dump(uint64_t cycle, int phase);
  void Close();
  uint64_t bytes() const { return bytes_; }
  // The traced cycles in ps: the first one's start and the last one's end (0, 0 before a dump).
  uint64_t first_ps() const { return first_cycle_ * cycle_ps_; }
  uint64_t end_ps() const { return open_ || done_ ? (last_cycle_ + 1) * cycle_ps_ : 0; }
  const std::string& path() const { return options_.path; }
  // Why the waveform was given up, or "": a write that the disk or the file size limit refused.
  // The file is removed and the run goes on without it.
  const std::string& failure() const { return failure_; }

 private:
  // Runs `write` (a dump or the close: the FST writer's work) so that a SIGBUS in it, a page of the
  // writer's memory-mapped temporary files that the disk could not back, gives up the waveform
  // instead of killing the run. (The writer runs on the calling thread: a traced run has one.)
  template <typename Write>
  void Guarded(uint64_t cycle, Write write);
  void GiveUp(uint64_t cycle, const std::string& why);
  TraceOptions options_;
  uint64_t cycle_ps_;
  std::unique_ptr<VerilatedFstC> fst_;
  bool open_ = false;
  bool done_ = false;
  uint64_t bytes_ = 0;
  uint64_t first_cycle_ = 0;
  uint64_t last_cycle_ = 0;
  uint64_t last_time_ = 0;  // of the last dump, in ps
  std::string failure_;
  int selected_ = 0;
  std::vector<std::string> examples_;
};

}  // namespace icn
