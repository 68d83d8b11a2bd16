`default_nettype none
/// Synthesis wrapper: the PDT timer alone, 32 bits (4.295 s at 1 ns per cycle) and a 32-bit time base.
module eee_pdt_timer_synth (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [31:0] now_i,
  input  logic [31:0] pdt_cycles_i,
  input  logic        arm_i,
  input  logic        cancel_i,
  input  logic        consume_i,
  output logic        expired_o
);
  eee_pdt_timer #(
    .TimerWidth (32)
  ) u_pdt (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .now_i        (now_i),
    .pdt_cycles_i (pdt_cycles_i),
    .arm_i        (arm_i),
    .cancel_i     (cancel_i),
    .consume_i    (consume_i),
    // Debug outputs are left open: synthesis removes the logic only they use.
    /* verilator lint_off PINCONNECTEMPTY */
    .armed_o      (),
    .count_o      (),
    .deadline_o   (),
    .fired_o      (),
    .never_o      (),
    /* verilator lint_on PINCONNECTEMPTY */
    .expired_o    (expired_o)
  );
endmodule
`default_nettype wire
