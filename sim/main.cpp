// SPDX-License-Identifier: Apache-2.0
// icnsim: runs, validates and lists scenarios. Exit codes: 0 ok (including a "saturated" verdict),
// 2 bad input or an unusable output path (nothing written), 3 a packet was lost, reordered or
// corrupted, 4 the run stopped making progress (deadlocked or starved), 5 an internal error,
// 6 an output could not be written (a full disk, the file size limit), 130 / 143 interrupted by
// SIGINT / SIGTERM (results of the cycles run written).
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fcntl.h>
#include <openssl/evp.h>
#include <unistd.h>
#include <verilated_config.h>

#include <CLI/CLI.hpp>
#include <systemc>

#include "build_info.h"  // generated: ICNSIM_GIT_REV, ICNSIM_GIT_DIRTY
#include "core/data_dir.h"
#include "core/errors.h"
#include "core/scenario.h"
#include "core/waveform_files.h"
#include "mech/registry.h"
#include "run/run_params.h"
#include "run/sim_top.h"
#include "run/simulation.h"
#include "traffic/message_stream.h"
#include "traffic/workload.h"

#ifndef ICNSIM_VERSION
#define ICNSIM_VERSION "unknown"
#endif

namespace fs = std::filesystem;

namespace {

// What the command line asked for.
struct Request {
  std::string scenario;
  std::vector<std::string> sets;
  std::string seed;  // checked as sim.seed
  std::string out;   // results folder (run) or trace file (workload)
  std::string trace;
  std::string saif;
  std::string window;
  std::string match;  // empty: every controller
  bool quiet = false;
  double progress_s = 2.0;  // seconds between progress lines
  bool json = false;        // keys --json
  std::string command_line;
};

std::string VersionText() {
  return std::string("icnsim ") + ICNSIM_VERSION + " (git " + ICNSIM_GIT_REV +
         (ICNSIM_GIT_DIRTY ? ", uncommitted changes" : "") + ")\nVerilator " + VERILATOR_VERSION +
         "\nSystemC " + sc_core::sc_release();
}

std::string Sha256Hex(const std::string& data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha256(), nullptr);
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    static const char* const kDigits = "0123456789abcdef";
    hex += kDigits[digest[i] >> 4];
    hex += kDigits[digest[i] & 15];
  }
  return hex;
}

std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

[[noreturn]] void OutputError(const std::string& option, const fs::path& path, const std::string& why) {
  throw icn::ScenarioError(option + ": " + path.string() + ": " + why);
}

// A folder that exists or can be made, and where files can be written; made by MakeFolder once
// every check has passed, so that a refused run leaves nothing behind.
void RequireCreatableFolder(const std::string& option, const fs::path& dir) {
  fs::path existing = fs::absolute(dir);
  while (!fs::exists(existing)) existing = existing.parent_path();
  if (!fs::is_directory(existing)) {
    OutputError(option, dir,
                existing == fs::absolute(dir) ? "is a file, expected a folder"
                                              : existing.string() + " is a file, not a folder");
  }
  // Whether a file can be made there, tried (a permission bit does not tell: root may write
  // anywhere by its bits, yet not in /proc or on a read-only mount).
  std::string probe = (existing / ".icnsim-probe-XXXXXX").string();
  const int fd = mkstemp(probe.data());
  if (fd < 0) OutputError(option, dir, existing.string() + " is not writable (" + std::strerror(errno) + ")");
  close(fd);
  unlink(probe.c_str());
}

// A file path that is not a folder and whose folder can be made and written.
void RequireCreatableFile(const std::string& option, const fs::path& file) {
  if (fs::is_directory(file)) OutputError(option, file, "is a folder, expected a file name");
  RequireCreatableFolder(option, fs::absolute(file).parent_path());
}

void MakeFolder(const std::string& option, const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) OutputError(option, dir, error.message());
}

