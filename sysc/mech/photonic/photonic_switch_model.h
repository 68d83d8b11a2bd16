// SPDX-License-Identifier: Apache-2.0
// The photonic adapter's switch (PhotonicControl::Model) for one verilated photonic_switch_ctrl: a
// template over the model, whose radix comes from its ModelInfo. Built-in models instantiate it in
// the build (generated/built_models.cpp), others in the library scripts/model_build.py makes on
// first use (mech/model_catalogue.h).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "mech/clocking.h"
#include "mech/model_info.h"
#include "mech/photonic/photonic_control.h"
#include "mech/signal_bits.h"

namespace icn {

// One switch of kPorts ports (the model's Ports) and kMaxChannels channels per link.
template <typename V>
class SwitchModel : public VerilatedUnitOf<PhotonicControl::Model, V> {
 public:
  static constexpr int kPorts = ModelInfo<V>::Params::Ports;
  static_assert(ModelInfo<V>::Params::Channels == PhotonicControl::kMaxChannels, "channels per link");
  static_assert(kPorts <= PhotonicControl::kMostPorts, "a radix the adapter takes");

  SwitchModel(VerilatedContext* context, const std::string& name, const PhotonicParams& p, bool buffered)
      : VerilatedUnitOf<PhotonicControl::Model, V>(context, name) {
    V& m = *model_;
    m.mode_i = static_cast<uint8_t>(p.mode);
    m.has_buffer_i = buffered;
    m.slots_i = p.slots;
    m.channels_i = static_cast<uint8_t>(p.channels);
    m.buf_channels_i = static_cast<uint8_t>(p.buffer_channels);
    Idle();
    Reset(m);
    this->StartCounting();
  }

  SwitchAnswer Handle(const SwitchRequest& r) override {
    V& m = *model_;
    m.req_i = static_cast<uint8_t>(r.kind);
    m.in_port_i = r.in_port;
    m.in_ch_i = r.in_ch;
    m.cand_i = r.candidates;
    m.seg_src_i = r.segment_source;
    m.eval();  // the clock stays high: the answer settles, no edge
    return {static_cast<PhotonicRsp>(m.rsp_o), m.out_port_o, m.out_ch_o};
  }
  void Idle() override {
    V& m = *model_;
    m.req_i = 0;
    m.in_port_i = m.in_ch_i = 0;
    m.cand_i = 0;
    m.seg_src_i = 0;
  }
  uint32_t SlotsUsed() const override { return model_->slots_used_o; }
  int HeldChannels() const override {
    int held = 0;
    for (int bit = 0; bit < (kPorts + 1) * PhotonicControl::kMaxChannels; bit += 32)
      held += __builtin_popcountll(Bits(model_->busy_o, bit, 32));
    return held;
  }
  uint64_t Digest() const override {
    const V& m = *model_;
    uint64_t d = m.slots_used_o | static_cast<uint64_t>(m.rr_o) << 32;
    for (int bit = 0; bit < (kPorts + 1) * PhotonicControl::kMaxChannels; bit += 32)
      d = (d ^ Bits(m.busy_o, bit, 32)) * 0x100000001b3ULL;
    return d;
  }

 private:
  using VerilatedUnitOf<PhotonicControl::Model, V>::model_;
};

// The adapter's factory of switches of the model (a PhotonicControl::MakeSwitch).
template <typename V>
std::unique_ptr<PhotonicControl::Model> MakeSwitchOf(VerilatedContext* context, const std::string& name,
                                                     const PhotonicParams& p, bool buffered) {
  return std::make_unique<SwitchModel<V>>(context, name, p, buffered);
}

}  // namespace icn
