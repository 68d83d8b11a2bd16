// SPDX-License-Identifier: Apache-2.0
#include "traffic/collectives.h"

#include <algorithm>
#include <cmath>

#include "core/errors.h"

namespace icn {
namespace {

using Kind = Operation::Kind;
constexpr uint64_t kElementBytes = 8;

int LargestPowerOfTwo(int ranks) {
  int p2 = 1;
  while (p2 * 2 <= ranks) p2 *= 2;
  return p2;
}

// The smallest log with 2^log >= n.
int CeilLog2(int n) {
  int log = 0;
  while ((1 << log) < n) ++log;
  return log;
}

// Rounds of a binomial tree over `ranks`: one per power of two below it.
int TreeRounds(int ranks) { return CeilLog2(ranks); }

// Halo: dims[0] near the cube root of P, dims[1] near the square root of what is left.
void HaloSends(int ranks, uint64_t bytes, std::vector<Send>& out) {
  const auto divisor_near = [](int n, double want) {
    int best = 1;
    for (int f = 1; f <= n; ++f) {
      if (n % f == 0 && std::abs(f - want) < std::abs(best - want)) best = f;
    }
    return best;
  };
  int dims[3];
  dims[0] = divisor_near(ranks, std::cbrt(static_cast<double>(ranks)));
  dims[1] = divisor_near(ranks / dims[0], std::sqrt(static_cast<double>(ranks / dims[0])));
  dims[2] = ranks / dims[0] / dims[1];
  for (int r = 0; r < ranks; ++r) {
    const int c[3] = {r % dims[0], r / dims[0] % dims[1], r / (dims[0] * dims[1])};
    std::vector<int> seen;
    for (int d = 0; d < 3; ++d) {
      for (const int step : {-1, 1}) {
        int n[3] = {c[0], c[1], c[2]};
        n[d] = (n[d] + step + dims[d]) % dims[d];
        const int other = n[0] + dims[0] * (n[1] + dims[1] * n[2]);
        if (other == r || std::find(seen.begin(), seen.end(), other) != seen.end()) continue;
        seen.push_back(other);
        out.push_back({r, other, bytes});
      }
    }
  }
}

// The recursive allreduces over the largest power of two p2 <= P: an optional fold-in round
// (rank p2 + i sends to rank i), `middle` rounds among the p2 ranks, an optional fold-out round.
struct Folded {
  int p2;
  bool folds;
  int middle;
  // Which part round `round` is: -1 fold in, 1 fold out, 0 the middle (its index in `step`).
  int Part(int round, int& step) const {
    step = round - (folds ? 1 : 0);
    if (step < 0) return -1;
    return step >= middle ? 1 : 0;
  }
};

Folded FoldedShape(const Operation& op, int ranks) {
  const int p2 = LargestPowerOfTwo(ranks);
  const int log = CeilLog2(p2);
  return {p2, p2 < ranks, op.kind == Kind::kAllreduceDoubling ? log : 2 * log};
}

void FoldedSends(const Operation& op, int ranks, int round, std::vector<Send>& out) {
  const Folded f = FoldedShape(op, ranks);
  int step = 0;
  const int part = f.Part(round, step);
  if (part != 0) {
    for (int r = f.p2; r < ranks; ++r)
      out.push_back(part < 0 ? Send{r, r - f.p2, op.bytes} : Send{r - f.p2, r, op.bytes});
    return;
  }
  if (op.kind == Kind::kAllreduceDoubling) {
    for (int r = 0; r < f.p2; ++r) out.push_back({r, r ^ (1 << step), op.bytes});
    return;
  }
  // Rabenseifner: reduce-scatter halving the vector at distances 1, 2, 4, ...; then the allgather
  // doubling it back at distances ..., 4, 2, 1.
  const int log = f.middle / 2;
  const int level = step < log ? step : f.middle - 1 - step;
  const uint64_t part_bytes = (op.bytes + (uint64_t{2} << level) - 1) >> (level + 1);
  for (int r = 0; r < f.p2; ++r) out.push_back({r, r ^ (1 << level), std::max<uint64_t>(1, part_bytes)});
}

}  // namespace

const std::vector<std::string>& AllreduceRuleNames() {
  static const std::vector<std::string> names = {"openmpi", "mpich", "ring", "recursive_doubling",
                                                 "rabenseifner"};
  return names;
}

AllreduceRule AllreduceRuleNamed(const std::string& name) {
  const auto& names = AllreduceRuleNames();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) throw ScenarioError("workload.allreduce: unknown algorithm '" + name + "'");
  return static_cast<AllreduceRule>(it - names.begin());
}

