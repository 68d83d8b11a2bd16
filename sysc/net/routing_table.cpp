// SPDX-License-Identifier: Apache-2.0
#include "net/routing_table.h"

#include <stdexcept>
#include <string>

namespace icn {

RoutingTable::RoutingTable(int routers, int nodes)
    : routers_(routers), nodes_(nodes), entries_(static_cast<size_t>(routers) * nodes) {}

void RoutingTable::Set(int router, int dst, std::vector<Route> choices) {
  if (router < 0 || router >= routers_ || dst < 0 || dst >= nodes_ || choices.empty()) {
    throw std::invalid_argument("routing table: entry (router " + std::to_string(router) + ", node " +
                                std::to_string(dst) +
                                ") needs a known router and node and at least one route");
  }
  entries_[static_cast<size_t>(router) * nodes_ + dst] = std::move(choices);
}

Route TableRouting::Compute(RouteContext& ctx) const {
  const std::vector<Route>& choices = table_.Get(ctx.router, ctx.packet.dst);
  if (choices.size() == 1) return choices.front();
  const size_t start = ctx.outputs.NextTieBreak() % choices.size();
  size_t best = start;
  for (size_t i = 1; i < choices.size(); ++i) {
    const size_t c = (start + i) % choices.size();
    if (ctx.outputs.OutputLoad(choices[c].port) < ctx.outputs.OutputLoad(choices[best].port)) best = c;
  }
  return choices[best];
}

}  // namespace icn
