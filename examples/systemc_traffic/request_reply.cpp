// SPDX-License-Identifier: Apache-2.0
// Every node of a bundled network runs a client and a server of its own, as SystemC threads bound
// to its NIC through icn::NicPorts. The client sends a request (2 flits) to a random other node
// after a random think time (1 to 400 cycles) and waits for its reply; the server answers each
// request with a reply of 8 flits. At the end: requests, replies, the round trips' mean and maximum
// (from the request entering the network to the reply's arrival), where every message written is
// (the books must balance), and the run's verdict (the harness checks that nothing was lost).
//   request_reply [KEY=VALUE ...]     (scenario keys over the bundled `default` scenario)
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <systemc>

#include "core/errors.h"
#include "run/nic_ports.h"
#include "run/run_params.h"
#include "run/sim_top.h"
#include "run/simulation.h"

namespace {

constexpr uint64_t kReply = uint64_t{1} << 63;  // tag bit: a reply (the rest: the request's sent_cycle)

struct Totals {
  uint64_t requests = 0, replies = 0, round_trip_sum = 0, round_trip_max = 0;
  uint64_t written = 0, read = 0;  // messages written into the NICs' fifos, deliveries read
};

class Node : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Node);
  Node(const sc_core::sc_module_name& name, icn::NicPorts& ports, int node, sc_core::sc_time cycle,
       uint64_t seed, Totals& totals)
      : sc_core::sc_module(name),
        ports_(ports),
        node_(node),
        cycle_(cycle),
        totals_(totals),
        rng_(seed * 1000003 + node) {
    SC_THREAD(Client);
    SC_THREAD(Server);
  }

  // One request at a time: think 1 to 400 cycles, send, wait for the reply.
  void Client() {
    for (;;) {
      wait(cycle_ * static_cast<double>(rng_() % 400 + 1));
      const int pick = static_cast<int>(rng_() % (ports_.nodes() - 1));
      Send({pick >= node_ ? pick + 1 : pick, 2, 0});
      ++totals_.requests;
      wait(replied_);
    }
  }

  // Answers a request with a reply that carries the cycle the request entered the network; a
  // reply ends this node's round trip.
  void Server() {
    for (;;) {
      const icn::NetworkDelivery d = ports_.from_network(node_).read();
      ++totals_.read;
      if (d.tag & kReply) {
        const uint64_t round_trip = d.delivered_cycle - (d.tag & ~kReply);
        ++totals_.replies;
        totals_.round_trip_sum += round_trip;
        totals_.round_trip_max = std::max(totals_.round_trip_max, round_trip);
        replied_.notify(sc_core::SC_ZERO_TIME);
      } else {
        Send({d.src, 8, d.sent_cycle | kReply});
      }
    }
  }

 private:
  void Send(const icn::NetworkMessage& m) {
    ports_.to_network(node_).write(m);
    ++totals_.written;
  }

  icn::NicPorts& ports_;
  const int node_;
  const sc_core::sc_time cycle_;
  Totals& totals_;
  std::mt19937_64 rng_;
  sc_core::sc_event replied_;
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  std::vector<std::string> sets = {"traffic.load=0", "sim.warmup_cycles=1000", "sim.measure_cycles=20000"};
  sets.insert(sets.end(), argv + 1, argv + argc);
  std::unique_ptr<icn::Scenario> scenario;
  std::unique_ptr<icn::RunParams> params;
  try {
    scenario = std::make_unique<icn::Scenario>(
        icn::Scenario::Load(icn::AllKeys(), std::string(ICNSIM_DATA_DIR) + "/scenarios/default.yaml", sets));
    params = std::make_unique<icn::RunParams>(icn::MakeRunParams(*scenario));
  } catch (const icn::ScenarioError& e) {  // names the key and what it allows
    std::fprintf(stderr, "request_reply: %s\n", e.what());
    return 2;
  }
  if (params->topology->nodes < 2) {
    std::fprintf(stderr, "request_reply: the network needs two nodes or more\n");
    return 2;
  }
  icn::Simulation sim(*scenario, *params, icn::RunOptions{});
  icn::SimTop top("top", sim, params->sim.cycle_ns);
  icn::NicPorts ports("nics", sim);
  Totals totals;
  std::vector<std::unique_ptr<Node>> nodes;
  for (int n = 0; n < ports.nodes(); ++n) {
    nodes.push_back(std::make_unique<Node>(("node" + std::to_string(n)).c_str(), ports, n,
                                           sc_core::sc_time(params->sim.cycle_ns, sc_core::SC_NS),
                                           params->sim.seed, totals));
  }
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);  // (its stop note)
  sc_core::sc_start();
  const nlohmann::json results = sim.Finish(0);
  std::printf("requests %llu, replies %llu, round trip mean %.2f max %llu cycles\n",
              static_cast<unsigned long long>(totals.requests),
              static_cast<unsigned long long>(totals.replies),
              totals.replies ? static_cast<double>(totals.round_trip_sum) / totals.replies : 0.0,
              static_cast<unsigned long long>(totals.round_trip_max));
  // Every message written is read, or still in the network or a fifo (results.json: external_traffic).
  const nlohmann::json& e = results["external_traffic"];
  const auto count = [&](const char* field) { return e[field].get<uint64_t>(); };
  const bool balanced =
      count("written") == totals.written &&
      totals.written == totals.read + count("not_read") + count("in_network") + count("waiting_to_enter");
  std::printf(
      "messages %llu written, %llu read, at the end %llu in the network, %llu waiting to enter, "
      "%llu not read: %s\n",
      static_cast<unsigned long long>(totals.written), static_cast<unsigned long long>(totals.read),
      static_cast<unsigned long long>(count("in_network")),
      static_cast<unsigned long long>(count("waiting_to_enter")),
      static_cast<unsigned long long>(count("not_read")), balanced ? "balanced" : "NOT BALANCED");
  std::printf("network: %llu packets lost, verdict %s\n",
              static_cast<unsigned long long>(results["packets"]["lost"].get<uint64_t>()),
              results["verdict"].get<std::string>().c_str());
  std::fprintf(stderr, "request_reply: %d network threads, %llu cycles\n",
               results["sim"]["threads"].get<int>(),
               static_cast<unsigned long long>(results["sim"]["cycles"].get<uint64_t>()));
  return balanced && results["verdict"] == "ok" ? 0 : 1;
}
