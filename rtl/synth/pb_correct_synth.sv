`default_nettype none
`include "pb_geometry.svh"
/// Synthesis wrapper: PerfBoundCorrect as the network simulates it (rtl/eee/pb_geometry.svh: a history
/// of n_R = 16 predictions, cf capped at 16), 32-bit times.
/// Storage (paper 3.4): 16-bit hit/miss shift register + FIFO of 16 x 14-bit log2 ratios = 240 bits (memory bits also count the 3 x 64 x 8-bit log2 / 2^x tables as ROM)
module pb_correct_synth (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        outcome_valid_i,
  input  logic        hit_i,
  input  logic [31:0] t_inac_i,
  input  logic [31:0] t_pdt_i,
  input  logic [31:0] pdt_perfbound_i,
  output logic [31:0] pdt_cycles_o
);
  pb_correct #(
    .HistLen    (`PB_HIST_LEN),
    .CfMaxQ8    (`PB_CF_MAX_Q8),
    .TimerWidth (32)
  ) u_correct (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .outcome_valid_i (outcome_valid_i),
    .hit_i           (hit_i),
    .t_inac_i        (t_inac_i),
    .t_pdt_i         (t_pdt_i),
    .pdt_perfbound_i (pdt_perfbound_i),
    .pdt_cycles_o    (pdt_cycles_o),
    // Debug outputs are left open: synthesis removes the logic only they use.
    /* verilator lint_off PINCONNECTEMPTY */
    .cf_o            (),
    .misses_o        (),
    .history_o       (),
    .log_sum_o       ()
    /* verilator lint_on PINCONNECTEMPTY */
  );
endmodule
`default_nettype wire
