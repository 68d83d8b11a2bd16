// SPDX-License-Identifier: Apache-2.0
// photonic_switch_ctrl in lock-step with its reference model: random requests, most of them the
// ones a real circuit would send next (reserve on a free input channel, then walk-back or confirm,
// then teardown), some arbitrary (which the RTL must refuse exactly as the model does), in every
// mode and with a small buffer; every answer and the tables compared after every edge. Directed:
// a channel is never taken twice, the round-robin choice among candidates, the buffer ends a
// segment only where Algorithm 1 allows it, a teardown from the buffer frees its entry.
#include "catch.h"

#include <vector>

#include "Vphotonic_switch_ctrl7.h"
#include "core/rng.h"
#include "ref/photonic_switch_ctrl_ref.h"
#include "unit/dut.h"

namespace {

using icn::PhotonicMode;
using icn::PhotonicReq;
using icn::PhotonicRsp;
using icn::SwitchAnswer;
using icn::SwitchRequest;
using SwitchStraps = ref::PhotonicSwitchCtrl::Straps;

constexpr int kPorts = 7, kChannels = 8, kBuffer = kPorts;  // 8 channels at most, 5 in use unless set

struct Switch {
  tb::Dut<Vphotonic_switch_ctrl7> dut;
  ref::PhotonicSwitchCtrl model{kPorts, kChannels};

