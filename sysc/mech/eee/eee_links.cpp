// SPDX-License-Identifier: Apache-2.0
#include "mech/eee/eee_links.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "Veee_pb_port_s0.h"
#include "Veee_pb_port_s0_info.h"
#include "Veee_pb_port_s1.h"
#include "Veee_pb_port_s1_info.h"
#include "Veee_pb_port_s2.h"
#include "Veee_pb_port_s2_info.h"
#include "Veee_port.h"
#include "Veee_port_info.h"
#include "mech/link_end/link_end_controllers.h"

namespace icn {
namespace {

// The EEE ports as link-end controllers: their power states (power_e of rtl/eee/eee_port.sv) and
// the refusals they send (ctl_msg_e's MsgRefuse).
LinkEndSpec Spec(const EeeConfig& config) {
  const bool fast = config.mode == EeeMode::kFastWake;
  return {"eee",
          "eee.mode",
          "off",
          "eee_port",
          {{"wake", config.wake_power_w, false},
           {"transition", config.wake_power_w, false},
           {"fast_lpi", fast ? config.lpi_power_w : 0, true},
           {"deep_lpi", fast ? 0 : config.lpi_power_w, true}},
          true,
          {{"refused_requests", 4}}};
}

// The straps eee_port and eee_pb_port share.
template <typename Model>
void StrapPort(Model& m, const EeeConfig& config, uint32_t pdt_cycles) {
  m.lpi_deep_i = config.mode == EeeMode::kDeepSleep;
  m.eager_wake_i = config.eager_wake;
  m.sleep_cycles_i = config.sleep_cycles;
  m.wake_cycles_i = config.wake_cycles;
  m.pdt_cycles_i = pdt_cycles;
}

// What PerfBound adds to the contract: a search pulse every period X, each port's hop-share table
// from the routing, and the report of its predictions (an idle period that ends is a hit unless
// the link had powered down) and of where it left t_PDT.
template <typename Model>
class PerfBound {
  // eee_pb_port's geometry as verilated (rtl/eee/pb_geometry.svh), from the build (its top's
  // parameters: scripts/sim_models.py): the hop-share table's length and fraction bits, and what
  // results.json reports.
  using Params = typename ModelInfo<Model>::Params;
  static_assert(Params::TtlCycles == 0, "the fixed-point skip needs eee_pb_port's TtlCycles = 0");
  static_assert(Params::FracBits == 16, "hop shares are packed two Q0.16 per 32-bit word");

 public:
  struct EndState {
    bool idle = false;  // eee_pb_port's idle_o and slept_o
    bool slept = false;
    uint64_t outcomes = 0;  // idle periods ended
    uint64_t misses = 0;    // of which the link had powered down
  };

  explicit PerfBound(uint64_t period) : period_(std::max<uint64_t>(1, period)) {}
  uint64_t Period() const { return period_; }
  void SetPulse(Model& m, bool pulse) const { m.search_i = pulse; }
  // An idle period ends this cycle (eee_pb_port's outcome_o, from the state before the edge).
  void BeforeEdge(EndState& s, bool active, uint8_t power) const {
    if (!active || !s.idle) return;
    ++s.outcomes;
    s.misses += s.slept || power != 0;
  }
  void Applied(EndState& s, const Model& m) const {
    s.idle = m.idle_o;
    s.slept = m.slept_o;
  }

  // Where the policy left t_PDT: ports none of whose idle periods ended, and those at never, are
  // left out (a port not searched yet counts with its initial t_PDT).
  template <typename EachEnd>
  void Report(nlohmann::json& r, EachEnd each_end) const {
    std::vector<double> pdts;
    uint64_t hits = 0, misses = 0;
    each_end([&](const Model& m, const EndState& s) {
      if (m.pdt_applied_o != 0xffffffffu && s.outcomes > 0) pdts.push_back(m.pdt_applied_o);
      hits += s.outcomes - s.misses;
      misses += s.misses;
    });
    std::sort(pdts.begin(), pdts.end());
    r["predictions"] = {{"hits", hits}, {"misses", misses}};
    r["final_pdt_cycles"] = {{"ports_with_traffic", pdts.size()},
                             {"median", pdts.empty() ? 0.0 : pdts[pdts.size() / 2]},
                             {"min", pdts.empty() ? 0.0 : pdts.front()},
                             {"max", pdts.empty() ? 0.0 : pdts.back()}};
    r["histogram"] = {{"bins", Params::NumBins},
                      {"bins_per_octave", 1u << Params::SubBinBits},
                      {"counter_bits", Params::CounterWidth},
                      {"max_n", Params::MaxN},
                      {"max_value_cycles", Params::MaxValCycles},
                      {"correction_history", Params::HistLen},
                      {"cf_max", Params::CfMaxQ8 / 256}};
  }

  // The policy's straps: its hop-share table (two Q0.16 shares per word), bound and 1 / t_w.
  static void Strap(Model& m, const EeeConfig& eee, const std::vector<double>& shares) {
    StrapPort(m, eee, eee.initial_pdt_cycles);
    m.policy_i = static_cast<uint8_t>(eee.policy);
    constexpr double kOne = 1 << Params::FracBits;
    const auto q = [&](int h) {
      return std::min<uint32_t>(0xffff, static_cast<uint32_t>(std::lround(shares[h] * kOne)));
    };
    for (int w = 0; w < static_cast<int>(Params::MaxHops) / 2; ++w) {
      m.hop_share_i[w] = q(2 * w) | q(2 * w + 1) << 16;
    }
    m.bound_i = static_cast<uint16_t>(std::lround(eee.bound * kOne));
    m.inv_tw_i = InverseQ32(eee.wake_cycles);
  }

 private:
  uint64_t period_;
};

template <typename Model>
std::unique_ptr<Mechanism> MakePerfBound(const EeeConfig& config, const MechanismContext& context) {
  const auto shares = context.fabric.HopShares(static_cast<int>(ModelInfo<Model>::Params::MaxHops));
  return std::make_unique<LinkEndControllers<Model, PerfBound<Model>>>(
      Spec(config), [&](Model& m, size_t end) { PerfBound<Model>::Strap(m, config, shares[end]); },
      PerfBound<Model>(config.period_cycles), context);
}

}  // namespace

std::unique_ptr<Mechanism> MakeEeeLinks(const EeeConfig& config, const MechanismContext& context) {
  if (config.policy == PdtPolicy::kFixed) {
    return std::make_unique<LinkEndControllers<Veee_port>>(
        Spec(config), [&config](Veee_port& m, size_t) { StrapPort(m, config, config.pdt_cycles); },
        NoExtension<Veee_port>(), context);
  }
  switch (config.hist_strategy) {
    case 1:
      return MakePerfBound<Veee_pb_port_s1>(config, context);
    case 2:
      return MakePerfBound<Veee_pb_port_s2>(config, context);
    default:
      return MakePerfBound<Veee_pb_port_s0>(config, context);
  }
}

}  // namespace icn
