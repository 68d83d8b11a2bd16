#include "mech/photonic/photonic_control.h"

#include <string>

#include "Vphotonic_switch_ctrl24.h"
#include "Vphotonic_switch_ctrl24_info.h"
#include "Vphotonic_switch_ctrl5.h"
#include "Vphotonic_switch_ctrl5_info.h"
#include "Vphotonic_switch_ctrl7.h"
#include "Vphotonic_switch_ctrl7_info.h"
#include "Vphotonic_switch_ctrl8.h"
#include "Vphotonic_switch_ctrl8_info.h"
#include "core/errors.h"
#include "core/tracer.h"
#include "mech/clocking.h"
#include "mech/signal_bits.h"

namespace icn {
namespace {

template <typename V, int kPorts>
class SwitchModel : public VerilatedUnitOf<PhotonicControl::Model, V> {
 public:
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

std::unique_ptr<PhotonicControl::Model> MakeModel(int ports, VerilatedContext* context,
                                                  const std::string& name, const PhotonicParams& p,
                                                  bool buffered) {
  switch (ports) {
    case 5:
      return std::make_unique<SwitchModel<Vphotonic_switch_ctrl5, 5>>(context, name, p, buffered);
    case 7:
      return std::make_unique<SwitchModel<Vphotonic_switch_ctrl7, 7>>(context, name, p, buffered);
    case 8:
      return std::make_unique<SwitchModel<Vphotonic_switch_ctrl8, 8>>(context, name, p, buffered);
    default:
      return std::make_unique<SwitchModel<Vphotonic_switch_ctrl24, 24>>(context, name, p, buffered);
  }
}

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
  for (int sw = 0; sw < net_.switches(); ++sw)
    models_.push_back(
        MakeModel(net_.ports(), context_.get(), "sw" + std::to_string(sw), config.params, net_.buffered(sw)));
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
