// SPDX-License-Identifier: Apache-2.0
// The SystemC boundary at the NICs: for every node, an sc_fifo through which a model of one's own
// (an sc_module: a core, a traffic generator) sends messages into the network, and one from which
// it reads what arrived for it. The run takes the messages at the clock edge of each cycle, where
// it creates its own packets: what the fifo lets it read then (written at an earlier time, or in
// an earlier delta cycle: the clock's edge comes a delta cycle after the time it is due, so a
// model woken at that time is taken at that edge) enters the network that cycle. Nodes are taken
// in index order and each fifo in its own order, so with models that are deterministic themselves
// the run is too, at any sim.threads (deliveries reach the run's thread in a fixed order). A full
// fifo of deliveries keeps the rest and hands them on at the next cycles as the model reads:
// nothing is dropped, and results.json's external_traffic says at the end where every message is.
// A clocked model (an SC_METHOD on the clock's edge) writes in the edge's delta cycle: its message
// enters the next cycle; NetworkDelivery's cycles say when each really did.
//
// A run with NicPorts attached visits every cycle (no clock jumps); one without costs nothing.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <ostream>
#include <vector>

#include <systemc>

#include "run/simulation.h"
#include "traffic/external_traffic.h"

namespace icn {

// What a model sends from its node: one packet of `flits` flits to `dst`.
struct NetworkMessage {
  int dst = 0;
  uint32_t flits = 1;
  uint64_t tag = 0;  // the sender's own, handed back with the delivery
};

// A message arrived whole at its destination.
struct NetworkDelivery {
  int src = 0;
  int dst = 0;
  uint32_t flits = 0;
  uint64_t tag = 0;
  uint64_t sent_cycle = 0;       // the cycle the network took it
  uint64_t delivered_cycle = 0;  // the cycle its last flit arrived
};

// (sc_fifo prints its contents with these.)
std::ostream& operator<<(std::ostream& os, const NetworkMessage& m);
std::ostream& operator<<(std::ostream& os, const NetworkDelivery& d);

class NicPorts : public sc_core::sc_module, private ExternalTraffic {
 public:
  static constexpr uint32_t kMaxFlits = 65536;  // as traffic.packet_flits

  // Attaches to `sim` (before its first cycle); `depth`: each fifo's capacity.
  NicPorts(const sc_core::sc_module_name& name, Simulation& sim, int depth = 16);

  int nodes() const { return static_cast<int>(to_network_.size()); }
  // Write here what node `node` sends; a message to a node that does not exist, to itself or
  // with a flit count outside 1..kMaxFlits is an SC_REPORT_ERROR at the write (and refused).
  sc_core::sc_fifo<NetworkMessage>& to_network(int node) { return *to_network_.at(node); }
  // Read here what arrived at node `node`.
  sc_core::sc_fifo<NetworkDelivery>& from_network(int node) { return *from_network_.at(node); }

 private:
  // A node's outgoing fifo: every write is checked and tells the ports that the node has messages.
  class Outbox : public sc_core::sc_fifo<NetworkMessage> {
   public:
    Outbox(const char* name, int depth, NicPorts& ports, int node)
        : sc_core::sc_fifo<NetworkMessage>(name, depth), ports_(ports), node_(node) {}
    void write(const NetworkMessage& m) override;
    bool nb_write(const NetworkMessage& m) override;

   private:
    NicPorts& ports_;
    int node_;
  };

  bool Check(int node, const NetworkMessage& m) const;
  void Written(int node);
  void Generate(uint64_t now, const Create& create) override;
  void OnDelivered(uint32_t id, const Packet& packet, uint64_t now) override;
  void Report(nlohmann::json& results) const override;

  std::vector<std::unique_ptr<Outbox>> to_network_;
  std::vector<std::unique_ptr<sc_core::sc_fifo<NetworkDelivery>>> from_network_;
  std::vector<uint64_t> written_, taken_;  // per node: messages written into / taken from its outbox
  std::vector<int> sending_;               // the nodes with written > taken, each once
  std::vector<uint64_t> tags_;             // per packet id: its message's tag, while in flight
  std::vector<bool> ours_;                 // per packet id: sent through these ports, in flight
  uint64_t in_network_ = 0;                // packets of ours in flight
  std::vector<std::deque<NetworkDelivery>> waiting_;  // per node: deliveries its full fifo did not take
  std::vector<int> waiting_nodes_;                    // the nodes with some, each once
};

}  // namespace icn
