// SPDX-License-Identifier: Apache-2.0
#include "run/nic_ports.h"

#include <algorithm>
#include <string>

namespace icn {

std::ostream& operator<<(std::ostream& os, const NetworkMessage& m) {
  return os << "{dst " << m.dst << ", " << m.flits << " flits, tag " << m.tag << "}";
}

std::ostream& operator<<(std::ostream& os, const NetworkDelivery& d) {
  return os << "{" << d.src << " -> " << d.dst << ", " << d.flits << " flits, tag " << d.tag << ", cycles "
            << d.sent_cycle << ".." << d.delivered_cycle << "}";
}

NicPorts::NicPorts(const sc_core::sc_module_name& name, Simulation& sim, int depth)
    : sc_core::sc_module(name) {
  const int nodes = sim.fabric().nodes();
  for (int node = 0; node < nodes; ++node) {
    const std::string n = std::to_string(node);
    to_network_.push_back(std::make_unique<Outbox>(("to_network_" + n).c_str(), depth, *this, node));
    from_network_.push_back(
        std::make_unique<sc_core::sc_fifo<NetworkDelivery>>(("from_network_" + n).c_str(), depth));
  }
  written_.assign(nodes, 0);
  taken_.assign(nodes, 0);
  waiting_.resize(nodes);
  sim.Attach(*this);
}

// Blocking, through nb_write (which checks and counts): whatever the library's own write calls.
void NicPorts::Outbox::write(const NetworkMessage& m) {
  while (num_free() == 0) sc_core::wait(data_read_event());
  nb_write(m);
}

bool NicPorts::Outbox::nb_write(const NetworkMessage& m) {
  if (!ports_.Check(node_, m) || !sc_core::sc_fifo<NetworkMessage>::nb_write(m)) return false;
  ports_.Written(node_);
  return true;
}

bool NicPorts::Check(int node, const NetworkMessage& m) const {
  std::string problem;
  if (m.dst < 0 || m.dst >= nodes()) {
    problem = "dst " + std::to_string(m.dst) + " is not a node (0.." + std::to_string(nodes() - 1) + ")";
  } else if (m.dst == node) {
    problem = "dst " + std::to_string(m.dst) + " is the sending node itself (allowed: any other node)";
  } else if (m.flits < 1 || m.flits > kMaxFlits) {
    problem = std::to_string(m.flits) + " flits (allowed: 1.." + std::to_string(kMaxFlits) + ")";
  }
  if (problem.empty()) return true;
  const std::string what = std::string(name()) + ".to_network(" + std::to_string(node) + "): " + problem;
  SC_REPORT_ERROR("icn::NicPorts", what.c_str());
  return false;  // (an error action without a throw: the message is refused)
}

void NicPorts::Written(int node) {
  if (written_[node]++ == taken_[node]) sending_.push_back(node);
}

// Runs inside the run's cycle, on the SystemC clock's edge.
void NicPorts::Generate(uint64_t, const Create& create) {
  for (size_t i = 0; i < waiting_nodes_.size();) {
    std::deque<NetworkDelivery>& waiting = waiting_[waiting_nodes_[i]];
    while (!waiting.empty() && from_network_[waiting.front().dst]->nb_write(waiting.front()))
      waiting.pop_front();
    if (waiting.empty()) {
      waiting_nodes_[i] = waiting_nodes_.back();
      waiting_nodes_.pop_back();
    } else {
      ++i;
    }
  }
  if (sending_.empty()) return;
  std::sort(sending_.begin(), sending_.end());  // the nodes in index order, whatever order models ran in
  size_t kept = 0;
  for (const int node : sending_) {
    NetworkMessage m;
    while (to_network_[node]->nb_read(m)) {
      ++taken_[node];
      const uint32_t id = create(node, m.dst, m.flits);
      if (id >= ours_.size()) {
        ours_.resize(id + 1, false);
        tags_.resize(id + 1, 0);
      }
      ours_[id] = true;
      tags_[id] = m.tag;
      ++in_network_;
    }
    // Written at this very edge: readable from the next delta cycle, taken at the next cycle.
    if (taken_[node] < written_[node]) sending_[kept++] = node;
  }
  sending_.resize(kept);
}

void NicPorts::OnDelivered(uint32_t id, const Packet& packet, uint64_t now) {
  if (id >= ours_.size() || !ours_[id]) return;
  ours_[id] = false;
  --in_network_;
  const NetworkDelivery d{packet.src, packet.dst, packet.flits, tags_[id], packet.created, now};
  std::deque<NetworkDelivery>& waiting = waiting_[d.dst];
  if (waiting.empty() && from_network_[d.dst]->nb_write(d)) return;
  if (waiting.empty()) waiting_nodes_.push_back(d.dst);
  waiting.push_back(d);
}

// Where every message written is at the end: taken into the network (and delivered, or still in
// it), or still in a fifo on either side.
void NicPorts::Report(nlohmann::json& results) const {
  uint64_t written = 0, waiting_to_enter = 0, not_read = 0;
  for (int node = 0; node < nodes(); ++node) {
    written += written_[node];
    waiting_to_enter += written_[node] - taken_[node];
    not_read += waiting_[node].size() + static_cast<uint64_t>(from_network_[node]->num_available());
  }
  results["written"] = written;
  results["in_network"] = in_network_;
  results["waiting_to_enter"] = waiting_to_enter;
  results["not_read"] = not_read;
}

}  // namespace icn
