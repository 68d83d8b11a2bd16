// SPDX-License-Identifier: Apache-2.0
#include "traffic/program_stream.h"

#include <algorithm>
#include <utility>

namespace icn {

ProgramStream::ProgramStream(Program program, int ranks, double compute_scale, uint64_t seed)
    : program_(std::move(program)),
      ranks_(ranks),
      scale_(compute_scale),
      rng_(seed),
      frontier_(ranks),
      pending_(ranks, 0),
      clock_(ranks, 0),
      last_sent_(ranks, kNone),
      received_(ranks) {}

void ProgramStream::Compute(const Operation& op) {
  for (int r = 0; r < ranks_; ++r) pending_[r] += op.ns * scale_ * (1 + op.jitter * (2 * rng_.Uniform() - 1));
}

bool ProgramStream::NextRound(std::vector<Send>& sends) {
  sends.clear();
  for (;;) {
    if (op_ < ops_.size()) {
      const Operation& op = ops_[op_];
      if (op.kind == Operation::Kind::kCompute) {
        Compute(op);
      } else if (round_ < Rounds(op, ranks_)) {
        RoundSends(op, ranks_, round_++, sends);
        if (!sends.empty()) return true;
        continue;
      }
      ++op_;
      round_ = 0;
      continue;
    }
    if (step_ + 1 >= program_.steps) return false;
    ops_.clear();
    program_.step(++step_, ops_);
    op_ = 0;
    round_ = 0;
  }
}

bool ProgramStream::Next(std::vector<WorkloadMessage>& out) {
  if (!NextRound(sends_)) return false;
  for (const Send& s : sends_) {
    WorkloadMessage m;
    m.src = s.src;
    m.dst = s.dst;
    m.bytes = std::max<uint64_t>(1, s.bytes);
    m.gap_ns = std::exchange(pending_[s.src], 0.0);  // spent by the rank's first send of the round
    const uint32_t id = next_id_++;
    if (frontier_[s.src].empty()) {  // its clock orders its sends
      clock_[s.src] += m.gap_ns;
      m.at_ns = clock_[s.src];
    } else {
      m.after = frontier_[s.src];
      if (last_sent_[s.src] != kNone) m.after_sent = {last_sent_[s.src]};
    }
    last_sent_[s.src] = id;
    received_[s.dst].push_back(id);
    out.push_back(std::move(m));
  }
  for (const Send& s : sends_) {             // a rank's receptions of this round become its frontier
    if (received_[s.dst].empty()) continue;  // taken at its first send
    frontier_[s.dst].swap(received_[s.dst]);
    received_[s.dst].clear();
  }
  return true;
}

void ProgramStream::ForEachSend(const std::function<void(int, int, uint64_t)>& visit) const {
  std::vector<Operation> ops;
  std::vector<Send> sends;
  for (int step = 0; step < program_.steps; ++step) {
    ops.clear();
    program_.step(step, ops);
    for (const Operation& op : ops) {
      for (int round = 0, rounds = Rounds(op, ranks_); round < rounds; ++round) {
        sends.clear();
        RoundSends(op, ranks_, round, sends);
        for (const Send& s : sends) visit(s.src, s.dst, std::max<uint64_t>(1, s.bytes));
      }
    }
  }
}

}  // namespace icn
