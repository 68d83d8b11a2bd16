// SPDX-License-Identifier: Apache-2.0
// Adapter of the photonic switch control planes: one verilated photonic_switch_ctrl per switch of
// the photonic data plane, which asks it (SwitchControl::Handle) for each control-network request
// it serves. The answer is the model's combinational output for that request; the model's
// registers take it on the clock edge closing the cycle, which comes as soon as the switch has no
// more requests that cycle (Close; in a traced run, or with every edge, Step clocks every model
// instead). A switch with no request is not clocked (its tables hold; it has no time base). The data
// plane may ask different switches from different threads at once.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "mech/mechanism.h"
#include "mech/verilated_unit.h"
#include "net/photonic/photonic_network.h"
#include "net/photonic/photonic_params.h"
#include "net/photonic/switch_control.h"

class VerilatedContext;

namespace icn {

struct PhotonicConfig : MechanismConfig {
  PhotonicParams params;
};

class PhotonicControl : public Mechanism, public SwitchControl {
 public:
  static constexpr int kMaxChannels = 8;  // photonic_switch_ctrl's Channels
  // The radix the adapter takes (SwitchRequest::candidates is a 32-bit mask); each is verilated on
  // first use if not built in (mech/model_catalogue.h).
  static constexpr int kMostPorts = 32;

  // One verilated switch behind an interface that does not depend on its radix.
  class Model : public VerilatedUnit {
   public:
    virtual SwitchAnswer Handle(const SwitchRequest& request) = 0;  // sets the inputs, settles
    virtual void Idle() = 0;                                        // no request at the next edge
    virtual uint32_t SlotsUsed() const = 0;
    virtual int HeldChannels() const = 0;  // busy channel bits, buffer port included
    virtual uint64_t Digest() const = 0;
  };
  // Makes the model of one switch (MakeSwitchOf<V>, mech/photonic/photonic_switch_model.h; any
  // radix, found by mech/model_catalogue.h).
  using MakeSwitch = std::unique_ptr<Model> (*)(VerilatedContext* context, const std::string& name,
                                                const PhotonicParams& p, bool buffered);

  PhotonicControl(const PhotonicConfig& config, const MechanismContext& context);
  ~PhotonicControl() override;

  SwitchAnswer Handle(int sw, const SwitchRequest& request, int lane) override;
  void Close(int sw, int lane) override;
  uint32_t SlotsUsed(int sw) const override { return models_[sw]->SlotsUsed(); }
  int HeldChannels(int sw) const override { return models_[sw]->HeldChannels(); }

  void Step(uint64_t now) override;
  uint64_t RestsUntil(uint64_t now) const override { return every_edge_ ? now : UINT64_MAX; }
  void Report(nlohmann::json& results) const override;
  std::vector<std::string> Problems() const override { return net_.Problems(); }
  uint64_t Digest() const override;

 private:
  PhotonicConfig config_;
  PhotonicNetwork& net_;
  Tracer& tracer_;
  std::unique_ptr<VerilatedContext> context_;
  std::vector<std::unique_ptr<Model>> models_;
  EnergyLedger::Controllers* controllers_ = nullptr;
  std::vector<int> handled_;     // switches asked this cycle (with every edge: one thread)
  std::vector<uint64_t> asked_;  // per switch: the last cycle it was asked
  struct alignas(64) Lane {      // one thread's register activity this cycle, on its own cache line
    uint64_t toggles = 0;
  };
  std::vector<Lane> lanes_;
  uint64_t cycle_ = 0;  // the cycle being served
  bool every_edge_;
};

}  // namespace icn
