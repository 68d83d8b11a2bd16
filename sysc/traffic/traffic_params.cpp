// SPDX-License-Identifier: Apache-2.0
#include "traffic/traffic_params.h"

#include <cmath>

#include "core/errors.h"
#include "net/topology.h"
#include "traffic/workload.h"

namespace icn {
namespace {

bool IsPowerOfTwo(int x) { return x > 0 && (x & (x - 1)) == 0; }

// The pattern must be defined on the topology's node count.
void CheckPattern(const TrafficParams& t, int nodes) {
  const bool bit_pattern = t.pattern == "butterfly" || t.pattern == "perfect_shuffle" ||
                           t.pattern == "bit_reverse" || t.pattern == "complement";
  if (bit_pattern && !IsPowerOfTwo(nodes)) {
    throw ScenarioError("traffic.pattern: " + t.pattern +
                        " needs a power-of-two node count, the topology has " + std::to_string(nodes) +
                        "; allowed: uniform, transpose, tornado, hotspot, neighbor");
  }
  if (t.pattern == "transpose") {
    const int side = static_cast<int>(std::lround(std::sqrt(nodes)));
    if (side * side != nodes) {
      throw ScenarioError("traffic.pattern: transpose needs a square node count, the topology has " +
                          std::to_string(nodes));
    }
  }
  if (t.pattern == "hotspot" && t.hotspot_nodes.empty()) {
    throw ScenarioError("traffic.hotspot_nodes: the hotspot pattern needs at least one node");
  }
}

}  // namespace

const std::vector<KeySpec>& TrafficKeys() {
  static const std::vector<KeySpec> keys = {
      ChoiceKey("traffic.pattern", "uniform",
                {"uniform", "complement", "butterfly", "perfect_shuffle", "transpose", "bit_reverse",
                 "tornado", "hotspot", "neighbor"},
                "destination pattern"),
      RealKey("traffic.load", "0.1", 0, 1, "flits/node/cycle", "offered load (see traffic.load_unit)"),
      ChoiceKey(
          "traffic.load_unit", "flits", {"flits", "capacity"},
          "flits: traffic.load and traffic.ramp's loads are flits/node/cycle; capacity: fractions of the "
          "topology's N_c, the uniform traffic it could sustain at best (E-RAPID only)"),
      IntKey("traffic.packet_flits", "16", 1, 65536, "flits", "packet length"),
      ChoiceKey("traffic.profile", "constant", {"constant", "ramp", "bursts"}, "how the load varies in time"),
      PointListKey("traffic.ramp", "[]", 0, 1,
                   "ramp profile: [cycle, load] points, linear between them, constant after the last"),
      IntKey("traffic.burst_on_cycles", "1000", 1, kUnbounded, "cycles",
             "bursts profile: cycles at traffic.load"),
      IntKey("traffic.burst_off_cycles", "1000", 0, kUnbounded, "cycles", "bursts profile: silent cycles"),
      IntListKey("traffic.hotspot_nodes", "[0]", 0, 1 << 24, "", "hotspot pattern: hot nodes"),
      RealKey("traffic.hotspot_fraction", "0.2", 0, 1, "",
              "hotspot pattern: share of packets sent to a hot node"),
  };
  return keys;
}

const std::vector<KeySpec>& WorkloadKeys() {
  static const std::vector<KeySpec> keys = [] {
    std::vector<std::string> kinds = {"none"};
    for (const auto& preset : WorkloadPresets()) kinds.push_back(preset);
    kinds.push_back("trace");
    return std::vector<KeySpec>{
        ChoiceKey("workload.kind", "none", kinds,
                  "MPI-like workload instead of traffic.*: a preset (livermore: Shafarenko and Vasekin's "
                  "Livermore kernels 7, 18, 21 as read / data / write / ack packets, workload.iterations "
                  "passes; random_messages: the Segment Switching paper's workload.messages_per_node "
                  "messages per node to random destinations, all at time 0), or replay workload.trace"),
        TextKey("workload.trace", "''", "trace file to replay (workload.kind = trace)"),
        IntKey("workload.iterations", "0", 0, 1e6, "", "preset iterations (0 = the preset's own)"),
        RealKey("workload.compute_scale", "1", 0, 1e6, "", "multiplies every compute gap of a preset"),
        ChoiceKey("workload.allreduce", "openmpi", AllreduceRuleNames(),
                  "the presets' allreduce algorithm: chosen by size as Open MPI's fixed rule does "
                  "(recursive doubling below 10,000 B, ring above, reduce + broadcast when the ranks "
                  "are at least the vector's 8-byte elements) or as MPICH's does (recursive doubling "
                  "up to 2,048 B, Rabenseifner's reduce-scatter + allgather above), or one "
                  "algorithm for every allreduce"),
        IntKey("workload.mtu_bytes", "9600", 1, 1 << 24, "bytes", "largest packet"),
        IntKey("workload.flit_bytes", "1600", 1, 1 << 24, "bytes",
               "bytes a link carries per cycle (400 Gb/s x 32 ns = 1600 B)"),
        IntKey("workload.messages_per_node", "100", 1, 1e6, "", "random_messages: messages each node sends"),
        IntKey("workload.small_bytes", "4096", 1, 1LL << 32, "bytes",
               "random_messages: size of a small message"),
        IntKey("workload.large_bytes", "524288", 1, 1LL << 32, "bytes",
               "random_messages: size of a large message"),
        RealKey("workload.large_fraction", "0.2", 0, 1, "", "random_messages: share of large messages"),
        ChoiceKey("workload.release", "at_zero", {"at_zero", "poisson"},
                  "random_messages: when messages are released: at_zero = all at time 0; poisson = each "
                  "node's as Poisson arrivals offering workload.offered_gbps"),
        RealKey("workload.offered_gbps", "320", 1e-3, 1e6, "Gb/s",
                "random_messages with workload.release = poisson: each node's offered rate (mean message "
                "size over the mean gap between its releases)"),
        IntKey("workload.livermore.k21_extent", "25", 1, 25, "",
               "livermore: kernel 21's k and i loops run 1..this (the paper's 25; smaller for quick runs)"),
        IntKey("workload.livermore.k7_n_per_node", "8", 1, 1024, "",
               "livermore: kernel 7's n = this x the nodes (not given by the paper)"),
        IntKey("workload.livermore.k18_jn_per_node", "2", 1, 1024, "",
               "livermore: kernel 18's JN = this x the nodes + 1 (not given by the paper)"),
        IntKey("workload.livermore.k18_kn", "6", 2, 1024, "",
               "livermore: kernel 18's KN (not given by the paper)"),
        IntKey("workload.max_cycles", "100000000", 1, kUnbounded, "cycles",
               "a workload not finished after this many cycles ends the run as saturated"),
    };
  }();
  return keys;
}

TrafficParams ParseTrafficParams(const Scenario& s, const Topology& topology) {
  TrafficParams t;
  t.pattern = s.Text("traffic.pattern");
  t.load = s.Real("traffic.load");
  t.packet_flits = static_cast<int>(s.Int("traffic.packet_flits"));
  const std::string& profile = s.Text("traffic.profile");
  t.profile = profile == "ramp"     ? LoadProfileKind::kRamp
              : profile == "bursts" ? LoadProfileKind::kBursts
                                    : LoadProfileKind::kConstant;
  t.ramp = s.Points("traffic.ramp");
  if (s.Text("traffic.load_unit") == "capacity") {
    const double capacity = topology.UniformCapacity();
    if (capacity <= 0) {
      throw ScenarioError(
          "traffic.load_unit: capacity needs a topology that states its capacity N_c (erapid); " +
          topology.Name() + " does not; allowed: flits");
    }
    t.load *= capacity;
    for (auto& point : t.ramp) point.second *= capacity;
  }
  if (t.profile == LoadProfileKind::kRamp && t.ramp.empty()) {
    throw ScenarioError("traffic.ramp: the ramp profile needs at least one [cycle, load] point");
  }
  t.burst_on = s.Int("traffic.burst_on_cycles");
  t.burst_off = s.Int("traffic.burst_off_cycles");
  t.hotspot_fraction = s.Real("traffic.hotspot_fraction");
  for (int64_t h : s.IntList("traffic.hotspot_nodes")) {
    if (h >= topology.nodes) {
      throw ScenarioError("traffic.hotspot_nodes: node " + std::to_string(h) +
                          " does not exist; allowed: [0, " + std::to_string(topology.nodes - 1) + "]");
    }
    t.hotspot_nodes.push_back(static_cast<int>(h));
  }
  CheckPattern(t, topology.nodes);
  return t;
}

WorkloadParams ParseWorkloadParams(const Scenario& s) {
  WorkloadParams w;
  w.kind = s.Text("workload.kind");
  w.trace = s.Text("workload.trace");
  w.iterations = static_cast<int>(s.Int("workload.iterations"));
  w.compute_scale = s.Real("workload.compute_scale");
  w.allreduce = s.Text("workload.allreduce");
  w.mtu_bytes = static_cast<uint32_t>(s.Int("workload.mtu_bytes"));
  w.flit_bytes = static_cast<uint32_t>(s.Int("workload.flit_bytes"));
  w.max_cycles = static_cast<uint64_t>(s.Int("workload.max_cycles"));
  w.random_messages.per_node = static_cast<int>(s.Int("workload.messages_per_node"));
  w.random_messages.small_bytes = static_cast<uint64_t>(s.Int("workload.small_bytes"));
  w.random_messages.large_bytes = static_cast<uint64_t>(s.Int("workload.large_bytes"));
  w.random_messages.large_fraction = s.Real("workload.large_fraction");
  w.random_messages.poisson = s.Text("workload.release") == "poisson";
  w.random_messages.offered_gbps = s.Real("workload.offered_gbps");
  w.livermore.k21 = static_cast<int>(s.Int("workload.livermore.k21_extent"));
  w.livermore.k7_per_node = static_cast<int>(s.Int("workload.livermore.k7_n_per_node"));
  w.livermore.k18_jn_per_node = static_cast<int>(s.Int("workload.livermore.k18_jn_per_node"));
  w.livermore.k18_kn = static_cast<int>(s.Int("workload.livermore.k18_kn"));
  return w;
}

std::vector<KeyRule> WorkloadRules() {
  return {
      {{"workload.trace", "workload.kind"},
       "a trace file with workload.kind = trace, and none with another kind",
       [](const Scenario& s) -> std::string {
         const bool trace = s.Text("workload.kind") == "trace", file = !s.Text("workload.trace").empty();
         if (trace && !file) return "workload.kind = trace needs the path of a trace file";
         if (!trace && file) return "a trace file with " + s.Show("workload.kind");
         return "";
       }},
      {{"workload.mtu_bytes", "workload.flit_bytes"},
       "workload.flit_bytes <= workload.mtu_bytes <= 65535 x workload.flit_bytes (a packet of 1 to 65535 "
       "flits)",
       [](const Scenario& s) -> std::string {
         const int64_t mtu = s.Int("workload.mtu_bytes"), flit = s.Int("workload.flit_bytes");
         if (mtu < flit)
           return s.Show("workload.mtu_bytes") + " is less than a flit, " + s.Show("workload.flit_bytes");
         if (mtu / flit > 65535) return "a packet of " + std::to_string(mtu / flit) + " flits";
         return "";
       }},
  };
}

}  // namespace icn
