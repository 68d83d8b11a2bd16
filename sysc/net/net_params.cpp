// SPDX-License-Identifier: Apache-2.0
#include "net/net_params.h"

namespace icn {

const std::vector<KeySpec>& NetKeys() {
  static const std::vector<KeySpec> keys = {
      IntKey("router.vcs", "3", 1, 16, "", "virtual channels per port (torus needs >= 2)"),
      IntKey("router.vc_buffer_flits", "4", 1, 4096, "flits", "input buffer depth per VC"),
      IntKey("router.pipeline_cycles", "2", 1, 64, "cycles", "router latency of a flit at zero load"),
      IntKey("router.output_queue_flits", "0", 0, 1 << 20, "flits",
             "CIOQ output queue depth per VC (0 = input-queued router)"),
      RealKey("router.speedup", "1", 1, 8, "", "crossbar speed-up of a CIOQ router"),
      ChoiceKey("router.vc_release", "tail_sent", {"tail_sent", "tail_credit"},
                "an output VC takes the next packet once the tail has left (tail_sent) or once its "
                "credit is back too (tail_credit: one packet per downstream buffer)"),
      IntKey("router.allocator_iterations", "1", 1, 8, "",
             "iterations of the separable input-first VC and switch allocators per cycle"),
      IntKey("link.latency_cycles", "1", 1, 255, "cycles",
             "one-way latency of every wire whose topology does not set its own"),
      RealKey("link.bandwidth_flits", "1", 0.001, 1, "flits/cycle",
              "rate of every wire whose topology does not set its own"),
  };
  return keys;
}

NetParams ParseNetParams(const Scenario& s, std::vector<std::string>& warnings) {
  NetParams net;
  net.switching = s.Text("network.switching");
  RouterParams& r = net.router;
  r.vcs = static_cast<int>(s.Int("router.vcs"));
  r.vc_buffer_flits = static_cast<int>(s.Int("router.vc_buffer_flits"));
  r.pipeline_cycles = static_cast<int>(s.Int("router.pipeline_cycles"));
  r.output_queue_flits = static_cast<int>(s.Int("router.output_queue_flits"));
  r.speedup = s.Real("router.speedup");
  r.vc_release = s.Text("router.vc_release") == "tail_credit" ? VcRelease::kTailCredit : VcRelease::kTailSent;
  r.allocator_iterations = static_cast<int>(s.Int("router.allocator_iterations"));
  net.link.latency = static_cast<int>(s.Int("link.latency_cycles"));
  net.link.rate = s.Real("link.bandwidth_flits");
  const int round_trip = 2 * net.link.latency + r.pipeline_cycles;
  if (r.vc_buffer_flits < round_trip) {
    warnings.push_back("router.vc_buffer_flits = " + std::to_string(r.vc_buffer_flits) +
                       " is below the credit round trip of " + std::to_string(round_trip) +
                       " cycles: a lone packet cannot stream at full link rate");
  }
  return net;
}

}  // namespace icn
