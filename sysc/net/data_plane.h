// SPDX-License-Identifier: Apache-2.0
// The data planes a run can use, chosen by network.switching. Adding one: its file defines
// `DataPlaneInfo <Name>DataPlane()`; declare it in data_plane.cpp and add it to the list there.
#pragma once
#include <memory>
#include <vector>

#include "core/scenario.h"
#include "net/fabric.h"
#include "net/flit.h"
#include "net/net_params.h"
#include "net/nic.h"
#include "net/topology.h"

namespace icn {

struct DataPlaneInfo {
  const char* name;  // value of network.switching
  std::unique_ptr<Fabric> (*make)(const NetParams& net, std::shared_ptr<const Topology> topology,
                                  PacketPool& pool, SinkObserver& observer);
  std::vector<std::string> topologies = {};  // the topology.kind values it runs on (none listed: any)
};

const std::vector<DataPlaneInfo>& DataPlanes();
// network.switching, with the registered data planes as its choices.
std::vector<KeySpec> DataPlaneKeys();
// Which topologies each data plane runs on.
std::vector<KeyRule> DataPlaneRules();
std::unique_ptr<Fabric> MakeFabric(const NetParams& net, std::shared_ptr<const Topology> topology,
                                   PacketPool& pool, SinkObserver& observer);

}  // namespace icn
