#include "core/params.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.h"

namespace icn {
namespace {

uint64_t NsToCycles(const std::string& key, double ns, double cycle_ns, std::vector<std::string>& warnings) {
  const double cycles = std::ceil(ns / cycle_ns - 1e-9);
  if (ns > 0 && ns < cycle_ns) {
    warnings.push_back(key + " = " + std::to_string(ns) + " ns is shorter than one cycle (" +
                       std::to_string(cycle_ns) + " ns): rounded up to 1 cycle");
  }
  return cycles >= 1.8e19 ? std::numeric_limits<uint64_t>::max() : static_cast<uint64_t>(std::max(0.0, cycles));
}

uint32_t TransitionCycles(const std::string& key, double ns, double cycle_ns, std::vector<std::string>& warnings) {
  const uint64_t cycles = NsToCycles(key, ns, cycle_ns, warnings);
  constexpr uint64_t kMax = (1u << 24) - 1;  // width of the RTL transition counter
  if (cycles > kMax) {
    throw ScenarioError(key + ": " + std::to_string(cycles) + " cycles exceeds the controller's 24-bit "
                        "transition counter; allowed: [0, " + std::to_string(kMax) + "] cycles");
  }
  return static_cast<uint32_t>(cycles);
}

bool IsPowerOfTwo(int x) { return x > 0 && (x & (x - 1)) == 0; }

}  // namespace

int NodeCount(const NetworkParams& net) {
  if (net.kind == TopologyKind::kKaryNTree) return static_cast<int>(std::lround(std::pow(net.k, net.n)));
  if (net.kind == TopologyKind::kMegafly) {
    return net.megafly.groups * net.megafly.leaves * net.megafly.nodes_per_leaf;
  }
  int nodes = 1;
  for (int d : net.dims) nodes *= d;
  return nodes;
}

Params MakeParams(const Scenario& s) {
  Params p;
  NetworkParams& net = p.net;
  const std::string& kind = s.Text("topology.kind");
  net.kind = kind == "torus"     ? TopologyKind::kTorus
             : kind == "mesh"    ? TopologyKind::kMesh
             : kind == "megafly" ? TopologyKind::kMegafly
                                 : TopologyKind::kKaryNTree;
  net.megafly.groups = static_cast<int>(s.Int("topology.megafly.groups"));
  net.megafly.leaves = static_cast<int>(s.Int("topology.megafly.leaves"));
  net.megafly.spines = static_cast<int>(s.Int("topology.megafly.spines"));
  net.megafly.nodes_per_leaf = static_cast<int>(s.Int("topology.megafly.nodes_per_leaf"));
  net.megafly.global_per_spine = static_cast<int>(s.Int("topology.megafly.global_per_spine"));
  if (net.kind == TopologyKind::kMegafly &&
      net.megafly.groups - 1 != net.megafly.spines * net.megafly.global_per_spine) {
    throw ScenarioError("topology.megafly.groups: " + std::to_string(net.megafly.groups) +
                        " groups need groups - 1 = topology.megafly.spines x topology.megafly.global_per_spine = " +
                        std::to_string(net.megafly.spines * net.megafly.global_per_spine) +
                        " (one global link between every pair of groups)");
  }
  net.k = static_cast<int>(s.Int("topology.k"));
  net.n = static_cast<int>(s.Int("topology.n"));
  for (int64_t d : s.IntList("topology.dims")) net.dims.push_back(static_cast<int>(d));
  if (!net.dims.empty() && net.dims.size() != 2 && net.dims.size() != 3) {
    throw ScenarioError("topology.dims: " + std::to_string(net.dims.size()) +
                        " dimensions; allowed: 2 or 3 entries, or [] to use topology.k and topology.n");
  }
  if (net.kind == TopologyKind::kMegafly) {
    // nothing more: the shape is checked above
  } else if (net.kind == TopologyKind::kKaryNTree) {
    if (std::pow(net.k, net.n) > (1 << 20)) {
      throw ScenarioError("topology.k, topology.n: k^n = " + std::to_string(std::pow(net.k, net.n)) +
                          " nodes is too many; allowed: k^n <= 1048576");
    }
  } else {
    if (net.dims.empty()) {
      if (net.n != 2 && net.n != 3) {
        throw ScenarioError("topology.n: a " + kind + " has 2 or 3 dimensions, got " + std::to_string(net.n) +
                            "; allowed: 2 or 3 (or give topology.dims)");
      }
      net.dims.assign(net.n, net.k);
    }
  }
  net.vcs = static_cast<int>(s.Int("router.vcs"));
  if (net.kind == TopologyKind::kTorus && net.vcs < 2) {
    throw ScenarioError("router.vcs: the torus needs two dateline VC classes; allowed: [2, 16]");
  }
  net.vc_buffer_flits = static_cast<int>(s.Int("router.vc_buffer_flits"));
  net.pipeline_cycles = static_cast<int>(s.Int("router.pipeline_cycles"));
  net.output_queue_flits = static_cast<int>(s.Int("router.output_queue_flits"));
  net.speedup = s.Real("router.speedup");
  net.link_latency = static_cast<int>(s.Int("link.latency_cycles"));
  net.link_bandwidth = s.Real("link.bandwidth_flits");
  const int round_trip = 2 * net.link_latency + net.pipeline_cycles;
  if (net.vc_buffer_flits < round_trip) {
    p.warnings.push_back("router.vc_buffer_flits = " + std::to_string(net.vc_buffer_flits) +
                         " is below the credit round trip of " + std::to_string(round_trip) +
                         " cycles: a lone packet cannot stream at full link rate");
  }

  TrafficParams& t = p.traffic;
  t.pattern = s.Text("traffic.pattern");
  t.load = s.Real("traffic.load");
  t.packet_flits = static_cast<int>(s.Int("traffic.packet_flits"));
  const std::string& profile = s.Text("traffic.profile");
  t.profile = profile == "ramp" ? LoadProfileKind::kRamp
              : profile == "bursts" ? LoadProfileKind::kBursts : LoadProfileKind::kConstant;
  t.ramp = s.Points("traffic.ramp");
  if (t.profile == LoadProfileKind::kRamp && t.ramp.empty()) {
    throw ScenarioError("traffic.ramp: the ramp profile needs at least one [cycle, load] point");
  }
  t.burst_on = s.Int("traffic.burst_on_cycles");
  t.burst_off = s.Int("traffic.burst_off_cycles");
  t.hotspot_fraction = s.Real("traffic.hotspot_fraction");
  const int nodes = NodeCount(net);
  for (int64_t h : s.IntList("traffic.hotspot_nodes")) {
    if (h >= nodes) {
      throw ScenarioError("traffic.hotspot_nodes: node " + std::to_string(h) + " does not exist; allowed: [0, " +
                          std::to_string(nodes - 1) + "]");
    }
    t.hotspot_nodes.push_back(static_cast<int>(h));
  }
  if (t.pattern == "hotspot" && t.hotspot_nodes.empty()) {
    throw ScenarioError("traffic.hotspot_nodes: the hotspot pattern needs at least one node");
  }
  const bool bit_pattern = t.pattern == "butterfly" || t.pattern == "perfect_shuffle" ||
                           t.pattern == "bit_reverse" || t.pattern == "complement";
  if (bit_pattern && !IsPowerOfTwo(nodes)) {
    throw ScenarioError("traffic.pattern: " + t.pattern + " needs a power-of-two node count, the topology has " +
                        std::to_string(nodes) + "; allowed: uniform, transpose, tornado, hotspot, neighbor");
  }
  if (t.pattern == "transpose") {
    const int side = static_cast<int>(std::lround(std::sqrt(nodes)));
    if (side * side != nodes) {
      throw ScenarioError("traffic.pattern: transpose needs a square node count, the topology has " +
                          std::to_string(nodes));
    }
  }

  SimParams& sim = p.sim;
  sim.seed = static_cast<uint64_t>(s.Int("sim.seed"));
  sim.cycle_ns = s.Real("sim.cycle_ns");
  sim.warmup = s.Int("sim.warmup_cycles");
  sim.measure = s.Int("sim.measure_cycles");
  sim.drain_limit = s.Int("sim.drain_limit_cycles");
  sim.timeseries = s.Int("sim.timeseries_cycles");

  EeeParams& e = p.eee;
  const std::string& mode = s.Text("eee.mode");
  e.mode = mode == "fast_wake" ? EeeMode::kFastWake : mode == "deep_sleep" ? EeeMode::kDeepSleep : EeeMode::kOff;
  const uint64_t pdt = NsToCycles("eee.pdt_ns", s.Real("eee.pdt_ns"), sim.cycle_ns, p.warnings);
  e.pdt_cycles = pdt >= 0xffffffffULL ? 0xffffffffu : static_cast<uint32_t>(pdt);
  e.wake_power_w = s.Real("eee.wake_power_w");
  const std::string depth = e.mode == EeeMode::kDeepSleep ? "eee.deep_sleep." : "eee.fast_wake.";
  e.lpi_power_w = s.Real(depth + "power_w");
  if (e.mode != EeeMode::kOff) {
    e.wake_cycles = TransitionCycles(depth + "t_wake_ns", s.Real(depth + "t_wake_ns"), sim.cycle_ns, p.warnings);
    e.sleep_cycles = TransitionCycles(depth + "t_sleep_ns", s.Real(depth + "t_sleep_ns"), sim.cycle_ns, p.warnings);
    if (e.lpi_power_w > e.wake_power_w) {
      throw ScenarioError(depth + "power_w: LPI power " + std::to_string(e.lpi_power_w) +
                          " W exceeds eee.wake_power_w; allowed: [0, " + std::to_string(e.wake_power_w) + "]");
    }
  }

  const std::string& policy = s.Text("eee.policy");
  e.policy = policy == "perfbound"           ? PdtPolicy::kPerfBound
             : policy == "perfbound_correct" ? PdtPolicy::kPerfBoundCorrect
                                             : PdtPolicy::kFixed;
  e.bound = s.Real("eee.bound");
  e.period_cycles = std::max<uint64_t>(1, NsToCycles("eee.perfbound.period_ns", s.Real("eee.perfbound.period_ns"),
                                                     sim.cycle_ns, p.warnings));
  const std::string& strategy = s.Text("eee.hist.strategy");
  e.hist_strategy = strategy == "sliding" ? 1 : strategy == "unbounded" ? 2 : 0;
  if (e.policy != PdtPolicy::kFixed) {
    if (e.mode == EeeMode::kOff) {
      throw ScenarioError("eee.policy: " + policy + " needs EEE on; allowed with eee.mode = off: fixed");
    }
    if (e.period_cycles > 0xffffffffULL) {
      throw ScenarioError("eee.perfbound.period_ns: " + std::to_string(e.period_cycles) +
                          " cycles exceeds the controller's 32-bit period register; allowed: [1, 4294967295] cycles");
    }
  }

  WorkloadParams& w = p.workload;
  w.kind = s.Text("workload.kind");
  w.trace = s.Text("workload.trace");
  w.iterations = static_cast<int>(s.Int("workload.iterations"));
  w.compute_scale = s.Real("workload.compute_scale");
  w.mtu_bytes = static_cast<uint32_t>(s.Int("workload.mtu_bytes"));
  w.flit_bytes = static_cast<uint32_t>(s.Int("workload.flit_bytes"));
  w.max_cycles = static_cast<uint64_t>(s.Int("workload.max_cycles"));
  if (w.kind == "trace" && w.trace.empty()) {
    throw ScenarioError("workload.trace: workload.kind = trace needs the path of a trace file");
  }
  if (w.kind != "trace" && !w.trace.empty()) {
    throw ScenarioError("workload.kind: workload.trace is set but workload.kind = " + w.kind + "; allowed: trace");
  }
  if (w.mtu_bytes / w.flit_bytes > 65535) {
    throw ScenarioError("workload.mtu_bytes, workload.flit_bytes: " + std::to_string(w.mtu_bytes / w.flit_bytes) +
                        " flits per packet; allowed: at most 65535");
  }

  FattreeOnOffParams& f = p.fattree;
  f.enabled = s.Bool("fattree_onoff.enabled");
  f.u_off = s.Real("fattree_onoff.u_off");
  f.u_on = s.Real("fattree_onoff.u_on");
  f.check_cycles = static_cast<int>(s.Int("fattree_onoff.check_cycles"));
  f.t_on = static_cast<int>(s.Int("fattree_onoff.t_on_cycles"));
  f.t_off = static_cast<int>(s.Int("fattree_onoff.t_off_cycles"));
  f.link_power_w = s.Real("fattree_onoff.link_power_w");
  if (f.enabled) {
    // Alonso et al.: U_on > U_off > 0, and U_on >= 2 U_off or turning the second-last up link
    // off doubles the load of the last one past U_on and the links oscillate.
    if (!(f.u_off > 0 && f.u_on > f.u_off && f.u_on >= 2 * f.u_off - 1e-12)) {
      throw ScenarioError("fattree_onoff.u_off, fattree_onoff.u_on: U_off = " + std::to_string(f.u_off) +
                          ", U_on = " + std::to_string(f.u_on) +
                          " are inconsistent; allowed: U_on > U_off > 0 and U_on >= 2 * U_off");
    }
    if (net.kind != TopologyKind::kKaryNTree) {
      throw ScenarioError("fattree_onoff.enabled: needs topology.kind = kary_ntree, got " + kind);
    }
    if (net.k > 8) {
      throw ScenarioError("fattree_onoff.enabled: the controller is built for up to 8-ary switches, topology.k = " +
                          std::to_string(net.k) + "; allowed: topology.k in [2, 8]");
    }
    if (e.mode != EeeMode::kOff) {
      throw ScenarioError("fattree_onoff.enabled, eee.mode: one link power mechanism at a time; allowed: "
                          "fattree_onoff.enabled = 0 or eee.mode = off");
    }
  }
  return p;
}

}  // namespace icn
