// SPDX-License-Identifier: Apache-2.0
// What mechanisms may do to the wormhole data plane while it runs: change a channel's rate,
// disable it for a number of cycles, quiesce it until it has drained and re-aim it at another
// router, rewrite per-router routing tables; and what topologies may give each wire (its own
// latency, rate and class) and each router (more than 64 ports). Nothing in flight may be lost or
// reordered: the sinks check every flit and the census every buffer.
#include "catch.h"

#include <map>
#include <stdexcept>

#include "core/rng.h"
#include "net/net_util.h"
#include "net/routing_table.h"
#include "unit/dut.h"

namespace {

// The channel that leaves `router` on `port`.
icn::Channel& Output(icn::WormholeNetwork& net, int router, int port) {
  for (const auto& ch : net.channels()) {
    if (ch->source().router && ch->source().router->id() == router && ch->source().port == port) return *ch;
  }
  FAIL("no channel leaves router " << router << " on port " << port);
  throw std::logic_error("unreachable");
}

const std::vector<std::string> kMesh = {"topology.kind=mesh",    "topology.dims=[4, 4]",
                                        "traffic.load=0.3",      "traffic.packet_flits=4",
                                        "sim.warmup_cycles=200", "sim.measure_cycles=6000"};

}  // namespace

TEST_CASE("channel rates change during the run: each link carries at most its rate, nothing is lost",
          "[net]") {
  icn::Rng rng(tb::TestSeed());
  tb::Run run(kMesh);
  const auto& channels = run.network().channels();
  const double rates[] = {1.0, 0.5, 10 / 12.8, 0.25, 1.0 / 3};
  std::vector<double> rate(channels.size(), 1.0);
  std::vector<uint64_t> sent(channels.size(), 0);
  uint64_t changes = 0;
  while (run.sim->Tick()) {
    const uint64_t now = run.sim->cycle() - 1;  // the cycle just simulated
    if (run.sim->cycle() % 500 != 0) continue;
    for (size_t c = 0; c < channels.size(); ++c) {
      // At most floor(rate x 500) flits in an epoch, plus the token the epoch may start with.
      const uint64_t carried = channels[c]->busy_cycles() - sent[c];
      INFO("channel " << c << " at rate " << rate[c]);
      REQUIRE(carried <= static_cast<uint64_t>(rate[c] * 500 + 1e-9) + 1);
      sent[c] = channels[c]->busy_cycles();
      rate[c] = rates[rng.Below(5)];
      channels[c]->SetRate(rate[c], now);
      ++changes;
    }
  }
  CHECK(changes > 1000);
  tb::DrainedResults(run);
}

// A fractional rate is a serialiser: a backlogged link starts a flit whenever the previous one
// ends within the cycle. (It once waited for a whole token after each flit, which carried 1/2
// flit per cycle at any rate in [0.5, 1) and 1/4 at 0.3125.) Four nodes of a 2x2 mesh, each sending
// everything to the opposite corner over links of the rate: each receives the rate.
TEST_CASE("a backlogged link carries its fractional rate", "[net]") {
  for (const double rate : {0.3125, 0.5, 10 / 12.8, 0.9, 1.0 / 3}) {
    INFO("rate " << rate);
    const nlohmann::json r =
        tb::Run({"topology.kind=mesh", "topology.dims=[2, 2]", "traffic.pattern=complement", "traffic.load=1",
                 "traffic.packet_flits=8", "link.bandwidth_flits=" + std::to_string(rate),
                 "sim.warmup_cycles=1000", "sim.measure_cycles=8000", "sim.drain_limit_cycles=1"})
            .Results();
    CHECK(r["throughput"]["accepted"].get<double>() == Approx(rate).epsilon(0.005));
  }
}

// As E-RAPID changes a bit rate: a new rate, then 65 cycles of receiver relock; sometimes in the
// other order, which must not shorten or stretch the stretch.
TEST_CASE("a channel disabled for 65 cycles sends nothing then, and nothing is lost", "[net]") {
  icn::Rng rng(tb::TestSeed());
  tb::Run run({"topology.kind=torus", "topology.dims=[4, 4]", "traffic.load=0.2", "sim.warmup_cycles=200",
               "sim.measure_cycles=6000"});
  const auto& channels = run.network().channels();
  std::vector<uint64_t> disabled_until(channels.size(), 0);  // last cycle it may not send
  const double rates[] = {1.0, 0.5, 10 / 12.8};
  uint64_t disabled_cycles = 0;
  uint64_t after_relock = 0;  // flits sent by channels after a disable ended
  while (run.sim->Tick()) {
    const uint64_t now = run.sim->cycle() - 1;
    for (size_t c = 0; c < channels.size(); ++c) {
      if (now <= disabled_until[c]) {
        REQUIRE_FALSE(channels[c]->sent_at(now));
        ++disabled_cycles;
      } else if (disabled_until[c] > 0) {
        after_relock += channels[c]->sent_at(now);
      }
      if (now > disabled_until[c] && rng.Below(300) == 0) {
        const double rate = rates[rng.Below(3)];
        const int order = rng.Below(4);  // 0, 1: rate first; 2: rate after; 3: no rate change
        if (order < 2) channels[c]->SetRate(rate, now);
        channels[c]->DisableFor(65, now);
        if (order == 2) channels[c]->SetRate(rate, now);
        disabled_until[c] = now + 65;
      }
    }
  }
  CHECK(disabled_cycles > 100000);
  CHECK(after_relock > 10000);  // relocked links carry traffic again
  tb::DrainedResults(run);
}

