// SPDX-License-Identifier: Apache-2.0
#include "net/packet_step_torus.h"

#include "core/errors.h"
#include "net/channel.h"
#include "net/data_plane.h"

namespace icn {

PacketStepTorus::PacketStepTorus(std::shared_ptr<const Topology> topology, uint64_t seed, PacketPool& pool,
                                 SinkObserver& observer)
    : topology_(std::move(topology)),
      pool_(pool),
      observer_(observer),
      seed_(Mix(seed)),
      order_(topology_->nodes) {
  dims_ = topology_->PatternDims();
  nodes_ = topology_->nodes;
  int stride = 1;
  for (int k : dims_) {
    if (k < 3) {
      throw ScenarioError(
          "network.switching: packet_step needs at least 3 nodes per dimension, the torus has " +
          std::to_string(k));
    }
    stride_.push_back(stride);
    stride *= k;
  }
  // Each node's coordinates and its two rings per dimension, looked up on every routing decision.
  const int n = static_cast<int>(dims_.size());
  for (int node = 0; node < nodes_; ++node) {
    for (int d = 0; d < n; ++d) coordinates_.push_back(static_cast<uint8_t>(node / stride_[d] % dims_[d]));
    for (int d = 0, first = 0; d < n; first += 2 * (nodes_ / dims_[d]), ++d) {
      const int low = node % stride_[d], high = node / (stride_[d] * dims_[d]);
      ring_of_.push_back(first + 2 * (low + high * stride_[d]));
      ring_of_.push_back(first + 2 * (low + high * stride_[d]) + 1);
    }
  }
  for (int d = 0; d < n; ++d) {
    const int cycles = nodes_ / dims_[d];
    for (int cycle = 0; cycle < cycles; ++cycle) {
      // The cycle's node at coordinate 0: `cycle` counts the other coordinates in order.
      const int low = cycle % stride_[d];
      const int base = low + (cycle - low) * dims_[d];
      for (int direction = 0; direction < 2; ++direction) {
        const int ring = static_cast<int>(ring_dim_.size());
        const int k = dims_[d];
        ring_dim_.push_back(d);
        ring_node_.emplace_back(k);
        for (int x = 0; x < k; ++x) ring_node_[ring][Label(ring, x)] = base + x * stride_[d];
        members_.emplace_back(k);
        succ_.emplace_back(k);
        pred_.emplace_back(k);
        tables_.emplace_back(k * k);
        for (int label = 0; label < k; ++label) {
          succ_[ring][label] = (label + 1) % k;
          pred_[ring][label] = (label + k - 1) % k;
          for (int m = 0; m < k; ++m) tables_[ring][label * k + m] = static_cast<uint8_t>(m);
          channels_.push_back(std::make_unique<Channel>(1, 1.0, 0));
        }
      }
    }
  }
  inject_.resize(nodes_);
  waiting_.assign(nodes_, 0);
  // Each router starts serving its inputs at a place of the seed's choosing.
  const int inputs = 2 * static_cast<int>(dims_.size()) + 1;
  for (int node = 0; node < nodes_; ++node)
    first_input_.push_back(static_cast<uint8_t>(Mix(seed_ + node) % inputs));
}

int PacketStepTorus::NextRing(const Packet& packet, int node, int ring_in) const {
  for (int d = 0; d < static_cast<int>(dims_.size()); ++d) {
    const int here = Coordinate(node, d), there = Coordinate(packet.dst, d);
    if (here == there) continue;
    if (ring_in >= 0 && ring_dim_[ring_in] == d) return ring_in;  // never changes direction
    // Shorter way as this node's tables see it; a tie goes the way the seed gives the pair (both
    // directions carry ties, and a pair keeps its way).
    int best = -1, best_hops = 0;
    for (int direction = 0; direction < 2; ++direction) {
      const int ring = RingOf(node, d, direction);
      const int hops = Hops(ring, Label(ring, here), Label(ring, there));
      if (best < 0 || hops < best_hops ||
          (hops == best_hops && Mix(seed_ ^ (static_cast<uint64_t>(packet.src) * nodes_ + packet.dst)) & 1)) {
        best = ring;
        best_hops = hops;
      }
    }
    return best;
  }
  return -1;
}

int PacketStepTorus::Hops(int ring, int from, int to) const {
  const int k = ring_nodes(ring);
  const uint8_t* view = &tables_[ring][from * k];
  return (view[to] - view[from] + k) % k;
}

void PacketStepTorus::SetOrder(int ring, const std::vector<int>& succ) {
  succ_[ring] = succ;
  for (int label = 0; label < static_cast<int>(succ.size()); ++label) pred_[ring][succ[label]] = label;
}

void PacketStepTorus::DeliverArrivals(uint64_t) {
  for (const auto& [id, at] : absorbed_) observer_.OnDelivered(id, at);
  absorbed_.clear();
}

void PacketStepTorus::Inject(uint32_t id) {
  Packet& p = pool_[id];
  inject_[p.src].push_back(id);
  ++waiting_[p.src];
  order_.Add(p, id);
  ++packets_inside_;
}

void PacketStepTorus::Advance(uint64_t now) {
  MoveLinks();
  for (int node = 0; node < nodes_; ++node)
    if (waiting_[node]) Route(node, now);
}

void PacketStepTorus::MoveLinks() {
  size_t channel = 0;
  for (int ring = 0; ring < rings(); ++ring) {
    std::vector<Member>& m = members_[ring];
    for (int label = 0; label < static_cast<int>(m.size()); ++label, ++channel) {
      m[label].events = 0;
      Member& from = m[label];
      if (from.out.empty() || from.hold_out) continue;
      Member& to = m[succ_[ring][label]];
      if (to.block_in || to.in.free() == 0) continue;
      const uint32_t id = from.out.pop();
      ++pool_[id].hops;
      to.in.push(id);
      ++waiting_[ring_node_[ring][succ_[ring][label]]];
      channels_[channel]->CountMove();
    }
  }
}

void PacketStepTorus::Route(int node, uint64_t now) {
  const int n = static_cast<int>(dims_.size());
  const int inputs = 2 * n + 1;  // ring inputs (d, direction), then injection
  int used = 0;                  // outputs taken this step: bit 2d + direction, bit 2n: absorption
  // The input served first turns every step (from a seeded start), whether or not the router had
  // anything to route: a function of the step, so skipped and jumped steps change nothing.
  int input = static_cast<int>((first_input_[node] + now) % inputs);
  for (int i = 0; i < inputs; ++i, input = input + 1 == inputs ? 0 : input + 1) {
    const bool injected = input == 2 * n;
    const int ring_in = injected ? -1 : RingOf(node, input / 2, input % 2);
    Member* in = injected ? nullptr : &members_[ring_in][Label(ring_in, Coordinate(node, input / 2))];
    if (injected ? inject_[node].empty() : in->in.empty()) continue;
    const uint32_t id = injected ? inject_[node].front() : in->in.front();
    Packet& p = pool_[id];
    const int ring_out = NextRing(p, node, ring_in);
    const int bit = ring_out < 0 ? 2 * n : 2 * ring_dim_[ring_out] + ring_out % 2;
    if (used & (1 << bit)) continue;
    if (ring_out < 0) {
      Absorb(id, now);
    } else {
      const int d = ring_dim_[ring_out];
      const int label = Label(ring_out, Coordinate(node, d));
      Member& out = members_[ring_out][label];
      const bool continuing = ring_out == ring_in;
      if (out.out.free() < (continuing ? 1 : 2) || (out.hold_admit && !continuing)) continue;
      out.out.push(id);
      const int there = Label(ring_out, Coordinate(p.dst, d));
      const bool near = there == succ_[ring_out][label];
      out.events |= continuing ? (near ? kArriveNext : 0) : (near ? kOrigNear : kOrigFar);
      // Labels run the other way in the opposite ring: P - 1 - label there.
      const int last = dims_[d] - 1, opposite = ring_out ^ 1;
      if (!continuing && last - there == pred_[opposite][last - label]) {
        out.events |= kOrigBack;
        out.back_hops = static_cast<uint8_t>(Hops(ring_out, label, there));
      }
      if (injected) p.injected = now;
    }
    if (injected) {
      inject_[node].pop_front();
    } else {
      in->in.pop();
      if (ring_out != ring_in) in->events |= kArriveSelf;
    }
    --waiting_[node];
    used |= 1 << bit;
  }
}

void PacketStepTorus::Absorb(uint32_t id, uint64_t now) {
  order_.Arrive(pool_, id, [&](uint32_t next) {
    pool_[next].next_index = pool_[next].flits;
    absorbed_.push_back({next, now});
    --packets_inside_;
  });
}

void PacketStepTorus::CountFlits(std::vector<uint32_t>& present) const {
  for (const auto& queue : inject_)
    for (uint32_t id : queue) present[id] += pool_[id].flits;
  order_.CountFlits(pool_, present);
  for (const auto& ring : members_) {
    for (const Member& m : ring) {
      for (int i = 0; i < m.in.count; ++i) present[m.in.at(i)] += pool_[m.in.at(i)].flits;
      for (int i = 0; i < m.out.count; ++i) present[m.out.at(i)] += pool_[m.out.at(i)].flits;
    }
  }
}

std::string PacketStepTorus::Locate(uint32_t packet) const {
  for (int node = 0; node < nodes_; ++node)
    for (uint32_t id : inject_[node])
      if (id == packet) return "injection queue of node " + std::to_string(node);
  if (std::string held = order_.Locate(packet); !held.empty()) return held;
  for (int ring = 0; ring < rings(); ++ring) {
    for (int label = 0; label < ring_nodes(ring); ++label) {
      const Member& m = members_[ring][label];
      const std::string where = " of node " + std::to_string(ring_node_[ring][label]) + " in ring " +
                                std::to_string(ring) + " (dimension " + std::to_string(ring_dim_[ring]) + ")";
      for (int i = 0; i < m.in.count; ++i)
        if (m.in.at(i) == packet) return "input queue" + where;
      for (int i = 0; i < m.out.count; ++i)
        if (m.out.at(i) == packet) return "output queue" + where;
    }
  }
  return "nowhere in the network";
}

std::vector<std::vector<double>> PacketStepTorus::HopShares(int max_hops) {
  (void)max_hops;
  return {};  // no link ends: no mechanism reads per-end hop shares here
}

namespace {
std::unique_ptr<Fabric> MakePacketStep(const NetParams& net, std::shared_ptr<const Topology> topology,
                                       PacketPool& pool, SinkObserver& observer) {
  return std::make_unique<PacketStepTorus>(std::move(topology), net.seed, pool, observer);
}
}  // namespace

DataPlaneInfo PacketStepDataPlane() { return {"packet_step", MakePacketStep, {"torus"}}; }

}  // namespace icn