// Writes `text` to `path` through a temporary file and a rename, so no half file is ever left.
// Through a temporary file and a rename: a failed write (a full disk, the file size limit) leaves
// neither a half file nor the temporary one, and throws WriteError.
void WriteAtomically(const fs::path& path, const std::string& text) {
  const fs::path temporary = path.string() + ".tmp";
  // POSIX calls, whose errno names the reason (a stream's failure need not set it).
  const int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int failure = fd < 0 ? errno : 0;
  for (size_t done = 0; failure == 0 && done < text.size();) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno != EINTR) failure = errno;
    if (n > 0) done += static_cast<size_t>(n);
  }
  if (fd >= 0 && close(fd) != 0 && failure == 0) failure = errno;
  std::error_code error(failure, std::generic_category());
  if (failure == 0) fs::rename(temporary, path, error);
  if (!error) return;
  std::error_code ignored;
  fs::remove(temporary, ignored);
  throw icn::WriteError("cannot write " + path.string() + ": " + error.message());
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A bundled scenario may be named without its path: "default" = sim/scenarios/default.yaml.
std::string ResolveScenario(const std::string& arg) {
  if (fs::is_regular_file(arg)) return arg;
  if (icn::DataDir().empty())
    throw icn::ScenarioError(arg + ": no such scenario file, and " + icn::NoDataDir());
  const fs::path bundled = icn::DataDir() / "scenarios" / (arg + ".yaml");
  if (fs::is_regular_file(bundled)) return fs::canonical(bundled).string();
  throw icn::ScenarioError(arg + ": no such scenario file or bundled scenario" +
                           (fs::is_directory(arg) ? " (it is a folder)" : "") + " (icnsim list shows them)");
}

icn::Scenario LoadScenario(const Request& request) {
  const std::string path = ResolveScenario(request.scenario);
  std::vector<std::string> sets = request.sets;
  if (!request.seed.empty()) sets.push_back("sim.seed=" + request.seed);
  icn::Scenario scenario = icn::Scenario::Load(icn::AllKeys(), path, sets);
  if (scenario.name() == "unnamed") scenario.set_name(fs::path(path).stem().string());
  return scenario;
}

void PrintWarnings(const icn::RunParams& params) {
  for (const auto& w : params.warnings) std::fprintf(stderr, "[icnsim] warning: %s\n", w.c_str());
}

// One end of a window: cycles, or ns with the suffix (the cycle holding that time; an end rounds up),
// in whole picoseconds as the tracer counts them.
uint64_t WindowEnd(const std::string& text, uint64_t cycle_ps, bool end) {
  const bool ns = text.size() > 2 && text.compare(text.size() - 2, 2, "ns") == 0;
  const std::string number = ns ? text.substr(0, text.size() - 2) : text;
  const size_t dot = number.find('.');
  if (number.empty() || number.find_first_not_of(ns ? "0123456789." : "0123456789") != std::string::npos ||
      (dot != std::string::npos && number.find('.', dot + 1) != std::string::npos) || number == ".")
    throw std::invalid_argument("");
  if (!ns) return std::stoull(number);
  const double value = std::stod(number);
  if (value > 1e15) throw std::invalid_argument("");
  const auto ps = static_cast<uint64_t>(std::llround(value * 1000.0));
  return end ? (ps + cycle_ps - 1) / cycle_ps : ps / cycle_ps;
}

std::pair<uint64_t, uint64_t> ParseWindow(const std::string& text, uint64_t cycle_ps) {
  const auto colon = text.find(':');
  try {
    if (colon == std::string::npos) throw std::invalid_argument("");
    const uint64_t from = colon == 0 ? 0 : WindowEnd(text.substr(0, colon), cycle_ps, false);
    const std::string rest = text.substr(colon + 1);
    const uint64_t to = rest.empty() ? UINT64_MAX : WindowEnd(rest, cycle_ps, true);
    if (to <= from) throw std::invalid_argument("");
    return {from, to};
  } catch (const std::exception&) {
    throw icn::ScenarioError("--trace-window: '" + text +
                             "' is not FROM:TO with FROM < TO; allowed: cycles (2000:4000) or ns with the "
                             "suffix (2000ns:4000ns), TO may be empty");
  }
}

