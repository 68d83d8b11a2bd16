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
#include "traffic/random_messages.h"
#include "traffic/traffic_params.h"

namespace icn {
namespace {

struct Send {
  int src, dst;
  uint64_t bytes;
};

// Builds collectives as rounds of simultaneous sends. A rank is a sequential program: each of its
// sends waits for the messages it received in its last round with receptions (its "frontier") and
// for its own previous send to leave; its first send of a round also carries its pending compute,
// and the others follow it at once. A rank that has received nothing yet sends at the absolute
// time its computation reaches. Ranks compute at full utilisation.
class Builder {
 public:
  Builder(int ranks, double compute_scale, uint64_t seed)
      : ranks_(ranks),
        scale_(compute_scale),
        frontier_(ranks),
        pending_(ranks, 0),
        clock_(ranks, 0),
        last_sent_(ranks, kNone),
        rng_(seed) {
    w_.ranks = ranks;
  }

  // Every rank computes ns x (1 +- jitter), uniformly distributed (load imbalance).
  void Compute(double ns, double jitter) {
    for (int r = 0; r < ranks_; ++r) pending_[r] += ns * scale_ * (1 + jitter * (2 * rng_.Uniform() - 1));
  }

  void Round(const std::vector<Send>& sends) {
    std::vector<std::vector<uint32_t>> received(ranks_);
    for (const Send& s : sends) {
      WorkloadMessage m;
      m.src = s.src;
      m.dst = s.dst;
      m.bytes = std::max<uint64_t>(1, s.bytes);
      m.gap_ns = std::exchange(pending_[s.src], 0.0);  // spent by the rank's first send of the round
      const uint32_t id = static_cast<uint32_t>(w_.messages.size());
      if (frontier_[s.src].empty()) {  // its clock orders its sends
        clock_[s.src] += m.gap_ns;
        m.at_ns = clock_[s.src];
      } else {
        m.after = frontier_[s.src];
        if (last_sent_[s.src] != kNone) m.after_sent = {last_sent_[s.src]};
      }
      last_sent_[s.src] = id;
      received[s.dst].push_back(id);
      w_.bytes += m.bytes;
      w_.messages.push_back(std::move(m));
    }
    for (int r = 0; r < ranks_; ++r) {
      if (!received[r].empty()) frontier_[r] = received[r];
    }
  }

  // Ring allreduce: reduce-scatter then allgather, 2 (P - 1) rounds of chunks of bytes / P.
  void AllreduceRing(uint64_t bytes) {
    const uint64_t chunk = (bytes + ranks_ - 1) / ranks_;
    for (int step = 0; step < 2 * (ranks_ - 1); ++step) {
      std::vector<Send> round;
      for (int r = 0; r < ranks_; ++r) round.push_back({r, (r + 1) % ranks_, chunk});
      Round(round);
    }
  }

  // Recursive doubling; the ranks above the largest power of two fold in before and out after.
  void AllreduceDoubling(uint64_t bytes) {
    int p2 = 1;
    while (p2 * 2 <= ranks_) p2 *= 2;
    std::vector<Send> fold, unfold;
    for (int r = p2; r < ranks_; ++r) {
      fold.push_back({r, r - p2, bytes});
      unfold.push_back({r - p2, r, bytes});
    }
    if (!fold.empty()) Round(fold);
    for (int d = 1; d < p2; d *= 2) {
      std::vector<Send> round;
      for (int r = 0; r < p2; ++r) round.push_back({r, r ^ d, bytes});
      Round(round);
    }
    if (!unfold.empty()) Round(unfold);
  }

  // Binomial-tree broadcast from `root`.
  void Broadcast(int root, uint64_t bytes) {
    for (int mask = 1; mask < ranks_; mask *= 2) {
      std::vector<Send> round;
      for (int rel = 0; rel < mask && rel + mask < ranks_; ++rel) {
        round.push_back({(rel + root) % ranks_, (rel + mask + root) % ranks_, bytes});
      }
      Round(round);
    }
  }

  // Binomial-tree gather to `root`: each step forwards everything collected so far.
  void Gather(int root, uint64_t bytes) {
    for (int mask = 1; mask < ranks_; mask *= 2) {
      std::vector<Send> round;
      for (int rel = mask; rel < ranks_; rel += 2 * mask) {
        const uint64_t held = bytes * static_cast<uint64_t>(std::min(mask, ranks_ - rel));
        round.push_back({(rel + root) % ranks_, (rel - mask + root) % ranks_, held});
      }
      Round(round);
    }
  }

