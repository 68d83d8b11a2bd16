// SPDX-License-Identifier: Apache-2.0
// Parameters of the photonic data plane and its control plane (photonic.*), after validation, and
// where the buffers are (photonic.buffer.layout) on a torus or a k-ary n-tree.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "net/photonic/switch_control.h"
#include "net/topology.h"

namespace icn {

// What a source does when its reservation fails back to it (photonic.on_failure).
enum class OnFailure : uint8_t {
  kWait,     // keep the channel; the same unit tries again once the link that refused it frees a channel
  kRetry,    // keep the channel; the same unit tries again after [b, 2b) cycles
  kBackoff,  // free its channel; the unit joins the end of the queue after [b, 2b) cycles
};

struct PhotonicParams {
  PhotonicMode mode = PhotonicMode::kSegment;
  std::string mode_name = "segment";
  int channels = 5;  // W per link
  int source_channels =
      5;  // a NIC's reservations or transfers at once (photonic.source_channels; 0 there: W)
  int buffer_channels = 5;  // of the buffer port, each way (photonic.buffer.channels; 0 there: W)
  std::string layout = "none";
  uint32_t slots = 0;          // per buffer, in MTU packets (photonic.buffer.bytes / MTU), or kUnlimitedSlots
  double cycles_per_flit = 1;  // a flit's time on one channel
  OnFailure on_failure = OnFailure::kWait;
  std::string on_failure_name = "wait";
  int backoff_cycles = 32;       // b
  int requests_per_cycle = 0;    // a switch's control plane answers at most this many per cycle (0: all)
  bool predict_refusals = true;  // a reserve the harness's counts show must fail skips the switch's model
  uint64_t seed = 1;

  static constexpr uint32_t kUnlimitedSlots = (1u << 24) - 1;  // the RTL's all-ones entry count
};

// Per switch, whether it has a buffer. Layouts: none; all; torus every_2 / every_4 (switches whose
// coordinates sum to a multiple of n: a buffer every n switches along any dimension); k-ary
// n-tree top_1 / top_2 / top_3 (the top levels, roots first). Throws ScenarioError naming
// photonic.buffer.layout when the layout does not fit the topology.
std::vector<uint8_t> BufferedSwitches(const Topology& topology, const std::string& layout);

}  // namespace icn