// The FST the tracer writes: the --trace file itself, or a temporary one beside the VCD or SAIF
// made from it.
std::string TracedFst(const Request& request) {
  if (!request.trace.empty() && icn::WaveFormatOf("--trace", request.trace) == icn::WaveFormat::kFst)
    return request.trace;
  return (request.trace.empty() ? request.saif : request.trace) + ".fst.tmp";
}

// Tracing records the controllers: some mechanism must be on.
icn::TraceOptions TraceRequest(const Request& request, const icn::RunParams& params) {
  icn::TraceOptions trace;
  if (request.trace.empty() && request.saif.empty()) {
    if (!request.window.empty())
      throw icn::ScenarioError("--trace-window: needs --trace FILE or --saif FILE");
    if (!request.match.empty()) throw icn::ScenarioError("--trace-match: needs --trace FILE or --saif FILE");
    return trace;
  }
  if (!request.saif.empty() && fs::path(request.saif).extension() != ".saif")
    throw icn::ScenarioError("--saif: '" + request.saif + "' does not end in .saif; allowed: FILE.saif");
  if (params.mechanisms.empty()) {
    std::string offs;
    for (const auto& m : icn::Mechanisms()) {
      offs += std::string(offs.empty() ? "" : " and ") + m.switch_key + " is " + m.off_value;
    }
    throw icn::ScenarioError(std::string(request.trace.empty() ? "--saif" : "--trace") +
                             ": no controller is active in this scenario (" + offs + ")");
  }
  trace.path = TracedFst(request);
  if (trace.path != request.trace) trace.option = request.trace.empty() ? "--saif" : "--trace";
  trace.match = request.match.empty() ? "*" : request.match;
  std::tie(trace.from, trace.to) = request.window.empty()
                                       ? std::make_pair<uint64_t, uint64_t>(0, UINT64_MAX)
                                       : ParseWindow(request.window, icn::CyclePs(params.sim.cycle_ns));
  return trace;
}

// The VCD and SAIF made from the closed FST; "" or why one failed.
std::string WriteWaveformFiles(const Request& request, const icn::Tracer& tracer) {
  const std::string fst = tracer.path();
  std::string failure;
  try {
    if (!request.trace.empty() && fst != request.trace) icn::WriteVcd(fst, request.trace);
    if (!request.saif.empty())
      icn::WriteSaif(fst, request.saif, {tracer.first_ps(), tracer.end_ps()}, ICNSIM_VERSION);
  } catch (const icn::WriteError& e) {
    failure = e.what();
  }
  return failure;
}

