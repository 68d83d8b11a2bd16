// SPDX-License-Identifier: Apache-2.0
// icn::NicPorts in the SystemC kernel (a program of its own: the kernel elaborates and starts once
// per process). Every node writes messages at random times through a one-deep fifo and reads its
// deliveries slowly, so full fifos on both sides and the held-back deliveries are exercised, beside
// Bernoulli traffic whose packets share the pool's ids. Checks: every delivery read is a message
// written, once, with its source, destination and flits, in the order its node's fifo was filled
// (delivery cycles never go back), and the books balance with results.json's external_traffic.
// Prints a digest of every node's deliveries, which must not depend on sim.threads.
//   nic_ports_test THREADS
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <systemc>

#include "run/nic_ports.h"
#include "run/run_params.h"
#include "run/sim_top.h"
#include "run/simulation.h"

namespace {

struct Sent {
  int src, dst;
  uint32_t flits;
};

struct Books {
  std::map<uint64_t, Sent> in_flight;  // by tag: written and not yet read
  uint64_t written = 0, read = 0;
  std::vector<std::string> problems;
};

class Node : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Node);
  Node(const sc_core::sc_module_name& name, icn::NicPorts& ports, int node, sc_core::sc_time cycle,
       Books& books)
      : sc_core::sc_module(name), ports_(ports), node_(node), cycle_(cycle), books_(books), rng_(node + 7) {
    SC_THREAD(Write);
    SC_THREAD(Read);
  }
  uint64_t digest = 0;

 private:
  void Write() {
    for (uint64_t i = 0;; ++i) {
      wait(cycle_ * static_cast<double>(rng_() % 30 + 1));
      const int pick = static_cast<int>(rng_() % (ports_.nodes() - 1));
      const icn::NetworkMessage m{pick >= node_ ? pick + 1 : pick, static_cast<uint32_t>(rng_() % 4 + 1),
                                  uint64_t(node_) << 32 | i};
      books_.in_flight[m.tag] = {node_, m.dst, m.flits};
      ++books_.written;
      ports_.to_network(node_).write(m);
    }
  }
  void Read() {
    uint64_t last = 0;
    for (;;) {
      wait(cycle_ * static_cast<double>(rng_() % 40 + 1));
      const icn::NetworkDelivery d = ports_.from_network(node_).read();
      ++books_.read;
      const auto it = books_.in_flight.find(d.tag);
      if (it == books_.in_flight.end()) {
        books_.problems.push_back("node " + std::to_string(node_) + " read tag " + std::to_string(d.tag) +
                                  ", never written or read before");
        continue;
      }
      const Sent s = it->second;
      books_.in_flight.erase(it);
      if (s.src != d.src || s.dst != d.dst || s.dst != node_ || s.flits != d.flits)
        books_.problems.push_back("tag " + std::to_string(d.tag) + ": source, destination or flits changed");
      if (d.delivered_cycle < last || d.delivered_cycle < d.sent_cycle)
        books_.problems.push_back("node " + std::to_string(node_) + ": a delivery out of order");
      last = d.delivered_cycle;
      digest = (digest ^ d.tag ^ d.sent_cycle << 20 ^ d.delivered_cycle << 40) * 0x100000001b3ULL;
    }
  }

  icn::NicPorts& ports_;
  const int node_;
  const sc_core::sc_time cycle_;
  Books& books_;
  std::mt19937_64 rng_;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: nic_ports_test THREADS\n");
    return 2;
  }
  icn::Scenario scenario(icn::AllKeys());
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"sim.threads", argv[1]},
                                   {"traffic.load", "0.05"},
                                   {"sim.warmup_cycles", "200"},
                                   {"sim.measure_cycles", "3000"}}) {
    scenario.Set(key, value);
  }
  const icn::RunParams params = icn::MakeRunParams(scenario);
  icn::Simulation sim(scenario, params, icn::RunOptions{});
  icn::SimTop top("top", sim, params.sim.cycle_ns);
  icn::NicPorts ports("nics", sim, 1);
  Books books;
  std::vector<std::unique_ptr<Node>> nodes;
  for (int n = 0; n < ports.nodes(); ++n) {
    nodes.push_back(std::make_unique<Node>(("node" + std::to_string(n)).c_str(), ports, n,
                                           sc_core::sc_time(params.sim.cycle_ns, sc_core::SC_NS), books));
  }
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_start();
  const nlohmann::json r = sim.Finish(0);
  const nlohmann::json& e = r["external_traffic"];
  const uint64_t held = e["not_read"].get<uint64_t>();
  if (e["written"] != books.written) books.problems.push_back("results.json counts other writes");
  if (books.written !=
      books.read + held + e["in_network"].get<uint64_t>() + e["waiting_to_enter"].get<uint64_t>())
    books.problems.push_back("the books do not balance: " + e.dump());
  if (held <= static_cast<uint64_t>(ports.nodes())) books.problems.push_back("no delivery was held back");
  if (r["verdict"] != "ok" || r["check"]["ok"] != true)
    books.problems.push_back("the run: " + r["verdict"].dump());
  uint64_t digest = 0;
  for (const auto& node : nodes) digest = (digest ^ node->digest) * 0x100000001b3ULL;
  std::printf("digest %016llx: %llu written, %llu read, %s\n", static_cast<unsigned long long>(digest),
              static_cast<unsigned long long>(books.written), static_cast<unsigned long long>(books.read),
              e.dump().c_str());
  std::fprintf(stderr, "nic_ports_test: %d network threads\n", r["sim"]["threads"].get<int>());
  for (const std::string& p : books.problems) std::fprintf(stderr, "nic_ports_test: %s\n", p.c_str());
  return books.problems.empty() ? 0 : 1;
}
