// SPDX-License-Identifier: Apache-2.0
// Reference model of rtl/torus/torus_swap_ctrl.sv and torus_swap_ring.sv: per node the swap
// criterion, the a-b-c handshake (lock, grant or deny, then the paper's switch with b's input
// blocked, or a drain and a switch or abort with a's, b's and c's inputs blocked), the Tr-step block,
// the routing table and its notification round the cycle; per cycle the order the swaps change.
// Written from the protocol's description, edge by edge, independently of the RTL's structure.
#pragma once
#include <cstdint>
#include <vector>

#include "ref/torus_swap_criterion_ref.h"

namespace ref {

enum SwapMsg : uint8_t { kNone, kLockB, kLockC, kGrant, kDeny, kDrain, kSwitch, kAbort };
enum SwapRole : uint8_t { kIdle, kAWait, kAHold, kBWait, kBGranted, kBDrain, kBSwitch, kCHold, kBlocked };
constexpr uint16_t kReplySteps = 8;  // a and b wait this long for Grant or Deny

struct SwapStraps {
  TorusSwapCriterion::Straps criterion;
  uint32_t block = 32;  // Tr
  bool drain = false;   // the drain protocol; false: the paper's
};

// A word between neighbours: the handshake part (msg with a's and b's labels) and a notification.
struct SwapWord {
  uint8_t msg = kNone, a = 0, b = 0;
  bool note = false;
  uint8_t note_a = 0, note_b = 0, note_pos = 0, note_hops = 0;
};

class TorusSwapCtrl {
 public:
  struct Inputs {
    bool arrive_self = false, arrive_next = false, orig_near = false, orig_far = false, orig_back = false;
    uint32_t back_hops = 1;
    bool drained = false;
    uint32_t b_orig = 0, b_back = 0;
    SwapWord from_pred, from_succ;  // down word of the predecessor, up word of the successor
  };

  TorusSwapCtrl(int nodes, int label) : nodes_(nodes), label_(label), pos_(nodes) {
    for (int k = 0; k < nodes; ++k) pos_[k] = static_cast<uint8_t>(k);
  }

  void Clock(uint16_t now, const SwapStraps& s, const Inputs& in) {
    const uint8_t dn = in.from_pred.msg, up = in.from_succ.msg;
    const bool pending = pending_;  // this edge sends the note c had before it
    const auto next_pos = [&](int p) { return static_cast<uint8_t>((p + 1) % nodes_); };
    SwapWord down, upw;
    down.a = upw.a = a_;
    down.b = upw.b = b_;
    std::vector<uint8_t> pos = pos_;
    bool updated = false, swapped = false;
    uint8_t role = role_;
    uint16_t until = until_;
    uint8_t a = a_, b = b_;
    switch (role_) {
      case kIdle:
        if (dn == kLockB) {
          role = kBWait;
          a = in.from_pred.a;
          b = static_cast<uint8_t>(label_);
          down.msg = kLockC;
          down.a = a;
          down.b = b;
          until = static_cast<uint16_t>(now + kReplySteps);
        } else if (dn == kLockC && !pending) {
          role = kCHold;
          a = in.from_pred.a;
          b = in.from_pred.b;
          upw.msg = kGrant;
          upw.b = b;
        } else if (dn == kLockC) {
          upw.msg = kDeny;
        } else if (criterion_.want()) {
          role = kAWait;
          a = static_cast<uint8_t>(label_);
          down.msg = kLockB;
          down.a = a;
          until = static_cast<uint16_t>(now + kReplySteps);
        }
        break;
      case kAWait:
        if (up == kGrant) {
          role = kAHold;
          b = in.from_succ.b;
          down.msg = kDrain;
        } else if (up == kDeny || now == until_) {  // a Deny lost to a switch: give up
          role = kIdle;
        }
        break;
      case kBWait:
        if (up == kGrant || up == kDeny) {
          role = up == kGrant ? kBGranted : kIdle;
          upw.msg = up;
        } else if (now == until_) {  // c's Deny lost to a switch: give up, silently
          role = kIdle;
        }
        break;
      case kBGranted:
        if (dn == kDrain && s.drain) {
          role = kBDrain;
          until = static_cast<uint16_t>(now + s.criterion.period);
        } else if (dn == kDrain) {  // the paper's swap switches at once
          role = kBSwitch;
          down.msg = upw.msg = kSwitch;
        }
        break;
      case kBDrain:
        if (in.drained || now == until_) {
          role = in.drained ? kBSwitch : kIdle;
          down.msg = upw.msg = in.drained ? kSwitch : kAbort;
        }
        break;
      case kAHold:
      case kBSwitch:
      case kCHold: {
        const uint8_t heard = role_ == kCHold ? dn : up;
        if (role_ == kBSwitch || heard == kSwitch) {
          // a was at p, b at p + 1; this node knows its own place exactly.
          const int back = role_ == kAHold ? 0 : role_ == kBSwitch ? 1 : 2;
          const uint8_t p = static_cast<uint8_t>((pos_[label_] + nodes_ - back) % nodes_);
          role = role_ == kBSwitch || s.drain ? kBlocked : kIdle;  // the paper's blocks only b
          until = static_cast<uint16_t>(now + s.block);
          swapped = role_ != kCHold;
          pos[b_] = p;
          pos[a_] = next_pos(p);
          updated = true;
          if (role_ == kCHold) {
            pending_note_ = {kNone, 0, 0, true, a_, b_, p, static_cast<uint8_t>(nodes_ - 3)};
            pending_ = true;
          }
        } else if (heard == kAbort) {
          role = kIdle;
        }
        break;
      }
      case kBlocked:
        if (now == until_) role = kIdle;
        break;
    }
    if (role_ != kIdle && (dn == kLockB || dn == kLockC)) upw.msg = kDeny;

    const SwapWord& note = in.from_pred;
    SwapWord out_note;
    if (note.note) {
      pos[note.note_b] = note.note_pos;
      pos[note.note_a] = next_pos(note.note_pos);
      updated = true;
    }
    if (note.note && note.note_hops > 1) {
      out_note = note;
      --out_note.note_hops;
    } else if (pending) {
      out_note = pending_note_;
      pending_ = false;
    }
    down.note = out_note.note;
    down.note_a = out_note.note_a;
    down.note_b = out_note.note_b;
    down.note_pos = out_note.note_pos;
    down.note_hops = out_note.note_hops;

    TorusSwapCriterion::Events e;
    e.arrive_self = in.arrive_self;
    e.arrive_next = in.arrive_next;
    e.orig_near = in.orig_near;
    e.orig_far = in.orig_far;
    e.orig_back = in.orig_back;
    e.back_hops = in.back_hops;
    e.swapped = swapped;
    e.b_orig = in.b_orig;
    e.b_back = in.b_back;
    criterion_.Clock(now, s.criterion, e);

    role_ = role;
    drain_ = s.drain;
    until_ = until;
    a_ = a;
    b_ = b;
    pos_ = pos;
    updated_ = updated;
    dn_word_ = down;
    up_word_ = upw;
  }

