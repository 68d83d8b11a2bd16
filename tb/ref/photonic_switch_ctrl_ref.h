// SPDX-License-Identifier: Apache-2.0
// Reference model of rtl/photonic/photonic_switch_ctrl.sv, request for request: the channel table
// of every output (the buffer port last; channels_ of them, the first Straps::channels in use), the converter
// entry of every input channel, the buffer's entry count and the round-robin pointer of the reserve. Handle()
// answers from the state before the edge and applies the request, as the RTL does at its clock edge.
#pragma once
#include <cstdint>
#include <vector>

#include "net/photonic/switch_control.h"

namespace ref {

class PhotonicSwitchCtrl {
 public:
  struct Straps {
    icn::PhotonicMode mode = icn::PhotonicMode::kSegment;
    bool has_buffer = true;
    uint32_t slots = 8;
    int channels = 5;      // in use per link (the RTL's channels_i)
    int buf_channels = 1;  // of the buffer port (buf_channels_i)
  };
  struct Entry {
    bool used = false, configured = false;
    int port = 0, ch = 0;
  };

  PhotonicSwitchCtrl(int ports, int channels)
      : ports_(ports),
        channels_(channels),
        busy_((ports + 1) * channels, false),
        conv_((ports + 1) * channels) {}

  icn::SwitchAnswer Handle(const Straps& s, const icn::SwitchRequest& r) {
    using icn::PhotonicReq;
    using icn::PhotonicRsp;
    icn::SwitchAnswer a;
    if (r.kind == PhotonicReq::kNone) return a;
    channels_in_use_ = s.channels;
    buf_channels_ = s.buf_channels;
    const bool bad = r.in_port > ports_ || r.in_ch >= channels_ ||
                     (r.in_port == ports_ ? r.in_ch >= buf_channels_ : r.in_ch >= s.channels);
    const int index = r.in_port * channels_ + r.in_ch;
    Entry e = bad ? Entry{} : conv_[index];
    a.kind = PhotonicRsp::kError;
    switch (r.kind) {
      case PhotonicReq::kReserve: {
        if (bad || e.used) return a;
        for (int i = 0; i < ports_; ++i) {
          const int p = (rr_ + i) % ports_;
          if (!(r.candidates >> p & 1) || FreeChannel(p) < 0) continue;
          const int ch = FreeChannel(p);
          Take(index, p, ch);
          rr_ = (p + 1) % ports_;
          return {PhotonicRsp::kGranted, static_cast<uint8_t>(p), static_cast<uint8_t>(ch)};
        }
        return TryBuffer(s, r, index);
      }
      case PhotonicReq::kWalkBack:
        if (bad || !e.used || e.configured || e.port == ports_) return a;
        busy_[e.port * channels_ + e.ch] = false;
        conv_[index] = Entry{};
        return TryBuffer(s, r, index);
      case PhotonicReq::kConfirm:
        if (bad || !e.used || e.configured) return a;
        conv_[index].configured = true;
        return {PhotonicRsp::kDone, static_cast<uint8_t>(e.port), static_cast<uint8_t>(e.ch)};
      case PhotonicReq::kTeardown:
        if (bad || !e.configured || (r.in_port == ports_ && slots_ == 0)) return a;
        busy_[e.port * channels_ + e.ch] = false;
        conv_[index] = Entry{};
        if (r.in_port == ports_) --slots_;
        return {PhotonicRsp::kDone, static_cast<uint8_t>(e.port), static_cast<uint8_t>(e.ch)};
      default:
        return a;
    }
  }

  bool busy(int port, int ch) const { return busy_[port * channels_ + ch]; }
  uint32_t slots_used() const { return slots_; }
  int rr() const { return rr_; }
  const Entry& entry(int port, int ch) const { return conv_[port * channels_ + ch]; }

 private:
  // Lowest free channel of an output (the buffer port: of its usable ones), or -1.
  int FreeChannel(int port) const {
    const int usable = port == ports_ ? buf_channels_ : channels_in_use_;
    for (int c = 0; c < usable; ++c)
      if (!busy_[port * channels_ + c]) return c;
    return -1;
  }
  void Take(int index, int port, int ch) {
    busy_[port * channels_ + ch] = true;
    conv_[index] = Entry{true, false, port, ch};
  }
  icn::SwitchAnswer TryBuffer(const Straps& s, const icn::SwitchRequest& r, int index) {
    const int ch = FreeChannel(ports_);
    if (s.mode != icn::PhotonicMode::kSegment || !s.has_buffer || r.segment_source || ch < 0 ||
        slots_ >= s.slots) {
      return {icn::PhotonicRsp::kFailed, 0, 0};
    }
    Take(index, ports_, ch);
    ++slots_;
    return {icn::PhotonicRsp::kBuffered, static_cast<uint8_t>(ports_), static_cast<uint8_t>(ch)};
  }

  int ports_, channels_;
  int buf_channels_ = 1;
  int channels_in_use_ = 0;
  std::vector<bool> busy_;
  std::vector<Entry> conv_;
  uint32_t slots_ = 0;
  int rr_ = 0;
};

}  // namespace ref
