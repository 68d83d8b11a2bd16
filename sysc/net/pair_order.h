// SPDX-License-Identifier: Apache-2.0
// Delivery in injection order per source-destination pair, for data planes whose packets of one
// pair can take different ways (a routing update, a buffer on one path and not the other): a packet
// that reaches its destination before an older one of its pair is held until that one arrives.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "net/flit.h"

namespace icn {

class PairOrder {
 public:
  explicit PairOrder(int nodes) : nodes_(nodes) {}

  void Add(const Packet& p, uint32_t id) { pairs_[Key(p)].outstanding.push_back(id); }

  // Packet `id` reached its destination: calls deliver(id) for it and for each held packet it
  // releases, in injection order; holds it if an older packet of its pair is still on its way.
  template <typename Deliver>
  void Arrive(const PacketPool& pool, uint32_t id, Deliver deliver) {
    Pair& pair = pairs_[Key(pool[id])];
    if (pair.outstanding.front() != id) {
      pair.early.push_back(id);
      ++reordered_;
      return;
    }
    for (uint32_t next = id;;) {
      deliver(next);
      pair.outstanding.pop_front();
      if (pair.outstanding.empty()) break;
      const auto early = std::find(pair.early.begin(), pair.early.end(), pair.outstanding.front());
      if (early == pair.early.end()) break;
      next = *early;
      pair.early.erase(early);
    }
  }

  // Packets that arrived before an older one of their pair and waited for it.
  uint64_t reordered() const { return reordered_; }
  // Adds the flits of every held packet (the end-of-run census).
  void CountFlits(const PacketPool& pool, std::vector<uint32_t>& present) const {
    for (const auto& [key, pair] : pairs_)
      for (uint32_t id : pair.early) present[id] += pool[id].flits;
  }
  // Where a held packet waits, or empty if it is not held.
  std::string Locate(uint32_t packet) const {
    for (const auto& [key, pair] : pairs_)
      for (uint32_t id : pair.early)
        if (id == packet)
          return "absorption of node " + std::to_string(key % nodes_) + ", behind an older packet";
    return {};
  }

 private:
  struct Pair {
    std::deque<uint32_t> outstanding;  // injection order
    std::vector<uint32_t> early;
  };
  uint64_t Key(const Packet& p) const { return static_cast<uint64_t>(p.src) * nodes_ + p.dst; }

  int nodes_;
  std::unordered_map<uint64_t, Pair> pairs_;
  uint64_t reordered_ = 0;
};

}  // namespace icn
