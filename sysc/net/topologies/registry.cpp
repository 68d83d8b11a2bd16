// SPDX-License-Identifier: Apache-2.0
// The one list of topologies. Adding a topology: its file in this folder defines
// `TopologyInfo <Name>Topology()`; declare it here and add it to the list.
#include "net/topology.h"

namespace icn {

TopologyInfo KaryNTreeTopology();
TopologyInfo TorusTopology();
TopologyInfo MeshTopology();
TopologyInfo MegaflyTopology();
TopologyInfo ErapidTopology();

const std::vector<TopologyInfo>& Topologies() {
  static const std::vector<TopologyInfo> all = {KaryNTreeTopology(), TorusTopology(), MeshTopology(),
                                                MegaflyTopology(), ErapidTopology()};
  return all;
}

}  // namespace icn
