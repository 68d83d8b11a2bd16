// SPDX-License-Identifier: Apache-2.0
// Traffic from outside the harness (ExternalTraffic; NicPorts binds it to SystemC fifos): every
// message sent enters the network at the cycle it was offered and comes back as one delivery; the
// run visits every cycle; the deliveries are the same on 1 and 2 threads. NicPorts refuses a
// message it cannot send at the write, naming what is wrong.
#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "net_util.h"
#include "run/nic_ports.h"

namespace {

// Sends, from cycle 0 on, a message every `gap` cycles from node (c / gap) % nodes to a node
// chosen from the cycle; records the deliveries in order.
class Sender : public icn::ExternalTraffic {
 public:
  Sender(int nodes, uint64_t gap, uint64_t until) : nodes_(nodes), gap_(gap), until_(until) {}
  void Generate(uint64_t now, const Create& create) override {
    if (now % gap_ != 0 || now >= until_) return;
    const int src = static_cast<int>(now / gap_ % nodes_);
    const int dst = static_cast<int>((src + 1 + now * 7919 % (nodes_ - 1)) % nodes_);
    const uint32_t id = create(src, dst, 1 + static_cast<uint32_t>(now % 5));
    sent_[id] = {now, src, dst};
  }
  void OnDelivered(uint32_t id, const icn::Packet& packet, uint64_t now) override {
    const auto it = sent_.find(id);
    if (it == sent_.end()) return;  // (a packet of traffic.*)
    const auto [cycle, src, dst] = it->second;
    CHECK(packet.src == src);
    CHECK(packet.dst == dst);
    CHECK(packet.created == cycle);
    deliveries.push_back({cycle, now, src, dst});
    sent_.erase(it);
  }
  size_t in_flight() const { return sent_.size(); }
  std::vector<std::tuple<uint64_t, uint64_t, int, int>> deliveries;  // (sent, delivered, src, dst)

 private:
  int nodes_;
  uint64_t gap_, until_;
  std::map<uint32_t, std::tuple<uint64_t, int, int>> sent_;  // by packet id, while in flight
};

std::vector<std::tuple<uint64_t, uint64_t, int, int>> Deliveries(const std::string& threads,
                                                                 uint64_t* jumped) {
  tb::Run run(
      {"traffic.load=0.01", "sim.threads=" + threads, "sim.warmup_cycles=500", "sim.measure_cycles=4000"});
  Sender sender(run.sim->fabric().nodes(), 3, 4000);
  run.sim->Attach(sender);
  run.sim->RunToEnd();
  const nlohmann::json r = tb::DrainedResults(run);
  CHECK(sender.in_flight() == 0);
  CHECK(sender.deliveries.size() == 4000 / 3 + 1);
  CHECK(r["external_traffic"]["packets"] == sender.deliveries.size());
  CHECK(r["sim"]["threads"] == std::stoi(threads));
  *jumped = run.sim->jumped_cycles();
  return sender.deliveries;
}

}  // namespace

TEST_CASE("external traffic enters when offered and all of it comes back, the same on 1 and 2 threads",
          "[external]") {
  uint64_t jumped = 1;
  const auto one = Deliveries("1", &jumped);
  CHECK(jumped == 0);
  tb::Run alone({"traffic.load=0.01", "sim.warmup_cycles=500", "sim.measure_cycles=4000"});
  alone.sim->RunToEnd();
  CHECK(alone.sim->jumped_cycles() > 0);  // (the same run jumps without external traffic)
  const auto two = Deliveries("2", &jumped);
  CHECK(one == two);
}

TEST_CASE("NicPorts refuses a message it cannot send, naming why", "[external]") {
  tb::Run run({});
  icn::NicPorts ports("refusing_ports", *run.sim);
  const int last = ports.nodes() - 1;
  CHECK_THROWS_WITH(ports.to_network(0).nb_write({last + 1, 1, 0}),
                    tb::Contains("dst 64 is not a node (0..63)"));
  CHECK_THROWS_WITH(ports.to_network(3).nb_write({3, 1, 0}),
                    tb::Contains("dst 3 is the sending node itself"));
  CHECK_THROWS_WITH(ports.to_network(0).nb_write({1, 0, 0}), tb::Contains("0 flits (allowed: 1..65536)"));
  Sender second(ports.nodes(), 1, 1);
  CHECK_THROWS_AS(run.sim->Attach(second), std::logic_error);  // one source, attached before the first cycle
}
