// SPDX-License-Identifier: Apache-2.0
// Adapter of the reconfigurable torus's node-swap controllers: one verilated torus_swap_ring (the
// P controllers of one directed cycle and its order) per ring of the packet-step torus. Each step
// it hands every controller its node's flux events in that ring (PacketStepTorus::Member::events),
// whether its queues there are empty, and its back total in the opposite ring; and applies the
// outputs: a holds its output, b admits only from upstream, the blocked receivers accept nothing,
// a new order re-aims the ring's links, and a node's routing table follows its controller's.
// A ring with no event, no controller busy and no deadline this step is not clocked.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "mech/mechanism.h"
#include "mech/torus/torus_swap_config.h"
#include "mech/verilated_unit.h"
#include "net/packet_step_torus.h"

class VerilatedContext;

namespace icn {

class TorusSwapControl : public Mechanism {
 public:
  // The cycle lengths P the adapter takes (torus_swap_ctrl asserts P >= 4; 16 is the largest run
  // here). Each is verilated on first use if not built in (mech/model_catalogue.h).
  static constexpr int kFewestNodes = 4, kMostNodes = 16;

  // One verilated ring behind an interface that does not depend on P.
  class Ring : public VerilatedUnit {
   public:
    // Sets the inputs (per label: events, drained, back) for the edge closing `now`.
    virtual void Prepare(uint16_t now, const PacketStepTorus& net, int ring,
                         const std::vector<uint32_t>& back) = 0;
    virtual uint32_t Mask(int which) const = 0;  // kHoldOut .. kBusy, bit per label
    virtual uint32_t Role(int label) const = 0;
    virtual uint32_t Back(int label) const = 0;
    virtual uint32_t Threshold(int label) const = 0;
    virtual uint16_t Deadline(int label) const = 0;
    virtual int Succ(int label) const = 0;
    virtual uint8_t Place(int viewer, int label) const = 0;
  };
  // Makes the model of one ring (MakeRingOf<V>, mech/torus/torus_ring_model.h).
  using MakeRing = std::unique_ptr<Ring> (*)(VerilatedContext* context, const std::string& name,
                                             const TorusSwapConfig& c, uint16_t seed);
  enum Output { kHoldOut, kHoldAdmit, kBlockIn, kSwitching, kUpdated, kBusy };

  TorusSwapControl(const TorusSwapConfig& config, const MechanismContext& context);
  ~TorusSwapControl() override;

  void Step(uint64_t now) override;
  uint64_t RestsUntil(uint64_t now) const override;
  void Report(nlohmann::json& results) const override;
  uint64_t Digest() const override;
  std::vector<std::string> TimeseriesColumns() const override;
  void SampleTimeseries(std::vector<double>& row) const override;

  uint64_t swaps() const { return swaps_; }
  uint64_t aborts() const { return aborts_; }
  double MeanThreshold() const;
  // The back total (F'_ba for its predecessor in the opposite ring) a node's controller in `ring`
  // latched at its last period end, as last read.
  uint32_t BackTotal(int ring, int label) const { return back_[ring][label]; }
  // Routing-table entries that differ from the true places now (notifications still travelling,
  // or missed while a swap re-wired the cycle they travelled on).
  int StaleEntries() const;

 private:
  // Applies ring r's outputs after its edge to the data plane and the adapter's copies.
  void Apply(int ring);

  TorusSwapConfig config_;
  PacketStepTorus& net_;
  Tracer& tracer_;
  std::unique_ptr<VerilatedContext> context_;
  std::vector<std::unique_ptr<Ring>> rings_;
  EnergyLedger::Controllers* controllers_ = nullptr;
  std::vector<std::vector<uint32_t>> back_;  // per ring, per label: the back total last read
  std::vector<std::vector<uint8_t>> roles_;  // per ring, per label: its role, last read
  std::vector<uint8_t> busy_;                // per ring: a controller must be clocked next step
  std::vector<std::vector<uint16_t>> deadline_;
  bool every_edge_;
  uint64_t swaps_ = 0, aborts_ = 0, denials_ = 0;
  mutable uint64_t swaps_sampled_ = 0;
  std::vector<uint8_t> clocked_;        // per ring: clocked this step (scratch)
  std::vector<uint32_t> back_scratch_;  // the back totals one ring reads (scratch)
};

}  // namespace icn