void PrintSummary(const nlohmann::json& r) {
  std::printf("%-26s %s\n", "scenario", r["scenario"].get<std::string>().c_str());
  std::printf("%-26s %s, seed %llu\n", "topology", r["topology"].get<std::string>().c_str(),
              static_cast<unsigned long long>(r["seed"].get<uint64_t>()));
  std::printf("%-26s %llu injected, %llu delivered, %llu in flight, %llu lost\n", "packets",
              static_cast<unsigned long long>(r["packets"]["injected"].get<uint64_t>()),
              static_cast<unsigned long long>(r["packets"]["delivered"].get<uint64_t>()),
              static_cast<unsigned long long>(r["packets"]["in_flight"].get<uint64_t>()),
              static_cast<unsigned long long>(r["packets"]["lost"].get<uint64_t>()));
  std::printf("%-26s avg %.2f  p50 %.0f  p99 %.0f  max %.0f\n", "latency (cycles)",
              r["latency"]["avg"].get<double>(), r["latency"]["p50"].get<double>(),
              r["latency"]["p99"].get<double>(), r["latency"]["max"].get<double>());
  std::printf("%-26s offered %.4f  accepted %.4f\n", "throughput (flits/node/cy)",
              r["throughput"]["offered"].get<double>(), r["throughput"]["accepted"].get<double>());
  if (r.contains("workload")) {
    std::printf("%-26s %s: %llu messages, execution %llu cycles (%.4g ms)\n", "workload",
                r["workload"]["kind"].get<std::string>().c_str(),
                static_cast<unsigned long long>(r["workload"]["messages"].get<uint64_t>()),
                static_cast<unsigned long long>(r["workload"]["exec_cycles"].get<uint64_t>()),
                r["workload"]["exec_ns"].get<double>() / 1e6);
  }
  std::printf("%-26s %.4g J, %.3f of always-awake\n", "link energy (window)",
              r["energy"]["links_j"].get<double>(), r["energy"]["links_relative"].get<double>());
  std::printf("%-26s %llu cycles in %.2f s = %.0f cycles/s\n", "simulation",
              static_cast<unsigned long long>(r["sim"]["cycles"].get<uint64_t>()),
              r["sim"]["wall_s"].get<double>(), r["sim"]["cycles_per_s"].get<double>());
  std::printf("%-26s %s\n", "verdict", r["verdict"].get<std::string>().c_str());
}

std::atomic<int> caught_signal{0};  // lock-free: a handler may set it, on any thread
static_assert(std::atomic<int>::is_always_lock_free);

