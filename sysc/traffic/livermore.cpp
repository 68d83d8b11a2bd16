// SPDX-License-Identifier: Apache-2.0
#include "traffic/livermore.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace icn {
namespace {

constexpr int kThreads = 8;
constexpr uint64_t kRequestBytes = 8, kDataBytes = 16;  // an address; an address and a word

// One assignment: the address it writes and the addresses it reads.
struct Assignment {
  int64_t target;
  std::vector<int64_t> operands;
};

// A two-dimensional array in column order, allocated at `base`: (i, j) from 1.
struct Array2 {
  int64_t base, rows;
  int64_t operator()(int64_t i, int64_t j) const { return base + (i - 1) + (j - 1) * rows; }
};

class Program {
 public:
  explicit Program(int nodes) : nodes_(nodes), turn_(nodes, 0), frontier_(nodes * kThreads) {
    w_.ranks = nodes;
  }

  int64_t Allocate(int64_t words) {
    const int64_t base = next_;
    next_ += words;
    return base;
  }
  // One innermost loop: iterations 0 .. count - 1 (count a multiple of the nodes), each giving the
  // assignments of its body. Node c runs chunk c; its threads take its iterations in turn, the
  // turns carrying on from loop to loop (iterations of different loops are independent too).
  template <typename Body>
  void Loop(int64_t count, Body body) {
    const int64_t chunk = count / nodes_;
    for (int node = 0; node < nodes_; ++node) {
      for (int64_t i = 0; i < chunk; ++i) {
        const int thread = node * kThreads + turn_[node]++ % kThreads;  // the threads take turns
        for (const Assignment& a : body(node * chunk + i)) Execute(node, thread, a);
      }
    }
  }
  Workload Take() { return std::move(w_); }

 private:
  int Owner(int64_t address) const { return static_cast<int>(address % nodes_); }

  uint32_t Message(int src, int dst, uint64_t bytes, std::vector<uint32_t> after) {
    WorkloadMessage m;
    m.src = src;
    m.dst = dst;
    m.bytes = bytes;
    m.after = std::move(after);
    w_.bytes += bytes;
    w_.messages.push_back(std::move(m));
    return static_cast<uint32_t>(w_.messages.size() - 1);
  }

  void Execute(int node, int thread, const Assignment& a) {
    std::vector<int64_t> reads = a.operands;
    std::sort(reads.begin(), reads.end());
    reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
    std::vector<uint32_t> data;
    for (int64_t address : reads) {
      const int owner = Owner(address);
      if (owner == node) continue;
      const uint32_t request = Message(node, owner, kRequestBytes, frontier_[thread]);
      data.push_back(Message(owner, node, kDataBytes, {request}));
    }
    if (!data.empty()) frontier_[thread] = data;  // the next assignment starts with this write
    const int owner = Owner(a.target);
    if (owner != node) {
      const uint32_t write = Message(node, owner, kDataBytes, frontier_[thread]);
      Message(owner, node, kRequestBytes, {write});
    }
  }

  int nodes_;
  std::vector<int> turn_;  // per node: iterations handed out so far
  int64_t next_ = 0;
  std::vector<std::vector<uint32_t>> frontier_;  // per thread: what its next reads wait for
  Workload w_;
};

}  // namespace

Workload MakeLivermore(int nodes, int loops, const LivermoreExtents& extents) {
  Program p(nodes);
  const int64_t n = nodes;
  // Kernel 7: equation of state fragment.
  const int64_t n7 = extents.k7_per_node * n;
  const int64_t x7 = p.Allocate(n7), u7 = p.Allocate(n7 + 6), z7 = p.Allocate(n7), y7 = p.Allocate(n7);
  // Kernel 18: 2-D explicit hydrodynamics, arrays (JN + 1) x (KN + 1).
  const int64_t jn = extents.k18_jn_per_node * n + 1, kn = extents.k18_kn, rows = jn + 1, cols = kn + 1;
  const auto array18 = [&] { return Array2{p.Allocate(rows * cols), rows}; };
  const Array2 za = array18(), zb = array18(), zp = array18(), zq = array18(), zr = array18(), zm = array18(),
               zu = array18(), zv = array18(), zz = array18();
  // Kernel 21: matrix product, PX(25, n) += VY(25, 25) x CX(25, n), k and i over 1..m21.
  const int64_t m21 = extents.k21, n21 = n;
  const Array2 px{p.Allocate(25 * n21), 25}, vy{p.Allocate(25 * 25), 25}, cx{p.Allocate(25 * n21), 25};

  for (int pass = 0; pass < (loops > 0 ? loops : 2); ++pass) {
    p.Loop(n7, [&](int64_t i) {
      const int64_t k = i + 1;
      std::vector<int64_t> reads = {z7 + k - 1, y7 + k - 1};
      for (int d = 0; d <= 6; ++d) reads.push_back(u7 + k - 1 + d);
      return std::vector<Assignment>{{x7 + k - 1, reads}};
    });
    const int64_t js = jn - 1;  // j = 2 .. JN
    for (int64_t k = 2; k <= kn; ++k) {
      p.Loop(js, [&](int64_t i) {
        const int64_t j = i + 2;
        return std::vector<Assignment>{{za(j, k),
                                        {zp(j - 1, k + 1), zq(j - 1, k + 1), zp(j - 1, k), zq(j - 1, k),
                                         zr(j, k), zr(j - 1, k), zm(j - 1, k), zm(j - 1, k + 1)}},
                                       {zb(j, k),
                                        {zp(j - 1, k), zq(j - 1, k), zp(j, k), zq(j, k), zr(j, k),
                                         zr(j, k - 1), zm(j, k), zm(j - 1, k)}}};
      });
    }
    for (int64_t k = 2; k <= kn; ++k) {
      p.Loop(js, [&](int64_t i) {
        const int64_t j = i + 2;
        const std::vector<int64_t> around = {za(j, k), zz(j, k),     zz(j + 1, k), za(j - 1, k), zz(j - 1, k),
                                             zb(j, k), zz(j, k - 1), zb(j, k + 1), zz(j, k + 1)};
        std::vector<int64_t> u = around, v = around;
        u.push_back(zu(j, k));
        for (int64_t* a : {&v[1], &v[2], &v[4], &v[6], &v[8]}) *a = *a - zz.base + zr.base;  // ZR for ZZ
        v.push_back(zv(j, k));
        return std::vector<Assignment>{{zu(j, k), u}, {zv(j, k), v}};
      });
    }
    for (int64_t k = 2; k <= kn; ++k) {
      p.Loop(js, [&](int64_t i) {
        const int64_t j = i + 2;
        return std::vector<Assignment>{{zr(j, k), {zr(j, k), zu(j, k)}}, {zz(j, k), {zz(j, k), zv(j, k)}}};
      });
    }
    for (int64_t k = 1; k <= m21; ++k) {
      for (int64_t i = 1; i <= m21; ++i) {
        p.Loop(n21, [&](int64_t jj) {
          const int64_t j = jj + 1;
          return std::vector<Assignment>{{px(i, j), {px(i, j), vy(i, k), cx(k, j)}}};
        });
      }
    }
  }
  return p.Take();
}

}  // namespace icn
