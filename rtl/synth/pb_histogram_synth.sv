`default_nettype none
/// Synthesis wrapper: PerfBound histogram, 64 bins of 256 cycles, 16-bit counters,
/// h_maxval = 16383 cycles, h_maxN = 250; scripts/cost.sh synthesises each strategy below
/// (storage after the paper's formula, section 3.3).
/// Variant selfclear: Strategy=0 TtlCycles=1000000 | 64 bins x 16 bits = 1024 bits (w_counter x n_bins = 2 B x 64); clears after 250 values or 1 ms (10^6 cycles)
/// Variant sliding: Strategy=1 TtlCycles=0 | 64 bins x 16 bits + 250 x 6-bit bin indices = 1024 + 1500 bits (w_counter x n_bins + h_maxN x s_elem)
/// Variant unbounded: Strategy=2 TtlCycles=0 | 64 bins x 16 bits = 1024 bits (w_counter x n_bins = 2 B x 64)
module pb_histogram_synth #(
  /// 0 self-clearing, 1 sliding window, 2 unbounded.
  parameter int unsigned Strategy = 0,
  /// TTL_hist of the self-clearing strategy in cycles.
  parameter int unsigned TtlCycles = 1000000
) (
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
    .Strategy     (Strategy),
    .MaxN         (250),
    .TtlCycles    (TtlCycles),
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
