// SPDX-License-Identifier: Apache-2.0
// The rules between keys (KeyRule in the key table): each one refuses the values that break it before
// anything is built, naming its keys and what they allow; the defaults and every bundled scenario keep
// every rule; `icnsim keys --json` lists each key's rules (tested in test_cli.cpp).
#include <filesystem>

#include "catch.h"

#include "core/errors.h"
#include "net/net_util.h"

namespace {

// The error of these overrides of the defaults, or "no error".
std::string Refusal(const std::vector<std::string>& sets) {
  try {
    tb::Run run(sets, tb::Run::kParamsOnly);
  } catch (const icn::ScenarioError& e) {
    return e.what();
  }
  return "no error";
}

const std::string kPhotonicTorus = "network.switching=photonic";

}  // namespace

TEST_CASE("each rule between keys refuses what breaks it, naming the keys and what they allow", "[rules]") {
  struct Case {
    std::vector<std::string> sets;
    std::string error;  // the start of the message
  };
  const std::vector<Case> cases = {
      // Photonic: a buffer layout the topology has no pattern for.
      {{kPhotonicTorus, "topology.kind=mesh", "topology.dims=[4,4]", "photonic.buffer.layout=every_2"},
       "photonic.buffer.layout, topology.kind: photonic.buffer.layout = every_2 on topology.kind = mesh; "
       "allowed: none and all on any topology"},
      // Photonic: more channels at a NIC or a buffer port than the link has.
      {{kPhotonicTorus, "topology.kind=torus", "photonic.channels=4", "photonic.source_channels=5"},
       "photonic.source_channels, photonic.channels: photonic.source_channels = 5 is above the link's "
       "photonic.channels = 4; allowed: photonic.source_channels <= photonic.channels (0: all of them)"},
      {{kPhotonicTorus, "topology.kind=torus", "photonic.channels=2", "photonic.buffer.channels=3"},
       "photonic.buffer.channels, photonic.channels: photonic.buffer.channels = 3 is above"},
      // Photonic keys where they do nothing.
      {{"photonic.mode=circuit"},
       "photonic.*, network.switching: photonic.mode is set, but network.switching = wormhole; allowed: "
       "photonic keys with network.switching = photonic"},
      // E-RAPID thresholds and the degree of re-allocation.
      {{"topology.kind=erapid", "erapid.mode=p_b", "erapid.b_max=0.6"},
       "erapid.b_min, erapid.b_max, erapid.b_con: erapid.b_con = 0.5 is below erapid.b_max = 0.6; allowed: "
       "erapid.b_min < erapid.b_max with power levels"},
      {{"topology.kind=erapid", "erapid.mode=p_nb", "erapid.b_min=0.3"},
       "erapid.b_min, erapid.b_max, erapid.b_con: erapid.b_max = 0.3 is not above"},
      {{"topology.kind=erapid", "topology.erapid.boards=4", "erapid.mode=p_b"},
       "erapid.degree, topology.erapid.boards: erapid.degree = 8 is above topology.erapid.boards = 4"},
      {{"topology.kind=erapid", "erapid.degree=9"},
       "erapid.degree, topology.erapid.boards: erapid.degree = 9 is above topology.erapid.boards = 8"},
      // ... and only where they are used.
      {{"topology.kind=erapid", "erapid.mode=np_b", "erapid.b_con=0.2"}, "no error"},
      {{"erapid.b_con=0.2", "erapid.degree=9"}, "no error"},
      // A packet smaller than a flit.
      {{"workload.mtu_bytes=1"},
       "workload.mtu_bytes, workload.flit_bytes: workload.mtu_bytes = 1 is less than a flit, "
       "workload.flit_bytes = 1600; allowed: workload.flit_bytes <= workload.mtu_bytes"},
      {{"workload.mtu_bytes=16777216", "workload.flit_bytes=16"},
       "workload.mtu_bytes, workload.flit_bytes: a packet of 1048576 flits"},
      // Data planes on the topologies they run on.
      {{"network.switching=packet_step", "topology.kind=kary_ntree"},
       "network.switching, topology.kind: network.switching = packet_step on topology.kind = kary_ntree; "
       "allowed: wormhole on any; packet_step on torus; photonic on torus, mesh, kary_ntree"},
      // Mechanisms on the networks they act in.
      {{"eee.mode=fast_wake", "network.switching=packet_step", "topology.kind=torus"},
       "eee.mode, network.switching: eee.mode = fast_wake with network.switching = packet_step"},
      {{"eee.mode=off", "eee.policy=perfbound"},
       "eee.policy, eee.mode: eee.policy = perfbound with eee.mode = off"},
      {{"fattree_onoff.enabled=true", "topology.kind=mesh"},
       "fattree_onoff.enabled, topology.kind, topology.k: fattree_onoff.enabled = true with topology.kind = "
       "mesh"},
      {{"fattree_onoff.enabled=true", "eee.mode=off", "fattree_onoff.u_off=0.7"},
       "fattree_onoff.u_off, fattree_onoff.u_on: fattree_onoff.u_off = 0.7 with fattree_onoff.u_on = 0.65"},
      {{"fattree_onoff.enabled=true", "eee.mode=off", "topology.k=9"},
       "fattree_onoff.enabled, topology.kind, topology.k: fattree_onoff.enabled = true with topology.k = 9"},
      {{"torus_swap.enabled=true"},
       "torus_swap.enabled, network.switching: torus_swap.enabled = true with network.switching = wormhole"},
      {{"torus_swap.enabled=true", "network.switching=packet_step", "topology.kind=torus",
        "topology.dims=[4,6]", "eee.mode=off"},
       "torus_swap.enabled, topology.dims: torus_swap.enabled = true with topology.dims = [4,6]"},
      {{"torus_swap.enabled=true", "network.switching=packet_step", "topology.kind=torus",
        "topology.dims=[4,4]", "eee.mode=off", "torus_swap.block_cycles=300"},
       "torus_swap.block_cycles, torus_swap.period_cycles: torus_swap.block_cycles = 300 is not below"},
      {{"erapid.mode=p_b"}, "erapid.mode, topology.kind: erapid.mode = p_b with topology.kind = kary_ntree"},
      {{"topology.kind=erapid", "erapid.mode=p_b", "erapid.rw_cycles=300"},
       "erapid.rw_cycles, topology.erapid.boards: erapid.rw_cycles = 300 is shorter than the 333 cycles"},
      {{"network.switching=photonic", "topology.kind=torus", "eee.mode=off", "photonic.buffer.bytes=4096"},
       "photonic.buffer.bytes, workload.mtu_bytes: photonic.buffer.bytes = 4096 holds no packet of"},

      // A workload and its trace; a steady warm-up with a workload.
      {{"workload.kind=trace"},
       "workload.trace, workload.kind: workload.kind = trace needs the path of a trace"},
      {{"workload.trace=x.trace"}, "workload.trace, workload.kind: a trace file with workload.kind = none"},
      {{"sim.warmup=steady", "workload.kind=random_messages"},
       "sim.warmup, workload.kind: sim.warmup = steady with workload.kind = random_messages"},
      {{"sim.warmup=steady", "sim.warmup_cycles=5000", "sim.warmup_limit_cycles=4000"},
       "sim.warmup_limit_cycles, sim.warmup_cycles: sim.warmup_limit_cycles = 4000 is below"},
  };
  for (const Case& c : cases) {
    INFO(c.sets.front() << " ...");
    CHECK_THAT(Refusal(c.sets), tb::StartsWith(c.error));
  }
  // Two mechanisms that drive link power (the rule names every one that could).
  CHECK_THAT(
      Refusal({"eee.mode=fast_wake", "fattree_onoff.enabled=true"}),
      tb::StartsWith("eee.mode, fattree_onoff.enabled, erapid.mode") &&
          tb::Contains(": eee.mode = fast_wake and fattree_onoff.enabled = true both drive link power; "
                       "allowed: one link power mechanism at a time: eee.mode = off or "
                       "fattree_onoff.enabled = false or erapid.mode = np_nb"));
}

