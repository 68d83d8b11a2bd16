// SPDX-License-Identifier: Apache-2.0
// Registration of the photonic switch control planes (the Segment Switching paper): keys, validation,
// adapter, view. On whenever network.switching = photonic: a circuit-switched network does not move without
// them.
#include "core/errors.h"
#include "mech/photonic/photonic_control.h"
#include "traffic/traffic_params.h"

namespace icn {
namespace {

std::vector<KeySpec> Keys() {
  return {
      ChoiceKey("photonic.mode", "segment", {"circuit", "packetised", "segment"},
                "network.switching = photonic: circuit = a circuit per message; packetised = a circuit per "
                "MTU packet (workload.mtu_bytes); segment = MTU packets over segments that end in buffers "
                "(Algorithm 1 of the Segment Switching paper)"),
      IntKey("photonic.channels", "5", 1, PhotonicControl::kMaxChannels, "", "WDM channels per link (W)"),
      RealKey("photonic.channel_gbps", "320", 0.001, 1e6, "Gb/s", "rate of one channel"),
      ChoiceKey("photonic.buffer.layout", "none",
                {"none", "all", "every_2", "every_4", "top_1", "top_2", "top_3"},
                "switches with a buffer: all; torus every_2 / every_4 (a buffer every n switches along each "
                "dimension); k-ary n-tree top_1 .. top_3 (the top levels)"),
      IntKey("photonic.source_channels", "0", 0, PhotonicControl::kMaxChannels, "",
             "channels of a node's link its NIC uses: reservations or transfers it has at once (0 = "
             "photonic.channels; 1 = one message or packet at a time)"),
      IntKey("photonic.buffer.channels", "1", 0, PhotonicControl::kMaxChannels, "",
             "channels of a buffer's port each way (1 = one input and one output channel, as the paper's "
             "Figure 2 and section IV-A have it; 0 = photonic.channels, the port a link like the others)"),
      IntKey("photonic.buffer.bytes", "1048576", 0, 1LL << 40, "bytes",
             "each buffer's size, in whole MTU packets (0 = unlimited)"),
      IntKey("photonic.requests_per_cycle", "0", 0, 1 << 16, "",
             "requests a switch's control plane answers per cycle (0 = all that arrive: a request never "
             "waits, as in the paper; 1 = one at a time, the others wait)"),
      BoolKey("photonic.predict_refusals", "true",
              "a reservation the harness's channel and buffer counts show must fail (every output it may "
              "take full, no buffer it may end in) is answered without evaluating the switch's model, "
              "which it would not change; results are identical (tested). false = every request goes to "
              "the model. Off in a traced run, so the waves show every request"),
      ChoiceKey("photonic.on_failure", "wait", {"wait", "retry", "backoff"},
                "a reservation that failed back to its source: wait = the source keeps the channel and tries "
                "the same message or packet again once the link that refused it frees a channel (the paper, "
                "section III.1); retry = the same after [b, 2b) cycles; backoff = it frees the channel, the "
                "message or packet joins the end of its queue after [b, 2b) cycles"),
      IntKey("photonic.backoff_cycles", "32", 1, 1 << 20, "cycles",
             "b of photonic.on_failure = backoff or retry: the next try comes after [b, 2b) cycles"),
  };
}

// A channel count of a NIC or buffer port within the link's; buffer layouts by topology; photonic
// keys only where they act.
std::vector<KeyRule> Rules() {
  const auto within_link = [](const char* key) {
    return KeyRule{{key, "photonic.channels"},
                   std::string(key) + " <= photonic.channels (0: all of them)",
                   [key](const Scenario& s) -> std::string {
                     if (s.Int(key) <= s.Int("photonic.channels")) return "";
                     return s.Show(key) + " is above the link's " + s.Show("photonic.channels");
                   }};
  };
  return {
      {{"photonic.*", "network.switching"},
       "photonic keys with network.switching = photonic",
       [](const Scenario& s) -> std::string {
         if (s.Text("network.switching") == "photonic") return "";
         for (const std::string& key : s.given())
           if (key.rfind("photonic.", 0) == 0) return key + " is set, but " + s.Show("network.switching");
         return "";
       }},
      within_link("photonic.source_channels"),
      within_link("photonic.buffer.channels"),
      {{"photonic.buffer.bytes", "workload.mtu_bytes"},
       "photonic.buffer.bytes = 0 (unlimited), or room for 1 to " +
           std::to_string(PhotonicParams::kUnlimitedSlots - 1) + " packets of workload.mtu_bytes",
       [](const Scenario& s) -> std::string {
         const int64_t bytes = s.Int("photonic.buffer.bytes"), slots = bytes / s.Int("workload.mtu_bytes");
         if (bytes == 0 || (slots >= 1 && slots < PhotonicParams::kUnlimitedSlots)) return "";
         return s.Show("photonic.buffer.bytes") +
                (slots == 0 ? " holds no packet of " : " holds too many packets of ") +
                s.Show("workload.mtu_bytes");
       }},
      {{"photonic.buffer.layout", "topology.kind"},
       "none and all on any topology; every_2, every_4 on topology.kind = torus; top_1 .. top_3 on "
       "kary_ntree",
       [](const Scenario& s) -> std::string {
         const std::string& layout = s.Text("photonic.buffer.layout");
         const std::string& kind = s.Text("topology.kind");
         const bool fits = layout == "none" || layout == "all" ||
                           (layout.rfind("every_", 0) == 0 ? kind == "torus" : kind == "kary_ntree");
         return fits ? "" : s.Show("photonic.buffer.layout") + " on " + s.Show("topology.kind");
       }},
  };
}

std::unique_ptr<MechanismConfig> Parse(const MechanismParseContext& context) {
  if (context.net.switching != "photonic") return nullptr;
  const Scenario& s = context.scenario;
  auto c = std::make_unique<PhotonicConfig>();
  PhotonicParams& p = c->params;
  p.mode_name = s.Text("photonic.mode");
  p.mode = p.mode_name == "circuit"      ? PhotonicMode::kCircuit
           : p.mode_name == "packetised" ? PhotonicMode::kPacketised
                                         : PhotonicMode::kSegment;
  p.channels = static_cast<int>(s.Int("photonic.channels"));
  p.source_channels = static_cast<int>(s.Int("photonic.source_channels"));
  if (p.source_channels == 0) p.source_channels = p.channels;
  p.buffer_channels = static_cast<int>(s.Int("photonic.buffer.channels"));
  if (p.buffer_channels == 0) p.buffer_channels = p.channels;
  const double channel_gbps = s.Real("photonic.channel_gbps");
  p.layout = s.Text("photonic.buffer.layout");
  const uint64_t buffer_bytes = static_cast<uint64_t>(s.Int("photonic.buffer.bytes"));
  p.on_failure_name = s.Text("photonic.on_failure");
  p.on_failure = p.on_failure_name == "backoff" ? OnFailure::kBackoff
                 : p.on_failure_name == "retry" ? OnFailure::kRetry
                                                : OnFailure::kWait;
  p.backoff_cycles = static_cast<int>(s.Int("photonic.backoff_cycles"));
  p.requests_per_cycle = static_cast<int>(s.Int("photonic.requests_per_cycle"));
  p.predict_refusals = s.Bool("photonic.predict_refusals");
  p.seed = context.sim.seed;
  const WorkloadParams workload = ParseWorkloadParams(s);
  // A flit is workload.flit_bytes; one channel carries channel_gbps.
  p.cycles_per_flit = workload.flit_bytes * 8.0 / (channel_gbps * context.sim.cycle_ns);
  p.slots = buffer_bytes == 0 ? PhotonicParams::kUnlimitedSlots
                              : static_cast<uint32_t>(buffer_bytes / workload.mtu_bytes);
  const Topology& t = context.topology;
  const std::string name = t.Name();
  if (t.ports > PhotonicControl::kMostPorts) {
    throw ScenarioError("topology.k, topology.dims: a photonic switch has at most " +
                        std::to_string(PhotonicControl::kMostPorts) +
                        " ports (a request's candidate outputs " + "are a 32-bit mask); " + name + " has " +
                        std::to_string(t.ports));
  }
  BufferedSwitches(t, p.layout);  // throws when the layout does not fit the topology
  return c;
}

std::unique_ptr<Mechanism> Make(const MechanismConfig& config, const MechanismContext& context) {
  return std::make_unique<PhotonicControl>(static_cast<const PhotonicConfig&>(config), context);
}

std::string View(const MechanismConfig&) { return "waves/photonic_ctrl.gtkw"; }

}  // namespace

MechanismInfo PhotonicMechanism() {
  // On with the data plane; photonic.mode says which reservations it makes, never "off".
  return {"photonic",
          "photonic.mode",
          "unused (network.switching is not photonic)",
          "circuits",
          Keys(),
          Parse,
          Make,
          nullptr,
          View,
          {"photonic_torus", "photonic_fattree"},
          Rules()};
}

}  // namespace icn
