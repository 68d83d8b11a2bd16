#include "traffic/workload_driver.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace icn {
namespace {

uint64_t Cycles(double ns, double cycle_ns) { return static_cast<uint64_t>(std::ceil(ns / cycle_ns - 1e-9)); }

}  // namespace

WorkloadDriver::Dependents WorkloadDriver::Invert(const Workload& w, bool sent) {
  const auto deps = [sent](const WorkloadMessage& m) -> const std::vector<uint32_t>& {
    return sent ? m.after_sent : m.after;
  };
  Dependents d;
  d.first.assign(w.messages.size() + 1, 0);
  for (const WorkloadMessage& m : w.messages) {
    for (uint32_t dep : deps(m)) ++d.first[dep + 1];
  }
  for (size_t i = 1; i < d.first.size(); ++i) d.first[i] += d.first[i - 1];
  d.ids.resize(d.first.back());
  std::vector<uint32_t> fill(d.first.begin(), d.first.end() - 1);
  for (uint32_t id = 0; id < w.messages.size(); ++id) {
    for (uint32_t dep : deps(w.messages[id])) d.ids[fill[dep]++] = id;
  }
  return d;
}

WorkloadDriver::WorkloadDriver(const Workload& w, double cycle_ns, uint32_t mtu_bytes, uint32_t flit_bytes)
    : state_(w.messages.size()),
      on_delivery_(Invert(w, false)),
      on_release_(Invert(w, true)),
      mtu_bytes_(mtu_bytes),
      flit_bytes_(flit_bytes) {
  std::vector<uint64_t> sent(static_cast<size_t>(w.ranks), 0), received(sent);
  for (const WorkloadMessage& m : w.messages) {
    const uint64_t packets = (m.bytes + mtu_bytes - 1) / mtu_bytes;
    sent[static_cast<size_t>(m.src)] += packets;
    received[static_cast<size_t>(m.dst)] += packets;
  }
  uint64_t sum = 0;
  for (size_t node = 0; node < sent.size(); ++node) {
    const uint64_t share = std::max(sent[node], received[node]);
    busiest_node_packets_ = std::max(busiest_node_packets_, share);
    sum += share;
  }
  mean_node_packets_ = sent.empty() ? 0.0 : static_cast<double>(sum) / static_cast<double>(sent.size());
  for (uint32_t id = 0; id < w.messages.size(); ++id) {
    const WorkloadMessage& m = w.messages[id];
    State& s = state_[id];
    s.src = m.src;
    s.dst = m.dst;
    s.bytes = m.bytes;
    s.gap = Cycles(m.gap_ns, cycle_ns);
    s.at = Cycles(m.at_ns, cycle_ns);
    s.utilisation = static_cast<float>(m.utilisation);
    s.waiting = static_cast<uint32_t>(m.after.size() + m.after_sent.size());
    if (s.waiting != 0) continue;
    s.gap = std::min(s.gap, s.at);  // the compute before a release at a time starts at 0 or later
    s.release = s.at;
    ready_.push({s.release, id});
  }
}

void WorkloadDriver::Wait(uint32_t id, uint64_t now) {
  State& s = state_[id];
  s.start = std::max(s.start, now);
  if (--s.waiting != 0) return;
  s.release = std::max(s.start + s.gap, s.at);
  ready_.push({s.release, id});
}

void WorkloadDriver::Release(uint64_t now, const std::function<void(int, int, uint32_t, uint32_t)>& enqueue) {
  while (!ready_.empty() && ready_.top().first <= now) {
    const uint32_t id = ready_.top().second;
    ready_.pop();
    State& s = state_[id];
    for (uint64_t left = s.bytes; left > 0;) {
      const uint64_t bytes = std::min<uint64_t>(left, mtu_bytes_);
      left -= bytes;
      ++s.in_flight;
      ++packets_;
      enqueue(s.src, s.dst, static_cast<uint32_t>((bytes + flit_bytes_ - 1) / flit_bytes_), id);
    }
    // Messages waiting for this one to leave may be due this cycle: the loop releases them too.
    for (uint32_t i = on_release_.first[id]; i < on_release_.first[id + 1]; ++i)
      Wait(on_release_.ids[i], now);
  }
}

void WorkloadDriver::OnPacketDelivered(uint32_t message, uint64_t now) {
  if (--state_[message].in_flight != 0) return;
  ++completed_;
  finish_ = now;
  for (uint32_t i = on_delivery_.first[message]; i < on_delivery_.first[message + 1]; ++i)
    Wait(on_delivery_.ids[i], now);
}

double WorkloadDriver::BusyCycles(uint64_t end) const {
  // Every compute phase that has begun: (node, first cycle, end cycle, utilisation), sorted.
  std::vector<std::tuple<int, uint64_t, uint64_t, float>> phases;
  for (const State& s : state_) {
    if (s.waiting == 0 && s.gap > 0 && s.release - s.gap < end)
      phases.emplace_back(s.src, s.release - s.gap, std::min(s.release, end), s.utilisation);
  }
  std::sort(phases.begin(), phases.end());
  double cycles = 0;
  int node = -1;
  uint64_t covered = 0;  // the node's compute is counted up to here
  for (const auto& [src, from, to, utilisation] : phases) {
    if (src != node) {
      node = src;
      covered = 0;
    }
    const uint64_t begin = std::max(from, covered);
    if (to > begin) cycles += static_cast<double>(to - begin) * utilisation;
    covered = std::max(covered, to);
  }
  return cycles;
}

}  // namespace icn
