// SPDX-License-Identifier: Apache-2.0
// Reference model of rtl/eee/eee_pb_port.sv: the reference models of the port, histogram, search
// and correction, wired as the RTL wires them, plus the idle-period measurement, cycle for cycle.
#pragma once
#include <cstdint>
#include <vector>

#include "ref/eee_port_ref.h"
#include "ref/pb_correct_ref.h"
#include "ref/pb_histogram_ref.h"
#include "ref/pb_search_ref.h"

namespace ref {

struct EeePbPortConfig {
  PbHistogramConfig hist;
  PbSearchConfig search;
  int hist_len = 16;
  uint32_t cf_max_q8 = 4096;
};

struct EeePbPortIn : EeePortIn {
  int policy = 0;  // 0 fixed, 1 PerfBound, 2 PerfBoundCorrect
  std::vector<uint32_t> shares;
  uint32_t bound = 0;
  uint32_t inv_tw = 0;  // 1 / t_w in Q0.32
  uint32_t now = 0;     // time base (the cycle)
  bool search = false;  // start a search this cycle
  uint32_t period = 0;  // test benches: a search pulse every `period` cycles (0 = none)
};

class EeePbPort {
 public:
  using In = EeePbPortIn;
  explicit EeePbPort(const EeePbPortConfig& c = EeePbPortConfig())
      : c_(c), hist_(c.hist), search_(c.search), correct_(c.hist_len, c.cf_max_q8) {
    port_.Reset();
  }
  void Reset() { *this = EeePbPort(c_); }

  EeePortOut Outputs(bool lpi_deep) const { return port_.Outputs(lpi_deep); }
  uint32_t Perfbound(const EeePbPortIn& in) const { return have_ ? search_.Outputs().pdt : in.pdt_cycles; }
  uint32_t Applied(const EeePbPortIn& in) const {
    if (in.policy == 1) return Perfbound(in);
    if (in.policy == 2) return correct_.Corrected(Perfbound(in));
    return in.pdt_cycles;
  }
  uint32_t factor() const { return correct_.Factor(); }
  bool idle() const { return idle_; }
  uint32_t idle_count(uint32_t now) const { return idle_ ? now - idle_start_ : 0; }

  void Clock(const EeePbPortIn& in) {
    const bool queued = in.tx_queue != 0;
    const bool arrival = idle_ && (queued || in.tx_busy);
    const bool missed = slept_ || (idle_ && port_.Outputs(in.lpi_deep).power != 0);
    const uint32_t length = in.now - idle_start_;
    const uint32_t applied = Applied(in);
    const PbSearch::Out search = search_.Outputs();

    PbSearch::In s;
    s.shares = in.shares;
    s.counts = hist_.counts();  // the bins of this cycle, before the histogram's edge
    s.bound = in.bound;
    s.inv_tw = in.inv_tw;
    s.span = in.now - hist_.since();
    s.empty = hist_.values() == 0;
    s.active = in.tx_busy;
    s.start = in.search && !search.busy;
    search_.Clock(s);
    hist_.Clock(arrival, length, in.now, search.busy);
    correct_.Clock(arrival, !missed, length, applied);
    EeePortIn p = in;
    p.pdt_cycles = applied;
    port_.Clock(p);

    have_ = have_ || (search.done && search.recomputed);
    slept_ = missed;
    if (in.tx_busy && !queued) {
      idle_ = true;
      idle_start_ = in.now + 1;
      slept_ = false;
    } else if (arrival) {
      idle_ = false;
    }
  }

 private:
  EeePbPortConfig c_;
  EeePort port_;
  PbHistogram hist_;
  PbSearch search_;
  PbCorrect correct_;
  bool idle_ = true;
  uint32_t idle_start_ = 0;
  bool slept_ = false;
  bool have_ = false;
};

}  // namespace ref
