// SPDX-License-Identifier: Apache-2.0
// A communication-bound model of Livermore kernels 7, 18 and 21 (Shafarenko and Vasekin, Fig. 5) enclosed in
// one loop, as a workload of single-packet messages: read request, data, write request, write
// acknowledgement.
//
// Memory: one global address space distributed cyclically over the nodes (address a lives on node
// a mod N; on a P^3 torus node x + P y + P^2 z), the kernels' arrays allocated one after another
// from address 0 without gaps, two-dimensional arrays in column order. Work: the iteration space
// of each innermost loop is split in N equal chunks, chunk c to node c (address order); within a
// node, 8 threads take the chunk's iterations in turn (thread t: iterations t, t + 8, ...). A
// thread executes its assignments in order: read requests for every distinct operand not on its
// own node, all at once; once their data have arrived, the write request (if the target is not
// local) and, at the same time, the reads of its next assignment. No compute time (the fine-grain
// limit). Completion: every message, acknowledgements included, delivered.
//
// Extents. The paper gives kernel 21's: k and i over 1..25 (PX(25, n) += VY(25, 25) x CX(25, n)),
// with n = N here so that every node works in every loop. It does not give kernel 7's n nor kernel
// 18's JN and KN: they are keys, n = 8N, JN = 2N + 1 and KN = 6 by default (three loops, two
// assignments per iteration in each). A smaller kernel 21 extent is for quick runs: at 5 it reads only
// VY's 5 x 5 corner, on at most 25 nodes that every node reads, which caps what any network can do
// (see docs/torus.md).
#pragma once
#include "traffic/workload.h"

namespace icn {

struct LivermoreExtents {
  int k21 = 25;             // kernel 21's k and i loops: 1..k21
  int k7_per_node = 8;      // kernel 7's n = this x N
  int k18_jn_per_node = 2;  // kernel 18's JN = this x N + 1
  int k18_kn = 6;           // kernel 18's KN
};

// `loops`: passes of the enclosing loop (0: 2).
Workload MakeLivermore(int nodes, int loops, const LivermoreExtents& extents = {});

}  // namespace icn
