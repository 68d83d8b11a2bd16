// SPDX-License-Identifier: Apache-2.0
// Reference model of rtl/erapid/erapid_rc.sv: the reconfiguration controller of one board, edge by
// edge. Steps start at deadlines computed from the window's end: LinkRequest down the chain (its
// slots come back with every laser's statistics: DPM and per-destination sums), BoardRequest around
// the ring (this board's slot filled in others' packets; its own packet classifies the sources),
// re-allocation one wavelength per edge, BoardResponse (the holdings of each source), LinkResponse.
#pragma once
#include <cstdint>
#include <vector>

#include "ref/erapid_lc_ref.h"

namespace ref {

class ErapidRc {
 public:
  using Word = ErapidLc::Word;
  enum Step : uint8_t { kLinkReq, kBoardReq, kBoardResp, kLinkResp, kStart };
  enum Class : uint8_t { kNormal, kUnder, kOver };
  struct Straps {
    int board = 0;
    uint32_t rw = 1000;
    bool dbr = true, dpm = true;
    int degree = 2;
    uint32_t capacity = 24;
    uint32_t l_min = 0, b_min = 26, b_max = 77, b_con = 128;  // in 1/256
  };
  static constexpr int kTimeWidth = 16, kQueueWidth = 8;

  ErapidRc(int boards, int levels)
      : b_(boards), slots_(boards * boards), top_(static_cast<uint8_t>(levels - 1)), bw_(Clog2(boards)) {
    busy_width_ = kTimeWidth + bw_;
    occ_width_ = kTimeWidth + kQueueWidth + bw_;
    agg_busy_.assign(b_, 0);
    agg_occ_.assign(b_, 0);
    lit_.assign(slots_, false);
    for (int x = 0; x < b_; ++x) owner_.push_back(x);
    class_.assign(b_, kNormal);
    lit_anywhere_.assign(b_, false);
    on_.assign(slots_, false);
    commanded_.assign(b_, false);
    level_.assign(slots_, top_);
  }

  // Timing constants (the RTL's localparams) and the shortest window they allow.
  int Gap() const { return b_ + 2; }
  int ChainTrip() const { return slots_ + b_ + 3; }
  int RequestTrip() const { return (b_ - 1) * Gap() + 3 * b_ + 2; }
  int ResponseTrip() const { return (b_ - 1) * Gap() + 2 * b_ + 2; }
  int MinWindow() const { return ChainTrip() + RequestTrip() + ResponseTrip() + slots_ + b_ + 2; }

