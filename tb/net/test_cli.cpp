// SPDX-License-Identifier: Apache-2.0
// icnsim as a user meets it: bad input is refused with the key and its allowed range, exit code 2
// and nothing written; bundled scenarios validate; a run writes every contract field; the SystemC
// run equals the in-process run; a traced run writes an FST and prints the gtkwave command.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "catch.h"

#include "net/net_util.h"

namespace fs = std::filesystem;

namespace {

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

std::string Slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A folder of this process's own under the temporary directory, removed when the process ends.
struct ScratchRoot {
  const fs::path path = fs::temp_directory_path() / ("icnsim_cli_" + std::to_string(getpid()));
  ~ScratchRoot() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

fs::path Scratch(const std::string& name) {
  static const ScratchRoot root;
  const fs::path dir = root.path / name;
  fs::remove_all(dir);
  return dir;
}

// Runs on one thread unless the test sets sim.threads.
Outcome Icnsim(const std::string& args) {
  const fs::path dir = Scratch("io");
  fs::create_directories(dir);
  const bool pin = args.rfind("run ", 0) == 0 && args.find("sim.threads") == std::string::npos;
  const std::string cmd = std::string("cd ") + ICNSIM_SOURCE_DIR + " && " + ICNSIM_BINARY + " " + args +
                          (pin ? " --set sim.threads=1" : "") + " > " + (dir / "out").string() + " 2> " +
                          (dir / "err").string();
  const int status = std::system(cmd.c_str());
  return {WEXITSTATUS(status), Slurp(dir / "out"), Slurp(dir / "err")};
}

void ExpectRefused(const std::string& args, const std::vector<std::string>& mentions) {
  const fs::path out = Scratch("refused");
  const Outcome o = Icnsim("run default --quiet --out " + out.string() + " " + args);
  INFO("icnsim run default " << args << "\nstderr: " << o.err);
  CHECK(o.code == 2);
  for (const auto& m : mentions) CHECK(o.err.find(m) != std::string::npos);
  CHECK_FALSE(fs::exists(out));  // nothing written
}

}  // namespace

TEST_CASE("icnsim workload writes a preset as a trace that replays to the same run", "[cli]") {
  const fs::path dir = Scratch("workload");
  fs::create_directories(dir);
  const std::string shape =
      "--set topology.kind=megafly --set topology.megafly.groups=3 --set topology.megafly.spines=2 "
      "--set topology.megafly.global_per_spine=1 --set workload.iterations=2 ";
  const Outcome written = Icnsim("workload default " + shape + "--set workload.kind=bsp_allreduce --out " +
                                 (dir / "bsp.trace").string());
  INFO(written.err);
  REQUIRE(written.code == 0);
  CHECK(written.err.find("messages") != std::string::npos);
  const auto run = [&](const std::string& workload, const std::string& name) {
    const Outcome o = Icnsim("run default --quiet " + shape + workload + " --out " + (dir / name).string());
    INFO(o.err);
    REQUIRE(o.code == 0);
    return nlohmann::json::parse(Slurp(dir / name / "results.json"));
  };
  const nlohmann::json preset = run("--set workload.kind=bsp_allreduce", "preset");
  const nlohmann::json replay =
      run("--set workload.kind=trace --set workload.trace=" + (dir / "bsp.trace").string(), "replay");
  CHECK(preset["workload"]["exec_cycles"] == replay["workload"]["exec_cycles"]);
  CHECK(preset["workload"]["messages"] == replay["workload"]["messages"]);
  CHECK(preset["latency"] == replay["latency"]);
}

TEST_CASE("bad input names the key and the allowed range and exits with 2", "[cli]") {
  ExpectRefused("--set traffic.lod=0.3", {"traffic.lod", "unknown key"});
  ExpectRefused("--set router.vcs=abc", {"router.vcs", "not an integer", "[1, 16]"});
  ExpectRefused("--set router.vcs=2.5", {"router.vcs", "not an integer"});
  ExpectRefused("--set topology.k=1", {"topology.k", "out of range", "[2, 64]"});
  ExpectRefused("--set traffic.load=1.5", {"traffic.load", "[0, 1]"});
  ExpectRefused("--set traffic.load=-0.1", {"traffic.load", "[0, 1]"});
  ExpectRefused("--set eee.pdt_ns=-5", {"eee.pdt_ns", "[0, inf]"});
  ExpectRefused("--set link.latency_cycles=0", {"link.latency_cycles", "[1, 255]"});
  ExpectRefused("--set sim.warmup_cycles=-1", {"sim.warmup_cycles"});
  ExpectRefused("--set eee.mode=sleepy", {"eee.mode", "off, fast_wake, deep_sleep"});
  // Every value in a key's range runs: a cycle under 2 ps (SystemC's clock would have no low phase)
  // is out of it, for check as for run.
  ExpectRefused("--set sim.cycle_ns=0.001", {"sim.cycle_ns", "0.002"});
  CHECK(Icnsim("check default --set sim.cycle_ns=0.001").code == 2);
  const std::string fastest =
      "--quiet --set eee.mode=off --set sim.cycle_ns=0.002 --set sim.measure_cycles=200";
  CHECK(Icnsim("run default " + fastest + " --out " + Scratch("fast_clock").string()).code == 0);
  ExpectRefused("--set topology.dims=[8]", {"topology.dims", "2 or 3"});
  ExpectRefused("--set topology.kind=torus --set topology.n=2 --set router.vcs=1",
                {"router.vcs", "dateline"});
  ExpectRefused("--set traffic.pattern=transpose --set topology.k=2", {"traffic.pattern", "square"});
  ExpectRefused("--set traffic.profile=ramp", {"traffic.ramp"});
  ExpectRefused("--set traffic.ramp=[[100,0.1],[50,0.2]]", {"traffic.ramp", "increase"});
  ExpectRefused("--set eee.fast_wake.power_w=30", {"eee.fast_wake.power_w", "eee.wake_power_w"});
  ExpectRefused("--set sim.seed", {"--set sim.seed", "key=value"});
  ExpectRefused("--trace /tmp/x.fst --trace-window 50:10", {"--trace-window", "FROM:TO"});
  // Fat-tree thresholds: 0 < U_off < U_on <= 1 (U_on >= 2 U_off is advice: a warning, below).
  const std::string onoff = "--set eee.mode=off --set fattree_onoff.enabled=true ";
  ExpectRefused(onoff + "--set fattree_onoff.u_off=0.5 --set fattree_onoff.u_on=0.4",
                {"fattree_onoff.u_off", "fattree_onoff.u_on", "0 < U_off < U_on <= 1"});
  ExpectRefused(onoff + "--set fattree_onoff.u_off=0.5 --set fattree_onoff.u_on=0.5",
                {"fattree_onoff.u_off", "fattree_onoff.u_on", "0 < U_off < U_on <= 1"});
  ExpectRefused(onoff + "--set fattree_onoff.u_off=0", {"fattree_onoff.u_off", "fattree_onoff.u_on"});
  ExpectRefused(onoff + "--set fattree_onoff.u_on=1.2", {"fattree_onoff.u_on", "[0, 1]"});
  ExpectRefused(onoff + "--set fattree_onoff.enabled=maybe", {"fattree_onoff.enabled", "true or false"});
  ExpectRefused("--set fattree_onoff.enabled=true", {"eee.mode", "one link power mechanism"});
  ExpectRefused(onoff + "--set topology.kind=torus --set topology.n=2", {"kary_ntree"});
  // E-RAPID: its optical channels are one-way (no EEE port pairs), and a channel moves at most one
  // flit per cycle.
  ExpectRefused("--set topology.kind=erapid", {"eee.mode", "one-way"});
  ExpectRefused(
      "--set topology.kind=erapid --set eee.mode=off --set topology.erapid.flit_bits=32 --set sim.cycle_ns=5",
      {"topology.erapid.gbps", "sim.cycle_ns", "gbps <= flit_bits / sim.cycle_ns"});
  ExpectRefused("--set traffic.load_unit=capacity", {"traffic.load_unit", "allowed: flits"});
  ExpectRefused("--set eee.mode=off --set eee.policy=perfbound", {"eee.policy", "eee.mode = off"});
  ExpectRefused("--set eee.mode=deep_sleep --set eee.bound=0.9", {"eee.bound", "[0.0001, 0.5]"});
  ExpectRefused("--set eee.hist.strategy=fifo", {"eee.hist.strategy", "self_clearing, sliding, unbounded"});
  ExpectRefused("--set workload.kind=trace", {"workload.trace", "path"});
  ExpectRefused("--set workload.kind=trace --set workload.trace=/nonexistent.trace",
                {"workload.trace", "cannot open"});
  ExpectRefused("--set workload.kind=mpi", {"workload.kind", "bsp_allreduce"});
  ExpectRefused("--set sim.warmup=steady --set workload.kind=bsp_allreduce", {"sim.warmup", "workload.kind"});
  ExpectRefused("--set sim.warmup=steady --set sim.warmup_limit_cycles=100",
                {"sim.warmup_limit_cycles", "sim.warmup_cycles", ">="});
  ExpectRefused("--set sim.warmup=warm", {"sim.warmup", "fixed, steady"});
  {
    const fs::path bad = Scratch("trace") / "bad.trace";
    fs::create_directories(bad.parent_path());
    std::ofstream(bad) << "0 0 1 100 at 0\n1 1 0 100 after 0,7\n";
    ExpectRefused("--set workload.kind=trace --set workload.trace=" + bad.string(),
                  {"bad.trace:2: dependency 7 is not an earlier message"});
    std::ofstream(bad) << "0 0 1 100 at 0\n1 1 900 100 at 0\n";
    ExpectRefused("--set workload.kind=trace --set workload.trace=" + bad.string(),
                  {"bad.trace:2: destination 900 is not a node of the topology", "[0, 63]"});
  }
  ExpectRefused("--set topology.kind=megafly --set topology.megafly.groups=10",
                {"topology.megafly.groups", "groups - 1 = topology.megafly.spines x"});
  // Exact integers: no hex, no exponent, no silent wrap; seeds within their stated range.
  ExpectRefused("--set topology.k=0x4", {"topology.k", "'0x4' is not an integer"});
  ExpectRefused("--set sim.measure_cycles=1e4", {"sim.measure_cycles", "not an integer"});
  ExpectRefused("--seed -5", {"sim.seed", "[0, 9007199254740991]"});
  ExpectRefused("--set sim.seed=18446744073709551615", {"sim.seed", "out of range", "9007199254740991"});
  ExpectRefused("--set sim.seed=99999999999999999999999", {"sim.seed", "out of range"});
  // Tracing options that would do nothing.
  ExpectRefused("--trace-window 1:2", {"--trace-window", "--trace"});
  ExpectRefused("--trace-match nic0", {"--trace-match", "--trace"});
  ExpectRefused("--trace " + (Scratch("t") / "t.fst").string() + " --trace-match nic9999",
                {"--trace-match", "selects no controller", "some that exist", "r0_p0"});
}

TEST_CASE("output paths are checked before the first cycle and written whole", "[cli]") {
  const fs::path dir = Scratch("paths");
  fs::create_directories(dir / "default");
  std::ofstream(dir / "a_file") << "x";
  const auto refused = [&](const std::string& args, const std::string& mention) {
    const Outcome o = Icnsim("run default --quiet --set sim.measure_cycles=500 " + args);
    INFO(args << "\nstderr: " << o.err);
    CHECK(o.code == 2);
    CHECK(o.err.find(mention) != std::string::npos);
  };
  refused("--out /dev/null/x", "--out: /dev/null/x");
  refused("--out " + (dir / "a_file").string(), "is a file, expected a folder");
  refused("--out " + (dir / "o").string() + " --trace /dev/null/x.fst", "--trace: /dev/null");
  fs::create_directories(dir / "w.fst");
  refused("--out " + (dir / "o").string() + " --trace " + (dir / "w.fst").string(),
          "is a folder, expected a file name");
  // A folder whose permission bits let root write, where no file can be made; and a waveform onto a
  // file of the run's results.
  refused("--out " + (dir / "o").string() + " --trace /proc/x.fst", "--trace: /proc: /proc is not writable");
  refused("--out /proc/icnsim", "--out: /proc/icnsim: /proc is not writable");
  // A waveform over a file of the run's results: its extension is none of a waveform's.
  refused("--out " + (dir / "o").string() + " --trace " + (dir / "o" / "results.json").string(),
          "names no waveform format");
  refused("--out " + (dir / "o").string() + " --saif " + (dir / "o" / "timeseries.csv").string(),
          "allowed: FILE.saif");
  CHECK_FALSE(fs::exists(dir / "o"));
  // A folder named like a bundled scenario is not read as the scenario.
  const Outcome named = Icnsim("run " + (dir / "default").string() + " --quiet");
  CHECK(named.code == 2);
  CHECK(named.err.find("it is a folder") != std::string::npos);
  // Results are renamed into place: no temporary file is left beside them.
  REQUIRE(Icnsim("run default --quiet --set sim.measure_cycles=500 --out " + (dir / "ok").string()).code ==
          0);
  CHECK(fs::exists(dir / "ok" / "results.json"));
  CHECK_FALSE(fs::exists(dir / "ok" / "results.json.tmp"));
  // A trace window after the run: a warning, and no waveform is claimed.
  const Outcome late = Icnsim("run default --set sim.warmup_cycles=0 --set sim.measure_cycles=500 --out " +
                              (dir / "late").string() + " --trace " + (dir / "late.fst").string() +
                              " --trace-window 900000:999999");
  CHECK(late.code == 0);
  CHECK(late.err.find("no waveform") != std::string::npos);
  CHECK(late.out.find("waveform:") == std::string::npos);
  CHECK(nlohmann::json::parse(Slurp(dir / "late" / "results.json"))["trace"]["written"] == false);
}

// (The waveforms are not compared byte for byte: Verilator 5.032's FST writer stamps them with
// the time.)
TEST_CASE("a traced run uses one thread, says so, and gives a one-thread run's results", "[cli][threads]") {
  const fs::path dir = Scratch("traced_threads");
  std::vector<std::string> results;
  for (const std::string threads : {"1", "2"}) {
    const Outcome o =
        Icnsim("run default --quiet --set sim.warmup_cycles=0 --set sim.measure_cycles=800 --out " +
               (dir / threads).string() + " --trace " + (dir / (threads + ".fst")).string() +
               " --trace-match 'r0_*' --set sim.threads=" + threads);
    INFO(o.err);
    REQUIRE(o.code == 0);
    CHECK((o.err.find("tracing: the run uses one thread") != std::string::npos) == (threads == "2"));
    nlohmann::json r = nlohmann::json::parse(Slurp(dir / threads / "results.json"));
    CHECK(r["sim"]["threads"] == 1);
    CHECK(Slurp(dir / (threads + ".fst")).size() > 1000);
    for (const char* machine : {"wall_s", "cycles_per_s"}) r["sim"].erase(machine);
    r["params"]["sim"].erase("threads");
    r.erase("warnings");
    r.erase("provenance");
    r.erase("trace");
    results.push_back(r.dump());
  }
  CHECK(results[0] == results[1]);
  ExpectRefused("--set sim.threads=-1", {"sim.threads", "[0, 1024]"});
}

TEST_CASE("the paper's threshold pairs that break its U_on >= 2 U_off advice run, with a warning", "[cli]") {
  // Alonso et al. ran 0.35-0.65, 0.45-0.75, 0.55-0.85 and 0.5-0.9 themselves.
  for (const auto& [u_off, u_on] : std::vector<std::pair<std::string, std::string>>{
           {"0.35", "0.65"}, {"0.45", "0.75"}, {"0.55", "0.85"}, {"0.5", "0.9"}}) {
    const fs::path out = Scratch("advice");
    const Outcome o =
        Icnsim("run default --quiet --out " + out.string() +
               " --set eee.mode=off --set fattree_onoff.enabled=true --set fattree_onoff.u_off=" + u_off +
               " --set fattree_onoff.u_on=" + u_on + " --set sim.measure_cycles=2000");
    INFO(u_off << "-" << u_on << ": " << o.err);
    CHECK(o.code == 0);
    CHECK(o.err.find("advise U_on >= 2 U_off") != std::string::npos);
    const nlohmann::json r = nlohmann::json::parse(Slurp(out / "results.json"));
    CHECK(r["warnings"].dump().find("fattree_onoff.u_on") != std::string::npos);
  }
  // A pair that follows the advice runs without it.
  const fs::path out = Scratch("advice");
  const Outcome o =
      Icnsim("run default --quiet --out " + out.string() +
             " --set eee.mode=off --set fattree_onoff.enabled=true --set sim.measure_cycles=2000");
  CHECK(o.code == 0);
  CHECK(o.err.find("advise") == std::string::npos);
}

TEST_CASE("a malformed or unknown scenario file is refused with its line", "[cli]") {
  const fs::path dir = Scratch("files");
  fs::create_directories(dir);
  const auto refused = [&](const std::string& name, const std::string& text, const std::string& mention) {
    std::ofstream(dir / name) << text;
    const Outcome o = Icnsim("check " + (dir / name).string());
    INFO(text << "\nstderr: " << o.err);
    CHECK(o.code == 2);
    CHECK(o.err.find(mention) != std::string::npos);
  };
  refused("list_key.yaml", "? [a]\n: 1\n", "line 1: a key must be a plain word");
  refused("nested_list_key.yaml", "topology: {? [k]: 4}\n", "a key must be a plain word");
  refused("list_name.yaml", "name: [1]\n", "name must be a non-empty word");
  refused("empty_name.yaml", "name:\n", "name must be a non-empty word");
  refused("twice.yaml", "traffic:\n  load: 0.1\n  load: 0.2\n", "traffic.load: given twice");
  refused("dotted_and_nested.yaml", "traffic.load: 0.05\ntraffic: {load: 0.3}\n", "lines 1 and 2");
  refused("two_documents.yaml", "traffic: {load: 0.05}\n---\ntraffic: {load: 0.3}\n",
          "line 2: a second YAML document; allowed: one scenario per file");
  std::ofstream(dir / "bad_key.yaml") << "topology:\n  kind: torus\n  colour: red\n";
  std::ofstream(dir / "bad_yaml.yaml") << "topology:\n  kind: [torus\n";
  Outcome o = Icnsim("check " + (dir / "bad_key.yaml").string());
  CHECK(o.code == 2);
  CHECK(o.err.find("topology.colour") != std::string::npos);
  o = Icnsim("check " + (dir / "bad_yaml.yaml").string());
  CHECK(o.code == 2);
  CHECK(o.err.find("line") != std::string::npos);
  o = Icnsim("check no_such_scenario");
  CHECK(o.code == 2);
  CHECK(o.err.find("no_such_scenario") != std::string::npos);
}

TEST_CASE("every bundled scenario validates and is listed with its description", "[cli]") {
  const Outcome list = Icnsim("list");
  REQUIRE(list.code == 0);
  std::istringstream lines(list.out);
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    const std::string name = line.substr(0, line.find(' '));
    INFO(line);
    CHECK(line.size() > name.size() + 10);  // a description follows the name
    CHECK(line.size() <= 100);
    const Outcome o = Icnsim("check " + name);
    INFO(o.err);
    CHECK(o.code == 0);
    ++count;
  }
  CHECK(count >= 1);
}