  // Pairwise-exchange all-to-all: P - 1 rounds, rank r sends to r + k in round k.
  void AllToAll(uint64_t bytes) {
    for (int k = 1; k < ranks_; ++k) {
      std::vector<Send> round;
      for (int r = 0; r < ranks_; ++r) round.push_back({r, (r + k) % ranks_, bytes});
      Round(round);
    }
  }

  // Halo exchange on a periodic 3-D grid of ranks (as cubic as the rank count allows).
  void Halo(uint64_t bytes) {
    // dims[0] near the cube root of P, dims[1] near the square root of what is left.
    const auto divisor_near = [](int n, double want) {
      int best = 1;
      for (int f = 1; f <= n; ++f) {
        if (n % f == 0 && std::abs(f - want) < std::abs(best - want)) best = f;
      }
      return best;
    };
    int dims[3];
    dims[0] = divisor_near(ranks_, std::cbrt(static_cast<double>(ranks_)));
    dims[1] = divisor_near(ranks_ / dims[0], std::sqrt(static_cast<double>(ranks_ / dims[0])));
    dims[2] = ranks_ / dims[0] / dims[1];
    std::vector<Send> round;
    for (int r = 0; r < ranks_; ++r) {
      const int c[3] = {r % dims[0], r / dims[0] % dims[1], r / (dims[0] * dims[1])};
      std::vector<int> seen;
      for (int d = 0; d < 3; ++d) {
        for (const int step : {-1, 1}) {
          int n[3] = {c[0], c[1], c[2]};
          n[d] = (n[d] + step + dims[d]) % dims[d];
          const int other = n[0] + dims[0] * (n[1] + dims[1] * n[2]);
          if (other == r || std::find(seen.begin(), seen.end(), other) != seen.end()) continue;
          seen.push_back(other);
          round.push_back({r, other, bytes});
        }
      }
    }
    if (!round.empty()) Round(round);
  }

  Workload Take() { return std::move(w_); }

