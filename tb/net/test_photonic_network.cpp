// SPDX-License-Identifier: Apache-2.0
// The photonic data plane with its verilated switch control planes: a lone circuit's time is its
// size / rate plus the reservation round trip; every message arrives once and in order per pair,
// in every mode on the torus and the fat tree, the tables match the circuits throughout and are
// empty once the last teardown has passed; a failed
// reservation leaves no channel behind; the walk-back of Algorithm 1 ends the segment at the
// nearest switch with a free buffer entry, and a full buffer sends it back to its source to retry;
// after a failure a source backs off, retries or waits for the link as photonic.on_failure says; the
// ejection bound is the busiest destination's data over its channels;
// bad parameters are refused naming their keys; skipping idle switches equals clocking every switch every
// cycle; answering the reserves that must fail without the model equals asking it (random configurations).
#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "catch.h"

#include "core/errors.h"
#include "mech/photonic/photonic_control.h"
#include "net/net_util.h"
#include "net/photonic/photonic_network.h"

namespace {

// A trace file in the temporary directory, one message per line ("<src> <dst> <bytes> <at_ns>").
std::string Trace(const std::string& name, const std::vector<std::array<int, 4>>& messages) {
  const std::string path = std::string(P_tmpdir) + "/photonic_" + name + ".trace";
  std::ofstream out(path);
  for (size_t id = 0; id < messages.size(); ++id) {
    const auto& m = messages[id];
    out << id << " " << m[0] << " " << m[1] << " " << m[2] << " at " << m[3] << "\n";
  }
  return path;
}

std::vector<std::string> Photonic(const std::string& mode, std::vector<std::string> more) {
  std::vector<std::string> sets = {
      "network.switching=photonic", "photonic.mode=" + mode, "eee.mode=off", "sim.cycle_ns=1",
      "workload.mtu_bytes=4096",    "workload.flit_bytes=64"};
  sets.insert(sets.end(), more.begin(), more.end());
  return sets;
}

icn::PhotonicNetwork& PhotonicNet(tb::Run& run) {
  return dynamic_cast<icn::PhotonicNetwork&>(run.sim->fabric());
}
icn::PhotonicControl& PhotonicCtl(tb::Run& run) {
  return dynamic_cast<icn::PhotonicControl&>(*run.mechanism());
}

int HeldChannels(tb::Run& run) {
  int held = 0;
  for (int sw = 0; sw < PhotonicNet(run).switches(); ++sw) held += PhotonicCtl(run).HeldChannels(sw);
  return held;
}

// After the run: the network and its control planes for `cycles` more cycles (teardowns still
// travelling when the last packet arrived).
void Settle(tb::Run& run, uint64_t cycles) {
  for (uint64_t c = run.sim->cycle(), end = c + cycles; c < end; ++c) {
    run.sim->fabric().DeliverArrivals(c);
    run.sim->fabric().Advance(c);
    run.mechanism()->Step(c);
  }
}

// Ticks until `done` or the run ends; returns whether `done` happened.
template <typename Done>
bool RunUntil(tb::Run& run, Done done) {
  while (run.sim->Tick())
    if (done()) return true;
  return false;
}

TEST_CASE("photonic: a lone circuit takes size / rate plus the reservation round trip", "[net]") {
  // Node 0 to node 21 = (1, 1, 1) of a 4x4x4 torus: H = 4 switches. 4 KB = 64 flits of 64 B at
  // 320 Gb/s per channel and 1 ns cycles: 102.4, so 103 cycles. 12 KB: 3 packets.
  const std::string small = Trace("lone_small", {{0, 21, 4096, 0}});
  const std::string large = Trace("lone_large", {{0, 21, 12288, 0}});
  struct Case {
    std::string mode, trace;
    uint64_t latency;
  };
  for (const Case& c : {Case{"circuit", small, 2 * 4 + 103}, Case{"packetised", small, 2 * 4 + 103},
                        Case{"segment", small, 2 * 4 + 103},
                        // Circuit mode sends the message's 3 packets back to back on one circuit:
                        // 192 flits = 307.2, so 308 cycles.
                        Case{"circuit", large, 2 * 4 + 308},
                        // Packetised: three circuits on three channels of the same links at once.
                        Case{"packetised", large, 2 * 4 + 103}}) {
    INFO(c.mode << " " << c.trace);
    tb::Run run(Photonic(c.mode, {"topology.kind=torus", "topology.dims=[4,4,4]", "workload.kind=trace",
                                  "workload.trace=" + c.trace, "photonic.buffer.layout=all"}));
    std::vector<uint64_t> latencies;
    run.sim->on_delivery = [&](const icn::Packet& p, uint64_t latency) {
      latencies.push_back(latency);
      CHECK(p.hops == 4);
    };
    const nlohmann::json r = run.Results();
    REQUIRE(r["check"]["ok"] == true);
    REQUIRE(!latencies.empty());
    for (uint64_t l : latencies) CHECK(l == c.latency);
    CHECK(r["photonic"]["failed_attempts"] == 0);
    CHECK(r["workload"]["exec_cycles"] == c.latency);
    // The busiest (only) destination's flits at 1.6 cycles a flit on each of its 5 channels.
    CHECK(r["photonic"]["ejection_bound_cycles"].get<double>() ==
          Approx((c.trace == small ? 64 : 192) * 1.6 / 5));
  }
  // A NIC using one channel of its link sends the 3 packets one after another: each reservation
  // starts the cycle after the previous teardown left the source's switch.
  tb::Run run(Photonic("packetised", {"topology.kind=torus", "topology.dims=[4,4,4]", "workload.kind=trace",
                                      "workload.trace=" + large, "photonic.source_channels=1"}));
  std::vector<uint64_t> latencies;
  run.sim->on_delivery = [&](const icn::Packet&, uint64_t latency) { latencies.push_back(latency); };
  REQUIRE(run.Results()["check"]["ok"] == true);
  CHECK(latencies == std::vector<uint64_t>{111, 223, 335});
}

TEST_CASE("photonic: a long transfer is progress, and no channel is busier than the run is long", "[net]") {
  // 16,000 B at 6.4 Gb/s: one circuit sending for 20,000 cycles, four stall limits, while nothing
  // else happens in the network.
  const std::string trace = Trace("long_transfer", {{0, 1, 16000, 0}});
  tb::Run run(
      Photonic("circuit", {"topology.kind=torus", "topology.dims=[4,4]", "photonic.channel_gbps=6.4",
                           "workload.kind=trace", "workload.trace=" + trace, "sim.stall_limit_cycles=5000"}));
  const nlohmann::json r = run.Results();
  CHECK(r["verdict"] == "ok");
  CHECK(r["workload"]["exec_cycles"].get<uint64_t>() > 20000);
  // A run cut short in the middle of 13,108-cycle transfers (circuits of 512 KB messages): each
  // channel's busy cycles are those it has had, so utilisation (overall, and per time-series window)
  // stays within 1.
  tb::Run cut(Photonic(
      "circuit", {"topology.kind=torus", "topology.dims=[4,4]", "workload.kind=random_messages",
                  "workload.large_fraction=1", "workload.max_cycles=5000", "sim.timeseries_cycles=1000"}));
  const nlohmann::json c = cut.Results();
  CHECK(c["verdict"] == "saturated");
  for (const char* which :
       {"link_utilisation_sorted", "injection_utilisation_mean", "ejection_utilisation_mean"}) {
    INFO(which << " " << c["photonic"][which].dump());
    const nlohmann::json& values = c["photonic"][which];
    for (const auto& u : values.is_array() ? values : nlohmann::json::array({values}))
      CHECK(u.get<double>() <= 1.0);
  }
  CHECK(c["photonic"]["link_utilisation_mean"].get<double>() > 0.1);
  std::istringstream csv(cut.sim->timeseries_csv());
  std::string line;
  std::getline(csv, line);
  const size_t column =
      static_cast<size_t>(std::count(line.begin(), line.begin() + line.find("link_utilisation"), ','));
  int rows = 0;
  for (; std::getline(csv, line); ++rows) {
    std::istringstream row(line);
    std::string cell;
    for (size_t i = 0; i <= column; ++i) std::getline(row, cell, ',');
    INFO(line);
    CHECK(std::stod(cell) <= 1.0);
  }
  CHECK(rows == 5);
}

TEST_CASE("photonic: every message once and in order per pair, tables empty afterwards", "[net]") {
  for (const std::string topology : {"torus", "kary_ntree"}) {
    for (const std::string mode : {"circuit", "packetised", "segment"}) {
      INFO(topology << " " << mode);
      const std::string layout = topology == "torus" ? "every_2" : "top_2";
      tb::Run run(Photonic(mode, {"topology.kind=" + topology, "topology.dims=[4,4,4]", "topology.k=4",
                                  "topology.n=3", "workload.kind=random_messages",
                                  "workload.messages_per_node=4", "workload.large_bytes=65536",
                                  "photonic.buffer.layout=" + layout, "photonic.buffer.bytes=16384"}));
      std::map<std::pair<int, int>, uint32_t> last;  // per pair, the last message delivered
      uint64_t delivered = 0;
      run.sim->on_delivery = [&](const icn::Packet& p, uint64_t) {
        uint32_t& m = last[{p.src, p.dst}];
        CHECK(p.message >= m);
        m = p.message;
        ++delivered;
      };
      const nlohmann::json r = run.Results();
      INFO(r["check"].dump());
      REQUIRE(r["check"]["ok"] == true);  // includes the control planes' tables, empty at the end
      CHECK(r["workload"]["messages_delivered"] == 256);
      CHECK(delivered == r["packets"]["injected"].get<uint64_t>());
      CHECK(r["photonic"]["failed_attempts"].get<uint64_t>() > 0);  // there was contention
      CHECK(r["workload"]["exec_cycles"].get<double>() >=
            r["photonic"]["ejection_bound_cycles"].get<double>());
      Settle(run, 100);
      CHECK(run.sim->fabric().Quiet());
      CHECK(HeldChannels(run) == 0);
      CHECK((r["photonic"]["segments_to_buffer"].get<uint64_t>() > 0) == (mode == "segment"));
    }
  }
}

// Row y = 0 of a 12x4 torus with one channel per link and 512 KB packets: a message 5 -> 7 holds
// links 5 -> 6 -> 7 for 13,108 cycles (packet 0); messages along the row behind it fail at switch 5.
std::vector<std::string> Row(const std::string& mode, const std::string& layout, const std::string& trace) {
  return Photonic(
      mode, {"topology.kind=torus", "topology.dims=[12,4]", "photonic.channels=1",
             "photonic.buffer.layout=" + layout, "photonic.buffer.bytes=524288", "workload.mtu_bytes=524288",
             "photonic.backoff_cycles=16", "workload.kind=trace", "workload.trace=" + trace});
}

TEST_CASE("photonic: a failed reservation releases every channel it took", "[net]") {
  // 1 -> 6 takes links 1 -> 2 .. 4 -> 5, fails at switch 5, walks back to its source and retries.
  const std::string trace = Trace("release", {{5, 7, 524288, 0}, {1, 6, 4096, 50}});
  std::vector<std::string> sets = Row("circuit", "none", trace);
  sets.push_back("photonic.on_failure=backoff");  // (a try every [16, 32) cycles)
  tb::Run run(sets);
  // 5 -> 7 holds three channels (5 -> 6, 6 -> 7, the ejection at 7); 1 -> 6 adds up to four while
  // it tries, and none while it waits out its back-off.
  int least = 1 << 20, most = 0;
  REQUIRE(RunUntil(run, [&] {
    if (run.sim->cycle() >= 200) {
      least = std::min(least, HeldChannels(run));
      most = std::max(most, HeldChannels(run));
    }
    return run.sim->cycle() == 10000;
  }));
  CHECK(least == 3);
  CHECK(most == 7);
  CHECK(PhotonicNet(run).Report(run.sim->cycle())["failed_attempts"].get<uint64_t>() > 100);
  const nlohmann::json r = run.Results();
  CHECK(r["check"]["ok"] == true);
  Settle(run, 100);
  CHECK(HeldChannels(run) == 0);
}

TEST_CASE("photonic: the walk-back ends the segment at the nearest free buffer", "[net]") {
  // every_2: buffers where x + y is even. 1 -> 6 fails at switch 5 (no buffer) and ends at 4.
  const std::string trace = Trace("nearest", {{5, 7, 524288, 0}, {1, 6, 4096, 50}});
  tb::Run run(Row("segment", "every_2", trace));
  REQUIRE(RunUntil(run, [&] { return PhotonicNet(run).slots_used(4) == 1; }));
  REQUIRE(RunUntil(run, [&] { return run.sim->cycle() == 1000; }));
  for (int sw = 0; sw < PhotonicNet(run).switches(); ++sw)
    CHECK(PhotonicNet(run).slots_used(sw) == (sw == 4 ? 1u : 0u));
  CHECK(PhotonicNet(run).Locate(1) == "sending from or reserving at the buffer of switch 4");
  const nlohmann::json r = run.Results();
  REQUIRE(r["check"]["ok"] == true);
  CHECK(r["photonic"]["segments_to_buffer"] == 1);
  CHECK(r["photonic"]["packets_by_times_buffered"] == nlohmann::json::array({1, 1}));
}

TEST_CASE("photonic: a full buffer sends the reservation back to its source", "[net]") {
  // every_4: on row 0 only switches 0, 4 and 8 have a buffer, of one entry. 1 -> 6 takes the entry
  // at 4; 2 -> 7 then fails at 5, finds 4 full, and walks back to its source 2: a retry.
  const std::string trace = Trace("full", {{5, 7, 524288, 0}, {1, 6, 4096, 50}, {2, 7, 4096, 500}});
  tb::Run run(Row("segment", "every_4", trace));
  REQUIRE(RunUntil(run, [&] { return run.sim->cycle() == 2000; }));
  const nlohmann::json f = PhotonicNet(run).Report(run.sim->cycle());
  CHECK(f["segments_to_buffer"] == 1);
  CHECK(PhotonicNet(run).slots_used(4) == 1);
  const std::string at = PhotonicNet(run).Locate(2);
  CHECK(at.find("NIC of node 2") != std::string::npos);
  const nlohmann::json r = run.Results();
  REQUIRE(r["check"]["ok"] == true);
  CHECK(r["photonic"]["segments_to_buffer"].get<uint64_t>() >= 1);
}

TEST_CASE("photonic: after a failure a source backs off or retries the same message or waits for the link",
          "[net]") {
  // 5 -> 7 holds links 5 -> 6 -> 7 (one channel each) until its 512 KB arrive; 1 -> 6 fails at switch 5,
  // and 1 -> 2 behind it at the same NIC has a free path.
  const std::string trace = Trace("on_failure", {{5, 7, 524288, 0}, {1, 6, 4096, 50}, {1, 2, 4096, 60}});
  for (const std::string on_failure : {"backoff", "retry", "wait"}) {
    INFO(on_failure);
    std::vector<std::string> sets = Row("circuit", "none", trace);
    sets.push_back("photonic.on_failure=" + on_failure);
    tb::Run run(sets);
    std::map<int, uint64_t> delivered;  // by destination
    run.sim->on_delivery = [&](const icn::Packet& p, uint64_t) { delivered[p.dst] = run.sim->cycle(); };
    const nlohmann::json r = run.Results();
    REQUIRE(r["check"]["ok"] == true);
    REQUIRE(delivered.size() == 3);
    const uint64_t failures = r["photonic"]["failed_attempts"].get<uint64_t>();
    if (on_failure == "backoff") {  // the next message goes while the first backs off
      CHECK(delivered[2] < delivered[7]);
      CHECK(failures > 100);
    } else {  // the source keeps its one channel for the message that failed
      CHECK(delivered[2] > delivered[6]);
      if (on_failure == "wait") {
        CHECK(failures == 1);  // one try while the link is held, the next after its release
      } else {
        CHECK(failures > 100);  // a try every [16, 32) cycles while 5 -> 7 holds the link
      }
    }
    if (on_failure == "wait") {
      // Woken the cycle after 5 -> 7's teardown frees link 5 -> 6 (the cycle its data arrived), it
      // reserves over 6 switches, confirms back and sends its 103 cycles.
      CHECK(delivered[6] == delivered[7] + 1 + 2 * 6 + 103);
    }
    CHECK(r["photonic"]["on_failure"] == on_failure);
  }
}

TEST_CASE("photonic: bad parameters name their keys and the allowed values", "[net]") {
  const auto error = [](std::vector<std::string> sets) {
    try {
      tb::Run run(Photonic("segment", sets), tb::Run::kParamsOnly);
    } catch (const icn::ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string torus5 = "topology.dims=[5,5]", torus = "topology.kind=torus";
  CHECK_THAT(
      error({torus, torus5, "photonic.buffer.layout=every_2"}),
      tb::Contains(
          "photonic.buffer.layout, topology.dims: every_2 needs a torus whose sides are multiples of 2"));
  CHECK_THAT(error({torus, torus5, "photonic.buffer.layout=top_1"}),
             tb::Contains("photonic.buffer.layout, topology.kind: photonic.buffer.layout = top_1 on "
                          "topology.kind = torus; allowed: none and all on any topology; every_2, every_4 on "
                          "topology.kind = torus; top_1 .. top_3 on kary_ntree"));
  CHECK_THAT(error({"topology.kind=kary_ntree", "photonic.buffer.layout=every_4"}),
             tb::Contains("photonic.buffer.layout = every_4 on topology.kind = kary_ntree"));
  CHECK_THAT(error({"topology.kind=kary_ntree", "topology.n=2", "photonic.buffer.layout=top_3"}),
             tb::Contains("allowed on 4-ary 2-tree: none, all, top_1 .. top_2"));
  CHECK_THAT(error({"photonic.buffer.bytes=1000"}),
             tb::Contains("photonic.buffer.bytes = 1000 holds no packet of workload.mtu_bytes = 4096"));
  try {  // (the size is looked up when the adapter is made)
    const tb::NoSizesOnDemand built_in_only;
    tb::Run run(Photonic("segment", {"topology.kind=kary_ntree", "topology.k=2"}));
    FAIL("a switch of 4 ports accepted");
  } catch (const icn::ScenarioError& e) {
    CHECK_THAT(
        e.what(),
        tb::Contains("topology.k, topology.dims: photonic_switch_ctrl is built into this program for "
                     "Channels=8:Ports=5, Channels=8:Ports=7, Channels=8:Ports=8, Channels=8:Ports=24, "
                     "not Channels=8:Ports=4"));
  }
  CHECK_THAT(error({"topology.kind=kary_ntree", "topology.k=17", "topology.n=2"}),
             tb::Contains("topology.k, topology.dims: a photonic switch has at most 32 ports") &&
                 tb::Contains("has 34"));
  CHECK_THAT(error({"topology.kind=megafly"}),
             tb::Contains("network.switching, topology.kind: network.switching = photonic on topology.kind = "
                          "megafly; allowed: "));
  CHECK_THAT(error({"photonic.channels=9"}), tb::Contains("photonic.channels"));
  CHECK_THAT(error({"photonic.mode=burst"}), tb::Contains("photonic.mode"));
}

TEST_CASE("photonic: skipping idle switches equals clocking every switch every cycle", "[net]") {
  const auto sets = Photonic("segment", {"topology.kind=kary_ntree", "topology.k=4", "topology.n=3",
                                         "workload.kind=random_messages", "workload.messages_per_node=3",
                                         "workload.large_bytes=32768", "photonic.buffer.layout=top_1",
                                         "photonic.buffer.bytes=8192", "photonic.requests_per_cycle=1"});
  tb::Run one(sets), two(sets, icn::RunOptions{{}, false, true});
  while (true) {
    const bool a = one.sim->Tick(), b = two.sim->Tick();
    REQUIRE(a == b);
    REQUIRE(one.mechanism()->Digest() == two.mechanism()->Digest());
    if (!a) break;
  }
  CHECK(tb::WithoutTiming(one.sim->Finish(0)) == tb::WithoutTiming(two.sim->Finish(0)));
}

TEST_CASE("photonic: refusals the harness predicts equal the model's on random configurations", "[net]") {
  std::mt19937 rng(20261128);
  const auto pick = [&rng](const std::vector<std::string>& choices) {
    return choices[std::uniform_int_distribution<size_t>(0, choices.size() - 1)(rng)];
  };
  // Rounds 0-5 are fixed in part: segment switching on a 4x4 torus with a buffer at every switch and
  // one buffer channel, each pair of buffer size (one packet, unlimited) and on_failure, so that
  // refusals past the source at a switch whose buffer is busy or full occur. Rounds 6-9 draw all
  // but the mode (segment), the others everything.
  const std::vector<std::string> on_failure = {"wait", "retry", "backoff"};
  uint64_t predicted = 0, predicted_at_buffers = 0;
  for (int round = 0; round < 16; ++round) {
    const bool fixed = round < 6;
    const std::string topology = fixed ? "torus2" : pick({"torus2", "torus3", "tree"});
    const std::string mode = round < 10 ? "segment" : pick({"circuit", "packetised", "segment"});
    const std::string messages = pick({"3", "5", "8"}), large = pick({"16384", "65536"});
    const int channels = std::stoi(pick({"1", "2", "5"}));
    const int source_channels = std::min(channels, std::stoi(pick({"0", "1", "2"})));  // (within the link)
    std::vector<std::string> sets = {"workload.kind=random_messages",
                                     "workload.messages_per_node=" + messages,
                                     "workload.large_bytes=" + large,
                                     "photonic.channels=" + std::to_string(channels),
                                     "photonic.source_channels=" + std::to_string(source_channels),
                                     "photonic.requests_per_cycle=" + pick({"0", "1"}),
                                     "sim.seed=" + std::to_string(round + 1)};
    if (fixed) {
      sets.insert(sets.end(), {"photonic.buffer.channels=1",
                               round < 3 ? "photonic.buffer.bytes=4096" : "photonic.buffer.bytes=0",
                               "photonic.on_failure=" + on_failure[round % 3]});
    } else {
      sets.insert(sets.end(), {"photonic.buffer.channels=" + pick({"0", "1"}),
                               "photonic.buffer.bytes=" + pick({"4096", "8192", "0"}),
                               "photonic.on_failure=" + pick(on_failure)});
    }
    if (topology == "tree") {
      sets.insert(sets.end(), {"topology.kind=kary_ntree", "topology.k=4", "topology.n=2",
                               "photonic.buffer.layout=" + pick({"none", "all", "top_1"})});
    } else {
      sets.insert(
          sets.end(),
          {"topology.kind=torus", topology == "torus2" ? "topology.dims=[4,4]" : "topology.dims=[4,2,2]",
           "photonic.buffer.layout=" + (fixed ? "all" : pick({"none", "all", "every_2"}))});
    }
    sets = Photonic(mode, sets);
    std::vector<std::string> full = sets;
    full.push_back("photonic.predict_refusals=false");
    INFO(nlohmann::json(sets).dump());
    tb::Run fast(sets), slow(full);
    while (true) {
      const bool a = fast.sim->Tick(), b = slow.sim->Tick();
      REQUIRE(a == b);
      REQUIRE(fast.mechanism()->Digest() == slow.mechanism()->Digest());
      if (!a) break;
    }
    nlohmann::json with = tb::WithoutTiming(fast.sim->Finish(0)),
                   without = tb::WithoutTiming(slow.sim->Finish(0));
    REQUIRE(with["check"]["ok"] == true);
    CHECK(with["params"]["photonic"]["predict_refusals"] == true);
    with["params"]["photonic"].erase("predict_refusals");
    without["params"]["photonic"].erase("predict_refusals");
    CHECK(with == without);
    CHECK(PhotonicNet(slow).predicted_refusals() == 0);
    predicted += PhotonicNet(fast).predicted_refusals();
    predicted_at_buffers += PhotonicNet(fast).predicted_refusals_at_buffers();
  }
  CHECK(predicted > 1000);            // the shortcut was taken
  CHECK(predicted_at_buffers > 100);  // also where a buffer could have taken the segment
}

}  // namespace