TEST_CASE("icnsim keys --json lists every key with its type, default and allowed values", "[cli]") {
  const Outcome o = Icnsim("keys --json");
  REQUIRE(o.code == 0);
  const nlohmann::json keys = nlohmann::json::parse(o.out);
  size_t icnsim_keys = 0;  // (the tests' keys include those of their declared controllers)
  for (const icn::KeySpec& k : icn::AllKeys().all()) {
    const std::string name = k.name;
    icnsim_keys += !tb::IsTested(name.substr(0, name.find('.')));
  }
  CHECK(keys.size() == icnsim_keys);
  for (const auto& k : keys) {
    INFO(k.dump());
    CHECK(icn::AllKeys().Find(k["name"]) != nullptr);
    for (const char* field : {"type", "default", "unit", "help", "allowed", "rules"})
      CHECK(k.contains(field));
    if (k["type"] == "choice") CHECK(!k["choices"].empty());
    if (k["type"] == "integer") CHECK(k["min"].is_number_integer());
    for (const auto& rule : k["rules"]) CHECK(icn::KeyRule{rule["keys"], "", {}}.Ties(k["name"]));
  }
  // Every rule of the table is listed under each key it ties (a family's rule under each member).
  const auto rules_of = [&keys](const std::string& name) {
    for (const auto& k : keys)
      if (k["name"] == name) return k["rules"];
    return nlohmann::json();
  };
  CHECK(rules_of("photonic.source_channels").size() == 2);  // the family's and its own with channels
  CHECK(rules_of("photonic.backoff_cycles")[0]["keys"] == nlohmann::json{"photonic.*", "network.switching"});
  CHECK(rules_of("erapid.b_con")[0]["keys"] ==
        nlohmann::json{"erapid.b_min", "erapid.b_max", "erapid.b_con"});
  CHECK(rules_of("erapid.b_con")[0]["allows"].get<std::string>().find("Bmin < Bmax <= Bcon") !=
        std::string::npos);
  CHECK(rules_of("traffic.load").empty());
  // (declared controllers, the tests' among them, have no rules: icnsim's table has the same ones)
  const Outcome text = Icnsim("keys");
  const size_t heading = text.out.find("rules between keys:");
  REQUIRE(heading != std::string::npos);
  CHECK(static_cast<size_t>(std::count(text.out.begin() + heading, text.out.end(), '\n')) ==
        icn::AllKeys().rules().size() + 1);
}

