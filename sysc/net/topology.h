// SPDX-License-Identifier: Apache-2.0
// A topology describes the wiring (routers, bidirectional router-router wires with their own
// latency, rate and class, where each node attaches) and supplies its routing function and the
// geometry traffic patterns use. Each topology is one file in net/topologies/ that registers
// itself in net/topologies/registry.cpp with its keys and a factory; the data plane builds its
// channels from the description.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/scenario.h"
#include "net/net_params.h"
#include "net/routing.h"

namespace icn {

// Per-wire attributes; zero takes the run-wide default (link.latency_cycles, link.bandwidth_flits).
struct LinkAttributes {
  int latency = 0;  // cycles
  double rate =
      0;  // flits per cycle, fractional allowed (an optical 10 Gb/s link at 12.8 Gb/s per flit: 10/12.8)
  uint8_t cls = 0;  // index into Topology::link_classes
};

struct Wire {
  int a_router, a_port;
  int b_router, b_port;
  LinkAttributes attr;
  bool one_way = false;  // a -> b only (an optical laser into a receiver): b's port sends nothing back
};

// A node's link to its router.
struct Attachment {
  int router, port;
  LinkAttributes attr;
};

class Topology {
 public:
  virtual ~Topology() = default;
  virtual std::string Name() const = 0;
  // Routers a minimal route from src to dst traverses (zero-load analysis).
  virtual int RoutersOnPath(int src, int dst) const = 0;
  // Nodes per dimension for the traffic patterns that act per dimension; {nodes} if there are none.
  virtual std::vector<int> PatternDims() const { return {nodes}; }
  // N_c: the flits/node/cycle uniform random traffic could sustain at best (the bound set by the
  // busiest channel's load); 0 where the topology does not state it.
  virtual double UniformCapacity() const { return 0; }
  // The region a router belongs to (a Megafly group, a tree's pod, a torus slab): sim.threads
  // gives each thread runs of whole regions, so that most links stay inside a thread. By default
  // each router is a region of its own.
  virtual int Region(int router) const { return router; }

  int nodes = 0;
  int routers = 0;
  int ports = 0;  // per router
  std::vector<Wire> wires;
  std::vector<Attachment> attach;  // per node
  std::vector<std::string> link_classes = {"electrical"};
  std::unique_ptr<Routing> routing;
};

// One topology kind: the value of topology.kind that selects it, the keys it adds to the shared
// ones (topology.k, topology.n, topology.dims), and a factory that validates what it reads (errors
// name the key and the allowed range) and builds the wiring.
struct TopologyInfo {
  const char* kind;
  std::vector<KeySpec> keys;
  std::unique_ptr<Topology> (*make)(const Scenario& scenario, const RouterParams& router);
};

// Every registered topology, in documentation order (net/topologies/registry.cpp).
const std::vector<TopologyInfo>& Topologies();
// topology.kind, the shared shape keys, then each topology's own.
std::vector<KeySpec> TopologyKeys();
// The rules between topology keys and others.
std::vector<KeyRule> TopologyRules();
// The topology the scenario asks for. Throws ScenarioError.
std::unique_ptr<Topology> MakeTopology(const Scenario& scenario, const RouterParams& router);

// The regions of the topology's routers (Topology::Region), counted.
int RegionCount(const Topology& topology);
// Each router's part when the routers are split into `parts` (1 .. RegionCount) runs of whole
// regions of about equal size.
std::vector<uint16_t> PartsByRegion(const Topology& topology, int parts);

}  // namespace icn
