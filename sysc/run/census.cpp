// SPDX-License-Identifier: Apache-2.0
#include "run/census.h"

namespace icn {

Census TakeCensus(const PacketPool& pool, const Fabric& fabric, const RunStats& stats) {
  Census census;
  std::vector<uint32_t> present(pool.capacity(), 0);
  fabric.CountFlits(present);
  for (uint32_t id = 0; id < pool.capacity(); ++id) {
    const Packet& p = pool[id];
    if (!p.live) {
      if (present[id] != 0 && census.problems.size() < 20) {
        census.problems.push_back("flits of delivered packet " + std::to_string(id) +
                                  " are still in the network");
      }
      continue;
    }
    ++census.in_flight;
    if (present[id] + p.next_index != p.flits && census.problems.size() < 20) {
      census.problems.push_back("packet " + std::to_string(id) + " from node " + std::to_string(p.src) +
                                " to " + std::to_string(p.dst) + ": " + std::to_string(present[id]) +
                                " flits in the network + " + std::to_string(p.next_index) +
                                " delivered != " + std::to_string(p.flits));
    }
  }
  if (stats.created() != stats.delivered() + census.in_flight) {
    census.problems.push_back("generated " + std::to_string(stats.created()) + " != delivered " +
                              std::to_string(stats.delivered()) + " + in flight " +
                              std::to_string(census.in_flight));
  }
  return census;
}

}  // namespace icn
