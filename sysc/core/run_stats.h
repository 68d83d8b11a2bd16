// Packet counters and the latency histogram of one run. Packets generated inside the measurement
// window are labelled; latency statistics come from labelled packets only.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/latency_histogram.h"

namespace icn {

struct LatencySummary {
  double avg = 0;
  double network_avg = 0;  // from the head leaving the source to tail delivery (no source queueing)
  double hops_avg = 0;     // routers crossed
  double p50 = 0;
  double p99 = 0;
  double max = 0;
  uint64_t samples = 0;
};

class RunStats {
 public:
  void set_measuring(bool on) { measuring_ = on; }
  bool measuring() const { return measuring_; }

  void OnCreated(bool labelled, uint32_t flits) {
    ++created_;
    if (labelled) {
      ++labelled_created_;
      labelled_flits_created_ += flits;
    }
  }
  // `latency` from generation, `network_latency` from the head's injection, `hops` routers crossed.
  void OnDelivered(bool labelled, uint64_t latency, uint64_t network_latency, uint32_t hops, uint32_t flits) {
    ++delivered_;
    if (measuring_) window_flits_delivered_ += flits;
    window_latency_sum_ += latency;
    ++window_deliveries_;
    window_flits_ += flits;
    if (labelled) {
      ++labelled_delivered_;
      latencies_.Add(latency);
      network_latency_sum_ += network_latency;
      hops_sum_ += hops;
    }
  }
  void OnViolation(const std::string& what) {
    if (violations_.size() < 20) violations_.push_back(what);
  }

  // Deliveries since the last call (for time series): flits delivered and mean packet latency.
  std::pair<uint64_t, double> TakeWindow() {
    const auto result = std::make_pair(
        window_flits_,
        window_deliveries_ ? static_cast<double>(window_latency_sum_) / window_deliveries_ : 0.0);
    window_deliveries_ = 0;
    window_latency_sum_ = 0;
    window_flits_ = 0;
    return result;
  }

  LatencySummary Latency() const;

  uint64_t created() const { return created_; }
  uint64_t delivered() const { return delivered_; }
  uint64_t labelled_created() const { return labelled_created_; }
  uint64_t labelled_delivered() const { return labelled_delivered_; }
  uint64_t labelled_flits_created() const { return labelled_flits_created_; }
  uint64_t window_flits_delivered() const { return window_flits_delivered_; }
  const std::vector<std::string>& violations() const { return violations_; }

 private:
  bool measuring_ = false;
  uint64_t created_ = 0;
  uint64_t delivered_ = 0;
  uint64_t labelled_created_ = 0;
  uint64_t labelled_delivered_ = 0;
  uint64_t labelled_flits_created_ = 0;
  uint64_t window_flits_delivered_ = 0;
  uint64_t window_deliveries_ = 0;
  uint64_t window_latency_sum_ = 0;
  uint64_t window_flits_ = 0;
  std::vector<std::string> violations_;
  LatencyHistogram latencies_;
  uint64_t network_latency_sum_ = 0;  // of labelled packets
  uint64_t hops_sum_ = 0;
};

}  // namespace icn