  SwitchAnswer Handle(const SwitchStraps& s, const SwitchRequest& r) {
    dut->mode_i = static_cast<uint8_t>(s.mode);
    dut->has_buffer_i = s.has_buffer;
    dut->slots_i = s.slots;
    dut->channels_i = static_cast<uint8_t>(s.channels);
    dut->buf_channels_i = static_cast<uint8_t>(s.buf_channels);
    dut->req_i = static_cast<uint8_t>(r.kind);
    dut->in_port_i = r.in_port;
    dut->in_ch_i = r.in_ch;
    dut->cand_i = r.candidates;
    dut->seg_src_i = r.segment_source;
    dut->eval();
    const SwitchAnswer rtl{static_cast<PhotonicRsp>(dut->rsp_o), dut->out_port_o, dut->out_ch_o};
    const SwitchAnswer expected = model.Handle(s, r);
    INFO("cycle " << dut.cycles() << " request " << int(r.kind) << " in " << int(r.in_port) << "/"
                  << int(r.in_ch));
    REQUIRE(int(rtl.kind) == int(expected.kind));
    REQUIRE(int(rtl.out_port) == int(expected.out_port));
    REQUIRE(int(rtl.out_ch) == int(expected.out_ch));
    dut.Clock();
    REQUIRE(dut->slots_used_o == model.slots_used());
    REQUIRE(int(dut->rr_o) == model.rr());
    for (int p = 0; p <= kPorts; ++p)
      for (int c = 0; c < kChannels; ++c)
        REQUIRE(((dut->busy_o >> (p * kChannels + c)) & 1) == model.busy(p, c));
    return rtl;
  }
};

SwitchRequest Request(PhotonicReq kind, int port, int ch, uint32_t candidates = 0, bool source = false) {
  return {kind, static_cast<uint8_t>(port), static_cast<uint8_t>(ch), candidates, source};
}

TEST_CASE("photonic_switch_ctrl: lock-step with the reference on random requests", "[unit]") {
  for (PhotonicMode mode : {PhotonicMode::kCircuit, PhotonicMode::kPacketised, PhotonicMode::kSegment}) {
    icn::Rng rng(tb::TestSeed() * 31 + static_cast<uint64_t>(mode));
    Switch sw;
    SwitchStraps s{mode, true, 3};
    struct Circuit {
      int port, ch;
      bool configured;
    };
    std::vector<Circuit> live;  // input channels holding an entry
    int answers[6] = {};
    for (int step = 0; step < 20000; ++step) {
      if (step % 4000 == 0) {
        s.has_buffer = rng.Below(4) != 0;
        s.channels = 1 + static_cast<int>(rng.Below(kChannels));
        s.buf_channels = 1 + static_cast<int>(rng.Below(3));
      }
      SwitchRequest r;
      const uint32_t pick = rng.Below(100);
      if (pick < 5) {  // anything at all
        r = Request(static_cast<PhotonicReq>(rng.Below(5)), rng.Below(kPorts + 1), rng.Below(kChannels),
                    rng.Below(1u << kPorts), rng.Below(2));
      } else if (pick < 55 || live.empty()) {  // a new circuit on a random input channel
        const int port = rng.Below(kPorts + 1);
        r = Request(PhotonicReq::kReserve, port, rng.Below(port == kBuffer ? 3 : kChannels),
                    rng.Below(1u << kPorts), rng.Below(4) == 0);
      } else {  // the next step of a circuit this switch holds
        const size_t i = rng.Below(static_cast<uint32_t>(live.size()));
        const Circuit c = live[i];
        const PhotonicReq kind = c.configured   ? PhotonicReq::kTeardown
                                 : rng.Below(2) ? PhotonicReq::kConfirm
                                                : PhotonicReq::kWalkBack;
        r = Request(kind, c.port, c.ch, 0, rng.Below(4) == 0);
      }
      const SwitchAnswer a = sw.Handle(s, r);
      // Follow the table: which input channels now hold an entry.
      live.clear();
      for (int p = 0; p <= kPorts; ++p)
        for (int c = 0; c < kChannels; ++c)
          if (sw.model.entry(p, c).used) live.push_back({p, c, sw.model.entry(p, c).configured});
      ++answers[static_cast<int>(a.kind)];
    }
    // Every answer happened (the buffer only where it may end a segment).
    for (PhotonicRsp k :
         {PhotonicRsp::kGranted, PhotonicRsp::kFailed, PhotonicRsp::kDone, PhotonicRsp::kError})
      CHECK(answers[static_cast<int>(k)] > 100);
    CHECK((answers[static_cast<int>(PhotonicRsp::kBuffered)] > 100) == (mode == PhotonicMode::kSegment));
  }
}

TEST_CASE("photonic_switch_ctrl: a channel is never taken twice", "[unit]") {
  Switch sw;
  const SwitchStraps s{PhotonicMode::kCircuit, false, 0};
  // Five circuits fill output 3; the sixth fails; an input channel already in use is refused.
  for (int ch = 0; ch < 5; ++ch) {
    const SwitchAnswer a = sw.Handle(s, Request(PhotonicReq::kReserve, 0, ch, 1u << 3));
    REQUIRE(a.kind == PhotonicRsp::kGranted);
    REQUIRE(a.out_port == 3);
    REQUIRE(a.out_ch == ch);
  }
  REQUIRE(sw.Handle(s, Request(PhotonicReq::kReserve, 1, 0, 1u << 3)).kind == PhotonicRsp::kFailed);
  REQUIRE(sw.Handle(s, Request(PhotonicReq::kReserve, 0, 2, 1u << 4)).kind == PhotonicRsp::kError);
  // A walk-back frees the channel for the next circuit; a teardown of an unconfirmed entry is refused.
  REQUIRE(sw.Handle(s, Request(PhotonicReq::kTeardown, 0, 1)).kind == PhotonicRsp::kError);
  REQUIRE(sw.Handle(s, Request(PhotonicReq::kWalkBack, 0, 1)).kind == PhotonicRsp::kFailed);
  const SwitchAnswer again = sw.Handle(s, Request(PhotonicReq::kReserve, 1, 0, 1u << 3));
  REQUIRE(again.kind == PhotonicRsp::kGranted);
  REQUIRE(again.out_ch == 1);
}

TEST_CASE("photonic_switch_ctrl: adaptive choice goes round the candidates", "[unit]") {
  Switch sw;
  const SwitchStraps s{PhotonicMode::kPacketised, false, 0};
  const uint32_t up = 0b1110000;  // ports 4, 5, 6
  std::vector<int> ports;
  for (int i = 0; i < 6; ++i)
    ports.push_back(sw.Handle(s, Request(PhotonicReq::kReserve, 0, i % 5, up)).out_port);
  // The sixth reserve reuses input channel 0: refused.
  CHECK(ports == std::vector<int>{4, 5, 6, 4, 5, 0});
}

TEST_CASE("photonic_switch_ctrl: the buffer ends a segment only where Algorithm 1 allows", "[unit]") {
  Switch sw;
  SwitchStraps s{PhotonicMode::kSegment, true, 1};
  for (int ch = 0; ch < 5; ++ch) sw.Handle(s, Request(PhotonicReq::kReserve, 0, ch, 1u << 2));
  // Output 2 is full: the segment's source cannot end it here; another switch can, once.
  REQUIRE(sw.Handle(s, Request(PhotonicReq::kReserve, 1, 0, 1u << 2, true)).kind == PhotonicRsp::kFailed);
  const SwitchAnswer b = sw.Handle(s, Request(PhotonicReq::kReserve, 1, 0, 1u << 2));
  REQUIRE(b.kind == PhotonicRsp::kBuffered);
  REQUIRE(b.out_port == kBuffer);
  REQUIRE(sw.dut->slots_used_o == 1);
  // The one slot is taken: the next failure finds no entry; in packetised mode none is ever tried.
  REQUIRE(sw.Handle(s, Request(PhotonicReq::kReserve, 1, 1, 1u << 2)).kind == PhotonicRsp::kFailed);
  s.slots = 4;
  s.mode = PhotonicMode::kPacketised;
  REQUIRE(sw.Handle(s, Request(PhotonicReq::kReserve, 1, 1, 1u << 2)).kind == PhotonicRsp::kFailed);
  // The buffer-in channel is busy while the first packet arrives: no second entry even with slots.
  s.mode = PhotonicMode::kSegment;
  REQUIRE(sw.Handle(s, Request(PhotonicReq::kReserve, 1, 1, 1u << 2)).kind == PhotonicRsp::kFailed);
  // Confirm, transfer, teardown: the slot stays taken (the packet is stored) until it leaves.
  REQUIRE(sw.Handle(s, Request(PhotonicReq::kConfirm, 1, 0)).kind == PhotonicRsp::kDone);
  REQUIRE(sw.Handle(s, Request(PhotonicReq::kTeardown, 1, 0)).kind == PhotonicRsp::kDone);
  REQUIRE(sw.dut->slots_used_o == 1);
  const SwitchAnswer out = sw.Handle(s, Request(PhotonicReq::kReserve, kBuffer, 0, 1u << 5));
  REQUIRE(out.kind == PhotonicRsp::kGranted);
  REQUIRE(sw.Handle(s, Request(PhotonicReq::kConfirm, kBuffer, 0)).kind == PhotonicRsp::kDone);
  REQUIRE(sw.Handle(s, Request(PhotonicReq::kTeardown, kBuffer, 0)).kind == PhotonicRsp::kDone);
  REQUIRE(sw.dut->slots_used_o == 0);
}

}  // namespace
