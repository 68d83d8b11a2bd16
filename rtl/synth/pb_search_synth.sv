`default_nettype none
`include "pb_geometry.svh"
/// Synthesis wrapper: PerfBound t_PDT search with the geometry the network simulates
/// (rtl/eee/pb_geometry.svh: 64 bins of 128 cycles with 16-bit counts, hop counts 1..8, Q0.16 shares
/// and bound), 32-bit t_PDT.
module pb_search_synth (
  input  logic                                            clk_i,
  input  logic                                            rst_ni,
  input  logic [`PB_MAX_HOPS*`PB_FRAC_BITS-1:0]     hop_share_i,
  input  logic [`PB_FRAC_BITS-1:0]                     bound_i,
  input  logic [31:0]                                     x_over_tw_i,
  input  logic [`PB_NUM_BINS*`PB_COUNTER_WIDTH-1:0] counts_i,
  input  logic           active_i,
  input  logic           start_i,
  output logic           busy_o,
  output logic           done_o,
  output logic [31:0]    pdt_cycles_o
);
  pb_search #(
    .NumBins      (`PB_NUM_BINS),
    .CounterWidth (`PB_COUNTER_WIDTH),
    .BinCycles    (`PB_BIN_CYCLES),
    .MaxHops      (`PB_MAX_HOPS),
    .FracBits     (`PB_FRAC_BITS),
    .TimerWidth   (32)
  ) u_search (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .hop_share_i  (hop_share_i),
    .bound_i      (bound_i),
    .x_over_tw_i  (x_over_tw_i),
    .counts_i     (counts_i),
    .active_i     (active_i),
    .start_i      (start_i),
    .busy_o       (busy_o),
    .done_o       (done_o),
    .pdt_cycles_o (pdt_cycles_o),
    // Debug outputs are left open: synthesis removes the logic only they use.
    /* verilator lint_off PINCONNECTEMPTY */
    .recomputed_o (),
    .limit_o      (),
    .bin_o        ()
    /* verilator lint_on PINCONNECTEMPTY */
  );
endmodule
`default_nettype wire
