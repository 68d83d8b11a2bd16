#include "core/tracer.h"

#include <fnmatch.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>

#include <verilated.h>
#include <verilated_fst_c.h>

#include "core/errors.h"

namespace icn {

Tracer::Tracer(const TraceOptions& options, double cycle_ns)
    : options_(options), cycle_ps_(static_cast<uint64_t>(std::llround(cycle_ns * 1000.0))) {
  if (cycle_ps_ < 2) cycle_ps_ = 2;
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

void Tracer::Dump(uint64_t cycle, int phase) {
  if (!enabled() || done_) return;
  if (!open_) {
    if (cycle < options_.from) return;
    fst_->set_time_unit("1ps");  // dump times below are in ps
    fst_->set_time_resolution("1ps");
    fst_->open(options_.path.c_str());
    if (!fst_->isOpen()) throw ScenarioError("--trace: cannot write " + options_.path);
    open_ = true;
  }
  if (cycle >= options_.to) {
    Close();
    return;
  }
  fst_->dump(cycle * cycle_ps_ + (phase ? cycle_ps_ / 2 : 0));
}

void Tracer::Close() {
  if (open_) {
    fst_->close();
    open_ = false;
    done_ = true;
    struct stat st = {};
    if (stat(options_.path.c_str(), &st) == 0) bytes_ = static_cast<uint64_t>(st.st_size);
  }
}

}  // namespace icn
