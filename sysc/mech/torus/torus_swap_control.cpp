// SPDX-License-Identifier: Apache-2.0
#include "mech/torus/torus_swap_control.h"

#include <algorithm>
#include <string>

#include "core/errors.h"
#include "core/tracer.h"
#include "mech/clocking.h"
#include "mech/model_catalogue.h"
#include "mech/signal_bits.h"

namespace icn {
namespace {

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
  const MakeRing make =
      ModelFactory<MakeRing>("torus_swap_ring", "Nodes=" + std::to_string(config.nodes), "topology.dims");
  for (int r = 0; r < net_.rings(); ++r) {
    // A different LFSR seed per ring, never 0 (the ring mixes in each node's label).
    const uint16_t seed = static_cast<uint16_t>((config.seed * 0x9e3779b1ULL + r * 0x61c9ULL) >> 7) | 1;
    rings_.push_back(make(context_.get(), "ring" + std::to_string(r), config, seed));
  }
  if (!rings_.empty()) controllers_ = &rings_.front()->AddControllers(context.ledger, net_.rings());
  back_.assign(net_.rings(), std::vector<uint32_t>(config.nodes, 0));
  roles_.assign(net_.rings(), std::vector<uint8_t>(config.nodes, kIdle));
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
    const uint32_t was = roles_[r][k], role = ring.Role(k);
    aborts_ += was == kBDrain && role == kIdle;
    denials_ += was == kAWait && role == kIdle;
    roles_[r][k] = static_cast<uint8_t>(role);
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