// The first SIGINT or SIGTERM ends the run after the cycle it arrives in (or the first cycle); a
// second one (the handler is reset) kills it at once. Until Run() has set this up, about the
// first 30 ms of the process, a signal kills it without results.
void CatchStopSignals() {
  struct sigaction action = {};
  action.sa_handler = [](int signal) { caught_signal = signal; };
  action.sa_flags = SA_RESETHAND | SA_RESTART;  // (a read or wait under way goes on)
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

// The run in the SystemC kernel: results.json with provenance and, when traced, the waveform's
// (a VCD or SAIF made from the FST once it is closed; why that failed in `wave_failure`).
nlohmann::json Simulate(icn::Simulation& sim, double cycle_ns, const Request& request,
                        nlohmann::json provenance, std::string& wave_failure) {
  icn::SimTop top("top", sim, cycle_ns, &caught_signal);
  const auto start = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  nlohmann::json results = sim.Finish(wall);
  results["git_revision"] = ICNSIM_GIT_REV;
  results["provenance"] = provenance;
  wave_failure = sim.tracer().failure();
  if (wave_failure.empty() && sim.tracer().bytes() > 0)
    wave_failure = WriteWaveformFiles(request, sim.tracer());
  if (!request.trace.empty() || !request.saif.empty()) {
    const bool written = sim.tracer().bytes() > 0 && wave_failure.empty();
    std::error_code unknown;
    const uintmax_t bytes = written && !request.trace.empty() ? fs::file_size(request.trace, unknown) : 0;
    const bool vcd =
        !request.trace.empty() && icn::WaveFormatOf("--trace", request.trace) == icn::WaveFormat::kVcd;
    results["trace"] = {
        {"path", request.trace},        {"format", request.trace.empty() ? "" : vcd ? "vcd" : "fst"},
        {"bytes", unknown ? 0 : bytes}, {"written", written},
        {"saif", request.saif},         {"match", request.match.empty() ? "*" : request.match},
        {"window", request.window}};
  }
  return results;
}

// No controller the match list selects: an error naming some that exist.
void RequireTracedControllers(const icn::Tracer& tracer, const std::string& match) {
  if (!tracer.enabled() || tracer.selected() > 0) return;
  std::string some;
  for (const auto& name : tracer.examples()) some += (some.empty() ? "" : ", ") + name;
  throw icn::ScenarioError("--trace-match: '" + match + "' selects no controller; some that exist: " + some);
}

int Run(const Request& request) {
  CatchStopSignals();  // (one caught before the first cycle stops the run after it)
  // Everything is validated, and every output path checked, before the first cycle.
  const icn::Scenario scenario = LoadScenario(request);
  const icn::RunParams params = icn::MakeRunParams(scenario);
  icn::RunOptions options;
  options.progress_s = request.quiet ? -1 : request.progress_s;
  options.trace = TraceRequest(request, params);
  const fs::path out = request.out.empty() ? fs::path("out") / scenario.name() : fs::path(request.out);
  PrintWarnings(params);
  const std::string path = ResolveScenario(request.scenario);
  const nlohmann::json provenance = {{"command", request.command_line},
                                     {"sets", request.sets},
                                     {"scenario_path", fs::absolute(path).string()},
                                     {"scenario_sha256", Sha256Hex(Slurp(path))},
                                     {"started_utc", UtcNow()},
                                     {"icnsim", ICNSIM_VERSION},
                                     {"git_revision", ICNSIM_GIT_REV},
                                     {"git_dirty", ICNSIM_GIT_DIRTY},
                                     {"verilator", VERILATOR_VERSION},
                                     {"systemc", sc_core::sc_release()}};
  icn::Simulation sim(scenario, params, options);
  if (!sim.thread_note().empty()) std::fprintf(stderr, "[icnsim] warning: %s\n", sim.thread_note().c_str());
  RequireTracedControllers(sim.tracer(), request.match);
  // Last, so that bad input leaves no folder behind.
  RequireCreatableFolder("--out", out);
  for (const auto& [option, file] :
       {std::pair{"--trace", request.trace}, std::pair{"--saif", request.saif}}) {
    if (file.empty()) continue;
    RequireCreatableFile(option, file);  // (never a file of the results: no extension is both)
  }
  MakeFolder("--out", out);
  if (!request.trace.empty()) MakeFolder("--trace", fs::absolute(request.trace).parent_path());
  if (!request.saif.empty()) MakeFolder("--saif", fs::absolute(request.saif).parent_path());
  // A temporary FST (for a VCD or a SAIF) goes when the run does, however it ends.
  const struct Temporary {
    std::string path;
    ~Temporary() {
      if (!path.empty()) std::remove(path.c_str());
    }
  } temporary{options.trace.path != request.trace ? options.trace.path : ""};
  std::string wave_failure;
  const nlohmann::json results = Simulate(sim, params.sim.cycle_ns, request, provenance, wave_failure);
  const bool trace_failed = !wave_failure.empty();
  if (trace_failed) std::fprintf(stderr, "[icnsim] error: %s\n", wave_failure.c_str());
  try {
    WriteAtomically(out / "results.json", results.dump(2) + "\n");
    if (!sim.timeseries_csv().empty()) WriteAtomically(out / "timeseries.csv", sim.timeseries_csv());
  } catch (const icn::WriteError& e) {  // the run's results on stdout at least
    std::fprintf(stderr, "[icnsim] error: %s; the run's summary follows\n", e.what());
    PrintSummary(results);
    return icn::kExitWrite;
  }
  if (!request.quiet) {
    PrintSummary(results);
    std::printf("results: %s\n", (out / "results.json").c_str());
  }
  const bool any_trace = !request.trace.empty() || !request.saif.empty();
  if (any_trace && sim.tracer().bytes() == 0 && !trace_failed) {
    std::fprintf(
        stderr, "[icnsim] warning: --trace-window %s starts after the run's last cycle (%llu): no waveform\n",
        request.window.c_str(), static_cast<unsigned long long>(results["sim"]["cycles"].get<uint64_t>()));
  } else if (!request.trace.empty() && !request.quiet && !trace_failed) {
    const icn::ActiveMechanism& traced = params.mechanisms.front();
    // Absolute paths, so the command works from any folder; the build's or installation's copy of
    // the view names encoded values (scripts/wave_views.py).
    // (a mechanism's view is waves/<file>, a declared controller's waves/<name>/<file>)
    const fs::path view = icn::DataDir() / fs::path(traced.info->view(*traced.config)).lexically_normal();
    const bool viewed = !icn::DataDir().empty() && fs::is_regular_file(view);
    std::printf("waveform: %s (%llu bytes)\n  gtkwave %s %s\n", request.trace.c_str(),
                static_cast<unsigned long long>(results["trace"]["bytes"].get<uint64_t>()),
                fs::absolute(request.trace).c_str(),
                viewed ? fs::canonical(view).c_str() : "(no view: share/icnsim/waves not found)");
  }
  if (!request.saif.empty() && sim.tracer().bytes() > 0 && !request.quiet && !trace_failed) {
    std::error_code unknown;
    std::printf("activity: %s (SAIF 2.0, %llu bytes)\n", request.saif.c_str(),
                static_cast<unsigned long long>(fs::file_size(request.saif, unknown)));
  }
  if (!results["check"]["ok"].get<bool>()) {
    for (const auto& p : results["check"]["problems"]) {
      std::fprintf(stderr, "[icnsim] check failed: %s\n", p.get<std::string>().c_str());
    }
    return icn::kExitConservation;
  }
  if (results["verdict"] != "ok") {
    std::fprintf(stderr, "[icnsim] %s: %s\n", results["verdict"].get<std::string>().c_str(),
                 results["verdict_reason"].get<std::string>().c_str());
  }
  for (const auto& w : results["warnings"]) {  // (the parameters' own were printed before the run)
    const std::string text = w.get<std::string>();
    if (text.rfind("starved: ", 0) == 0) std::fprintf(stderr, "[icnsim] warning: %s\n", text.c_str());
  }
  if (results.contains("stalled_packet")) {
    const nlohmann::json& p = results["stalled_packet"];
    std::fprintf(stderr, "[icnsim] oldest packet %s (node %s -> %s, %s cycles old): %s\n",
                 p["packet"].dump().c_str(), p["src"].dump().c_str(), p["dst"].dump().c_str(),
                 p["age_cycles"].dump().c_str(), p["waits_at"].get<std::string>().c_str());
    return icn::kExitStalled;
  }
  if (sim.interrupted_by()) return 128 + sim.interrupted_by();  // (the user's stop before a lost waveform)
  return trace_failed ? icn::kExitWrite : 0;
}

int Check(const Request& request) {
  const icn::Scenario scenario = LoadScenario(request);
  const icn::RunParams params = icn::MakeRunParams(scenario);
  PrintWarnings(params);
  // A trace is read (and so checked) too; presets cannot be wrong.
  if (params.workload.kind == "trace")
    icn::OpenWorkload(params.workload, params.topology->nodes, params.sim.seed);
  std::printf("%s: ok\n", scenario.name().c_str());
  return 0;
}

int WriteWorkload(const Request& request) {
  const icn::Scenario scenario = LoadScenario(request);
  const icn::RunParams params = icn::MakeRunParams(scenario);
  if (params.workload.kind == "none")
    throw icn::ScenarioError("workload.kind: none; allowed: a preset or trace");
  if (!request.out.empty()) RequireCreatableFile("--out", request.out);
  const auto stream = icn::OpenWorkload(params.workload, params.topology->nodes, params.sim.seed);
  icn::TraceSummary w;
  if (request.out.empty()) {
    w = icn::WriteTrace(*stream, std::cout);
  } else {
    std::ostringstream text;
    w = icn::WriteTrace(*stream, text);
    MakeFolder("--out", fs::absolute(request.out).parent_path());
    WriteAtomically(request.out, text.str());
  }
  std::fprintf(stderr, "%zu messages, %llu bytes, nodes 0..%d\n", w.messages,
               static_cast<unsigned long long>(w.bytes), w.ranks - 1);
  return 0;
}

int List() {
  std::vector<fs::path> files;
  if (icn::DataDir().empty()) throw icn::ScenarioError(icn::NoDataDir());
  for (const auto& entry : fs::directory_iterator(icn::DataDir() / "scenarios")) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::string summary = icn::Scenario::Summary(f.string());
    if (summary.size() > 76) summary = summary.substr(0, summary.rfind(' ', 73)) + " ...";  // one line
    std::printf("%-22s %s\n", f.stem().c_str(), summary.c_str());
  }
  return 0;
}

