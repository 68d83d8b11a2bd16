// SPDX-License-Identifier: Apache-2.0
#include "core/tracer.h"

#include <fnmatch.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <csignal>
#include <cstdio>

#include <gtkwave/fstapi.h>
#include <verilated.h>
#include <verilated_fst_c.h>

#include "core/errors.h"

namespace icn {

Tracer::Tracer(const TraceOptions& options, double cycle_ns)
    : options_(options), cycle_ps_(CyclePs(cycle_ns)) {
  if (enabled()) fst_ = std::make_unique<VerilatedFstC>();
}

Tracer::~Tracer() { Close(); }

bool Tracer::Matches(const std::string& instance) {
  if (!enabled()) return false;
  if (examples_.size() < 6) examples_.push_back(instance);
  size_t start = 0;
  while (start <= options_.match.size()) {
    const size_t comma = std::min(options_.match.find(',', start), options_.match.size());
    const std::string glob = options_.match.substr(start, comma - start);
    if (fnmatch(glob.c_str(), instance.c_str(), 0) == 0) {
      ++selected_;
      return true;
    }
    start = comma + 1;
  }
  return false;
}

namespace {

// The Tracer::Guarded call under way on this thread: a SIGBUS is delivered to the thread that
// faulted, and only a fault of the writer's own may jump back.
thread_local sigjmp_buf* guarded_write = nullptr;

// The jump leaves the writer as the fault found it (its lock held, its buffers allocated): it is
// never used again. Its FILE streams are consistent (the fault is in a mapped page, not in stdio).
void OnBusError(int) {
  if (guarded_write) siglongjmp(*guarded_write, 1);
  std::signal(SIGBUS, SIG_DFL);  // not the waveform's: the default, a crash
  std::raise(SIGBUS);
}

// What filled up, if the file or its disk is full (the FST writer does not check its writes), or
// "": the file size limit, or no block left that this user may write (root may use the reserve).
std::string Full(const std::string& path, uint64_t bytes) {
  struct rlimit limit = {};
  if (getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY && bytes >= limit.rlim_cur)
    return "the file size limit (ulimit -f) was reached";
  struct statvfs disk = {};
  if (statvfs(path.c_str(), &disk) != 0) return "";
  return (geteuid() == 0 ? disk.f_bfree : disk.f_bavail) == 0 ? "the disk is full" : "";
}

// Whether GTKWave's reader opens the closed file and finds its last dump (a write that failed
// leaves a file it cannot open, or one that ends early).
bool ReadsBack(const std::string& path, uint64_t last_time) {
  void* reader = fstReaderOpen(path.c_str());
  if (!reader) return false;
  const bool whole = fstReaderGetEndTime(reader) >= last_time;
  fstReaderClose(reader);
  return whole;
}

}  // namespace

template <typename Write>
void Tracer::Guarded(uint64_t cycle, Write write) {
  static const bool installed = [] {
    struct sigaction action = {};
    action.sa_handler = OnBusError;
    action.sa_flags = SA_NODEFER;  // (left by siglongjmp, which restores no signal mask)
    sigemptyset(&action.sa_mask);
    return sigaction(SIGBUS, &action, nullptr) == 0;
  }();
  (void)installed;
  sigjmp_buf jump;
  if (sigsetjmp(jump, 0) == 0) {
    guarded_write = &jump;
    write();
    guarded_write = nullptr;
  } else {
    guarded_write = nullptr;
    GiveUp(cycle,
           "the writer's temporary files could not grow (SIGBUS: the disk holding /tmp, or the file size "
           "limit, is full)");
  }
}

void Tracer::GiveUp(uint64_t cycle, const std::string& why) {
  // Its state went with the failed write: never closed (which writes) nor freed, and kept
  // reachable, so that a leak checker does not count it.
  static auto* abandoned = new std::vector<VerilatedFstC*>;
  abandoned->push_back(fst_.release());
  open_ = false;
  done_ = true;
  bytes_ = 0;
  // The file and the writer's own temporary one beside it, emptied first: the writer keeps them
  // open, and a removed file's blocks would stay taken until the process ends.
  for (const std::string& file : {options_.path, options_.path + ".hier"}) {
    if (truncate(file.c_str(), 0) == 0) std::remove(file.c_str());
  }
  failure_ = options_.option + ": writing " + options_.path + " failed by cycle " + std::to_string(cycle) +
             ": " + why + "; the waveform is removed and the run went on without it";
}

void Tracer::Dump(uint64_t cycle, int phase) {
  if (!enabled() || done_) return;
  if (!open_) {
    if (cycle < options_.from) return;
    fst_->set_time_unit("1ps");  // dump times below are in ps
    fst_->set_time_resolution("1ps");
    fst_->open(options_.path.c_str());
    if (!fst_->isOpen()) throw ScenarioError(options_.option + ": cannot write " + options_.path);
    open_ = true;
    first_cycle_ = cycle;
  }
  if (cycle >= options_.to) {
    Close();
    return;
  }
  last_cycle_ = cycle;
  last_time_ = cycle * cycle_ps_ + (phase ? cycle_ps_ / 2 : 0);
  Guarded(cycle, [&] { fst_->dump(last_time_); });
  // Every 4,096 cycles: a full disk or file ends the waveform now (the writer, which does not check
  // its writes, would go on, slowly, to a file that cannot be read).
  if (open_ && phase == 0 && (cycle & 4095) == 0) {
    struct stat st = {};
    const uint64_t bytes = stat(options_.path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
    if (const std::string full = Full(options_.path, bytes); !full.empty()) GiveUp(cycle, full);
  }
}

void Tracer::Close() {
  if (!open_) return;
  Guarded(last_cycle_, [&] { fst_->close(); });
  if (!open_) return;  // given up
  open_ = false;
  done_ = true;
  struct stat st = {};
  if (stat(options_.path.c_str(), &st) == 0) bytes_ = static_cast<uint64_t>(st.st_size);
  // A full file or disk first: GTKWave's reader can loop on a file cut off in the middle of a block.
  if (const std::string full = Full(options_.path, bytes_); !full.empty()) {
    GiveUp(last_cycle_, full);
  } else if (!ReadsBack(options_.path, last_time_)) {
    GiveUp(last_cycle_, "the file cannot be read back whole");
  }
}

}  // namespace icn
