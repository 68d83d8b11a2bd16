// SPDX-License-Identifier: Apache-2.0
// E-RAPID R(1, B, D) (Kodi and Louri): B boards of D nodes. A board's electrical router (the
// intra-board interconnect) joins its D nodes, its B optical transmitters and its B receivers.
// Transmitter x (wavelength x) is an array of B lasers; laser (x, y) feeds the passive coupler of
// board y, where receiver x detects wavelength x. So laser (x, y) is one one-way channel into
// receiver x of board y, lit at no more than one source board at a time (two sources on one
// wavelength into one coupler would collide). Static assignment: laser (x, y) is lit at board
// (y + x) mod B, so board s reaches board d on wavelength (s - d) mod B (the paper: lambda_{B-(d-s)}
// if d > s, lambda_{s-d} if s > d). Laser (0, y) starts at board y itself, aimed at its own
// coupler: the spare, which carries nothing until bandwidth re-allocation hands it to a source.
// Ports of a board: 0..D-1 its nodes; D + x*B + y laser (x, y), connected while lit here;
// D + B*B + x receiver x.
// Routing: to a node of the same board, its port; to board d, the least-loaded laser toward d lit
// here that routing may choose, and VC 0 only, so that packets interleave on an optical channel
// and flits do not (the paper's packet-level optical interleaving).
#include "net/topologies/erapid.h"

#include <algorithm>

#include "core/errors.h"
#include "net/channel.h"

namespace icn {
namespace {

class ErapidRouting : public Routing {
 public:
  ErapidRouting(ErapidShape s, int vcs) : s_(s), vcs_(vcs) {}

  Route Compute(RouteContext& ctx) const override {
    const int board = ctx.router;
    const int dst_board = ctx.packet.dst / s_.nodes_per_board;
    if (dst_board == board) return {ctx.packet.dst % s_.nodes_per_board, 0, vcs_};
    const int start = static_cast<int>(ctx.outputs.NextTieBreak() % s_.boards);
    int best = -1, best_load = 0;
    for (int i = 0; i < s_.boards; ++i) {
      const int port = s_.LaserPort((start + i) % s_.boards, dst_board);
      const Channel* laser = ctx.outputs.output(port);
      if (!laser || !laser->routable()) continue;
      const int load = ctx.outputs.OutputLoad(port);
      if (best < 0 || load < best_load) {
        best = port;
        best_load = load;
      }
    }
    return {best, 0, 1};  // none lit here (re-allocation in progress): -1, the packet waits
  }

 private:
  ErapidShape s_;
  int vcs_;
};

class Erapid : public Topology {
 public:
  Erapid(ErapidShape s, double rate, int vcs) : s_(s), rate_(rate) {
    nodes = s.boards * s.nodes_per_board;
    routers = s.boards;
    ports = s.nodes_per_board + s.boards * s.boards + s.boards;
    link_classes = {"electrical", "optical"};
    for (int y = 0; y < s.boards; ++y) {
      for (int x = 0; x < s.boards; ++x) {
        const int source = s.StaticSource(x, y);
        wires.push_back({source, s.LaserPort(x, y), y, s.ReceiverPort(x), {0, rate, 1}, true});
      }
    }
    for (int node = 0; node < nodes; ++node) {
      attach.push_back({node / s.nodes_per_board, node % s.nodes_per_board, {}});
    }
    routing = std::make_unique<ErapidRouting>(s, vcs);
  }

  std::string Name() const override {
    return "E-RAPID R(1, " + std::to_string(s_.boards) + ", " + std::to_string(s_.nodes_per_board) + ")";
  }

  int RoutersOnPath(int src, int dst) const override {
    return src / s_.nodes_per_board == dst / s_.nodes_per_board ? 1 : 2;
  }
  // One region, one thread: reconfiguration hands wavelengths from board to board while the
  // network runs, which would move a channel's sending end from one thread to another.
  int Region(int) const override { return 0; }

  // Uniform traffic (no node sends to itself) loads each static channel from board s to board d
  // with D x D / (N - 1) of a node's load, and the spare wavelength with none.
  double UniformCapacity() const override {
    const double d = s_.nodes_per_board;
    return std::min(1.0, rate_ * (nodes - 1) / (d * d));
  }

  const ErapidShape& shape() const { return s_; }

 private:
  ErapidShape s_;
  double rate_;  // an optical channel's flits per cycle at full power
};

std::unique_ptr<Topology> Make(const Scenario& s, const RouterParams& router) {
  ErapidShape shape;
  shape.boards = static_cast<int>(s.Int("topology.erapid.boards"));
  shape.nodes_per_board = static_cast<int>(s.Int("topology.erapid.nodes_per_board"));
  shape.flit_bits = static_cast<int>(s.Int("topology.erapid.flit_bits"));
  // One flit per cycle is flit_bits / cycle_ns Gb/s (51.2 for 128 bits at 400 MHz), so 10 Gb/s
  // moves 10 / 51.2 flits per cycle.
  const double flit_gbps = shape.flit_bits / s.Real("sim.cycle_ns");
  const double rate = s.Real("topology.erapid.gbps") / flit_gbps;
  if (rate > 1.0) {
    throw ScenarioError("topology.erapid.gbps, topology.erapid.flit_bits, sim.cycle_ns: " +
                        std::to_string(s.Real("topology.erapid.gbps")) + " Gb/s is more than one " +
                        std::to_string(shape.flit_bits) + "-bit flit per cycle (" +
                        std::to_string(flit_gbps) + " Gb/s); allowed: gbps <= flit_bits / sim.cycle_ns");
  }
  return std::make_unique<Erapid>(shape, rate, router.vcs);
}

}  // namespace

TopologyInfo ErapidTopology() {
  return {"erapid",
          {IntKey("topology.erapid.boards", "8", 2, 64, "", "E-RAPID: boards B (wavelengths per board)"),
           IntKey("topology.erapid.nodes_per_board", "8", 1, 64, "", "E-RAPID: nodes D per board"),
           IntKey("topology.erapid.flit_bits", "128", 8, 1024, "bits",
                  "E-RAPID: a flit's width, the bits an electrical channel moves per cycle (the paper's "
                  "128-byte packets of 8 flits: 128; its 32-bit channels read as the flit: 32)"),
           RealKey("topology.erapid.gbps", "10", 5, 10, "Gb/s",
                   "E-RAPID: bit rate of an optical channel at full power (flits per cycle: gbps x "
                   "sim.cycle_ns / topology.erapid.flit_bits)")},
          Make};
}

const ErapidShape* ErapidShapeOf(const Topology& topology) {
  const auto* erapid = dynamic_cast<const Erapid*>(&topology);
  return erapid ? &erapid->shape() : nullptr;
}

}  // namespace icn
