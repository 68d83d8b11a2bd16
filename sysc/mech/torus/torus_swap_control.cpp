#include "mech/torus/torus_swap_control.h"

#include <algorithm>
#include <string>

#include "Vtorus_swap_ring.h"
#include "Vtorus_swap_ring4.h"
#include "Vtorus_swap_ring4_info.h"
#include "Vtorus_swap_ring6.h"
#include "Vtorus_swap_ring6_info.h"
#include "Vtorus_swap_ring_info.h"
#include "core/errors.h"
#include "core/tracer.h"
#include "mech/clocking.h"
#include "mech/signal_bits.h"

namespace icn {
namespace {

constexpr int kCount = 16, kBack = 24, kTime = 16, kRole = 4;

template <typename Model, int kNodes>
class RingModel : public VerilatedUnitOf<TorusSwapControl::Ring, Model> {
 public:
  static constexpr int kLabel = kNodes <= 4 ? 2 : kNodes <= 8 ? 3 : 4;

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
    m.drained_i = (1u << kNodes) - 1;
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
    m.arrive_self_i = static_cast<uint8_t>(self);
    m.arrive_next_i = static_cast<uint8_t>(next);
    m.orig_near_i = static_cast<uint8_t>(near);
    m.orig_far_i = static_cast<uint8_t>(far);
    m.orig_back_i = static_cast<uint8_t>(back_event);
    m.drained_i = static_cast<uint8_t>(drained);
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

std::unique_ptr<TorusSwapControl::Ring> MakeRing(int nodes, VerilatedContext* context,
                                                 const std::string& name, const TorusSwapConfig& c,
                                                 uint16_t seed) {
  switch (nodes) {
    case 4:
      return std::make_unique<RingModel<Vtorus_swap_ring4, 4>>(context, name, c, seed);
    case 6:
      return std::make_unique<RingModel<Vtorus_swap_ring6, 6>>(context, name, c, seed);
    default:
      return std::make_unique<RingModel<Vtorus_swap_ring, 8>>(context, name, c, seed);
  }
}

PacketStepTorus& PacketStepOf(Fabric& fabric) {
  auto* net = dynamic_cast<PacketStepTorus*>(&fabric);
  if (!net) throw ScenarioError("torus_swap.enabled: allowed with network.switching = packet_step");
  return *net;
}

// The role codes of torus_swap_ctrl (swap_role_e) the adapter counts transitions of.
constexpr uint32_t kIdle = 0, kAWait = 1, kBDrain = 5;

}  // namespace

TorusSwapControl::TorusSwapControl(const TorusSwapConfig& config, const MechanismContext& context)
    : config_(config),
      net_(PacketStepOf(context.fabric)),
      tracer_(context.tracer),
      context_(std::make_unique<VerilatedContext>()),
      every_edge_(context.every_edge || context.tracer.enabled()) {
  context_->traceEverOn(tracer_.enabled());
  for (int r = 0; r < net_.rings(); ++r) {
    // A different LFSR seed per ring, never 0 (the ring mixes in each node's label).
    const uint16_t seed = static_cast<uint16_t>((config.seed * 0x9e3779b1ULL + r * 0x61c9ULL) >> 7) | 1;
    rings_.push_back(MakeRing(config.nodes, context_.get(), "ring" + std::to_string(r), config, seed));
  }
  if (!rings_.empty()) controllers_ = &rings_.front()->AddControllers(context.ledger, net_.rings());
  back_.assign(net_.rings(), std::vector<uint32_t>(config.nodes, 0));
  roles_.assign(net_.rings(), 0);
  busy_.assign(net_.rings(), 1);  // the first edge starts every period at step 0
  deadline_.assign(net_.rings(), std::vector<uint16_t>(config.nodes, 0));
  clocked_.assign(net_.rings(), 0);
  back_scratch_.assign(config.nodes, 0);
  if (tracer_.enabled()) {
    for (int r = 0; r < net_.rings(); ++r)
      if (tracer_.Matches("ring" + std::to_string(r))) rings_[r]->Trace(tracer_);
  }
}

TorusSwapControl::~TorusSwapControl() {
  Verilated::threadContextp(context_.get());  // see LinkEndControllers::~LinkEndControllers
  for (auto& ring : rings_) ring->Final();
  rings_.clear();
}

void TorusSwapControl::Step(uint64_t now) {
  const uint16_t now16 = static_cast<uint16_t>(now);
  const int rings = net_.rings();
  std::vector<uint8_t>& clocked = clocked_;
  std::vector<uint32_t>& back = back_scratch_;
  for (int r = 0; r < rings; ++r) {
    clocked[r] = 0;
    bool active = every_edge_ || busy_[r];
    for (int k = 0; k < config_.nodes && !active; ++k)
      active = net_.member(r, k).events != 0 || deadline_[r][k] == now16;
    if (!active) continue;
    // Each node's back total in the opposite ring (labels run the other way there), as read
    // before this edge: its successor's is a's F'_ba.
    const std::vector<uint32_t>& opposite = back_[r ^ 1];
    for (int k = 0; k < config_.nodes; ++k) back[k] = opposite[config_.nodes - 1 - k];
    rings_[r]->Prepare(now16, net_, r, back);
    clocked[r] = 1;
  }
  if (every_edge_) {
    const auto model_of = [](auto& ring) -> VerilatedUnit& { return *ring; };
    EdgeOfAll(rings_, model_of, tracer_, now);
  } else {
    for (int r = 0; r < rings; ++r)
      if (clocked[r]) rings_[r]->Edge();
  }
  for (int r = 0; r < rings; ++r) {
    if (!clocked[r]) continue;
    controllers_->toggles += rings_[r]->Toggles();
    Apply(r);
  }
}

void TorusSwapControl::Apply(int r) {
  Ring& ring = *rings_[r];
  const uint32_t hold_out = ring.Mask(kHoldOut), hold_admit = ring.Mask(kHoldAdmit);
  const uint32_t block_in = ring.Mask(kBlockIn), updated = ring.Mask(kUpdated);
  for (int k = 0; k < config_.nodes; ++k) {
    PacketStepTorus::Member& m = net_.member(r, k);
    m.hold_out = hold_out >> k & 1;
    m.hold_admit = hold_admit >> k & 1;
    m.block_in = block_in >> k & 1;
    back_[r][k] = ring.Back(k);
    deadline_[r][k] = ring.Deadline(k);
    const uint32_t was = roles_[r] >> (4 * k) & 0xf, role = ring.Role(k);
    aborts_ += was == kBDrain && role == kIdle;
    denials_ += was == kAWait && role == kIdle;
    roles_[r] = (roles_[r] & ~(0xfu << (4 * k))) | role << (4 * k);
    if (updated >> k & 1) {
      uint8_t* table = net_.table(r, k);
      for (int label = 0; label < config_.nodes; ++label) table[label] = ring.Place(k, label);
    }
  }
  swaps_ += __builtin_popcount(ring.Mask(kSwitching));
  if (updated) {  // the order changes on the edge that updates a, b and c
    std::vector<int> succ(config_.nodes);
    for (int k = 0; k < config_.nodes; ++k) succ[k] = ring.Succ(k);
    net_.SetOrder(r, succ);
  }
  busy_[r] = ring.Mask(kBusy) != 0;
}

uint64_t TorusSwapControl::RestsUntil(uint64_t now) const {
  if (every_edge_) return now;
  uint64_t until = UINT64_MAX;
  for (size_t r = 0; r < rings_.size(); ++r) {
    if (busy_[r]) return now;
    for (uint16_t d : deadline_[r])  // the first step >= now whose time base equals d
      until = std::min(until, now + static_cast<uint16_t>(d - static_cast<uint16_t>(now)));
  }
  return until;
}

double TorusSwapControl::MeanThreshold() const {
  double sum = 0;
  for (const auto& ring : rings_)
    for (int k = 0; k < config_.nodes; ++k) sum += ring->Threshold(k);
  return sum / (static_cast<double>(rings_.size()) * config_.nodes);
}

int TorusSwapControl::StaleEntries() const {
  int stale = 0;  // a node's own place is always exact: the others' views are compared with it
  for (const auto& ring : rings_)
    for (int viewer = 0; viewer < config_.nodes; ++viewer)
      for (int m = 0; m < config_.nodes; ++m) stale += ring->Place(viewer, m) != ring->Place(m, m);
  return stale;
}

std::vector<std::string> TorusSwapControl::TimeseriesColumns() const {
  return {"torus_swap.swaps", "torus_swap.threshold_mean"};
}

void TorusSwapControl::SampleTimeseries(std::vector<double>& row) const {
  row.push_back(static_cast<double>(swaps_ - swaps_sampled_));
  swaps_sampled_ = swaps_;
  row.push_back(MeanThreshold());
}

uint64_t TorusSwapControl::Digest() const {
  uint64_t digest = 0;
  const auto mix = [&digest](uint64_t w) { digest = (digest ^ w) * 0x100000001b3ULL; };
  for (int r = 0; r < net_.rings(); ++r) {
    const Ring& ring = *rings_[r];
    for (int which = kHoldOut; which <= kBusy; ++which) mix(ring.Mask(which));
    for (int k = 0; k < config_.nodes; ++k) {
      mix(ring.Role(k) | ring.Succ(k) << 4 | static_cast<uint64_t>(ring.Deadline(k)) << 8);
      mix(ring.Back(k) | static_cast<uint64_t>(ring.Threshold(k)) << 32);
      for (int m = 0; m < config_.nodes; ++m) mix(ring.Place(k, m));
    }
  }
  return digest;
}

void TorusSwapControl::Report(nlohmann::json& results) const {
  results["torus_swap"] = {{"variant", config_.variant},
                           {"threshold", config_.threshold},
                           {"period_cycles", config_.period},
                           {"block_cycles", config_.block},
                           {"protocol", config_.drain ? "drain" : "paper"},
                           {"back_credit", config_.back_credit_hops ? "hops" : "ring"},
                           {"cost_hops", config_.cost},
                           {"swaps", swaps_},
                           {"aborts", aborts_},
                           {"denials", denials_},
                           {"threshold_mean_final", MeanThreshold()},
                           {"stale_table_entries_final", StaleEntries()},
                           {"reordered_packets", net_.reordered()}};
}

}  // namespace icn