const char* TypeName(icn::KeyType type) {
  switch (type) {
    case icn::KeyType::kBool:
      return "bool";
    case icn::KeyType::kInt:
      return "integer";
    case icn::KeyType::kReal:
      return "number";
    case icn::KeyType::kChoice:
      return "choice";
    case icn::KeyType::kText:
      return "text";
    case icn::KeyType::kIntList:
      return "integer list";
    case icn::KeyType::kPointList:
      return "point list";
  }
  return "";
}

// Every key as JSON: what scripts need to build or check scenarios.
void PrintKeysJson() {
  nlohmann::json keys = nlohmann::json::array();
  for (const auto& key : icn::AllKeys().all()) {
    nlohmann::json k = {
        {"name", key.name}, {"type", TypeName(key.type)}, {"default", key.default_value},
        {"unit", key.unit}, {"help", key.help},           {"allowed", icn::AllowedValues(key)}};
    if (key.type == icn::KeyType::kChoice) k["choices"] = key.choices;
    const bool ranged = key.type == icn::KeyType::kInt || key.type == icn::KeyType::kReal ||
                        key.type == icn::KeyType::kIntList || key.type == icn::KeyType::kPointList;
    const bool integer = key.type == icn::KeyType::kInt || key.type == icn::KeyType::kIntList;
    const auto number = [integer](double v) {
      return integer ? nlohmann::json(static_cast<int64_t>(v)) : nlohmann::json(v);
    };
    if (ranged) {
      k["min"] = number(key.min);
      k["max"] = key.max == icn::kUnbounded ? nlohmann::json(nullptr) : number(key.max);  // null: no limit
    }
    k["rules"] = nlohmann::json::array();
    for (const icn::KeyRule& rule : icn::AllKeys().rules()) {
      if (rule.Ties(key.name)) k["rules"].push_back({{"keys", rule.keys}, {"allows", rule.allows}});
    }
    keys.push_back(k);
  }
  std::printf("%s\n", keys.dump(2).c_str());
}

