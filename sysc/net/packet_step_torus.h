// SPDX-License-Identifier: Apache-2.0
// The packet-step torus of Shafarenko and Vasekin (network.switching = packet_step): whole packets
// move in lock-step, one step per hop, no router pipeline. Each dimension is a set of cycles and
// each cycle two directed cycles ("rings") whose orders may change at run time (node swaps, the
// torus_swap mechanism). Per node and ring: an input and an output queue of 32 packets (the two
// sides of the link); per node an injection queue (the NIC's, unbounded) and an absorption
// channel. Per step, first every ring link moves the head of a node's output queue into its
// successor's input queue, then every router moves at most one packet from each input (its ring
// inputs and injection) to each output (its ring outputs and absorption).
//
// Routing: dimension order (x, y, z) by node coordinates, which never change: a node stays in the
// same cycles, only its place in each directed cycle moves. Entering a dimension, a packet takes
// the direction whose ring is shorter to its target as this node's routing table sees it, and
// keeps it to the target (so reconfiguration cannot deadlock it, and a stale table only lengthens
// routes; a pair whose direction changed may arrive out of order: the absorption channel delivers
// each pair's packets in injection order, holding early ones). Deadlock freedom within a ring: a packet
// entering a ring needs two free places in the output queue, one continuing needs one (a bubble always stays
// in the ring).
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "net/fabric.h"
#include "net/flit.h"
#include "net/nic.h"
#include "net/pair_order.h"
#include "net/topology.h"

namespace icn {

class PacketStepTorus : public Fabric {
 public:
  static constexpr int kQueue = 32;  // packets at either side of a link

  // A fixed queue of packet ids.
  struct Queue {
    uint32_t slot[kQueue];
    uint8_t head = 0, count = 0;
    bool empty() const { return count == 0; }
    int free() const { return kQueue - count; }
    uint32_t front() const { return slot[head]; }
    void push(uint32_t id) { slot[(head + count++) % kQueue] = id; }
    uint32_t pop() {
      const uint32_t id = slot[head];
      head = static_cast<uint8_t>((head + 1) % kQueue);
      --count;
      return id;
    }
    uint32_t at(int i) const { return slot[(head + i) % kQueue]; }
  };

  // Flux events of one node in one ring during the last step (what its swap controller counts).
  // kOrigBack: a packet entering the ring here destined to this node's predecessor in the opposite
  // ring (the F'_ba its predecessor's controller there needs); `back_hops` holds the hops it takes
  // here, as this node's routing table sees them.
  enum Event : uint8_t { kArriveSelf = 1, kArriveNext = 2, kOrigNear = 4, kOrigFar = 8, kOrigBack = 16 };

  // One node's place in one ring: its queues, the controls a swap sets, the last step's events.
  struct Member {
    Queue in, out;
    bool hold_out = false;    // send nothing on the ring link (a, while b drains)
    bool hold_admit = false;  // admit into `out` only from `in` (b, while it drains)
    bool block_in = false;    // receiver re-steered: `in` accepts nothing
    uint8_t events = 0;
    uint8_t back_hops = 0;  // with kOrigBack
  };

  // `seed` (sim.seed): where each router starts serving its inputs, and ties of direction.
  PacketStepTorus(std::shared_ptr<const Topology> topology, uint64_t seed, PacketPool& pool,
                  SinkObserver& observer);

  std::string Name() const override { return topology_->Name() + ", packet step"; }
  int nodes() const override { return nodes_; }
  void DeliverArrivals(uint64_t now) override;
  void Inject(uint32_t packet) override;
  void Advance(uint64_t now) override;
  bool Quiet() const override { return packets_inside_ == 0 && absorbed_.empty(); }
  void CountFlits(std::vector<uint32_t>& present) const override;
  std::string Locate(uint32_t packet) const override;
  const std::vector<LinkEnd>& link_ends() const override { return no_ends_; }
  const std::vector<EndActivity>& activity() const override { return no_activity_; }
  const std::vector<std::unique_ptr<Channel>>& channels() const override { return channels_; }
  std::vector<std::vector<double>> HopShares(int max_hops) override;

