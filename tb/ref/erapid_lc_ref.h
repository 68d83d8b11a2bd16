// SPDX-License-Identifier: Apache-2.0
// Reference model of rtl/erapid/erapid_lc.sv: Lasers lasers (sequencer and window counters each)
// and one hop of the control chain: a LinkRequest head closes the windows and this LC's slots
// leave with its statistics; a LinkResponse's slots for this LC become its lasers' commands
// (until the first, the static assignment at full power).
#pragma once
#include <cstdint>
#include <vector>

#include "ref/erapid_laser_seq_ref.h"
#include "ref/erapid_link_stats_ref.h"

namespace ref {

class ErapidLc {
 public:
  enum Kind : uint8_t { kReqHead, kReqSlot, kRespHead, kRespSlot };
  struct Word {
    bool valid = false;
    uint8_t kind = 0;
    uint64_t data = 0;
  };
  static constexpr int kTimeWidth = 16, kQueueWidth = 8;

  ErapidLc(int lasers, int levels) : lasers_(lasers), top_(static_cast<uint8_t>(levels - 1)) {
    for (int l = 0; l < lasers; ++l) seq_.emplace_back(levels);
    stats_.resize(lasers);
    on_.assign(lasers, false);
    level_.assign(lasers, 0);
    commanded_.assign(lasers, false);
  }

  // One edge. `in` is the word arriving from the previous hop this cycle.
  void Clock(const Word& in, int lc_index, uint32_t static_on, uint32_t vdd, uint32_t relock,
             const std::vector<bool>& sent, const std::vector<uint32_t>& queue,
             const std::vector<bool>& drained) {
    const bool slot = in.valid && (in.kind == kReqSlot || in.kind == kRespSlot);
    const int offset = slot_ - lc_index * lasers_;
    const bool mine = slot && offset >= 0 && offset < lasers_;
    Word out = in;
    if (mine && in.kind == kReqSlot) out.data = Stats(offset);
    for (int l = 0; l < lasers_; ++l) {
      const bool on = commanded_[l] ? on_[l] : ((static_on >> l) & 1) != 0;
      const uint8_t level = commanded_[l] ? level_[l] : top_;
      seq_[l].Clock(on, level, drained[l], vdd, relock);
      stats_[l].Clock(sent[l], queue[l], in.valid && in.kind == kReqHead);
    }
    if (mine && in.kind == kRespSlot) {
      on_[offset] = (in.data >> 3) & 1;
      level_[offset] = in.data & 7;
      commanded_[offset] = true;
    }
    if (in.valid) slot_ = (in.kind == kReqHead || in.kind == kRespHead) ? 0 : slot_ + 1;
    out_ = out;
  }

  const Word& out() const { return out_; }
  const ErapidLaserSeq& laser(int l) const { return seq_[l]; }
  // A ReqSlot's data: {powered, window, busy, occupancy} of laser l's last complete window.
  uint64_t Stats(int l) const {
    const ErapidLinkStats& s = stats_[l];
    return (uint64_t{seq_[l].powered()} << (3 * kTimeWidth + kQueueWidth)) |
           (uint64_t{s.window()} << (kTimeWidth + kQueueWidth + kTimeWidth)) |
           (uint64_t{s.busy()} << (kTimeWidth + kQueueWidth)) | s.occupancy();
  }

 private:
  int lasers_;
  uint8_t top_;
  std::vector<ErapidLaserSeq> seq_;
  std::vector<ErapidLinkStats> stats_;
  std::vector<bool> on_, commanded_;
  std::vector<uint8_t> level_;
  int slot_ = 0;
  Word out_;
};

}  // namespace ref
