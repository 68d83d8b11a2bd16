// SPDX-License-Identifier: Apache-2.0
// Packet counters and the latency histogram of one run. Packets generated inside the measurement
// window are labelled; latency statistics come from labelled packets only.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/latency_histogram.h"

namespace icn {

// Deliveries since the tally was last taken: a time-series sample, a steady-state period.
struct DeliveryTally {
  uint64_t deliveries = 0;
  uint64_t latency_sum = 0;
  uint64_t flits = 0;

  void Add(uint64_t latency, uint32_t flits_delivered) {
    ++deliveries;
    latency_sum += latency;
    flits += flits_delivered;
  }
  // Flits delivered and mean packet latency (0 with no delivery); starts a new tally.
  std::pair<uint64_t, double> Take() {
    const auto result =
        std::make_pair(flits, deliveries ? static_cast<double>(latency_sum) / deliveries : 0.0);
    *this = DeliveryTally{};
    return result;
  }
};

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
    series_.Add(latency, flits);
    period_.Add(latency, flits);
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

  // Deliveries since the last call, for the time series and for the steady-state periods: flits
  // delivered and mean packet latency.
  std::pair<uint64_t, double> TakeSeriesWindow() { return series_.Take(); }
  std::pair<uint64_t, double> TakePeriod() { return period_.Take(); }

  LatencySummary Latency() const;
  // Of the labelled packets delivered so far (0 before the first).
  uint64_t MedianLatency() const { return latencies_.Percentile(0.5); }

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
  DeliveryTally series_;
  DeliveryTally period_;
  std::vector<std::string> violations_;
  LatencyHistogram latencies_;
  uint64_t network_latency_sum_ = 0;  // of labelled packets
  uint64_t hops_sum_ = 0;
};

}  // namespace icn
