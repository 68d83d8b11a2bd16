// SPDX-License-Identifier: Apache-2.0
#include "net/data_plane.h"

#include <algorithm>
#include <stdexcept>

namespace icn {

DataPlaneInfo WormholeDataPlane();
DataPlaneInfo PacketStepDataPlane();
DataPlaneInfo PhotonicDataPlane();

const std::vector<DataPlaneInfo>& DataPlanes() {
  static const std::vector<DataPlaneInfo> all = {WormholeDataPlane(), PacketStepDataPlane(),
                                                 PhotonicDataPlane()};
  return all;
}

std::vector<KeySpec> DataPlaneKeys() {
  std::vector<std::string> names;
  for (const DataPlaneInfo& d : DataPlanes()) names.push_back(d.name);
  return {
      ChoiceKey("network.switching", "wormhole", names,
                "data plane: wormhole = input-queued VC routers with credit flow control; packet_step = "
                "whole packets in lock-step, one step per hop (a torus only: the network of Shafarenko and "
                "Vasekin's adaptive torus); photonic = circuit-switched WDM links, reservations by the "
                "photonic control plane (photonic.*: Segment Switching's network)")};
}

std::vector<KeyRule> DataPlaneRules() {
  std::string allows;
  for (const DataPlaneInfo& d : DataPlanes()) {
    std::string kinds;
    for (const std::string& kind : d.topologies) kinds += (kinds.empty() ? "" : ", ") + kind;
    allows += (allows.empty() ? "" : "; ") + std::string(d.name) + " on " + (kinds.empty() ? "any" : kinds);
  }
  return {{{"network.switching", "topology.kind"}, allows, [](const Scenario& s) -> std::string {
             for (const DataPlaneInfo& d : DataPlanes()) {
               if (d.name != s.Text("network.switching") || d.topologies.empty()) continue;
               const auto& kinds = d.topologies;
               if (std::find(kinds.begin(), kinds.end(), s.Text("topology.kind")) != kinds.end()) return "";
               return s.Show("network.switching") + " on " + s.Show("topology.kind");
             }
             return "";
           }}};
}

std::unique_ptr<Fabric> MakeFabric(const NetParams& net, std::shared_ptr<const Topology> topology,
                                   PacketPool& pool, SinkObserver& observer) {
  for (const DataPlaneInfo& d : DataPlanes()) {
    if (net.switching == d.name) return d.make(net, std::move(topology), pool, observer);
  }
  throw std::logic_error("network.switching: " + net.switching + " is not registered");
}

}  // namespace icn
