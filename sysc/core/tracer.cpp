#include "core/tracer.h"

#include <fnmatch.h>
#include <sys/stat.h>

#include <cmath>

#include <verilated.h>
#include <verilated_fst_c.h>

namespace icn {

Tracer::Tracer(const TraceOptions& options, double cycle_ns)
    : options_(options), cycle_ps_(static_cast<uint64_t>(std::llround(cycle_ns * 1000.0))) {
  if (cycle_ps_ < 2) cycle_ps_ = 2;
  if (enabled()) fst_ = std::make_unique<VerilatedFstC>();
}

Tracer::~Tracer() { Close(); }

bool Tracer::Matches(const std::string& instance) const {
  return enabled() && fnmatch(options_.match.c_str(), instance.c_str(), 0) == 0;
}

void Tracer::Dump(uint64_t cycle, int phase) {
  if (!enabled() || done_) return;
  if (!open_) {
    if (cycle < options_.from) return;
    fst_->open(options_.path.c_str());
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
    struct stat st {};
    if (stat(options_.path.c_str(), &st) == 0) bytes_ = static_cast<uint64_t>(st.st_size);
  }
}

}  // namespace icn
