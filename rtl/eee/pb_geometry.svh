// PerfBound / PerfBoundCorrect geometry of the ports the network simulates (Sánchez de la
// Rosa et al., Tables 4-5): the one place these numbers are written. eee_pb_port and its building blocks take
// them as parameter defaults, the synthesis wrappers use them (so cost rows describe what is
// simulated), and the harness reads them back from the verilated eee_pb_port's public
// parameters. An include file rather than a package, so that every module lints on its own.
`ifndef PB_GEOMETRY_SVH
`define PB_GEOMETRY_SVH

// Histogram: logarithmic bins, 2^PB_SUB_BIN_BITS to an octave of the idle-period length in cycles
// (a 32-bit length: 124 bins, from 0 cycles to 2^32), w_counter x 8 bits per counter, h_maxN
// values (self-clearing limit, sliding-window length), h_maxval in cycles (all ones: no clamp).
// Why logarithmic: idle periods span 1 cycle to seconds, and t_PDT must reach both ends; the
// paper's Fig. 1 draws 200 linear bins up to the 99th percentile, which needs the distribution
// before the histogram is built.
`define PB_SUB_BIN_BITS 2
`define PB_COUNTER_WIDTH 16
`define PB_MAX_N 250
`define PB_MAX_VAL_CYCLES 32'hffff_ffff
// Search: hop counts 1..PB_MAX_HOPS; shares, bound and 1/h in Q0.PB_FRAC_BITS.
`define PB_MAX_HOPS 8
`define PB_FRAC_BITS 16
// Correction: n_R predictions remembered; cf capped at PB_CF_MAX_Q8 / 256 (16.0).
`define PB_HIST_LEN 16
`define PB_CF_MAX_Q8 4096

// Bins of a histogram of ValueWidth-bit lengths with 2^SubBinBits bins to an octave: lengths below
// 2^(SubBinBits+1) have a bin each, and every octave above has 2^SubBinBits.
`define PB_BINS(ValueWidth, SubBinBits) (((ValueWidth) - (SubBinBits) + 1) << (SubBinBits))

`endif
// SPDX-License-Identifier: Apache-2.0
