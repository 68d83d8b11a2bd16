// SPDX-License-Identifier: Apache-2.0
// The wormhole data plane: routers, NICs and channels of a topology in flat arrays, advanced one
// cycle at a time (channels deliver, NICs inject, routers route, allocate and switch). Besides the
// Fabric interface it gives mechanisms what they control: the routers, the routing function (which
// a mechanism may replace by per-router tables it rewrites while the network runs), and channels
// that can be quiesced, checked for being drained and re-aimed at another router.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/thread_team.h"
#include "net/channel.h"
#include "net/fabric.h"
#include "net/net_params.h"
#include "net/nic.h"
#include "net/router.h"
#include "net/routing_table.h"
#include "net/topology.h"

namespace icn {

class WormholeNetwork final : public Fabric {
 public:
  WormholeNetwork(const NetParams& net, std::shared_ptr<const Topology> topology, PacketPool& pool,
                  SinkObserver& observer);

  std::string Name() const override { return topology_->Name(); }
  int nodes() const override { return topology_->nodes; }
  void DeliverArrivals(uint64_t now) override;
  void Inject(uint32_t packet) override { nics_[pool_[packet].src]->Enqueue(packet); }
  void Advance(uint64_t now) override;
  bool Quiet() const override;
  uint64_t NextMove(uint64_t now) const override;
  // Parts are runs of whole regions (Topology::Region), about equal in routers, one per thread.
  int MaxParts() const override;
  void UseTeam(ThreadTeam& team) override;
  std::vector<uint16_t> EndParts() const override { return end_part_; }
  void CountFlits(std::vector<uint32_t>& present) const override;
  std::string Locate(uint32_t packet) const override;
  const std::vector<LinkEnd>& link_ends() const override { return ends_; }
  const std::vector<EndActivity>& activity() const override { return activity_; }
  EndTouches* WatchEnds() override;
  const std::vector<std::unique_ptr<Channel>>& channels() const override { return channels_; }
  std::vector<std::vector<double>> HopShares(int max_hops) override;

  const Topology& topology() const { return *topology_; }
  // Per router, the part (thread) it runs on (UseTeam).
  const std::vector<uint16_t>& router_parts() const { return router_part_; }
  const std::vector<std::unique_ptr<Router>>& routers() const { return routers_; }
  // The routers that stepped in the last Advance() (those that held a flit), in index order: only
  // their observables can have changed.
  const std::vector<uint32_t>& stepped_routers() const;
  // Zero-load latency of a packet of `flits` flits from src to dst (cycles, generation to tail
  // delivery) on wires of the default latency.
  uint64_t ZeroLoadLatency(int src, int dst, uint32_t flits) const;

  // The routing function every router uses; InstallRouting replaces it (heads already routed keep
  // their route).
  const Routing& routing() const { return *routing_; }
  void InstallRouting(std::unique_ptr<Routing> routing);
  // The installed routing's choice at every router for every destination, as a table to install
  // with TableRouting and rewrite. Exact for routing that depends only on the router and the
  // destination (mesh, Megafly); adaptive choices and per-packet VC classes are frozen.
  RoutingTable TabulateRouting();

  // Nothing of the channel's is in flight: no flit or credit on the wire, and its sender has every
  // credit back (the buffer at its far end holds none of its flits).
  bool Drained(const Channel& channel) const;
  // Points a drained channel from a router at input `port` of `router` (the torus node swap
  // re-aims the beams of a directed ring). A channel that fed that port before must be drained
  // too. Link ends keep describing the wiring as built. Throws std::logic_error otherwise.
  void Reaim(Channel& channel, int router, int port);
  // Moves the sending end of a channel to output `port` of `router` (E-RAPID hands a wavelength
  // toward a board to another source board). The channel must be drained and no packet at its
  // sender still routed to it (stop routing onto it first: routable false), and the new port must
  // be free. The old port is left unconnected. Throws std::logic_error otherwise.
  void MoveSource(Channel& channel, int router, int port);

 private:
  // What one thread owns and visits each cycle: its routers and the NICs attached to them, the
  // channels into its routers (it delivers their flits) and out of its routers and NICs (it
  // delivers their credits). Sets are indexed by the global index of channel, NIC and router, so
  // each thread visits its members in the order one thread would.
  struct Part {
    ActiveSet flits_due, credits_due;  // channels with flits / credits on the wire
    ActiveSet busy_nics, busy_routers;
    std::vector<uint32_t> stepped;  // its routers that stepped in the last Advance()
  };

  Channel* NewChannel(const LinkAttributes& attr);
  // Splits the routers into `parts` runs of whole regions (at most MaxParts()) and gives every
  // component its part's sets; an empty network only.
  void Partition(int parts);
  // Joins channel `index` to the sets of the parts at its ends.
  void Track(uint32_t index);
  // Moves the channel's destination (or source) from `was` to `to`, within one part.
  void Rewire(Channel& channel, const Endpoint& was, const Endpoint& to, bool destination);
  int PartOf(const Endpoint& e) const {
    return router_part_[e.router ? e.router->id() : nic_router_[e.nic->id()]];
  }
  // fn(part) for every part, on the team's threads when there are several.
  template <typename Fn>
  void ForEachPart(Fn fn);

  const NetParams net_;
  std::shared_ptr<const Topology> topology_;
  PacketPool& pool_;
  const Routing* routing_;
  std::unique_ptr<Routing> installed_;  // a routing that replaced the topology's
  std::vector<std::unique_ptr<Router>> routers_;
  std::vector<std::unique_ptr<Nic>> nics_;
  std::vector<std::unique_ptr<Channel>> channels_;
  std::vector<LinkEnd> ends_;
  std::vector<EndActivity> activity_;  // per link end, written by its channels
  std::unique_ptr<EndTouches> touches_;
  // The channels with a flit or credit on the wire, the NICs with a packet queued, the routers
  // with a flit buffered, by part: each cycle visits only these, in index order.
  std::vector<Part> parts_;
  // Channels into NICs with flits on the wire: delivered on the run's thread after the parts'
  // deliveries, in index order, because a sink reports a whole packet to the run at once.
  ActiveSet sink_flits_;
  std::vector<uint16_t> router_part_;
  std::vector<uint16_t> end_part_;
  ThreadTeam solo_{1};                             // until the run hands over its team (UseTeam)
  ThreadTeam* team_ = &solo_;                      // one member per part
  mutable std::vector<uint32_t> stepped_routers_;  // (several parts: theirs merged, on demand)
  mutable bool stepped_merged_ = true;
  std::vector<int> nic_end_;     // per node, its link end
  std::vector<int> nic_router_;  // per node, its router
  std::vector<int> end_router_;  // per link end, the router it is at (a NIC's: the one it attaches to)
};

// The run's wormhole data plane, for a mechanism whose controllers drive its routers; a scenario
// error naming `key` (the mechanism's switch) on any other data plane.
WormholeNetwork& WormholeOf(Fabric& fabric, const std::string& key);

}  // namespace icn
