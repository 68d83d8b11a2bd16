// SPDX-License-Identifier: Apache-2.0
#include "traffic/workload.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>
#include <utility>

#include "core/errors.h"
#include "core/rng.h"
#include "traffic/livermore.h"
#include "traffic/message_stream.h"
#include "traffic/program_stream.h"
#include "traffic/random_messages.h"
#include "traffic/traffic_params.h"

namespace icn {
namespace {

constexpr double kUs = 1000;
constexpr uint64_t kKiB = 1024;

[[noreturn]] void Malformed(const std::string& origin, int line, const std::string& why) {
  throw ScenarioError(origin + ":" + std::to_string(line) + ": " + why);
}

// A preset's program over `ranks` ranks; `iterations` 0 takes its own count.
using Ops = std::vector<Operation>;
struct PresetShape {
  int ranks;
  int iterations;
  AllreduceRule allreduce;
  int Iterations(int own) const { return iterations > 0 ? iterations : own; }
  void Allreduce(uint64_t bytes, Ops& out) const {
    for (const Operation& op : icn::Allreduce(allreduce, bytes, ranks)) out.push_back(op);
  }
};

Operation Compute(double ns, double jitter) { return {Operation::Kind::kCompute, 0, ns, jitter}; }
Operation Collective(Operation::Kind kind, uint64_t bytes) { return {kind, bytes}; }
using Kind = Operation::Kind;

Program BspAllreduce(const PresetShape& p) {
  // LAMMPS-like: short compute steps, each closed by a halo exchange and a small allreduce;
  // every eighth step a longer analysis phase and a large allreduce.
  return {1 + p.Iterations(40), [p](int step, Ops& out) {
            if (step == 0) return out.push_back(Collective(Kind::kBroadcast, 64 * kKiB));
            out.push_back(Compute(50 * kUs, 0.2));
            out.push_back(Collective(Kind::kHalo, 32 * kKiB));
            p.Allreduce(64, out);
            if ((step - 1) % 8 != 7) return;
            out.push_back(Compute(400 * kUs, 0.1));
            p.Allreduce(512 * kKiB, out);
          }};
}

Program SilentBursts(const PresetShape& p) {
  // PATMOS-like: a burst at start (input broadcast, particle exchange), independent batches
  // with nothing on the network, a burst at the end (allreduce of the tallies, gather).
  const int batches = p.Iterations(1);
  return {batches + 2, [p, batches](int step, Ops& out) {
            if (step == 0) {
              out.push_back(Collective(Kind::kBroadcast, 1024 * kKiB));
              out.push_back(Collective(Kind::kAllToAll, 8 * kKiB));
            } else if (step <= batches) {
              out.push_back(Compute(2000 * kUs, 0.05));
            } else {
              p.Allreduce(256 * kKiB, out);
              out.push_back(Collective(Kind::kGather, 64 * kKiB));
            }
          }};
}

Program SmallCollectives(const PresetShape& p) {
  // MLWF-like: frequent small Gather-Broadcast-Broadcast sequences, a larger allreduce now and then.
  return {p.Iterations(150), [p](int step, Ops& out) {
            out.push_back(Compute(4 * kUs, 0.5));
            out.push_back(Collective(Kind::kGather, 2 * kKiB));
            out.push_back(Collective(Kind::kBroadcast, 2 * kKiB));
            out.push_back(Collective(Kind::kBroadcast, 2 * kKiB));
            if (step % 25 != 24) return;
            out.push_back(Compute(20 * kUs, 0.2));
            p.Allreduce(256 * kKiB, out);
          }};
}

Program LayeredAllreduce(const PresetShape& p) {
  // AlexNet-like data-parallel training: a long forward/backward compute, then one gradient
  // allreduce per layer, last layer first, with a little compute between them.
  return {p.Iterations(4), [p](int, Ops& out) {
            static const uint64_t layers[] = {64 * kKiB, 160 * kKiB, 300 * kKiB, 600 * kKiB, 1536 * kKiB};
            out.push_back(Compute(600 * kUs, 0.05));
            for (int l = 4; l >= 0; --l) {
              out.push_back(Compute(40 * kUs, 0.1));
              p.Allreduce(layers[l], out);
            }
          }};
}

struct Preset {
  std::string name;
  Program (*program)(const PresetShape&);
};

const std::vector<Preset>& Presets() {
  static const std::vector<Preset> presets = {{"bsp_allreduce", BspAllreduce},
                                              {"silent_bursts", SilentBursts},
                                              {"small_collectives", SmallCollectives},
                                              {"layered_allreduce", LayeredAllreduce}};
  return presets;
}

}  // namespace

const std::vector<std::string>& WorkloadPresets() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Preset& p : Presets()) n.push_back(p.name);
    n.push_back("livermore");
    n.push_back("random_messages");
    return n;
  }();
  return names;
}

