`default_nettype none
`include "pb_geometry.svh"
/// Synthesis wrapper: PerfBound histogram with the geometry the network simulates (rtl/eee/pb_geometry.svh:
/// 64 bins of 128 cycles, 16-bit counters, h_maxN = 250, h_maxval = 8191 cycles, no TTL);
/// scripts/cost.sh synthesises each strategy below (storage after the paper's formula, section
/// 3.3), and the self-clearing one also with the paper's time limit, which the network leaves off.
/// Variant selfclear: Strategy=0 TtlCycles=0 | 64 bins x 16 bits = 1024 bits (w_counter x n_bins = 2 B x 64); clears after 250 values
/// Variant sliding: Strategy=1 TtlCycles=0 | 64 bins x 16 bits + 250 x 6-bit bin indices = 1024 + 1500 bits (w_counter x n_bins + h_maxN x s_elem)
/// Variant unbounded: Strategy=2 TtlCycles=0 | 64 bins x 16 bits = 1024 bits (w_counter x n_bins = 2 B x 64)
/// Variant selfclear_ttl: Strategy=0 TtlCycles=1000000 | as selfclear + a 20-bit TTL counter; clears after 250 values or 10^6 cycles (not simulated: the counter would move every cycle)
module pb_histogram_synth #(
  /// 0 self-clearing, 1 sliding window, 2 unbounded.
  parameter int unsigned Strategy = 0,
  /// TTL_hist of the self-clearing strategy in cycles (0 = none, as in the network).
  parameter int unsigned TtlCycles = 0
) (
  input  logic                                            clk_i,
  input  logic                                            rst_ni,
  input  logic                                            sample_valid_i,
  input  logic [31:0]                                     sample_i,
  output logic [`PB_NUM_BINS*`PB_COUNTER_WIDTH-1:0] counts_o
);
  pb_histogram #(
    .NumBins      (`PB_NUM_BINS),
    .BinCycles    (`PB_BIN_CYCLES),
    .CounterWidth (`PB_COUNTER_WIDTH),
    .ValueWidth   (32),
    .Strategy     (Strategy),
    .MaxN         (`PB_MAX_N),
    .TtlCycles    (TtlCycles),
    .MaxValCycles (`PB_MAX_VAL_CYCLES)
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
