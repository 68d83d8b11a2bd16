`default_nettype none
/// Synthesis wrapper: the shared link power sequencer alone, 24-bit transition times and time base.
module link_power_seq_synth (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [23:0] now_i,
  input  logic        go_off_i,
  input  logic        go_on_i,
  input  logic [23:0] off_cycles_i,
  input  logic [23:0] on_cycles_i,
  output logic [1:0]  state_o,
  output logic        on_o
);
  link_power_seq #(
    .CountWidth (24)
  ) u_seq (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .now_i        (now_i),
    .go_off_i     (go_off_i),
    .go_on_i      (go_on_i),
    .off_cycles_i (off_cycles_i),
    .on_cycles_i  (on_cycles_i),
    .state_o      (state_o),
    .on_o         (on_o),
    // Debug outputs are left open: synthesis removes the logic only they use.
    /* verilator lint_off PINCONNECTEMPTY */
    .stable_o     (),
    .count_o      (),
    .until_o      ()
    /* verilator lint_on PINCONNECTEMPTY */
  );
endmodule
`default_nettype wire
