// PerfBound / PerfBoundCorrect geometry of the ports the network simulates (SPEC M3, Sanchez de la
// Rosa et al., Tables 4-5): the one place these numbers are written. eee_pb_port and its building blocks take
// them as parameter defaults, the synthesis wrappers use them (so cost rows describe what is
// simulated), and the harness reads them back from the verilated eee_pb_port's public
// parameters. An include file rather than a package, so that every module lints on its own.
`ifndef PB_GEOMETRY_SVH
`define PB_GEOMETRY_SVH

// Histogram: n_bins bins of r_bin cycles (a power of two), w_counter x 8 bits per counter,
// h_maxN values (self-clearing limit, sliding-window length), h_maxval in cycles.
`define PB_NUM_BINS 64
`define PB_BIN_CYCLES 128
`define PB_COUNTER_WIDTH 16
`define PB_MAX_N 250
`define PB_MAX_VAL_CYCLES 8191
// Search: hop counts 1..PB_MAX_HOPS; shares, bound and 1/h in Q0.PB_FRAC_BITS.
`define PB_MAX_HOPS 8
`define PB_FRAC_BITS 16
// Correction: n_R predictions remembered; cf capped at PB_CF_MAX_Q8 / 256 (16.0).
`define PB_HIST_LEN 16
`define PB_CF_MAX_Q8 4096

`endif
