// SPDX-License-Identifier: Apache-2.0
#include "mech/photonic/photonic_control.h"

#include <string>

#include "core/errors.h"
#include "core/tracer.h"
#include "mech/clocking.h"
#include "mech/model_catalogue.h"
#include "mech/signal_bits.h"

namespace icn {
namespace {

PhotonicNetwork& PhotonicOf(Fabric& fabric) {
  auto* net = dynamic_cast<PhotonicNetwork*>(&fabric);
  if (!net) throw ScenarioError("photonic.mode: allowed with network.switching = photonic");
  return *net;
}

}  // namespace

PhotonicControl::PhotonicControl(const PhotonicConfig& config, const MechanismContext& context)
    : config_(config),
      net_(PhotonicOf(context.fabric)),
      tracer_(context.tracer),
      context_(std::make_unique<VerilatedContext>()),
      every_edge_(context.every_edge || context.tracer.enabled()) {
  context_->traceEverOn(tracer_.enabled());
  PhotonicParams params = config.params;
  params.predict_refusals &= !every_edge_;  // the waves show every request
  net_.Attach(params, this);
  asked_.assign(net_.switches(), UINT64_MAX);
  lanes_.resize(static_cast<size_t>(context.team.size()));
  const MakeSwitch make = ModelFactory<MakeSwitch>(
      "photonic_switch_ctrl",
      "Ports=" + std::to_string(net_.ports()) + ":Channels=" + std::to_string(kMaxChannels),
      "topology.k, topology.dims");
  for (int sw = 0; sw < net_.switches(); ++sw)
    models_.push_back(make(context_.get(), "sw" + std::to_string(sw), config.params, net_.buffered(sw)));
  if (!models_.empty()) controllers_ = &models_.front()->AddControllers(context.ledger, net_.switches());
  if (tracer_.enabled()) {
    for (int sw = 0; sw < net_.switches(); ++sw)
      if (tracer_.Matches("sw" + std::to_string(sw))) models_[sw]->Trace(tracer_);
  }
}

PhotonicControl::~PhotonicControl() {
  Verilated::threadContextp(context_.get());  // see LinkEndControllers::~LinkEndControllers
  for (auto& m : models_) m->Final();
  models_.clear();
}

SwitchAnswer PhotonicControl::Handle(int sw, const SwitchRequest& request, int lane) {
  Model& model = *models_[sw];
  if (asked_[sw] == cycle_) {
    model.Edge();  // the previous request of this cycle first (the control plane runs faster)
    lanes_[lane].toggles += model.Toggles();
  } else {
    // A model reports a failed assertion through its thread's context: ours, on every thread
    // (set once per thread: setting it also writes a global that every thread shares).
    if (Verilated::threadContextp() != context_.get()) Verilated::threadContextp(context_.get());
    asked_[sw] = cycle_;
    if (every_edge_) handled_.push_back(sw);
  }
  return model.Handle(request);
}

void PhotonicControl::Close(int sw, int lane) {
  if (every_edge_) return;  // Step clocks every model
  Model& model = *models_[sw];
  model.Edge();
  lanes_[lane].toggles += model.Toggles();
  model.Idle();
}

void PhotonicControl::Step(uint64_t now) {
  if (every_edge_) {
    const auto model_of = [](auto& m) -> VerilatedUnit& { return *m; };
    EdgeOfAll(models_, model_of, tracer_, now);
    for (auto& m : models_) controllers_->toggles += m->Toggles();
    for (int sw : handled_) models_[sw]->Idle();
    handled_.clear();
  }
  for (Lane& lane : lanes_) {
    if (controllers_) controllers_->toggles += lane.toggles;
    lane.toggles = 0;
  }
  cycle_ = now + 1;
}

uint64_t PhotonicControl::Digest() const {
  uint64_t digest = 0;
  for (const auto& m : models_) digest = (digest ^ m->Digest()) * 0x100000001b3ULL;
  return digest;
}

void PhotonicControl::Report(nlohmann::json& results) const {
  results["photonic"] = net_.Report(results["sim"]["cycles"].get<uint64_t>());
}

}  // namespace icn