int Keys(bool json) {
  if (json) {
    PrintKeysJson();
    return 0;
  }
  for (const auto& key : icn::AllKeys().all()) {
    const std::string unit = *key.unit ? std::string(" [") + key.unit + "]" : "";
    std::printf("%-34s default %-12s %s%s; allowed: %s\n", key.name, key.default_value, key.help,
                unit.c_str(), icn::AllowedValues(key).c_str());
  }
  std::printf("\nrules between keys:\n");
  for (const icn::KeyRule& rule : icn::AllKeys().rules()) {
    std::printf("  %s: %s\n", rule.Listed().c_str(), rule.allows.c_str());
  }
  return 0;
}

void AddSubcommands(CLI::App& app, Request& r) {
  app.require_subcommand(1);
  CLI::App* run = app.add_subcommand("run", "run a scenario and write results.json");
  run->add_option("scenario", r.scenario, "scenario file, or the name of a bundled scenario")->required();
  run->add_option("--set", r.sets, "override a key: --set traffic.load=0.3 (repeatable)");
  run->add_option("--seed", r.seed, "random seed (same as --set sim.seed=N)");
  run->add_option("--out", r.out, "output folder (default out/<scenario name>)");
  run->add_option("--trace", r.trace,
                  "write a waveform of the controllers to this file: FILE.fst (FST) or FILE.vcd (VCD)");
  run->add_option("--saif", r.saif,
                  "write the traced controllers' switching activity over the window to FILE.saif (SAIF 2.0)");
  run->add_option("--trace-window", r.window,
                  "FROM:TO to dump, in cycles (2000:4000) or ns with the suffix (2000ns:4000ns); default: "
                  "the whole run; needs --trace or --saif");
  run->add_option("--trace-match", r.match,
                  "globs over controller instance names, comma-separated: 'nic0,r32_p0' or 'r4*' "
                  "(default: all; needs --trace or --saif)");
  run->add_flag("--quiet", r.quiet, "no progress and no summary");
  run->add_option("--progress", r.progress_s,
                  "seconds of wall time between progress lines on stderr (default 2; 0: every 1024 steps)")
      ->check(CLI::Validator(
          [](std::string& text) {
            char* end = nullptr;
            const double s = std::strtod(text.c_str(), &end);
            const bool ok = end != text.c_str() && *end == '\0' && std::isfinite(s) && s >= 0 && s <= 86400;
            return ok ? std::string() : "allowed: a number of seconds in [0, 86400]";
          },
          "SECONDS"));
  CLI::App* check = app.add_subcommand("check", "validate a scenario without running it");
  check->add_option("scenario", r.scenario, "scenario file or bundled name")->required();
  check->add_option("--set", r.sets, "override a key (repeatable)");
  CLI::App* workload =
      app.add_subcommand("workload", "write the scenario's workload as a trace (and so validate it)");
  workload->add_option("scenario", r.scenario, "scenario file or bundled name")->required();
  workload->add_option("--set", r.sets, "override a key (repeatable)");
  workload->add_option("--out", r.out, "trace file to write (default: standard output)");
  app.add_subcommand("list", "list the bundled scenarios with their descriptions");
  CLI::App* keys =
      app.add_subcommand("keys", "list every scenario key with its default, unit and allowed values");
  keys->add_flag("--json", r.json,
                 "as a JSON array (name, type, default, unit, help, allowed, choices, min, max, rules)");
}

