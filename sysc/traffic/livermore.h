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
// Extents, curtailed so that every node works in every loop: kernel 7 n = 8N; kernel 18 JN = 2N + 1,
// KN = 6 (three loops, two assignments per iteration in each); kernel 21 with the k and i loops
// over 1..5 (25 in the original) and n = N.
#pragma once
#include "traffic/workload.h"

namespace icn {

// `loops`: passes of the enclosing loop (0: 2).
Workload MakeLivermore(int nodes, int loops);

}  // namespace icn
