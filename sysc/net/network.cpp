#include "net/network.h"

#include <algorithm>

namespace icn {
namespace {

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
      profile_(params_.traffic) {
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
  const double rate = profile_.LoadAt(now) / params_.traffic.packet_flits;
  if (rate <= 0) return;
  const bool labelled = stats_.measuring();
  const uint32_t flits = static_cast<uint32_t>(params_.traffic.packet_flits);
  for (auto& nic : nics_) {
    if (rng_.Uniform() >= rate) continue;
    const uint32_t id = pool_.Allocate();
    Packet& p = pool_[id];
    p = Packet{};
    p.created = now;
    p.src = nic->id();
    p.dst = pattern_.Destination(nic->id(), rng_);
    p.flits = flits;
    p.measured = labelled;
    p.live = true;
    nic->Enqueue(id);
    stats_.OnCreated(labelled, flits);
    generated_flits_ += flits;
  }
}

void Network::OnDelivered(uint32_t packet, uint64_t now) {
  const Packet& p = pool_[packet];
  stats_.OnDelivered(p.measured, now - p.created, p.flits);
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