int Dispatch(const CLI::App& app, const Request& request) {
  if (app.got_subcommand("run")) return Run(request);
  if (app.got_subcommand("check")) return Check(request);
  if (app.got_subcommand("workload")) return WriteWorkload(request);
  if (app.got_subcommand("list")) return List();
  return Keys(request.json);
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  // The kernel's "stopped by user" note would bury the run's own output.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  std::signal(SIGXFSZ, SIG_IGN);  // a write past the file size limit fails (EFBIG) instead of killing us
  CLI::App app{"icnsim: cycle-accurate RTL controllers in a SystemC interconnection network"};
  Request request;
  for (int i = 0; i < argc; ++i) request.command_line += (i ? " " : "") + std::string(argv[i]);
  app.set_version_flag("--version", VersionText());
  AddSubcommands(app, request);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : icn::kExitBadInput;
  }
  try {
    return Dispatch(app, request);
  } catch (const icn::ScenarioError& e) {
    std::fprintf(stderr, "icnsim: error: %s\n", e.what());
    return icn::kExitBadInput;
  } catch (const icn::WriteError& e) {
    std::fprintf(stderr, "icnsim: error: %s\n", e.what());
    return icn::kExitWrite;
  } catch (const std::exception& e) {  // anything else is a bug: say so, never let it reach SystemC
    std::fprintf(stderr, "icnsim: internal error: %s\n", e.what());
    return icn::kExitInternal;
  } catch (...) {
    std::fprintf(stderr, "icnsim: internal error: an unknown exception\n");
    return icn::kExitInternal;
  }
}

// Our own entry point: the kernel prints its banner before sc_main unless told not to first.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
