#include "net/data_plane.h"

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

std::unique_ptr<Fabric> MakeFabric(const NetParams& net, std::shared_ptr<const Topology> topology,
                                   PacketPool& pool, SinkObserver& observer) {
  for (const DataPlaneInfo& d : DataPlanes()) {
    if (net.switching == d.name) return d.make(net, std::move(topology), pool, observer);
  }
  throw std::logic_error("network.switching: " + net.switching + " is not registered");
}

}  // namespace icn