  uint8_t role() const { return role_; }
  bool hold_out() const { return role_ == kAHold && drain_; }
  bool hold_admit() const { return role_ == kBDrain; }
  bool block_in() const { return role_ == kBlocked; }
  bool switching() const { return role_ == kBSwitch; }
  bool updated() const { return updated_; }
  const std::vector<uint8_t>& table() const { return pos_; }
  const SwapWord& down() const { return dn_word_; }  // to the successor
  const SwapWord& up() const { return up_word_; }    // to the predecessor
  const TorusSwapCriterion& criterion() const { return criterion_; }
  uint16_t deadline() const { return role_ == kBDrain || role_ == kBlocked ? until_ : criterion_.deadline(); }

 private:
  int nodes_, label_;
  TorusSwapCriterion criterion_;
  uint8_t role_ = kIdle, a_ = 0, b_ = 0;
  bool drain_ = false;  // the protocol strap of the last edge (a holds only in the drain protocol)
  uint16_t until_ = 0;
  std::vector<uint8_t> pos_;
  bool updated_ = false, pending_ = false;
  SwapWord pending_note_, dn_word_, up_word_;
};

// The P controllers of one directed cycle and its order.
class TorusSwapRing {
 public:
  struct NodeInputs {
    bool arrive_self = false, arrive_next = false, orig_near = false, orig_far = false, orig_back = false;
    uint32_t back_hops = 1;
    bool drained = false;
    uint32_t back = 0;  // the node's back total in the opposite ring
  };

  explicit TorusSwapRing(int nodes) : nodes_(nodes), succ_(nodes), pred_(nodes) {
    for (int k = 0; k < nodes; ++k) {
      ctrl_.emplace_back(nodes, k);
      succ_[k] = (k + 1) % nodes;
      pred_[k] = (k + nodes - 1) % nodes;
    }
  }

  // Each node's LFSR seed, as the ring straps it.
  static uint16_t NodeSeed(uint16_t ring_seed, int label) {
    return static_cast<uint16_t>(ring_seed ^ static_cast<uint16_t>(label * 0x9e37) ^ 0x5a5a);
  }

  void Clock(uint16_t now, const SwapStraps& s, const std::vector<NodeInputs>& in) {
    std::vector<TorusSwapCtrl::Inputs> inputs(nodes_);
    for (int k = 0; k < nodes_; ++k) {
      const int next = succ_[k];
      TorusSwapCtrl::Inputs& x = inputs[k];
      x.arrive_self = in[k].arrive_self;
      x.arrive_next = in[k].arrive_next;
      x.orig_near = in[k].orig_near;
      x.orig_far = in[k].orig_far;
      x.orig_back = in[k].orig_back;
      x.back_hops = in[k].back_hops;
      x.drained = in[k].drained;
      x.b_orig = (ctrl_[next].criterion().near() + ctrl_[next].criterion().far()) & 0xffff;
      x.b_back = in[next].back;
      x.from_pred = ctrl_[pred_[k]].down();
      x.from_succ = ctrl_[next].up();
    }
    std::vector<int> succ = succ_, pred = pred_;
    for (int b = 0; b < nodes_; ++b) {
      if (!ctrl_[b].switching()) continue;
      const int a = pred_[b], u = pred_[a], c = succ_[b];
      succ[u] = b;
      pred[b] = u;
      succ[b] = a;
      pred[a] = b;
      succ[a] = c;
      pred[c] = a;
    }
    for (int k = 0; k < nodes_; ++k) {
      SwapStraps node = s;
      node.criterion.seed = NodeSeed(s.criterion.seed, k);
      ctrl_[k].Clock(now, node, inputs[k]);
    }
    succ_ = succ;
    pred_ = pred;
  }

  const TorusSwapCtrl& node(int label) const { return ctrl_[label]; }
  int succ(int label) const { return succ_[label]; }
  int pred(int label) const { return pred_[label]; }

 private:
  int nodes_;
  std::vector<TorusSwapCtrl> ctrl_;
  std::vector<int> succ_, pred_;
};

}  // namespace ref