TEST_CASE("a run writes every contract field and the SystemC run equals the in-process run", "[cli]") {
  const fs::path out = Scratch("run");
  const std::string sets = "--set sim.measure_cycles=3000 --set traffic.load=0.1";
  const Outcome o = Icnsim("run default --quiet --seed 7 --out " + out.string() + " " + sets);
  REQUIRE(o.code == 0);
  const nlohmann::json r = nlohmann::json::parse(Slurp(out / "results.json"));
  for (const char* field : {"/scenario",
                            "/seed",
                            "/params",
                            "/packets/injected",
                            "/packets/delivered",
                            "/packets/in_flight",
                            "/packets/lost",
                            "/latency/avg",
                            "/latency/p50",
                            "/latency/p99",
                            "/latency/max",
                            "/throughput/offered",
                            "/throughput/accepted",
                            "/energy/links_j",
                            "/energy/links_relative",
                            "/sim/cycles",
                            "/sim/wall_s",
                            "/sim/cycles_per_s",
                            "/verdict",
                            "/git_revision",
                            "/provenance/command",
                            "/provenance/sets",
                            "/provenance/scenario_path",
                            "/provenance/scenario_sha256",
                            "/provenance/started_utc",
                            "/provenance/icnsim",
                            "/provenance/git_dirty",
                            "/provenance/verilator",
                            "/provenance/systemc"}) {
    INFO(field);
    CHECK(r.contains(nlohmann::json::json_pointer(field)));
  }
  CHECK(r["seed"] == 7);
  CHECK(r["params"]["sim"]["seed"] == 7);
  // (Icnsim() pins one thread with a last --set.)
  CHECK(r["provenance"]["sets"] ==
        nlohmann::json({"sim.measure_cycles=3000", "traffic.load=0.1", "sim.threads=1"}));
  CHECK(r["provenance"]["command"].get<std::string>().find("--seed 7") != std::string::npos);
  CHECK(r["provenance"]["scenario_sha256"].get<std::string>().size() == 64);
  const Outcome version = Icnsim("--version");
  CHECK(version.code == 0);
  CHECK(version.out.find("Verilator 5.") != std::string::npos);
  CHECK(version.out.find("SystemC") != std::string::npos);
  CHECK(r["params"]["traffic"]["load"] == 0.1);
  CHECK(r["params"]["router"]["vcs"] == 3);  // a default is recorded too
  // Same scenario in-process, without the SystemC kernel: identical apart from timing.
  tb::Run direct({"topology.kind=kary_ntree", "topology.k=4", "topology.n=3", "router.vcs=3",
                  "router.vc_buffer_flits=4", "router.pipeline_cycles=2", "link.latency_cycles=1",
                  "traffic.pattern=uniform", "traffic.packet_flits=16", "sim.cycle_ns=1",
                  "sim.warmup_cycles=2000", "sim.drain_limit_cycles=100000", "eee.mode=fast_wake",
                  "eee.pdt_ns=1000", "sim.seed=7", "sim.measure_cycles=3000", "traffic.load=0.1"});
  direct.scenario.set_name("default");
  nlohmann::json mine = tb::WithoutTested(tb::WithoutTiming(direct.Results()));
  CHECK(mine == tb::WithoutTiming(r));
}

