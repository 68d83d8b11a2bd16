// SPDX-License-Identifier: Apache-2.0
// Where a workload's messages come from: batches in id order, produced as the run reaches them,
// so that memory holds the messages in flight rather than the whole workload.
//
// The rank contract lets the driver know when to ask for more: rank r's next message not produced
// yet may be released at an absolute time only if r has received nothing so far, and otherwise
// depends (at least) on the delivery of every message r received in the last batch where it
// received any, and on the release of r's latest message. A rank whose dependencies are all met
// may therefore have a message due that is not produced yet; a rank with one unmet has none.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "traffic/workload.h"

namespace icn {

class MessageStream {
 public:
  virtual ~MessageStream() = default;
  // Appends the next batch (messages numbered on from the last); false when none is left.
  virtual bool Next(std::vector<WorkloadMessage>& out) = 0;
  // Every message the stream will produce, from the start, without its dependencies.
  virtual void ForEachSend(const std::function<void(int src, int dst, uint64_t bytes)>& visit) const = 0;
  virtual int ranks() const = 0;
};

// A workload held whole (a trace, or a preset built at once), in one batch.
class WholeWorkload : public MessageStream {
 public:
  explicit WholeWorkload(Workload workload) : w_(std::move(workload)) {}
  bool Next(std::vector<WorkloadMessage>& out) override {
    if (taken_) return false;
    taken_ = true;
    out = std::move(w_.messages);
    return true;
  }
  void ForEachSend(const std::function<void(int, int, uint64_t)>& visit) const override {
    for (const WorkloadMessage& m : w_.messages) visit(m.src, m.dst, m.bytes);
  }
  int ranks() const override { return w_.ranks; }

 private:
  Workload w_;
  bool taken_ = false;
};

}  // namespace icn
