// SPDX-License-Identifier: Apache-2.0
// The end-of-run census: every packet generated and not delivered must be somewhere in the data
// plane with all its flits, and no flit of a delivered packet may be left behind.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/run_stats.h"
#include "net/fabric.h"
#include "net/flit.h"

namespace icn {

struct Census {
  uint64_t in_flight = 0;  // packets generated and not yet delivered, found by a scan
  std::vector<std::string> problems;
};

Census TakeCensus(const PacketPool& pool, const Fabric& fabric, const RunStats& stats);

}  // namespace icn