std::unique_ptr<MessageStream> OpenPreset(const std::string& preset, int ranks, int iterations,
                                          double compute_scale, uint64_t seed, AllreduceRule allreduce) {
  if (ranks < 2) {
    throw ScenarioError("workload.kind: a workload needs at least 2 nodes, the topology has " +
                        std::to_string(ranks));
  }
  if (preset == "livermore") return std::make_unique<WholeWorkload>(MakeLivermore(ranks, iterations));
  if (preset == "random_messages")
    return std::make_unique<WholeWorkload>(MakeRandomMessages(RandomMessages{}, ranks, seed));
  for (const Preset& p : Presets()) {
    if (p.name == preset)
      return std::make_unique<ProgramStream>(p.program({ranks, iterations, allreduce}), ranks, compute_scale,
                                             seed);
  }
  throw ScenarioError("workload.kind: unknown preset '" + preset + "'");
}

Workload MakeWorkload(const std::string& preset, int ranks, int iterations, double compute_scale,
                      uint64_t seed, AllreduceRule allreduce) {
  const auto stream = OpenPreset(preset, ranks, iterations, compute_scale, seed, allreduce);
  Workload w;
  w.ranks = stream->ranks();
  while (stream->Next(w.messages)) {
  }
  for (const WorkloadMessage& m : w.messages) w.bytes += m.bytes;
  return w;
}

std::unique_ptr<MessageStream> OpenWorkload(const WorkloadParams& params, int nodes, uint64_t seed) {
  if (params.kind == "random_messages" && nodes >= 2)
    return std::make_unique<WholeWorkload>(MakeRandomMessages(params.random_messages, nodes, seed));
  if (params.kind == "livermore" && nodes >= 2)
    return std::make_unique<WholeWorkload>(MakeLivermore(nodes, params.iterations, params.livermore));
  if (params.kind != "trace") {
    return OpenPreset(params.kind, nodes, params.iterations, params.compute_scale, seed,
                      AllreduceRuleNamed(params.allreduce));
  }
  std::ifstream file(params.trace);
  if (!file) throw ScenarioError("workload.trace: cannot open '" + params.trace + "'");
  return std::make_unique<WholeWorkload>(ReadTrace(file, params.trace, nodes));
}

namespace {

// One line of a trace, split into fields; every error names the file, the line and the reason.
class TraceLine {
 public:
  TraceLine(const std::string& origin, int line, const std::string& text, int nodes)
      : origin_(origin), line_(line), nodes_(nodes) {
    std::istringstream fields(text.substr(0, text.find('#')));
    for (std::string token; fields >> token;) f_.push_back(token);
  }
  bool empty() const { return f_.empty(); }

  // Message `id`, which may depend only on earlier ones.
  WorkloadMessage Message(uint32_t id) const {
    if (Integer(0, "id", 0, 4e9) != id) {
      Fail("id " + f_[0] + " out of order; expected " + std::to_string(id) + " (ids count up from 0)");
    }
    WorkloadMessage m;
    m.src = Node(1, "source");
    m.dst = Node(2, "destination");
    if (m.src == m.dst) Fail("source and destination are both " + f_[1]);
    m.bytes = static_cast<uint64_t>(Integer(3, "bytes", 1, 1e12));
    if (f_.size() < 5) Fail("missing 'at <time_ns>' or 'after <ids> [<gap_ns>]'");
    if (f_[4] == "at") {
      m.at_ns = Number(5, "time_ns", 0, 1e15);
    } else if (f_[4] == "after") {
      Dependencies(id, m);
    } else {
      Fail("expected 'at' or 'after', got '" + f_[4] + "'");
    }
    const size_t compute = 6;  // the compute time's field, then the utilisation's
    const bool timed = f_[4] == "at";
    const char* what = timed ? "compute_ns" : "gap_ns";
    if (f_.size() > compute) m.gap_ns = Number(compute, what, 0, 1e15);
    if (timed && m.gap_ns > m.at_ns) Fail("compute_ns " + f_[compute] + " exceeds time_ns " + f_[5]);
    if (f_.size() > compute + 1) m.utilisation = Number(compute + 1, "utilisation", 0, 1);
    if (f_.size() > compute + 2) Fail("unexpected '" + f_[compute + 2] + "' after the utilisation");
    return m;
  }

 private:
  [[noreturn]] void Fail(const std::string& why) const { Malformed(origin_, line_, why); }

