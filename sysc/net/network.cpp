#include "net/network.h"

#include <algorithm>
#include <unordered_map>


namespace icn {
namespace {

std::unique_ptr<WorkloadDriver> MakeDriver(const Params& params, int nodes) {
  if (params.workload.kind == "none") return nullptr;
  return std::make_unique<WorkloadDriver>(LoadWorkload(params.workload, nodes, params.sim.seed), params.sim.cycle_ns,
                                          params.workload.mtu_bytes, params.workload.flit_bytes);
}

std::vector<int> PatternDims(const Params& p, int nodes) {
  if (p.net.kind == TopologyKind::kTorus || p.net.kind == TopologyKind::kMesh) return p.net.dims;
  return {nodes};
}

}  // namespace

Network::Network(const Params& params)
    : params_(params),
      topology_(MakeTopology(params.net)),
      rng_(params.sim.seed),
      pattern_(params.traffic.pattern, PatternDims(params, topology_->nodes), params.traffic.hotspot_nodes,
               params.traffic.hotspot_fraction),
      profile_(params_.traffic),
      workload_(MakeDriver(params, topology_->nodes)) {
  const Topology& topo = *topology_;
  const NetworkParams& net = params.net;
  for (int r = 0; r < topo.routers; ++r) {
    routers_.push_back(std::make_unique<Router>(r, topo.ports, net, *topo.routing, pool_));
  }
  const auto port_name = [](int router, int port) { return "r" + std::to_string(router) + "_p" + std::to_string(port); };
  for (const Wire& w : topo.wires) {
    Channel* ab = NewChannel();
    Channel* ba = NewChannel();
    ab->set_source({routers_[w.a_router].get(), nullptr, w.a_port});
    ab->set_destination({routers_[w.b_router].get(), nullptr, w.b_port});
    ba->set_source({routers_[w.b_router].get(), nullptr, w.b_port});
    ba->set_destination({routers_[w.a_router].get(), nullptr, w.a_port});
    routers_[w.a_router]->Connect(w.a_port, ab, ba, net.vc_buffer_flits);
    routers_[w.b_router]->Connect(w.b_port, ba, ab, net.vc_buffer_flits);
    const int a = static_cast<int>(ends_.size());
    ends_.push_back({port_name(w.a_router, w.a_port), ab, ba, routers_[w.a_router]->demand(w.a_port), a + 1, true});
    ends_.push_back({port_name(w.b_router, w.b_port), ba, ab, routers_[w.b_router]->demand(w.b_port), a, false});
  }
  for (int node = 0; node < topo.nodes; ++node) {
    nics_.push_back(std::make_unique<Nic>(node, net.vcs, pool_, static_cast<SinkObserver&>(*this)));
    Nic* nic = nics_.back().get();
    const Attachment& at = topo.attach[node];
    Router* router = routers_[at.router].get();
    Channel* up = NewChannel();
    Channel* down = NewChannel();
    up->set_source({nullptr, nic, 0});
    up->set_destination({router, nullptr, at.port});
    down->set_source({router, nullptr, at.port});
    down->set_destination({nullptr, nic, 0});
    nic->Connect(up, down, net.vc_buffer_flits);
    router->Connect(at.port, down, up, Router::kSinkDepth);
    const int a = static_cast<int>(ends_.size());
    ends_.push_back({"nic" + std::to_string(node), up, down, nic->queued(), a + 1, true});
    ends_.push_back({port_name(at.router, at.port), down, up, router->demand(at.port), a, false});
  }
}

Channel* Network::NewChannel() {
  channels_.push_back(std::make_unique<Channel>(params_.net.link_latency, params_.net.link_bandwidth));
  return channels_.back().get();
}

void Network::Step(uint64_t now) {
  for (auto& ch : channels_) {
    if (!ch->Quiet()) ch->Deliver(now);
  }
  if (generating_) Generate(now);
  for (auto& nic : nics_) {
    if (nic->Busy()) nic->Inject(now);
  }
  for (auto& router : routers_) {
    if (router->Busy()) router->Step(now);
  }
}

void Network::Generate(uint64_t now) {
  if (workload_) {
    workload_->Release(now, [&](int src, int dst, uint32_t flits, uint32_t message) {
      Create(src, dst, flits, message, now);
    });
    return;
  }
  const double rate = profile_.LoadAt(now) / params_.traffic.packet_flits;
  if (rate <= 0) return;
  const uint32_t flits = static_cast<uint32_t>(params_.traffic.packet_flits);
  for (auto& nic : nics_) {
    if (rng_.Uniform() >= rate) continue;
    Create(nic->id(), pattern_.Destination(nic->id(), rng_), flits, Packet::kNoMessage, now);
  }
}

void Network::Create(int src, int dst, uint32_t flits, uint32_t message, uint64_t now) {
  const bool labelled = stats_.measuring();
  const uint32_t id = pool_.Allocate();
  Packet& p = pool_[id];
  p = Packet{};
  p.created = now;
  p.src = src;
  p.dst = dst;
  p.flits = flits;
  p.message = message;
  p.measured = labelled;
  p.live = true;
  nics_[src]->Enqueue(id);
  stats_.OnCreated(labelled, flits);
  generated_flits_ += flits;
}

std::vector<std::vector<double>> Network::HopShares(int max_hops) {
  std::unordered_map<const Channel*, int> end_of;
  for (size_t i = 0; i < ends_.size(); ++i) end_of[ends_[i].tx] = static_cast<int>(i);
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
      const Channel* ch = ends_[2 * topology_->wires.size() + 2 * src].tx;  // nic<src>, see the constructor
      while (path.size() < 64) {
        path.push_back(ch);
        const Endpoint& to = ch->destination();
        if (to.nic) break;
        const Route route = topology_->routing->Compute(*to.router, to.port, probe);
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

void Network::OnDelivered(uint32_t packet, uint64_t now) {
  const Packet& p = pool_[packet];
  stats_.OnDelivered(p.measured, now - p.created, p.flits);
  if (workload_ && p.message != Packet::kNoMessage) workload_->OnPacketDelivered(p.message, now);
  if (on_delivery) on_delivery(p, now - p.created);
  pool_.Release(packet);
}

uint64_t Network::ZeroLoadLatency(int src, int dst) const {
  const uint64_t routers = static_cast<uint64_t>(topology_->RoutersOnPath(src, dst));
  const uint64_t links = routers + 1;
  return links * params_.net.link_latency + routers * params_.net.pipeline_cycles +
         (params_.traffic.packet_flits - 1);
}

Census Network::TakeCensus() const {
  Census census;
  std::vector<uint32_t> present(pool_.capacity(), 0);
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
  for (uint32_t id = 0; id < pool_.capacity(); ++id) {
    const Packet& p = pool_[id];
    if (!p.live) {
      if (present[id] != 0 && census.problems.size() < 20) {
        census.problems.push_back("flits of delivered packet " + std::to_string(id) + " are still in the network");
      }
      continue;
    }
    ++census.in_flight;
    if (present[id] + p.next_index != p.flits && census.problems.size() < 20) {
      census.problems.push_back("packet " + std::to_string(id) + " from node " + std::to_string(p.src) + " to " +
                                std::to_string(p.dst) + ": " + std::to_string(present[id]) + " flits in the network + " +
                                std::to_string(p.next_index) + " delivered != " + std::to_string(p.flits));
    }
  }
  if (stats_.created() != stats_.delivered() + census.in_flight) {
    census.problems.push_back("generated " + std::to_string(stats_.created()) + " != delivered " +
                              std::to_string(stats_.delivered()) + " + in flight " + std::to_string(census.in_flight));
  }
  return census;
}

}  // namespace icn