  void Clock(uint16_t now, const Straps& s, const Word& chain_in, const Word& ring_in) {
    const uint64_t bmask = (1u << bw_) - 1;
    Word chain_out, ring_out;
    chain_out.kind = chain_out_.kind;
    chain_out.data = chain_out_.data;
    ring_out.kind = ring_out_.kind;
    ring_out.data = ring_out_.data;
    int step = step_;
    uint16_t deadline = deadline_, window_end = window_end_;
    bool chain_send = chain_send_, ring_send = ring_send_, send_request = send_request_;
    int send_count = send_count_;
    int rx_x = rx_x_, rx_y = rx_y_;
    uint16_t window = window_;
    std::vector<uint64_t> agg_busy = agg_busy_, agg_occ = agg_occ_;
    std::vector<bool> lit = lit_, lit_anywhere = lit_anywhere_, on = on_, commanded = commanded_;
    int ring_req = ring_req_, ring_slot = ring_slot_;
    std::vector<int> owner = owner_, cls = class_;
    bool alloc = alloc_;
    int alloc_x = alloc_x_, rr = rr_;
    std::vector<uint8_t> level = level_;
    const std::vector<bool> on_now = OnNow(s.board);

    if (step_ == kStart || now == deadline_) {
      send_count = 0;
      switch (step_) {
        case kStart:
          step = kLinkReq;
          deadline = static_cast<uint16_t>(now + s.rw - 1);
          break;
        case kLinkReq:
          chain_send = true, send_request = true;
          chain_out = {true, ErapidLc::kReqHead, 0};
          window_end = now;
          step = kBoardReq;
          deadline = static_cast<uint16_t>(now + ChainTrip() + s.board * Gap());
          break;
        case kBoardReq:
          ring_send = true, send_request = true;
          ring_out = {true, ErapidLc::kReqHead, static_cast<uint64_t>(s.board)};
          step = kBoardResp;
          deadline = static_cast<uint16_t>(now + RequestTrip());
          break;
        case kBoardResp:
          ring_send = true, send_request = false;
          ring_out = {true, ErapidLc::kRespHead, static_cast<uint64_t>(s.board)};
          step = kLinkResp;
          deadline = static_cast<uint16_t>(window_end_ + ChainTrip() + RequestTrip() + ResponseTrip());
          break;
        default:
          chain_send = true, send_request = false;
          chain_out = {true, ErapidLc::kRespHead, 0};
          step = kLinkReq;
          deadline = static_cast<uint16_t>(window_end_ + s.rw);
          break;
      }
    } else if (chain_send_) {
      chain_out.valid = true;
      chain_out.kind = send_request_ ? ErapidLc::kReqSlot : ErapidLc::kRespSlot;
      chain_out.data = send_request_ ? 0 : (uint64_t{on_now[send_count_]} << 3) | level_[send_count_];
      send_count = send_count_ + 1;
      if (send_count == slots_) chain_send = false;
    } else if (ring_send_) {
      ring_out.valid = true;
      ring_out.kind = send_request_ ? ErapidLc::kReqSlot : ErapidLc::kRespSlot;
      ring_out.data = send_request_ ? 0 : Holdings(Rel(send_count_, s.board));
      send_count = send_count_ + 1;
      if (send_count == b_) ring_send = false;
    }

    // Step 2a.
    if (chain_in.valid && chain_in.kind == ErapidLc::kReqHead) {
      rx_x = rx_y = 0;
      agg_busy.assign(b_, 0);
      agg_occ.assign(b_, 0);
    }
    if (chain_in.valid && chain_in.kind == ErapidLc::kReqSlot) {
      const bool powered = (chain_in.data >> 56) & 1;
      const uint32_t slot_window = (chain_in.data >> 40) & 0xffff;
      const uint32_t slot_busy = (chain_in.data >> 24) & 0xffff;
      const uint64_t slot_occ = chain_in.data & 0xffffff;
      const int laser = (rx_x_ * b_ + rx_y_) & (slots_ - 1);
      if (rx_x_ == 0 && rx_y_ == 0) window = static_cast<uint16_t>(slot_window);
      agg_busy[rx_y_] = (agg_busy_[rx_y_] + slot_busy) & Mask(busy_width_);
      agg_occ[rx_y_] = (agg_occ_[rx_y_] + slot_occ) & Mask(occ_width_);
      lit[laser] = powered;
      if (s.dpm && on_now[laser]) {
        if (!Above(slot_occ, s.b_min, s.capacity, slot_window)) {
          if (level_[laser] != 0) level[laser] = level_[laser] - 1;
        } else if (Above(slot_occ, s.b_max, s.capacity, slot_window)) {
          if (level_[laser] != top_) level[laser] = level_[laser] + 1;
        }
      }
      if (rx_y_ == b_ - 1) {
        rx_y = 0;
        rx_x = (rx_x_ + 1) & bmask;
      } else {
        rx_y = rx_y_ + 1;
      }
    }

    // The ring.
    if (ring_in.valid) {
      const bool head = ring_in.kind == ErapidLc::kReqHead || ring_in.kind == ErapidLc::kRespHead;
      const int requester = head ? static_cast<int>(ring_in.data & bmask) : ring_req_;
      const bool home = requester == s.board;
      const bool mine = !head && !home && ring_slot_ == s.board;
      const int source_rel = Rel(ring_slot_, s.board);
      if (head) {
        ring_req = requester;
        ring_slot = 0;
        if (home && ring_in.kind == ErapidLc::kReqHead) lit_anywhere.assign(b_, false);
      } else {
        ring_slot = (ring_slot_ + 1) & bmask;
      }
      if (!home) {
        ring_out = ring_in;
        if (mine && ring_in.kind == ErapidLc::kReqSlot) ring_out.data = Answer(requester);
        if (mine && ring_in.kind == ErapidLc::kRespSlot) {
          commanded[requester] = true;
          for (int x = 0; x < b_; ++x) {
            const int i = x * b_ + requester;
            on[i] = (ring_in.data >> x) & 1;
            if (on[i] && !on_now[i]) level[i] = top_;
          }
        }
      } else if (!head && ring_in.kind == ErapidLc::kReqSlot) {
        const uint64_t mask = ring_in.data >> (busy_width_ + occ_width_);
        for (int x = 0; x < b_; ++x) lit_anywhere[x] = lit_anywhere_[x] || ((mask >> x) & 1);
        cls[source_rel] = source_rel == 0 ? kNormal : Classify(ring_in.data, s, Held(source_rel));
        if (ring_slot_ == b_ - 1) {
          alloc = s.dbr;
          alloc_x = 0;
        }
      }
    }

    // Step 4: wavelength alloc_x.
    if (alloc_) {
      const int own = owner_[alloc_x_];
      const int stat = alloc_x_;
      if (own != 0 && class_[own] == kUnder) {
        owner[alloc_x_] = 0;
      } else if (own != 0 && own != stat && Wants(stat, s.degree)) {
        owner[alloc_x_] = 0;
      } else if (own == 0 && !lit_anywhere_[alloc_x_]) {
        if (Wants(stat, s.degree)) {
          owner[alloc_x_] = stat;
        } else {
          for (int i = 0; i < b_; ++i) {
            const int r = (rr_ + i) % b_;
            if (Wants(r, s.degree)) {
              owner[alloc_x_] = r;
              rr = (r + 1) % b_;
              break;
            }
          }
        }
      }
      alloc_x = (alloc_x_ + 1) & bmask;
      if (alloc_x_ == b_ - 1) alloc = false;
    }

    chain_out_ = chain_out;
    ring_out_ = ring_out;
    step_ = step, deadline_ = deadline, window_end_ = window_end;
    chain_send_ = chain_send, ring_send_ = ring_send, send_request_ = send_request;
    send_count_ = send_count;
    rx_x_ = rx_x, rx_y_ = rx_y, window_ = window;
    agg_busy_ = agg_busy, agg_occ_ = agg_occ, lit_ = lit;
    ring_req_ = ring_req, ring_slot_ = ring_slot;
    owner_ = owner, class_ = cls, lit_anywhere_ = lit_anywhere;
    alloc_ = alloc, alloc_x_ = alloc_x, rr_ = rr;
    on_ = on, commanded_ = commanded, level_ = level;
  }

