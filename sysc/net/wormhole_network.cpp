// SPDX-License-Identifier: Apache-2.0
#include "net/wormhole_network.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

#include "core/errors.h"
#include "net/data_plane.h"

namespace icn {

WormholeNetwork::WormholeNetwork(const NetParams& net, std::shared_ptr<const Topology> topology,
                                 PacketPool& pool, SinkObserver& observer)
    : net_(net), topology_(std::move(topology)), pool_(pool), routing_(topology_->routing.get()) {
  const Topology& topo = *topology_;
  const int depth = net.router.vc_buffer_flits;
  for (int r = 0; r < topo.routers; ++r) {
    routers_.push_back(std::make_unique<Router>(r, topo.ports, net.router, net.seed, routing_, pool_));
  }
  const auto port_name = [](int router, int port) {
    return "r" + std::to_string(router) + "_p" + std::to_string(port);
  };
  for (const Wire& w : topo.wires) {
    Channel* ab = NewChannel(w.attr);
    Channel* ba = w.one_way ? nullptr : NewChannel(w.attr);
    ab->set_source({routers_[w.a_router].get(), nullptr, w.a_port});
    ab->set_destination({routers_[w.b_router].get(), nullptr, w.b_port});
    if (ba) {
      ba->set_source({routers_[w.b_router].get(), nullptr, w.b_port});
      ba->set_destination({routers_[w.a_router].get(), nullptr, w.a_port});
    }
    routers_[w.a_router]->Connect(w.a_port, ab, ba, depth);
    routers_[w.b_router]->Connect(w.b_port, ba, ab, depth);
    const int a = static_cast<int>(ends_.size());
    ends_.push_back({port_name(w.a_router, w.a_port), ab, ba, routers_[w.a_router]->demand(w.a_port), a + 1,
                     true, w.a_router, w.a_port});
    ends_.push_back({port_name(w.b_router, w.b_port), ba, ab, routers_[w.b_router]->demand(w.b_port), a,
                     false, w.b_router, w.b_port});
    end_router_.insert(end_router_.end(), {w.a_router, w.b_router});
  }
  for (int node = 0; node < topo.nodes; ++node) {
    nics_.push_back(std::make_unique<Nic>(node, net.router.vcs, net.router.vc_release, pool_, observer));
    Nic* nic = nics_.back().get();
    const Attachment& at = topo.attach[node];
    Router* router = routers_[at.router].get();
    Channel* up = NewChannel(at.attr);
    Channel* down = NewChannel(at.attr);
    up->set_source({nullptr, nic, 0});
    up->set_destination({router, nullptr, at.port});
    down->set_source({router, nullptr, at.port});
    down->set_destination({nullptr, nic, 0});
    nic->Connect(up, down, depth);
    router->Connect(at.port, down, up, Router::kSinkDepth);
    const int a = static_cast<int>(ends_.size());
    nic_end_.push_back(a);
    nic_router_.push_back(at.router);
    ends_.push_back({"nic" + std::to_string(node), up, down, nic->queued(), a + 1, true, -1, -1});
    ends_.push_back(
        {port_name(at.router, at.port), down, up, router->demand(at.port), a, false, at.router, at.port});
    end_router_.insert(end_router_.end(), {at.router, at.router});
  }
  activity_.assign(ends_.size(), EndActivity{});
  Partition(1);
  for (size_t i = 0; i < ends_.size(); ++i) {
    if (ends_[i].tx) ends_[i].tx->MirrorActivity(&activity_[i].sent, nullptr);
    if (ends_[i].rx) ends_[i].rx->MirrorActivity(nullptr, &activity_[i].received);
  }
}

EndTouches* WormholeNetwork::WatchEnds() {
  if (touches_) return touches_.get();
  // Who sends on and receives from each channel, and the end of each router port and NIC, as
  // wired now: every queue a link end reads is a router port's demand or a NIC's queue.
  std::unordered_map<const Channel*, uint32_t> sender, receiver;
  std::unordered_map<const int32_t*, uint32_t> queue_end;
  for (uint32_t i = 0; i < ends_.size(); ++i) {
    if (ends_[i].tx) sender[ends_[i].tx] = i;
    if (ends_[i].rx) receiver[ends_[i].rx] = i;
    queue_end[ends_[i].tx_queue] = i;
  }
  for (const auto& ch : channels_) {
    if (!sender.count(ch.get()) || !receiver.count(ch.get())) return nullptr;  // not a link's
  }
  touches_ = std::make_unique<EndTouches>(ends_.size());
  for (auto& ch : channels_) ch->WatchEnds(touches_.get(), sender[ch.get()], receiver[ch.get()]);
  for (auto& router : routers_) {
    // A port without a link end touches none (it has no controller to visit).
    std::vector<uint32_t> port_ends(static_cast<size_t>(router->ports()), Router::kNoEnd);
    for (int p = 0; p < router->ports(); ++p) {
      const auto it = queue_end.find(router->demand(p));
      if (it != queue_end.end()) port_ends[static_cast<size_t>(p)] = it->second;
    }
    router->WatchEnds(touches_.get(), std::move(port_ends));
  }
  for (size_t node = 0; node < nics_.size(); ++node)
    nics_[node]->WatchEnds(touches_.get(), static_cast<uint32_t>(nic_end_[node]));
  touches_->SetOwners(end_part_, static_cast<int>(parts_.size()));
  return touches_.get();
}

int WormholeNetwork::MaxParts() const { return RegionCount(*topology_); }

void WormholeNetwork::UseTeam(ThreadTeam& team) {
  Partition(team.size());
  team_ = &team;
}

void WormholeNetwork::Partition(int parts) {
  if (!Quiet() || NextMove(0) != UINT64_MAX)
    throw std::logic_error("the network is partitioned between threads before its first packet");
  router_part_ = PartsByRegion(*topology_, parts);
  parts_ = std::vector<Part>(static_cast<size_t>(parts));
  for (Part& p : parts_) {
    p.flits_due = p.credits_due = ActiveSet(channels_.size());
    p.busy_nics = ActiveSet(nics_.size());
    p.busy_routers = ActiveSet(routers_.size());
  }
  sink_flits_ = ActiveSet(channels_.size());
  for (uint32_t c = 0; c < channels_.size(); ++c) Track(c);
  for (uint32_t n = 0; n < nics_.size(); ++n)
    nics_[n]->TrackBusy(&parts_[router_part_[nic_router_[n]]].busy_nics, n);
  for (uint32_t r = 0; r < routers_.size(); ++r)
    routers_[r]->TrackBusy(&parts_[router_part_[r]].busy_routers, r);
  end_part_.resize(ends_.size());
  for (size_t i = 0; i < ends_.size(); ++i) end_part_[i] = router_part_[static_cast<size_t>(end_router_[i])];
  if (touches_) touches_->SetOwners(end_part_, static_cast<int>(parts_.size()));
}

void WormholeNetwork::Track(uint32_t index) {
  Channel& channel = *channels_[index];
  const Endpoint& to = channel.destination();
  ActiveSet& flits = to.nic ? sink_flits_ : parts_[PartOf(to)].flits_due;
  channel.TrackBusy(flits.SlotOf(index), parts_[PartOf(channel.source())].credits_due.SlotOf(index));
}

// A channel keeps its busy-set slots and the link ends it touches as long as each end stays in
// its part (E-RAPID, which re-wires across boards, runs as one region).
void WormholeNetwork::Rewire(Channel& channel, const Endpoint& was, const Endpoint& to, bool destination) {
  if (PartOf(was) != PartOf(to)) {
    throw std::logic_error(
        "re-wiring would move a channel's end to another thread: run with sim.threads = 1");
  }
  if (destination) {
    channel.set_destination(to);
  } else {
    channel.set_source(to);
  }
}

template <typename Fn>
void WormholeNetwork::ForEachPart(Fn fn) {
  auto job = [&](int member) { fn(parts_[static_cast<size_t>(member)]); };
  team_->Run(job);
}

Channel* WormholeNetwork::NewChannel(const LinkAttributes& attr) {
  channels_.push_back(std::make_unique<Channel>(attr.latency > 0 ? attr.latency : net_.link.latency,
                                                attr.rate > 0 ? attr.rate : net_.link.rate, attr.cls));
  return channels_.back().get();
}

// Arrivals touch only the state of the end they reach (a flit its router's input buffer, a
// credit its sender's count), so the parts deliver at once; the sinks' come last.
void WormholeNetwork::DeliverArrivals(uint64_t now) {
  // (Several parts with nothing on any wire skip the threads' meeting.)
  const bool idle = parts_.size() > 1 && std::all_of(parts_.begin(), parts_.end(), [](const Part& p) {
                      return p.flits_due.empty() && p.credits_due.empty();
                    });
  if (!idle)
    ForEachPart([&](Part& part) {
      part.flits_due.ForEach([&](uint32_t c) {
        Channel& ch = *channels_[c];
        ch.DeliverFlits(now);
        if (ch.FlitsQuiet()) part.flits_due.Erase(c);
      });
      part.credits_due.ForEach([&](uint32_t c) {
        Channel& ch = *channels_[c];
        ch.DeliverCredits(now);
        if (ch.CreditsQuiet()) part.credits_due.Erase(c);
      });
    });
  sink_flits_.ForEach([&](uint32_t c) {
    Channel& ch = *channels_[c];
    ch.DeliverFlits(now);
    if (ch.FlitsQuiet()) sink_flits_.Erase(c);
  });
}

// A router's or NIC's move changes only its own state and puts flits and credits on wires that
// deliver them a cycle later at the soonest: the parts move at once.
void WormholeNetwork::Advance(uint64_t now) {
  const bool idle = parts_.size() > 1 && std::all_of(parts_.begin(), parts_.end(), [](const Part& p) {
                      return p.busy_nics.empty() && p.busy_routers.empty();
                    });
  for (Part& part : parts_) part.stepped.clear();
  stepped_merged_ = parts_.size() == 1;
  if (idle) return;
  ForEachPart([&](Part& part) {
    part.busy_nics.ForEach([&](uint32_t n) {
      nics_[n]->Inject(now);
      if (!nics_[n]->Busy()) part.busy_nics.Erase(n);
    });
    part.busy_routers.ForEach([&](uint32_t r) {
      part.stepped.push_back(r);
      routers_[r]->Step(now);
      if (!routers_[r]->Busy()) part.busy_routers.Erase(r);
    });
  });
}

// The parts' lists merged in index order, once per cycle and only when asked for.
const std::vector<uint32_t>& WormholeNetwork::stepped_routers() const {
  if (parts_.size() == 1) return parts_[0].stepped;
  if (!stepped_merged_) {
    stepped_routers_.clear();
    for (const Part& part : parts_)
      stepped_routers_.insert(stepped_routers_.end(), part.stepped.begin(), part.stepped.end());
    std::sort(stepped_routers_.begin(), stepped_routers_.end());
    stepped_merged_ = true;
  }
  return stepped_routers_;
}

bool WormholeNetwork::Quiet() const {
  for (const Part& part : parts_) {
    if (!part.flits_due.empty() || !part.credits_due.empty()) return false;
  }
  return sink_flits_.empty();
}

// Only the busy NICs and routers can move; a flit or credit on a wire arrives on some cycle soon.
uint64_t WormholeNetwork::NextMove(uint64_t now) const {
  if (!Quiet()) return now;
  uint64_t next = UINT64_MAX;
  for (const Part& part : parts_) {
    part.busy_nics.ForEach([&](uint32_t n) { next = std::min(next, nics_[n]->NextMove(now)); });
    part.busy_routers.ForEach([&](uint32_t r) { next = std::min(next, routers_[r]->NextMove(now)); });
  }
  return next;
}

void WormholeNetwork::InstallRouting(std::unique_ptr<Routing> routing) {
  installed_ = std::move(routing);
  routing_ = installed_.get();
  for (auto& router : routers_) router->set_routing(routing_);
}

RoutingTable WormholeNetwork::TabulateRouting() {
  RoutingTable table(topology_->routers, topology_->nodes);
  for (auto& router : routers_) {
    for (int dst = 0; dst < topology_->nodes; ++dst) {
      Packet probe;
      probe.dst = dst;
      RouteContext context{router->id(), 0, probe, *router};
      table.Set(router->id(), dst, {routing_->Compute(context)});
    }
  }
  return table;
}

std::vector<std::vector<double>> WormholeNetwork::HopShares(int max_hops) {
  std::unordered_map<const Channel*, int> end_of;
  for (size_t i = 0; i < ends_.size(); ++i) {
    if (ends_[i].tx) end_of[ends_[i].tx] = static_cast<int>(i);
  }
  std::vector<std::vector<double>> counts(ends_.size(), std::vector<double>(max_hops, 0.0));
  const int nodes = topology_->nodes;
  const int stride = std::max(1, nodes / 256);  // at most ~256 destinations per source
  std::vector<const Channel*> path;
  for (int src = 0; src < nodes; ++src) {
    for (int dst = src % stride; dst < nodes; dst += stride) {
      if (dst == src) continue;
      Packet probe;
      probe.src = src;
      probe.dst = dst;
      path.clear();
      const Channel* ch = ends_[nic_end_[src]].tx;
      while (path.size() < 64) {
        path.push_back(ch);
        const Endpoint& to = ch->destination();
        if (to.nic) break;
        RouteContext context{to.router->id(), to.port, probe, *to.router};
        const Route route = routing_->Compute(context);
        if (route.port < 0) break;
        ch = to.router->output(route.port);
      }
      const int h = std::min<int>(static_cast<int>(path.size()), max_hops);
      for (const Channel* c : path) counts[end_of.at(c)][h - 1] += 1;
    }
  }
  for (auto& row : counts) {
    double total = 0;
    for (double c : row) total += c;
    for (double& c : row) c = total > 0 ? c / total : 0;
  }
  return counts;
}

uint64_t WormholeNetwork::ZeroLoadLatency(int src, int dst, uint32_t flits) const {
  const uint64_t routers = static_cast<uint64_t>(topology_->RoutersOnPath(src, dst));
  const uint64_t links = routers + 1;
  return links * net_.link.latency + routers * net_.router.pipeline_cycles + (flits - 1);
}

void WormholeNetwork::CountFlits(std::vector<uint32_t>& present) const {
  for (const auto& nic : nics_) {
    const Ring<uint32_t>& queue = nic->source_queue();
    for (uint32_t i = 0; i < queue.size(); ++i) {
      const uint32_t id = queue.at(i);
      present[id] += pool_[id].flits - (i == 0 ? nic->flits_sent_of_current() : 0);
    }
  }
  for (const auto& ch : channels_) {
    for (uint32_t i = 0; i < ch->in_flight().size(); ++i) ++present[ch->in_flight().at(i).second.packet];
  }
  for (const auto& router : routers_) {
    router->ForEachFlit([&](const Flit& f) { ++present[f.packet]; });
  }
}

std::string WormholeNetwork::Locate(uint32_t packet) const {
  const auto name = [](const Endpoint& e) {
    return e.router ? "r" + std::to_string(e.router->id()) + "_p" + std::to_string(e.port)
                    : "nic" + std::to_string(e.nic->id());
  };
  // The packet's lowest-numbered flit still inside is where it waits.
  uint32_t first = UINT32_MAX;
  std::string where = "nowhere: lost";
  const auto consider = [&](uint32_t index, const std::string& place) {
    if (index < first) {
      first = index;
      where = "flit " + std::to_string(index) + " " + place;
    }
  };
  for (const auto& nic : nics_) {
    const Ring<uint32_t>& queue = nic->source_queue();
    for (uint32_t i = 0; i < queue.size(); ++i) {
      if (queue.at(i) != packet) continue;
      consider(i == 0 ? nic->flits_sent_of_current() : 0, "in the source queue of node " +
                                                              std::to_string(nic->id()) + " (" +
                                                              std::to_string(i) + " packets ahead)");
    }
  }
  for (const auto& ch : channels_) {
    for (uint32_t i = 0; i < ch->in_flight().size(); ++i) {
      const Flit& f = ch->in_flight().at(i).second;
      if (f.packet == packet)
        consider(f.index, "on the wire " + name(ch->source()) + " -> " + name(ch->destination()));
    }
  }
  for (const auto& router : routers_) {
    router->ForEachInputVc([&](int port, int vc, const Ring<Flit>& buf) {
      for (uint32_t i = 0; i < buf.size(); ++i) {
        if (buf.at(i).packet != packet) continue;
        consider(buf.at(i).index, "in router " + std::to_string(router->id()) + ", input port " +
                                      std::to_string(port) + ", VC " + std::to_string(vc) + " (" +
                                      std::to_string(i) + " flits ahead)");
      }
    });
    router->ForEachFlit([&](const Flit& f) {  // output queues (CIOQ); input flits were seen above
      if (f.packet == packet && f.index < first)
        consider(f.index, "in router " + std::to_string(router->id()) + ", an output queue");
    });
  }
  return where;
}

bool WormholeNetwork::Drained(const Channel& channel) const {
  const Endpoint& from = channel.source();
  return channel.Quiet() && (from.router ? from.router->OutputDrained(from.port) : from.nic->OutputDrained());
}

void WormholeNetwork::Reaim(Channel& channel, int router, int port) {
  Router& target = *routers_.at(router);
  const Channel* previous = target.input(port);
  if (!Drained(channel) || (previous && previous != &channel && !Drained(*previous))) {
    throw std::logic_error("re-aim: the channel, or the one feeding router " + std::to_string(router) +
                           " port " + std::to_string(port) + ", still has flits or credits in flight");
  }
  const Endpoint old = channel.destination();
  Rewire(channel, old, {&target, nullptr, port}, true);
  if (old.router && old.router->input(old.port) == &channel) old.router->set_input(old.port, nullptr);
  target.set_input(port, &channel);
}

void WormholeNetwork::MoveSource(Channel& channel, int router, int port) {
  const Endpoint old = channel.source();
  Router& target = *routers_.at(router);
  if (!old.router || !Drained(channel) || *old.router->demand(old.port) != 0) {
    throw std::logic_error(
        "move: the channel from router " + std::to_string(old.router ? old.router->id() : -1) + " port " +
        std::to_string(old.port) + " still has flits or credits in flight, or packets routed to it");
  }
  if (target.output(port)) {
    throw std::logic_error("move: router " + std::to_string(router) + " port " + std::to_string(port) +
                           " already sends on a channel");
  }
  Rewire(channel, old, {&target, nullptr, port}, false);
  const int depth = net_.router.vc_buffer_flits;
  old.router->set_output(old.port, nullptr, depth);
  target.set_output(port, &channel, depth);
}

namespace {

std::unique_ptr<Fabric> MakeWormhole(const NetParams& net, std::shared_ptr<const Topology> topology,
                                     PacketPool& pool, SinkObserver& observer) {
  return std::make_unique<WormholeNetwork>(net, std::move(topology), pool, observer);
}

}  // namespace

DataPlaneInfo WormholeDataPlane() { return {"wormhole", MakeWormhole}; }

WormholeNetwork& WormholeOf(Fabric& fabric, const std::string& key) {
  auto* network = dynamic_cast<WormholeNetwork*>(&fabric);
  if (!network) {
    throw ScenarioError(
        key + ": its controllers drive wormhole routers; allowed with network.switching = wormhole");
  }
  return *network;
}

}  // namespace icn