  // A decimal number (as WriteTrace writes: an exponent allowed, no hexadecimal, no inf or nan).
  double Number(size_t i, const char* what, double lo, double hi) const {
    if (i >= f_.size()) Fail(std::string("missing ") + what);
    const std::string& text = f_[i];
    size_t used = 0;
    double v = 0;
    try {
      if (text.find_first_of("xX") == std::string::npos) v = std::stod(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != text.size() || !std::isfinite(v)) Fail(std::string(what) + " '" + text + "' is not a number");
    if (v < lo || v > hi) {
      std::ostringstream range;
      range << what << " " << f_[i] << " is out of range [" << lo << ", " << hi << "]";
      Fail(range.str());
    }
    return v;
  }

  // Decimal digits (with a sign: a negative one is out of range), nothing else.
  int64_t Integer(size_t i, const char* what, double lo, double hi) const {
    const double v = Number(i, what, lo, hi);
    const std::string& text = f_[i];
    const size_t first_digit = text[0] == '-' || text[0] == '+';  // (after a sign)
    if (text.find_first_not_of("0123456789", first_digit) != std::string::npos)
      Fail(std::string(what) + " '" + text + "' is not an integer (decimal digits only)");
    return static_cast<int64_t>(v);
  }

  int Node(size_t i, const char* what) const {
    const int64_t node = Integer(i, what, 0, 1 << 24);
    if (node >= nodes_) {
      Fail(std::string(what) + " " + f_[i] + " is not a node of the topology; allowed: [0, " +
           std::to_string(nodes_ - 1) + "]");
    }
    return static_cast<int>(node);
  }

  // The comma-separated dependencies after "after": delivered ids, and sent ones written s<id>.
  void Dependencies(uint32_t id, WorkloadMessage& m) const {
    if (f_.size() < 6) Fail("'after' needs a comma-separated list of ids");
    std::istringstream deps(f_[5]);
    for (std::string dep; std::getline(deps, dep, ',');) {
      const bool sent = !dep.empty() && dep[0] == 's';
      const std::string digits = sent ? dep.substr(1) : dep;
      size_t used = 0;
      long long d = -1;
      try {
        d = std::stoll(digits, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != digits.size() || digits.empty() || d < 0)
        Fail("dependency '" + dep + "' is not an id (or s<id>)");
      if (d >= id) {
        Fail("dependency " + dep + " is not an earlier message (ids before " + std::to_string(id) + ")");
      }
      (sent ? m.after_sent : m.after).push_back(static_cast<uint32_t>(d));
    }
  }

  const std::string& origin_;
  int line_;
  int nodes_;  // sources and destinations are below it
  std::vector<std::string> f_;
};

}  // namespace

Workload ReadTrace(std::istream& in, const std::string& origin, int nodes) {
  Workload w;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    const TraceLine fields(origin, line, text, nodes);
    if (fields.empty()) continue;
    WorkloadMessage m = fields.Message(static_cast<uint32_t>(w.messages.size()));
    w.ranks = std::max({w.ranks, m.src + 1, m.dst + 1});
    w.bytes += m.bytes;
    w.messages.push_back(std::move(m));
  }
  if (w.messages.empty()) throw ScenarioError(origin + ": the trace holds no message");
  return w;
}

namespace {

void WriteHeader(std::ostream& out) {
  out << "# icnsim workload trace: <id> <src> <dst> <bytes> at <time_ns> [<compute_ns> [<utilisation>]]"
         " | after <id|s<id>>[,...] [<gap_ns> [<utilisation>]]\n";
  out << std::setprecision(15);
}

void WriteMessage(size_t id, const WorkloadMessage& m, std::ostream& out) {
  out << id << ' ' << m.src << ' ' << m.dst << ' ' << m.bytes;
  if (m.after.empty() && m.after_sent.empty()) {
    out << " at " << m.at_ns;
  } else {
    const char* comma = "";
    out << " after ";
    for (const uint32_t d : m.after) out << std::exchange(comma, ",") << d;
    for (const uint32_t d : m.after_sent) out << std::exchange(comma, ",") << 's' << d;
  }
  if (m.gap_ns > 0 || m.utilisation != 1) out << ' ' << m.gap_ns;
  if (m.utilisation != 1) out << ' ' << m.utilisation;
  out << '\n';
}

}  // namespace

void WriteTrace(const Workload& w, std::ostream& out) {
  WriteHeader(out);
  for (size_t i = 0; i < w.messages.size(); ++i) WriteMessage(i, w.messages[i], out);
}

TraceSummary WriteTrace(MessageStream& stream, std::ostream& out) {
  WriteHeader(out);
  TraceSummary summary;
  std::vector<WorkloadMessage> batch;
  while (stream.Next(batch)) {
    for (const WorkloadMessage& m : batch) {
      WriteMessage(summary.messages++, m, out);
      summary.bytes += m.bytes;
      summary.ranks = std::max({summary.ranks, m.src + 1, m.dst + 1});
    }
    batch.clear();
  }
  return summary;
}

}  // namespace icn
