// SPDX-License-Identifier: Apache-2.0
// The collectives of the MPI-like presets as rounds of simultaneous point-to-point sends, produced
// one round at a time so that a program over thousands of ranks never has to be held whole.
//
// An allreduce takes the algorithm `workload.allreduce` names, or the one an MPI library would:
//   openmpi  the fixed decision of Open MPI's "tuned" component up to version 4.0: recursive
//            doubling below 10,000 B; above, the ring when the vector has more elements than there
//            are ranks (Open MPI pipelines the ring in 1 MiB segments above ranks x 1 MiB: not
//            modelled, the plain ring), else a reduce to rank 0 and a broadcast (binomial trees
//            here; Open MPI picks their shapes by size). Below 8,192 ranks the presets' allreduces
//            are those they used before the key (the smallest, 64 KiB, has 8,192 elements).
//   mpich    MPICH's default: recursive doubling up to 2,048 B or when the vector has fewer
//            elements than the largest power of two of ranks; above, Rabenseifner's
//            reduce-scatter (recursive halving) and allgather (recursive doubling).
// Elements are 8 bytes (doubles). The ranks above the largest power of two p2 fold into ranks
// 0, 1, ... before the recursive algorithms and get the result back after them (both libraries
// pair ranks 2i and 2i + 1 instead: a simplification with the same rounds and sizes).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace icn {

struct Send {
  int src, dst;
  uint64_t bytes;
};

enum class AllreduceRule { kOpenMpi, kMpich, kRing, kRecursiveDoubling, kRabenseifner };

// The values of workload.allreduce, in the order of AllreduceRule.
const std::vector<std::string>& AllreduceRuleNames();
AllreduceRule AllreduceRuleNamed(const std::string& name);

// One step of a program: every rank computes, or the ranks run a collective (a list of rounds).
struct Operation {
  enum class Kind {
    kCompute,        // ns x (1 +- jitter) per rank, uniformly distributed (load imbalance)
    kBroadcast,      // binomial tree from rank 0
    kGather,         // binomial tree to rank 0, each step forwarding all it has collected
    kReduce,         // binomial tree to rank 0, each step sending one vector
    kAllToAll,       // pairwise exchange: P - 1 rounds, rank r sends to r + k in round k
    kHalo,           // one round on a periodic 3-D grid of ranks, as cubic as P allows
    kAllreduceRing,  // reduce-scatter then allgather, 2 (P - 1) rounds of bytes / P
    kAllreduceDoubling,
    kAllreduceRabenseifner,
  };
  Kind kind;
  uint64_t bytes = 0;  // a collective's vector (gather: each rank's part)
  double ns = 0;       // compute
  double jitter = 0;
};

// The operations an allreduce of `bytes` over `ranks` ranks becomes under `rule`.
std::vector<Operation> Allreduce(AllreduceRule rule, uint64_t bytes, int ranks);

// The rounds of a collective over `ranks` ranks (0 for compute), and round `round`'s sends.
int Rounds(const Operation& op, int ranks);
void RoundSends(const Operation& op, int ranks, int round, std::vector<Send>& out);

}  // namespace icn
