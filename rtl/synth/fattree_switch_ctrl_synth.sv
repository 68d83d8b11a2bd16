`default_nettype none
/// Synthesis wrapper: the on/off controller of one 4-ary switch (8 links), 16-bit check period,
/// meters and transition times, Q0.16 thresholds.
module fattree_switch_ctrl_synth (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [15:0] now_i,
  input  logic        check_i,
  input  logic        in_mt_i,
  input  logic        is_root_i,
  input  logic [7:0]  connected_i,
  input  logic [15:0] u_off_i,
  input  logic [15:0] u_on_i,
  input  logic        occupancy_i,
  input  logic [15:0] t_on_i,
  input  logic [15:0] t_off_i,
  input  logic [7:0]  busy_i,
  input  logic [7:0]  committed_i,
  input  logic [7:0]  in_active_i,
  input  logic        empty_i,
  input  logic        need_up_i,
  output logic [7:0]  active_o,
  output logic [7:0]  routable_o,
  output logic [7:0]  tx_en_o,
  output logic [7:0]  powered_o
);
  fattree_switch_ctrl #(
    .Arity      (4),
    .CountWidth (16),
    .TransWidth (16),
    .FracBits   (16)
  ) u_ctrl (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .now_i          (now_i),
    .check_i        (check_i),
    .in_mt_i        (in_mt_i),
    .is_root_i      (is_root_i),
    .connected_i    (connected_i),
    .u_off_i        (u_off_i),
    .u_on_i         (u_on_i),
    .occupancy_i    (occupancy_i),
    .t_on_i         (t_on_i),
    .t_off_i        (t_off_i),
    .busy_i         (busy_i),
    .committed_i    (committed_i),
    .in_active_i    (in_active_i),
    .empty_i        (empty_i),
    .need_up_i      (need_up_i),
    .active_o       (active_o),
    .routable_o     (routable_o),
    .tx_en_o        (tx_en_o),
    .powered_o      (powered_o),
    // Debug outputs are left open: synthesis removes the logic only they use.
    /* verilator lint_off PINCONNECTEMPTY */
    .link_state_o   (),
    .up_busy_o      (),
    .up_usable_o    (),
    .decision_o     ()
    /* verilator lint_on PINCONNECTEMPTY */
  );
endmodule
`default_nettype wire