 private:
  int ranks_;
  double scale_;
  std::vector<std::vector<uint32_t>> frontier_;
  static constexpr uint32_t kNone = UINT32_MAX;
  std::vector<double> pending_;  // compute not spent by a send yet
  std::vector<double> clock_;
  std::vector<uint32_t> last_sent_;  // each rank's latest send
  Rng rng_;
  Workload w_;
};

constexpr double kUs = 1000;
constexpr uint64_t kKiB = 1024;

[[noreturn]] void Malformed(const std::string& origin, int line, const std::string& why) {
  throw ScenarioError(origin + ":" + std::to_string(line) + ": " + why);
}

// Each preset appends its collectives to the builder; `iterations` 0 takes its own count.
void BspAllreduce(Builder& b, int iterations) {
  // LAMMPS-like: short compute steps, each closed by a halo exchange and a small allreduce;
  // every eighth step a longer analysis phase and a large allreduce.
  b.Broadcast(0, 64 * kKiB);
  const int steps = iterations > 0 ? iterations : 40;
  for (int i = 0; i < steps; ++i) {
    b.Compute(50 * kUs, 0.2);
    b.Halo(32 * kKiB);
    b.AllreduceDoubling(64);
    if (i % 8 == 7) {
      b.Compute(400 * kUs, 0.1);
      b.AllreduceRing(512 * kKiB);
    }
  }
}

void SilentBursts(Builder& b, int iterations) {
  // PATMOS-like: a burst at start (input broadcast, particle exchange), independent batches
  // with nothing on the network, a burst at the end (allreduce of the tallies, gather).
  b.Broadcast(0, 1024 * kKiB);
  b.AllToAll(8 * kKiB);
  const int batches = iterations > 0 ? iterations : 1;
  for (int i = 0; i < batches; ++i) b.Compute(2000 * kUs, 0.05);
  b.AllreduceRing(256 * kKiB);
  b.Gather(0, 64 * kKiB);
}

void SmallCollectives(Builder& b, int iterations) {
  // MLWF-like: frequent small Gather-Broadcast-Broadcast sequences, a larger allreduce now and then.
  const int steps = iterations > 0 ? iterations : 150;
  for (int i = 0; i < steps; ++i) {
    b.Compute(4 * kUs, 0.5);
    b.Gather(0, 2 * kKiB);
    b.Broadcast(0, 2 * kKiB);
    b.Broadcast(0, 2 * kKiB);
    if (i % 25 == 24) {
      b.Compute(20 * kUs, 0.2);
      b.AllreduceRing(256 * kKiB);
    }
  }
}

void LayeredAllreduce(Builder& b, int iterations) {
  // AlexNet-like data-parallel training: a long forward/backward compute, then one gradient
  // allreduce per layer, last layer first, with a little compute between them.
  const uint64_t layers[] = {64 * kKiB, 160 * kKiB, 300 * kKiB, 600 * kKiB, 1536 * kKiB};
  const int steps = iterations > 0 ? iterations : 4;
  for (int i = 0; i < steps; ++i) {
    b.Compute(600 * kUs, 0.05);
    for (int l = 4; l >= 0; --l) {
      b.Compute(40 * kUs, 0.1);
      b.AllreduceRing(layers[l]);
    }
  }
}

struct Preset {
  std::string name;
  void (*build)(Builder&, int iterations);
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

Workload MakeWorkload(const std::string& preset, int ranks, int iterations, double compute_scale,
                      uint64_t seed) {
  if (ranks < 2) {
    throw ScenarioError("workload.kind: a workload needs at least 2 nodes, the topology has " +
                        std::to_string(ranks));
  }
  if (preset == "livermore") return MakeLivermore(ranks, iterations);
  if (preset == "random_messages") return MakeRandomMessages(RandomMessages{}, ranks, seed);
  for (const Preset& p : Presets()) {
    if (p.name != preset) continue;
    Builder b(ranks, compute_scale, seed);
    p.build(b, iterations);
    return b.Take();
  }
  throw ScenarioError("workload.kind: unknown preset '" + preset + "'");
}

Workload LoadWorkload(const WorkloadParams& params, int nodes, uint64_t seed) {
  if (params.kind == "random_messages" && nodes >= 2)
    return MakeRandomMessages(params.random_messages, nodes, seed);
  if (params.kind == "livermore" && nodes >= 2)
    return MakeLivermore(nodes, params.iterations, params.livermore);
  if (params.kind != "trace")
    return MakeWorkload(params.kind, nodes, params.iterations, params.compute_scale, seed);
  std::ifstream file(params.trace);
  if (!file) throw ScenarioError("workload.trace: cannot open '" + params.trace + "'");
  Workload w = ReadTrace(file, params.trace);
  if (w.ranks > nodes) {
    throw ScenarioError("workload.trace: '" + params.trace + "' uses node " + std::to_string(w.ranks - 1) +
                        "; allowed: nodes [0, " + std::to_string(nodes - 1) + "] of the topology");
  }
  return w;
}

namespace {

// One line of a trace, split into fields; every error names the file, the line and the reason.
class TraceLine {
 public:
  TraceLine(const std::string& origin, int line, const std::string& text) : origin_(origin), line_(line) {
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
    m.src = static_cast<int>(Integer(1, "source", 0, 1 << 24));
    m.dst = static_cast<int>(Integer(2, "destination", 0, 1 << 24));
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

  double Number(size_t i, const char* what, double lo, double hi) const {
    if (i >= f_.size()) Fail(std::string("missing ") + what);
    size_t used = 0;
    double v = 0;
    try {
      v = std::stod(f_[i], &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != f_[i].size() || !std::isfinite(v))
      Fail(std::string(what) + " '" + f_[i] + "' is not a number");
    if (v < lo || v > hi) {
      std::ostringstream range;
      range << what << " " << f_[i] << " is out of range [" << lo << ", " << hi << "]";
      Fail(range.str());
    }
    return v;
  }

  int64_t Integer(size_t i, const char* what, double lo, double hi) const {
    const double v = Number(i, what, lo, hi);
    if (v != std::floor(v)) Fail(std::string(what) + " '" + f_[i] + "' is not an integer");
    return static_cast<int64_t>(v);
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
  std::vector<std::string> f_;
};

}  // namespace

Workload ReadTrace(std::istream& in, const std::string& origin) {
  Workload w;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    const TraceLine fields(origin, line, text);
    if (fields.empty()) continue;
    WorkloadMessage m = fields.Message(static_cast<uint32_t>(w.messages.size()));
    w.ranks = std::max({w.ranks, m.src + 1, m.dst + 1});
    w.bytes += m.bytes;
    w.messages.push_back(std::move(m));
  }
  if (w.messages.empty()) throw ScenarioError(origin + ": the trace holds no message");
  return w;
}

void WriteTrace(const Workload& w, std::ostream& out) {
  out << "# icnsim workload trace: <id> <src> <dst> <bytes> at <time_ns> [<compute_ns> [<utilisation>]]"
         " | after <id|s<id>>[,...] [<gap_ns> [<utilisation>]]\n";
  out << std::setprecision(15);
  for (size_t i = 0; i < w.messages.size(); ++i) {
    const WorkloadMessage& m = w.messages[i];
    out << i << ' ' << m.src << ' ' << m.dst << ' ' << m.bytes;
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
}

}  // namespace icn
