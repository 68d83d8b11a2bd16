`default_nettype none
/// PerfBound / PerfBoundCorrect geometry of the ports the network simulates (SPEC M3, paper 002
/// Tables 4-5): the one place these numbers are written. eee_pb_port and its building blocks take
/// them as defaults, the synthesis wrappers use them (so cost rows describe what is simulated), and
/// the harness reads them back from the verilated eee_pb_port's public parameters.
package pb_pkg;
  // Each user takes the constants it needs.
  /* verilator lint_off UNUSEDPARAM */
  /// Histogram: n_bins bins of r_bin cycles (a power of two), w_counter x 8 bits per counter,
  /// h_maxN values (self-clearing limit, sliding-window length), h_maxval in cycles.
  localparam int unsigned NumBins      = 64;
  localparam int unsigned BinCycles    = 128;
  localparam int unsigned CounterWidth = 16;
  localparam int unsigned MaxN         = 250;
  localparam int unsigned MaxValCycles = 8191;
  /// Search: hop counts 1..MaxHops; shares, bound and 1/h in Q0.FracBits.
  localparam int unsigned MaxHops  = 8;
  localparam int unsigned FracBits = 16;
  /// Correction: n_R predictions remembered; cf capped at CfMaxQ8 / 256 (16.0).
  localparam int unsigned HistLen = 16;
  localparam int unsigned CfMaxQ8 = 4096;
  /* verilator lint_on UNUSEDPARAM */
endpackage
`default_nettype wire
