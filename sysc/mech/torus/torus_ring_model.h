// SPDX-License-Identifier: Apache-2.0
// The torus swap adapter's ring (TorusSwapControl::Ring) for one verilated torus_swap_ring: a
// template over the model, whose cycle length P and field widths come from its ModelInfo. Built-in
// models instantiate it in the build (generated/built_models.cpp), others in the library
// scripts/model_build.py makes on first use (mech/model_catalogue.h).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mech/clocking.h"
#include "mech/model_info.h"
#include "mech/signal_bits.h"
#include "mech/torus/torus_swap_control.h"

namespace icn {

// One ring of P controllers (P = the model's Nodes).
template <typename Model>
class RingModel : public VerilatedUnitOf<TorusSwapControl::Ring, Model> {
 public:
  static constexpr int kNodes = ModelInfo<Model>::Params::Nodes;
  // The widths of its per-node fields: label, count, back total, time, role.
  using Widths = typename ModelInfo<Model>::PortBits;
  static constexpr int kLabel = Widths::succ_o / kNodes, kCount = Widths::threshold_o / kNodes,
                       kBack = Widths::back_o / kNodes, kTime = Widths::deadline_o / kNodes,
                       kRole = Widths::role_o / kNodes;
  static_assert(kNodes >= TorusSwapControl::kFewestNodes && kNodes <= TorusSwapControl::kMostNodes,
                "a cycle length the adapter takes");

  RingModel(VerilatedContext* context, const std::string& name, const TorusSwapConfig& c, uint16_t seed)
      : VerilatedUnitOf<TorusSwapControl::Ring, Model>(context, name) {
    Model& m = *model_;
    m.period_i = static_cast<uint16_t>(c.period);
    m.variant_i = static_cast<uint8_t>(c.variant_code);
    m.threshold_i = static_cast<uint16_t>(c.threshold);
    m.cost_i = static_cast<uint16_t>(c.cost);
    m.extra_hops_i = static_cast<uint8_t>(kNodes - 2);
    m.back_credit_i = c.back_credit_hops;
    m.step_i = static_cast<uint16_t>(c.step);
    m.rare_periods_i = static_cast<uint8_t>(c.rare_periods);
    m.seed_i = seed;
    m.block_i = static_cast<uint16_t>(c.block);
    m.drain_i = c.drain;
    m.now_i = 0;
    m.arrive_self_i = m.arrive_next_i = m.orig_near_i = m.orig_far_i = m.orig_back_i = 0;
    SetBits(m.drained_i, 0, kNodes, ~uint64_t{0});
    for (int k = 0; k < kNodes; ++k) {
      SetBits(m.back_i, k * kBack, kBack, 0);
      SetBits(m.back_hops_i, k * kLabel, kLabel, 0);
    }
    Reset(m);
    this->StartCounting();
  }

  void Prepare(uint16_t now, const PacketStepTorus& net, int ring,
               const std::vector<uint32_t>& back) override {
    Model& m = *model_;
    m.now_i = now;
    uint32_t self = 0, next = 0, near = 0, far = 0, back_event = 0, drained = 0;
    for (int k = 0; k < kNodes; ++k) {
      const PacketStepTorus::Member& member = net.member(ring, k);
      const uint8_t e = member.events;
      self |= static_cast<uint32_t>((e & PacketStepTorus::kArriveSelf) != 0) << k;
      next |= static_cast<uint32_t>((e & PacketStepTorus::kArriveNext) != 0) << k;
      near |= static_cast<uint32_t>((e & PacketStepTorus::kOrigNear) != 0) << k;
      far |= static_cast<uint32_t>((e & PacketStepTorus::kOrigFar) != 0) << k;
      back_event |= static_cast<uint32_t>((e & PacketStepTorus::kOrigBack) != 0) << k;
      drained |= static_cast<uint32_t>(member.in.empty() && member.out.empty()) << k;
      SetBits(m.back_i, k * kBack, kBack, back[k]);
      SetBits(m.back_hops_i, k * kLabel, kLabel, member.back_hops);
    }
    SetBits(m.arrive_self_i, 0, kNodes, self);
    SetBits(m.arrive_next_i, 0, kNodes, next);
    SetBits(m.orig_near_i, 0, kNodes, near);
    SetBits(m.orig_far_i, 0, kNodes, far);
    SetBits(m.orig_back_i, 0, kNodes, back_event);
    SetBits(m.drained_i, 0, kNodes, drained);
  }
  uint32_t Mask(int which) const override {
    const Model& m = *model_;
    switch (which) {
      case TorusSwapControl::kHoldOut:
        return m.hold_out_o;
      case TorusSwapControl::kHoldAdmit:
        return m.hold_admit_o;
      case TorusSwapControl::kBlockIn:
        return m.block_in_o;
      case TorusSwapControl::kSwitching:
        return m.switching_o;
      case TorusSwapControl::kUpdated:
        return m.updated_o;
      default:
        return m.busy_o;
    }
  }
  uint32_t Role(int label) const override {
    return static_cast<uint32_t>(Bits(model_->role_o, label * kRole, kRole));
  }
  uint32_t Back(int label) const override {
    return static_cast<uint32_t>(Bits(model_->back_o, label * kBack, kBack));
  }
  uint32_t Threshold(int label) const override {
    return static_cast<uint32_t>(Bits(model_->threshold_o, label * kCount, kCount));
  }
  uint16_t Deadline(int label) const override {
    return static_cast<uint16_t>(Bits(model_->deadline_o, label * kTime, kTime));
  }
  int Succ(int label) const override {
    return static_cast<int>(Bits(model_->succ_o, label * kLabel, kLabel));
  }
  uint8_t Place(int viewer, int label) const override {
    return static_cast<uint8_t>(Bits(model_->table_o, (viewer * kNodes + label) * kLabel, kLabel));
  }

 private:
  using VerilatedUnitOf<TorusSwapControl::Ring, Model>::model_;
};

// The adapter's factory of rings of the model (a TorusSwapControl::MakeRing).
template <typename Model>
std::unique_ptr<TorusSwapControl::Ring> MakeRingOf(VerilatedContext* context, const std::string& name,
                                                   const TorusSwapConfig& c, uint16_t seed) {
  return std::make_unique<RingModel<Model>>(context, name, c, seed);
}

}  // namespace icn
