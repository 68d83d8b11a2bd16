`default_nettype none
/// Synthesis wrapper: PerfBound histogram, unbounded, saturating counters; 64 bins of 256 cycles, 16-bit counters,
/// h_maxval = 16383 cycles.
/// Storage (paper 3.3): 64 bins x 16 bits = 1024 bits (w_counter x n_bins = 2 B x 64)
module pb_histogram_unbounded_synth (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          sample_valid_i,
  input  logic [31:0]   sample_i,
  output logic [1023:0] counts_o
);
  pb_histogram #(
    .NumBins      (64),
    .BinCycles    (256),
    .CounterWidth (16),
    .ValueWidth   (32),
    .Strategy     (2),
    .MaxN         (250),
    .TtlCycles    (0),
    .MaxValCycles (16383)
  ) u_hist (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .sample_valid_i (sample_valid_i),
    .sample_i       (sample_i),
    .counts_o       (counts_o),
    // Status outputs are left open: synthesis removes the logic only they use.
    /* verilator lint_off PINCONNECTEMPTY */
    .values_o       (),
    .cleared_o      ()
    /* verilator lint_on PINCONNECTEMPTY */
  );
endmodule
`default_nettype wire
