// SPDX-License-Identifier: Apache-2.0
// Per-router destination tables: for every router and destination node, the routes a packet may
// take there. A mechanism fills one from the network's routing function and rewrites entries while
// the network runs (E-RAPID spreads a board's packets over the wavelengths it holds; the torus
// node swap moves nodes): packets already routed keep their route, later heads see the new one.
#pragma once
#include <vector>

#include "net/routing.h"

namespace icn {

class RoutingTable {
 public:
  RoutingTable(int routers, int nodes);
  // Throws std::invalid_argument for an empty choice list or an unknown router or node.
  void Set(int router, int dst, std::vector<Route> choices);
  const std::vector<Route>& Get(int router, int dst) const {
    return entries_[static_cast<size_t>(router) * nodes_ + dst];
  }

 private:
  int routers_;
  int nodes_;
  std::vector<std::vector<Route>> entries_;  // [router][dst]
};

// Routing by table: the entry's only route, or among several the one whose output is least
// loaded, ties broken round-robin from the router's tie-break counter.
class TableRouting : public Routing {
 public:
  explicit TableRouting(RoutingTable table) : table_(std::move(table)) {}
  Route Compute(RouteContext& ctx) const override;
  RoutingTable& table() { return table_; }

 private:
  RoutingTable table_;
};

}  // namespace icn
