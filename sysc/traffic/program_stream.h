// SPDX-License-Identifier: Apache-2.0
// A preset's program run rank by rank and produced one round of a collective at a time.
//
// A rank is a sequential program: each of its sends waits for the messages it received in its
// last round with receptions (its "frontier") and for its own previous send to leave; its first
// send of a round also carries its pending compute, and the others follow it at once. A rank that
// has received nothing yet sends at the absolute time its computation reaches. Ranks compute at
// full utilisation. This is the rank contract of MessageStream.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "core/rng.h"
#include "traffic/collectives.h"
#include "traffic/message_stream.h"

namespace icn {

// A program as numbered steps, each a few operations, so that a million iterations need no list.
struct Program {
  int steps = 0;
  std::function<void(int step, std::vector<Operation>& out)> step;
};

class ProgramStream : public MessageStream {
 public:
  // compute_scale multiplies every compute; the seed draws the compute jitter.
  ProgramStream(Program program, int ranks, double compute_scale, uint64_t seed);

  bool Next(std::vector<WorkloadMessage>& out) override;
  void ForEachSend(const std::function<void(int, int, uint64_t)>& visit) const override;
  int ranks() const override { return ranks_; }

 private:
  // The next collective round's sends, or false at the end of the program (computing on the way).
  bool NextRound(std::vector<Send>& sends);
  void Compute(const Operation& op);
  static constexpr uint32_t kNone = UINT32_MAX;
  Program program_;
  int ranks_;
  double scale_;
  Rng rng_;
  int step_ = -1;               // the program's step being run
  std::vector<Operation> ops_;  // its operations
  size_t op_ = 0;               // the one being run
  int round_ = 0;               // and its next round
  uint32_t next_id_ = 0;
  std::vector<std::vector<uint32_t>> frontier_;
  std::vector<double> pending_;  // compute not spent by a send yet
  std::vector<double> clock_;
  std::vector<uint32_t> last_sent_;              // each rank's latest send
  std::vector<Send> sends_;                      // scratch
  std::vector<std::vector<uint32_t>> received_;  // scratch: this round's receptions per rank
};

}  // namespace icn