TEST_CASE("the defaults and every bundled scenario keep every rule", "[rules]") {
  const icn::Scenario defaults(icn::AllKeys());
  for (const icn::KeyRule& rule : icn::AllKeys().rules()) {
    INFO(rule.Listed());
    CHECK(rule.broken(defaults).empty());
    CHECK(!rule.allows.empty());
  }
  for (const auto& file :
       std::filesystem::directory_iterator(std::string(ICNSIM_SOURCE_DIR) + "/sim/scenarios")) {
    INFO(file.path());
    const icn::Scenario s = icn::Scenario::Load(icn::AllKeys(), file.path().string(), {});
    CHECK_NOTHROW(s.CheckRules());
  }
}

TEST_CASE("a rule ties the keys it names and every key of a family, and a rule naming no key is a bug",
          "[rules]") {
  const auto rule_on = [](const std::string& key) {
    return icn::KeyRule{{key}, "x", [](const icn::Scenario&) { return std::string(); }};
  };
  const std::vector<icn::KeySpec> keys = {icn::IntKey("a.b", "1", 0, 2, "", "")};
  CHECK_NOTHROW(icn::KeyTable(keys, {rule_on("a.b"), rule_on("a.*")}));
  CHECK_THROWS_AS(icn::KeyTable(keys, {rule_on("a.c")}), std::logic_error);
  CHECK_THROWS_AS(icn::KeyTable(keys, {rule_on("b.*")}), std::logic_error);
  // A default its own spec refuses is a bug of the table, found when it is made.
  CHECK_THROWS_AS(icn::KeyTable({icn::IntKey("a.b", "5", 0, 2, "", "")}), std::logic_error);
  const icn::KeyRule rule{{"photonic.*", "network.switching"}, "", {}};
  CHECK(rule.Ties("photonic.mode"));
  CHECK(rule.Ties("photonic.buffer.layout"));
  CHECK(rule.Ties("network.switching"));
  CHECK_FALSE(rule.Ties("network.switching.x"));
  CHECK_FALSE(rule.Ties("photonicx.mode"));
  CHECK(rule.Listed() == "photonic.*, network.switching");
}

TEST_CASE("a static E-RAPID network of 4 boards runs with the default degree, which it does not use",
          "[rules]") {
  CHECK(Refusal({"topology.kind=erapid", "topology.erapid.boards=4"}) == "no error");
  // With the controllers on, their RTL checks the degree (an assertion would stop the run).
  CHECK_THAT(Refusal({"topology.kind=erapid", "topology.erapid.boards=4", "erapid.mode=p_nb"}),
             tb::StartsWith("erapid.degree, topology.erapid.boards: erapid.degree = 8 is above"));
}
