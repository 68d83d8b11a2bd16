// SPDX-License-Identifier: Apache-2.0
// MPI-like workloads: a list of messages, each released at a time or when the messages it depends
// on have been delivered (plus a compute gap). Built from presets shaped like the applications of
// the PerfBound paper, or read from a plain-text trace so that real traces can be replayed.
//
// Trace format, one message per line ('#' starts a comment, blank lines are ignored):
//
//   <id> <src> <dst> <bytes> at <time_ns> [<compute_ns> [<utilisation>]]
//   <id> <src> <dst> <bytes> after <dep>[,<dep>...] [<gap_ns> [<utilisation>]]
//
// ids are 0, 1, 2, ... in file order; a message may only depend on earlier ones; src != dst. A
// dependency <id> waits until that message has been delivered (every packet at its destination),
// s<id> until it has been sent (released: a program's order of sends). "at": released at that
// time, the source having computed for compute_ns before it. "after": released gap_ns after the
// last of its dependencies, the source computing meanwhile. The source's node runs at
// `utilisation` (0..1, default 1) while it computes and idles otherwise: the node power model's
// input.
#pragma once
#include <cstdint>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "traffic/collectives.h"

namespace icn {

struct WorkloadMessage {
  int src = 0;
  int dst = 0;
  uint64_t bytes = 0;
  double at_ns = 0;                  // release time of a message without dependencies
  std::vector<uint32_t> after;       // messages that must be delivered first
  std::vector<uint32_t> after_sent;  // messages that must have been sent (released) first
  double gap_ns = 0;                 // compute time before the release (after the last dependency)
  double utilisation = 1;            // of the source's node while it computes
};

class MessageStream;

struct Workload {
  std::vector<WorkloadMessage> messages;
  int ranks = 0;  // highest node id used + 1
  uint64_t bytes = 0;
};

// The preset names, in documentation order.
const std::vector<std::string>& WorkloadPresets();

// A preset over `ranks` nodes, produced as the run reaches it (the collective presets) or whole.
// iterations = 0 takes the preset's own count; compute_scale multiplies every compute gap; the
// allreduce rule chooses each allreduce's algorithm. Deterministic for a seed (compute jitter).
std::unique_ptr<MessageStream> OpenPreset(const std::string& preset, int ranks, int iterations,
                                          double compute_scale, uint64_t seed,
                                          AllreduceRule allreduce = AllreduceRule::kOpenMpi);
// The same preset held whole.
Workload MakeWorkload(const std::string& preset, int ranks, int iterations, double compute_scale,
                      uint64_t seed, AllreduceRule allreduce = AllreduceRule::kOpenMpi);

struct WorkloadParams;
// The workload a scenario asks for on a network of `nodes` nodes: a preset, or the trace file
// (whose node ids must exist). Throws ScenarioError naming the key.
std::unique_ptr<MessageStream> OpenWorkload(const WorkloadParams& params, int nodes, uint64_t seed);

// Throws ScenarioError naming `origin`, the line number and what is wrong (a node at or above
// `nodes` among them).
Workload ReadTrace(std::istream& in, const std::string& origin, int nodes = 1 << 24);
void WriteTrace(const Workload& workload, std::ostream& out);
// The stream's messages as a trace, batch by batch (memory: one batch).
struct TraceSummary {
  size_t messages = 0;
  uint64_t bytes = 0;
  int ranks = 0;  // highest node id used + 1
};
TraceSummary WriteTrace(MessageStream& stream, std::ostream& out);

}  // namespace icn
