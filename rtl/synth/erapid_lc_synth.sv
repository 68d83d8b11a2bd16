`default_nettype none
/// Synthesis wrapper: the E-RAPID link controller of the paper's 64-node system (B = 8: eight
/// lasers per transmitter, eight LCs on a board's chain), six power levels, 16-bit time base and
/// window counts, 8-bit transmitter-queue occupancy.
module erapid_lc_synth (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [15:0] now_i,
  input  logic [6:0]  lc_index_i,
  input  logic [7:0]  static_on_i,
  input  logic [15:0] vdd_cycles_i,
  input  logic [15:0] relock_cycles_i,
  input  logic [7:0]  sent_i,
  input  logic [63:0] queue_i,
  input  logic [7:0]  drained_i,
  input  logic        chain_valid_i,
  input  logic [1:0]  chain_kind_i,
  input  logic [56:0] chain_data_i,
  output logic        chain_valid_o,
  output logic [1:0]  chain_kind_o,
  output logic [56:0] chain_data_o,
  output logic [7:0]  powered_o,
  output logic [7:0]  routable_o,
  output logic [7:0]  tx_enable_o,
  output logic [23:0] rate_level_o,
  output logic [23:0] power_level_o,
  output logic [127:0] until_o
);
  erapid_lc #(
    .Lasers     (8),
    .Lcs        (8),
    .TimeWidth  (16),
    .QueueWidth (8),
    .Levels     (6)
  ) u_lc (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .now_i           (now_i),
    .lc_index_i      (lc_index_i),
    .static_on_i     (static_on_i),
    .vdd_cycles_i    (vdd_cycles_i),
    .relock_cycles_i (relock_cycles_i),
    .sent_i          (sent_i),
    .queue_i         (queue_i),
    .drained_i       (drained_i),
    .chain_valid_i   (chain_valid_i),
    .chain_kind_i    (chain_kind_i),
    .chain_data_i    (chain_data_i),
    .chain_valid_o   (chain_valid_o),
    .chain_kind_o    (chain_kind_o),
    .chain_data_o    (chain_data_o),
    .powered_o       (powered_o),
    .routable_o      (routable_o),
    .tx_enable_o     (tx_enable_o),
    .rate_level_o    (rate_level_o),
    .power_level_o   (power_level_o),
    // The lasers' states are debug outputs: synthesis removes the logic only they use.
    /* verilator lint_off PINCONNECTEMPTY */
    .laser_state_o   (),
    /* verilator lint_on PINCONNECTEMPTY */
    .until_o         (until_o)
  );
endmodule
`default_nettype wire