std::vector<Operation> Allreduce(AllreduceRule rule, uint64_t bytes, int ranks) {
  const uint64_t elements = (bytes + kElementBytes - 1) / kElementBytes;
  const auto one = [bytes](Kind kind) { return std::vector<Operation>{{kind, bytes}}; };
  switch (rule) {
    case AllreduceRule::kOpenMpi:
      if (bytes < 10000) return one(Kind::kAllreduceDoubling);
      if (elements > static_cast<uint64_t>(ranks)) return one(Kind::kAllreduceRing);
      return {{Kind::kReduce, bytes}, {Kind::kBroadcast, bytes}};
    case AllreduceRule::kMpich:
      if (bytes <= 2048 || elements < static_cast<uint64_t>(LargestPowerOfTwo(ranks)))
        return one(Kind::kAllreduceDoubling);
      return one(Kind::kAllreduceRabenseifner);
    case AllreduceRule::kRing:
      return one(Kind::kAllreduceRing);
    case AllreduceRule::kRecursiveDoubling:
      return one(Kind::kAllreduceDoubling);
    case AllreduceRule::kRabenseifner:
      return one(Kind::kAllreduceRabenseifner);
  }
  return {};
}

int Rounds(const Operation& op, int ranks) {
  switch (op.kind) {
    case Kind::kCompute:
      return 0;
    case Kind::kBroadcast:
    case Kind::kGather:
    case Kind::kReduce:
      return TreeRounds(ranks);
    case Kind::kAllToAll:
      return ranks - 1;
    case Kind::kHalo:
      return 1;
    case Kind::kAllreduceRing:
      return 2 * (ranks - 1);
    case Kind::kAllreduceDoubling:
    case Kind::kAllreduceRabenseifner: {
      const Folded f = FoldedShape(op, ranks);
      return f.middle + (f.folds ? 2 : 0);
    }
  }
  return 0;
}

void RoundSends(const Operation& op, int ranks, int round, std::vector<Send>& out) {
  switch (op.kind) {
    case Kind::kCompute:
      return;
    case Kind::kBroadcast: {
      const int mask = 1 << round;  // the binomial tree's step
      for (int rel = 0; rel < mask && rel + mask < ranks; ++rel) out.push_back({rel, rel + mask, op.bytes});
      return;
    }
    case Kind::kGather:
    case Kind::kReduce: {
      const int mask = 1 << round;
      for (int rel = mask; rel < ranks; rel += 2 * mask) {
        const uint64_t parts =
            op.kind == Kind::kGather ? static_cast<uint64_t>(std::min(mask, ranks - rel)) : 1;
        out.push_back({rel, rel - mask, op.bytes * parts});
      }
      return;
    }
    case Kind::kAllToAll:
      for (int r = 0; r < ranks; ++r) out.push_back({r, (r + round + 1) % ranks, op.bytes});
      return;
    case Kind::kHalo:
      HaloSends(ranks, op.bytes, out);
      return;
    case Kind::kAllreduceRing: {
      const uint64_t chunk = (op.bytes + ranks - 1) / ranks;
      for (int r = 0; r < ranks; ++r) out.push_back({r, (r + 1) % ranks, chunk});
      return;
    }
    case Kind::kAllreduceDoubling:
    case Kind::kAllreduceRabenseifner:
      FoldedSends(op, ranks, round, out);
      return;
  }
}

}  // namespace icn