  const Word& chain_out() const { return chain_out_; }
  const Word& ring_out() const { return ring_out_; }
  int step() const { return step_; }
  uint16_t deadline() const { return deadline_; }
  // Absolute source board of wavelength x into this board (this board itself: free).
  int owner(int x, int board) const { return (owner_[x] + board) % b_; }
  int source_class(int rel) const { return class_[rel]; }
  std::vector<bool> OnNow(int board) const {
    std::vector<bool> result(slots_);
    for (int i = 0; i < slots_; ++i) {
      const int x = i / b_, y = i % b_;
      result[i] = commanded_[y] ? on_[i] : (x != 0 && (x + y) % b_ == board);
    }
    return result;
  }
  int level(int i) const { return level_[i]; }

 private:
  static int Clog2(int n) {
    int w = 0;
    while ((1 << w) < n) ++w;
    return w;
  }
  static uint64_t Mask(int width) { return (uint64_t{1} << width) - 1; }
  int Rel(int source, int board) const { return ((source - board) % b_ + b_) % b_; }
  int Held(int rel) const {
    int n = 0;
    for (int own : owner_) n += own == rel;
    return n;
  }
  bool Wants(int rel, int degree) const { return rel != 0 && class_[rel] == kOver && Held(rel) < degree; }
  // occupancy x 256 > b x capacity x window
  static bool Above(uint64_t occupancy, uint32_t b, uint32_t capacity, uint32_t window) {
    return occupancy * 256 > uint64_t{b} * capacity * window;
  }
  int Classify(uint64_t data, const Straps& s, int held) const {
    const uint64_t busy = (data >> occ_width_) & Mask(busy_width_);
    const uint64_t occ = data & Mask(occ_width_);
    const int lasers = held == 0 ? 1 : held;
    if (held == 0 ? occ != 0 : Above(occ, s.b_con, s.capacity, window_)) return kOver;
    if (busy * 256 <= uint64_t{s.l_min} * window_ * lasers) return kUnder;
    return kNormal;
  }
  uint64_t Answer(int y) const {
    uint64_t mask = 0;
    for (int x = 0; x < b_; ++x) mask |= uint64_t{lit_[x * b_ + y]} << x;
    return (mask << (busy_width_ + occ_width_)) | (agg_busy_[y] << occ_width_) | agg_occ_[y];
  }
  uint64_t Holdings(int rel) const {
    uint64_t mask = 0;
    for (int x = 0; x < b_; ++x) mask |= uint64_t{owner_[x] == rel} << x;
    return mask;
  }

  int b_, slots_;
  uint8_t top_;
  int bw_, busy_width_, occ_width_;
  Word chain_out_, ring_out_;
  int step_ = kStart;
  uint16_t deadline_ = 0, window_end_ = 0;
  bool chain_send_ = false, ring_send_ = false, send_request_ = false;
  int send_count_ = 0;
  int rx_x_ = 0, rx_y_ = 0;
  uint16_t window_ = 0;
  std::vector<uint64_t> agg_busy_, agg_occ_;
  std::vector<bool> lit_;
  int ring_req_ = 0, ring_slot_ = 0;
  std::vector<int> owner_, class_;
  std::vector<bool> lit_anywhere_;
  bool alloc_ = false;
  int alloc_x_ = 0, rr_ = 0;
  std::vector<bool> on_, commanded_;
  std::vector<uint8_t> level_;
};

}  // namespace ref
