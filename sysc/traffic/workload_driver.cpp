// SPDX-License-Identifier: Apache-2.0
#include "traffic/workload_driver.h"

#include <cassert>
#include <cmath>
#include <string>
#include <utility>

#include "core/errors.h"

namespace icn {
namespace {

uint64_t Cycles(double ns, double cycle_ns) { return static_cast<uint64_t>(std::ceil(ns / cycle_ns - 1e-9)); }

}  // namespace

WorkloadDriver::WorkloadDriver(std::unique_ptr<MessageStream> stream, double cycle_ns, uint32_t mtu_bytes,
                               uint32_t flit_bytes)
    : stream_(std::move(stream)),
      cycle_ns_(cycle_ns),
      mtu_bytes_(mtu_bytes),
      flit_bytes_(flit_bytes),
      ranks_(static_cast<size_t>(stream_->ranks())),
      ready_ranks_(ranks_.size()) {
  std::vector<uint64_t> sent(ranks_.size(), 0), received(sent);
  stream_->ForEachSend([&](int src, int dst, uint64_t bytes) {
    const uint64_t packets = (bytes + mtu_bytes - 1) / mtu_bytes;
    sent[static_cast<size_t>(src)] += packets;
    received[static_cast<size_t>(dst)] += packets;
    ++messages_;
  });
  if (messages_ >= kNone) {
    throw ScenarioError("workload.iterations: the workload has " + std::to_string(messages_) +
                        " messages; allowed: fewer than " + std::to_string(kNone));
  }
  uint64_t sum = 0;
  for (size_t node = 0; node < sent.size(); ++node) {
    const uint64_t share = std::max(sent[node], received[node]);
    busiest_node_packets_ = std::max(busiest_node_packets_, share);
    sum += share;
  }
  mean_node_packets_ = sent.empty() ? 0.0 : static_cast<double>(sum) / static_cast<double>(sent.size());
  Produce();
}

void WorkloadDriver::Produce() {
  if (exhausted_ || ready_ranks_ == 0) return;
  do {
    batch_.clear();
    if (!stream_->Next(batch_)) {
      exhausted_ = true;
      break;
    }
    for (WorkloadMessage& m : batch_) Append(std::move(m));
    ++batches_;
  } while (ready_ranks_ > 0);
  Forget();
}

void WorkloadDriver::Append(WorkloadMessage&& m) {
  const uint32_t id = first_held_ + static_cast<uint32_t>(held_.size());
  held_.emplace_back();
  peak_held_ = std::max(peak_held_, held_.size());
  State& s = held_.back();
  s.src = m.src;
  s.dst = m.dst;
  s.bytes = m.bytes;
  s.batch = batches_;
  s.gap = Cycles(m.gap_ns, cycle_ns_);
  s.at = Cycles(m.at_ns, cycle_ns_);
  s.utilisation = static_cast<float>(m.utilisation);
  // A dependency already met counts as a wait that ended when it was met.
  const auto depend = [&](bool met, uint64_t met_at, std::vector<uint32_t>& waiting) {
    if (met) {
      s.start = std::max(s.start, met_at);
    } else {
      waiting.push_back(id);
      ++s.waiting;
    }
  };
  for (const uint32_t d : m.after) depend(state(d).delivered, state(d).delivered_at, state(d).on_delivery);
  for (const uint32_t d : m.after_sent) depend(state(d).released, state(d).released_at, state(d).on_release);
  Rank& sender = ranks_[static_cast<size_t>(m.src)];
  sender.last_sent = id;
  Rank& receiver = ranks_[static_cast<size_t>(m.dst)];
  if (receiver.frontier_batch != batches_) {
    receiver.frontier_batch = batches_;
    receiver.frontier_first = id;
    receiver.frontier_unmet = 0;
  }
  ++receiver.frontier_unmet;
  Reconsider(m.src);
  Reconsider(m.dst);
  if (m.after.empty() && m.after_sent.empty()) {
    s.gap = std::min(s.gap, s.at);  // the compute before a release at a time starts at 0 or later
    s.start = 0;
    Ready(id);
  } else if (s.waiting == 0) {
    Ready(id);
  }
}

void WorkloadDriver::Ready(uint32_t id) {
  State& s = state(id);
  s.release = std::max(s.start + s.gap, s.at);
  assert(s.release >= now_ && "a message due before it was produced: the stream broke the rank contract");
  if (s.gap > 0) phases_.push_back({s.src, s.release - s.gap, s.release, s.utilisation});
  ready_.push({s.release, id});
}

void WorkloadDriver::Wait(uint32_t id, uint64_t now) {
  State& s = state(id);
  s.start = std::max(s.start, now);
  if (--s.waiting == 0) Ready(id);
}

void WorkloadDriver::Reconsider(int rank) {
  if (exhausted_) return;  // nothing left to produce (and what the ranks name may be forgotten)
  Rank& r = ranks_[static_cast<size_t>(rank)];
  const bool ready = r.frontier_batch == kNone ||
                     (r.frontier_unmet == 0 && (r.last_sent == kNone || state(r.last_sent).released));
  if (ready == r.ready) return;
  r.ready = ready;
  if (ready) {
    ++ready_ranks_;
  } else {
    --ready_ranks_;
  }
}

void WorkloadDriver::Forget() {
  uint32_t oldest = kNone;  // the oldest message a message to come may depend on
  if (!exhausted_) {
    for (const Rank& r : ranks_) oldest = std::min({oldest, r.frontier_first, r.last_sent});
  }
  while (!held_.empty() && first_held_ < oldest && held_.front().delivered) {
    held_.pop_front();
    ++first_held_;
  }
}

void WorkloadDriver::Release(uint64_t now, const std::function<void(int, int, uint32_t, uint32_t)>& enqueue) {
  now_ = now;
  while (!ready_.empty() && ready_.top().first <= now) {
    const uint32_t id = ready_.top().second;
    ready_.pop();
    State& s = state(id);
    s.released = true;
    s.released_at = now;
    for (uint64_t left = s.bytes; left > 0;) {
      const uint64_t bytes = std::min<uint64_t>(left, mtu_bytes_);
      left -= bytes;
      ++s.in_flight;
      ++packets_;
      enqueue(s.src, s.dst, static_cast<uint32_t>((bytes + flit_bytes_ - 1) / flit_bytes_), id);
    }
    // Messages waiting for this one to leave may be due this cycle: the loop releases them too.
    for (const uint32_t waiting : std::exchange(s.on_release, {})) Wait(waiting, now);
    Reconsider(s.src);
    Produce();
  }
}

void WorkloadDriver::OnPacketDelivered(uint32_t message, uint64_t now) {
  now_ = now;
  State& s = state(message);
  if (--s.in_flight != 0) return;
  s.delivered = true;
  s.delivered_at = now;
  ++completed_;
  finish_ = now;
  for (const uint32_t waiting : std::exchange(s.on_delivery, {})) Wait(waiting, now);
  Rank& receiver = ranks_[static_cast<size_t>(s.dst)];
  if (s.batch == receiver.frontier_batch) --receiver.frontier_unmet;
  Reconsider(s.dst);
  Produce();  // may forget this message
}

double WorkloadDriver::BusyCycles(uint64_t end) const {
  std::vector<Phase> phases;
  for (const Phase& p : phases_) {
    if (p.from < end) phases.push_back({p.node, p.from, std::min(p.to, end), p.utilisation});
  }
  std::sort(phases.begin(), phases.end());
  double cycles = 0;
  int node = -1;
  uint64_t covered = 0;  // the node's compute is counted up to here
  for (const Phase& p : phases) {
    if (p.node != node) {
      node = p.node;
      covered = 0;
    }
    const uint64_t begin = std::max(p.from, covered);
    if (p.to > begin) cycles += static_cast<double>(p.to - begin) * p.utilisation;
    covered = std::max(covered, p.to);
  }
  return cycles;
}

}  // namespace icn