TEST_CASE("table routing built from the network's routing runs exactly like it", "[net]") {
  for (const auto& shape : std::vector<std::vector<std::string>>{
           {"topology.kind=mesh", "topology.dims=[4, 4]"},
           {"topology.kind=mesh", "topology.dims=[3, 2, 4]"},
           {"topology.kind=megafly", "topology.megafly.groups=5", "topology.megafly.spines=2"}}) {
    std::vector<std::string> sets = shape;
    sets.insert(sets.end(), {"traffic.load=0.3", "sim.measure_cycles=4000"});
    INFO(sets[0] << " " << sets[1]);
    const nlohmann::json direct = tb::WithoutTiming(tb::Run(sets).Results());
    tb::Run tabled(sets);
    icn::WormholeNetwork& net = tabled.network();
    net.InstallRouting(std::make_unique<icn::TableRouting>(net.TabulateRouting()));
    CHECK(tb::WithoutTiming(tabled.Results()) == direct);
  }
}

// Router 5 of a 4x4 mesh sends east on port 1 (to router 6) and west on port 2 (to router 4).
// Both channels are quiesced, drained under traffic and re-aimed crosswise, and router 5's table
// is rewritten to match: every packet still arrives, so routing followed the new wiring.
TEST_CASE("quiesced channels drain under traffic, are re-aimed, and table routing follows", "[net]") {
  std::vector<std::string> sets = kMesh;
  sets.push_back("traffic.load=0.15");
  tb::Run run(sets);
  icn::WormholeNetwork& net = run.network();
  auto owned = std::make_unique<icn::TableRouting>(net.TabulateRouting());
  icn::TableRouting* routing = owned.get();
  net.InstallRouting(std::move(owned));
  const icn::Router& r5 = *net.routers()[5];
  icn::Channel& east = Output(net, 5, 1);
  icn::Channel& west = Output(net, 5, 2);
  REQUIRE(east.destination().router->id() == 6);
  REQUIRE(west.destination().router->id() == 4);
  // Past cycle 2000, at a moment east carries something: a re-aim now would strand flits.
  while (run.sim->cycle() < 2000 || net.Drained(east)) REQUIRE(run.sim->Tick());
  CHECK_THROWS_AS(net.Reaim(east, 4, 1), std::logic_error);
  east.set_accepting(false);
  west.set_accepting(false);
  uint64_t waited = 0;
  while (!(net.Drained(east) && net.Drained(west))) {
    REQUIRE(run.sim->Tick());
    REQUIRE(++waited < 2000);
  }
  const uint64_t east_before = east.busy_cycles();
  net.Reaim(east, 4, 1);
  net.Reaim(west, 6, 2);
  for (int dst = 0; dst < 16; ++dst) {
    icn::Route route = routing->table().Get(5, dst).front();
    if (route.port == 1 || route.port == 2) route.port = 3 - route.port;
    routing->table().Set(5, dst, {route});
  }
  east.set_accepting(true);
  west.set_accepting(true);
  CHECK(east.destination().router->id() == 4);
  CHECK(r5.output(1)->destination().router->id() == 4);
  run.sim->RunToEnd();
  tb::DrainedResults(run);
  CHECK(east.busy_cycles() > east_before + 100);  // it carried the westbound traffic since
}

TEST_CASE("wires keep their own latency, rate and class", "[net]") {
  // A 2x2 mesh whose wire between routers 0 and 1 is a slow optical one: 5 cycles, half rate.
  tb::Run run({"topology.kind=mesh", "topology.dims=[2, 2]", "traffic.load=0.005", "traffic.packet_flits=4",
               "sim.measure_cycles=40000"},
              tb::Run::kParamsOnly);
  auto topology = icn::MakeTopology(run.scenario, run.params.net.router);
  topology->link_classes.push_back("optical");
  REQUIRE(topology->wires[0].a_router == 0);
  REQUIRE(topology->wires[0].b_router == 1);
  topology->wires[0].attr = {5, 0.5, 1};
  run.params.topology = std::move(topology);
  run.StartSimulation({});
  icn::WormholeNetwork& net = run.network();
  int optical = 0;
  for (const auto& ch : net.channels()) {
    if (ch->link_class() != 1) continue;
    ++optical;
    CHECK(ch->latency() == 5);
    CHECK(ch->rate() == 0.5);
  }
  CHECK(optical == 2);
  std::map<std::pair<int, int>, uint64_t> fastest;
  run.sim->on_delivery = [&](const icn::Packet& p, uint64_t latency) {
    auto [it, fresh] = fastest.emplace(std::make_pair(p.src, p.dst), latency);
    if (!fresh) it->second = std::min(it->second, latency);
  };
  REQUIRE(run.Results()["check"]["ok"] == true);
  // Across the slow wire: 4 more cycles on it and a tail 3 cycles later (every other cycle).
  CHECK(fastest.at({0, 1}) == net.ZeroLoadLatency(0, 1, 4) + 4 + 3);
  CHECK(fastest.at({1, 0}) == net.ZeroLoadLatency(1, 0, 4) + 4 + 3);
  CHECK(fastest.at({0, 2}) == net.ZeroLoadLatency(0, 2, 4));
}

TEST_CASE("routers of more than 64 ports switch every input", "[net]") {
  // A 36-ary 2-tree: 72 routers of 72 ports, 1296 nodes, loaded close to saturation.
  tb::Run run({"topology.kind=kary_ntree", "topology.k=36", "topology.n=2", "traffic.load=0.4",
               "sim.warmup_cycles=200", "sim.measure_cycles=1500"});
  CHECK(run.network().topology().ports == 72);
  run.sim->RunToEnd();
  tb::DrainedResults(run);
}
