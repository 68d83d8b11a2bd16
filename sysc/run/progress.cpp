// SPDX-License-Identifier: Apache-2.0
#include "run/progress.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace icn {
namespace {

double WallNow() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// 1234567 -> "1,234,567": figures a reader takes in at a glance.
std::string Grouped(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// Simulated time at a readable scale.
std::string SimulatedTime(double ns) {
  char text[32];
  if (ns >= 1e9)
    std::snprintf(text, sizeof text, "%.3f s", ns * 1e-9);
  else if (ns >= 1e6)
    std::snprintf(text, sizeof text, "%.3f ms", ns * 1e-6);
  else
    std::snprintf(text, sizeof text, "%.3f us", ns * 1e-3);
  return text;
}

}  // namespace

ProgressLine::ProgressLine(double interval_s, double cycle_ns, FILE* out)
    : interval_s_(interval_s), cycle_ns_(cycle_ns), out_(out), started_(WallNow()), last_at_(started_) {}

void ProgressLine::Offer(const Status& status) {
  const double now = WallNow();
  if (now - last_at_ < interval_s_) return;
  const double rate = now > last_at_ ? static_cast<double>(status.cycle - last_cycle_) / (now - last_at_) : 0;
  std::fprintf(out_, "%s\n", Format(status, now - started_, rate).c_str());
  std::fflush(out_);
  last_at_ = now;
  last_cycle_ = status.cycle;
}

std::string ProgressLine::Duration(double seconds) {
  const long s = std::lround(std::min(seconds, 1e12));
  char text[32];
  if (s < 60)
    std::snprintf(text, sizeof text, "%ld s", s);
  else if (s < 3600)
    std::snprintf(text, sizeof text, "%ld min %ld s", s / 60, s % 60);
  else
    std::snprintf(text, sizeof text, "%ld h %02ld min", s / 3600, s % 3600 / 60);
  return text;
}

// The time left: from the share of the work done so far when the work is counted (a workload's
// messages: its pace varies with its phases, so the whole run's average), else from the cycles
// left to the planned end at the recent pace.
std::string ProgressLine::Format(const Status& status, double elapsed_s, double cycles_per_s) const {
  std::string line = "[icnsim] cycle " + Grouped(status.cycle);
  if (*status.phase) line += std::string(" (") + status.phase + ")";
  line += ", " + SimulatedTime(static_cast<double>(status.cycle) * cycle_ns_) + " simulated, ";
  line += Grouped(static_cast<uint64_t>(std::min(cycles_per_s, 1e18))) + " cycles/s; " + Grouped(status.done);
  if (status.total > 0) line += " of " + Grouped(status.total);
  line += std::string(" ") + status.unit;
  double left = -1;
  if (status.total > 0) {
    char share[16];
    std::snprintf(share, sizeof share, " (%.1f %%)", 100.0 * status.done / status.total);
    line += share;
    if (status.done > 0) left = elapsed_s * static_cast<double>(status.total - status.done) / status.done;
  } else if (status.end_cycle > status.cycle && cycles_per_s > 0) {
    left = static_cast<double>(status.end_cycle - status.cycle) / cycles_per_s;
  }
  line += "; " + Duration(elapsed_s) + " so far";
  if (left >= 0) line += ", about " + Duration(left) + " left";
  return line;
}

}  // namespace icn