  // Rings: index (d * cycles_per_dim + cycle) * 2 + direction (0: coordinates rising, 1: falling);
  // members by label, a node's place in the ring at the start (its coordinate, or P - 1 - it).
  const std::vector<int>& dims() const { return dims_; }
  int rings() const { return static_cast<int>(ring_dim_.size()); }
  int ring_nodes(int ring) const { return dims_[ring_dim_[ring]]; }
  int ring_dim(int ring) const { return ring_dim_[ring]; }
  int Node(int ring, int label) const { return ring_node_[ring][label]; }
  Member& member(int ring, int label) { return members_[ring][label]; }
  const Member& member(int ring, int label) const { return members_[ring][label]; }
  int succ(int ring, int label) const { return succ_[ring][label]; }
  // The ring's new order: each member's successor.
  void SetOrder(int ring, const std::vector<int>& succ);
  // A node's routing table for a ring: the place of each member as that node knows it.
  uint8_t* table(int ring, int label) { return &tables_[ring][label * ring_nodes(ring)]; }

  // For results.json: packets that reached their destination before an older one of the same
  // pair (a routing update changed the pair's direction) and waited for it.
  uint64_t reordered() const { return order_.reordered(); }

 private:
  // A 64-bit mix (splitmix64's finaliser).
  static uint64_t Mix(uint64_t x) {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  }
  int Coordinate(int node, int d) const { return coordinates_[node * dims_.size() + d]; }
  int Label(int ring, int coordinate) const {
    return ring % 2 ? dims_[ring_dim_[ring]] - 1 - coordinate : coordinate;
  }
  int RingOf(int node, int d, int direction) const {
    return ring_of_[(node * dims_.size() + d) * 2 + direction];
  }
  // The ring a packet at `node` goes on next (or -1: it is absorbed here); `ring_in`: the ring it
  // arrived on (-1: injected), which it keeps while its dimension is unfinished.
  int NextRing(const Packet& packet, int node, int ring_in) const;
  // Hops from label `from` to label `to` along `ring`, as `from`'s routing table sees them.
  int Hops(int ring, int from, int to) const;
  void MoveLinks();
  void Route(int node, uint64_t now);
  // Delivers a packet at its destination, in injection order per source-destination pair.
  void Absorb(uint32_t id, uint64_t now);

  std::shared_ptr<const Topology> topology_;
  PacketPool& pool_;
  SinkObserver& observer_;
  uint64_t seed_;
  int nodes_ = 0;
  std::vector<int> dims_, stride_;
  std::vector<int> ring_dim_;
  std::vector<std::vector<int>> ring_node_;  // [ring][label] -> node
  std::vector<std::vector<Member>> members_;
  std::vector<std::vector<int>> succ_, pred_;
  std::vector<std::vector<uint8_t>> tables_;             // [ring][viewer * P + label] -> place
  std::vector<uint8_t> coordinates_;                     // [node * n + d]
  std::vector<int> ring_of_;                             // [(node * n + d) * 2 + direction]
  std::vector<std::deque<uint32_t>> inject_;             // per node
  std::vector<uint8_t> first_input_;                     // per node: the input served first at step 0
  std::vector<int> waiting_;                             // per node: packets at its router's inputs
  std::vector<std::pair<uint32_t, uint64_t>> absorbed_;  // delivered at the next DeliverArrivals
  std::vector<std::unique_ptr<Channel>> channels_;       // per ring member's output (busy counts)
  PairOrder order_;  // per source-destination pair, delivery in injection order
  uint64_t packets_inside_ = 0;
  std::vector<LinkEnd> no_ends_;
  std::vector<EndActivity> no_activity_;
};

}  // namespace icn
