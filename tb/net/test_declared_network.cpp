// SPDX-License-Identifier: Apache-2.0
// The example controllers of examples/, declared by manifests and registered in the tests from the
// registrations the build writes for them, in networks: the switch and node contracts' adapter
// (mech/port_group/) clocks them exactly (fast clocking against every edge, cycle for cycle), loses
// nothing, and what each example promises holds. (Thread counts: tb/net/test_threads.cpp.)
#include <string>
#include <vector>

#include "core/errors.h"
#include "net_util.h"

TEST_CASE("drowsy switches: outputs sleep and wake, none sends asleep, exact fast clocking",
          "[net][declared]") {
  const std::vector<std::string> sets = {"topology.kind=kary_ntree",
                                         "topology.k=4",
                                         "topology.n=2",
                                         "eee.mode=off",
                                         "drowsy_switch.enabled=true",
                                         "drowsy_switch.idle_ns=200",
                                         "drowsy_switch.wake_ns=50",
                                         "traffic.load=0.05",
                                         "sim.warmup_cycles=500",
                                         "sim.measure_cycles=8000"};
  tb::RequireSameEveryCycle(sets);
  {
    // Nearly idle: ports asleep most of the time, and the run jumps between their deadlines.
    std::vector<std::string> idle = sets;
    idle.push_back("traffic.load=0.002");
    idle.push_back("drowsy_switch.idle_ns=2000");
    tb::RequireSameEveryCycle(idle);
    tb::Run jumping(idle);
    CHECK(jumping.Results()["sim"]["jumped_cycles"].get<uint64_t>() > 4000);
  }
  tb::Run run(sets);
  run.sim->RunToEnd();
  const nlohmann::json r = tb::DrainedResults(run);
  CHECK(r["drowsy_switch"]["flits_from_sleeping_port"] == 0);
  CHECK(r["drowsy_switch"]["sleeps"].get<uint64_t>() > 100);
  CHECK(r["drowsy_switch"]["wakeups"].get<uint64_t>() > 100);
  // Every link end's output in the ledger: the switches' 48 ports (4 leaf switches of 8, 4 top
  // switches of 4, down only) in their states, the 16 NICs' always awake.
  const auto& group = r["energy"]["groups"]["drowsy_switch"];
  CHECK(group["components"] == 64);
  const auto& cycles = group["state_cycles"];
  CHECK(cycles["asleep"].get<uint64_t>() > 0);
  const uint64_t charged =
      cycles["awake"].get<uint64_t>() + cycles["waking"].get<uint64_t>() + cycles["asleep"].get<uint64_t>();
  CHECK(charged == 64 * r["sim"]["measure_cycles"].get<uint64_t>());  // every end, every cycle measured
  CHECK(cycles["awake"].get<uint64_t>() >= 16 * r["sim"]["measure_cycles"].get<uint64_t>());
}

TEST_CASE("a switch with more ports than the controller takes is refused, naming the key",
          "[net][declared]") {
  // A 5-ary tree's switches have 10 ports; drowsy_switch was built for 8.
  CHECK_THROWS_WITH(tb::Run({"topology.kind=kary_ntree", "topology.k=5", "topology.n=2", "eee.mode=off",
                             "drowsy_switch.enabled=true"}),
                    tb::Contains("drowsy_switch.enabled: router") && tb::Contains("take 8 ports"));
}

TEST_CASE("paced nodes: at most one flit every gap + 1 cycles, exact fast clocking", "[net][declared]") {
  const std::vector<std::string> sets = {"topology.kind=kary_ntree",
                                         "topology.k=4",
                                         "topology.n=2",
                                         "eee.mode=off",
                                         "traffic.load=0.5",
                                         "traffic.packet_flits=4",
                                         "sim.warmup_cycles=500",
                                         "sim.measure_cycles=4000"};
  std::vector<std::string> paced = sets;
  paced.insert(paced.end(), {"paced_node.enabled=true", "paced_node.gap_cycles=3"});
  tb::RequireSameEveryCycle(paced);
  tb::Run free_run(sets);
  tb::Run paced_run(paced);
  free_run.sim->RunToEnd();
  paced_run.sim->RunToEnd();
  const double unpaced = tb::DrainedResults(free_run)["throughput"]["accepted"].get<double>();
  const nlohmann::json r = tb::DrainedResults(paced_run);
  // Offered 0.5 flits per node and cycle: unpaced, the network takes more than the pacing lets
  // through; paced, no node sends more than 1 / (3 + 1) (the window also delivers flits that were
  // inside at its start: 2 % allowed for them).
  CHECK(unpaced > 0.3);
  CHECK(r["throughput"]["accepted"].get<double>() <= 0.25 * 1.02);
  CHECK(r["throughput"]["accepted"].get<double>() > 0.2);
}

TEST_CASE("a switch controller that sends asleep or names an undeclared state fails the run's check",
          "[net][declared]") {
  const std::vector<std::string> sets = {"topology.kind=kary_ntree",
                                         "topology.k=4",
                                         "topology.n=2",
                                         "eee.mode=off",
                                         "traffic.load=0.05",
                                         "sim.warmup_cycles=500",
                                         "sim.measure_cycles=2000",
                                         "careless_switch.enabled=true"};
  for (const char* mode : {"0", "1", "2"}) {
    std::vector<std::string> with = sets;
    with.push_back(std::string("careless_switch.mode=") + mode);
    tb::Run run(with);
    run.sim->RunToEnd();
    REQUIRE(run.sim->DrainAll(200000));
    const nlohmann::json r = run.sim->Finish(0);
    INFO("mode " << mode << ": " << r["check"].dump());
    const std::string problems = r["check"]["problems"].dump();
    CHECK(r["check"]["ok"] == (mode == std::string("0")));
    CHECK((r["careless_switch"]["flits_from_sleeping_port"].get<uint64_t>() > 0) ==
          (mode == std::string("1")));
    CHECK((problems.find("flits left a port that was not awake") != std::string::npos) ==
          (mode == std::string("1")));
    CHECK((problems.find("named none of its 2 power states") != std::string::npos) ==
          (mode == std::string("2")));
  }
  // An undeclared state from reset: refused before the first cycle.
  std::vector<std::string> from_reset = sets;
  from_reset.push_back("careless_switch.mode=3");
  CHECK_THROWS_WITH(tb::Run(from_reset),
                    tb::Contains("careless_switch.enabled: the controller's power state after "
                                 "reset is 3; allowed: its 2 power states"));
}