TEST_CASE("a run shows its progress on stderr: simulated time, pace, messages, time left", "[cli]") {
  const fs::path out = Scratch("progress");
  const Outcome o = Icnsim("run default --progress 0 --out " + out.string() +
                           " --set workload.kind=bsp_allreduce --set workload.iterations=2");
  INFO(o.err);
  REQUIRE(o.code == 0);
  CHECK(o.err.find("[icnsim] cycle ") != std::string::npos);
  CHECK(o.err.find(" simulated, ") != std::string::npos);
  CHECK(o.err.find(" cycles/s; ") != std::string::npos);
  CHECK(o.err.find(" messages delivered (") != std::string::npos);
  CHECK(o.err.find(" left") != std::string::npos);
  const Outcome quiet = Icnsim("run default --quiet --progress 0 --out " + out.string() +
                               " --set workload.kind=bsp_allreduce --set workload.iterations=2");
  REQUIRE(quiet.code == 0);
  CHECK(quiet.err.find("[icnsim] cycle ") == std::string::npos);
  for (const char* bad : {"-1", "nan", "1e9", "soon"})
    ExpectRefused(std::string("--progress ") + bad, {"--progress"});
}

TEST_CASE("a traced run writes an FST of the matching controllers and prints the gtkwave command", "[cli]") {
  const fs::path out = Scratch("trace");
  const fs::path fst = out / "eee.fst";
  fs::create_directories(out);
  const Outcome o = Icnsim("run default --out " + out.string() + " --set sim.measure_cycles=2000 --trace " +
                           fst.string() + " --trace-window 1000:1500 --trace-match 'r2*'");
  INFO(o.err);
  REQUIRE(o.code == 0);
  REQUIRE(fs::exists(fst));
  CHECK(fs::file_size(fst) > 1000);
  // The build's view (names for encoded values), by absolute path.
  const std::string view = std::string(ICNSIM_WAVES_DIR) + "/eee_port.gtkw";
  CHECK(o.out.find("gtkwave " + fst.string() + " " + view) != std::string::npos);
  CHECK(fs::exists(view));
  const nlohmann::json r = nlohmann::json::parse(Slurp(out / "results.json"));
  CHECK(r["trace"]["bytes"].get<uint64_t>() == fs::file_size(fst));
  // Tracing clocks the models the slow, visible way: results must not change.
  const fs::path plain = Scratch("untraced");
  const Outcome quiet =
      Icnsim("run default --quiet --out " + plain.string() + " --set sim.measure_cycles=2000");
  REQUIRE(quiet.code == 0);
  CHECK(quiet.out.empty());  // --quiet: nothing on standard output
  CHECK(tb::WithoutTiming(r) == tb::WithoutTiming(nlohmann::json::parse(Slurp(plain / "results.json"))));
}
