`default_nettype none
/// Synthesis wrapper: one E-RAPID laser sequencer as the link controller uses it, six power
/// levels, 16-bit time base and step times.
module erapid_laser_seq_synth (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [15:0] now_i,
  input  logic        on_i,
  input  logic [2:0]  level_i,
  input  logic        drained_i,
  input  logic [15:0] vdd_cycles_i,
  input  logic [15:0] relock_cycles_i,
  output logic        powered_o,
  output logic        routable_o,
  output logic        tx_enable_o,
  output logic [2:0]  rate_level_o,
  output logic [2:0]  power_level_o,
  output logic [15:0] until_o
);
  erapid_laser_seq #(
    .TimeWidth (16),
    .Levels    (6)
  ) u_laser (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .now_i           (now_i),
    .on_i            (on_i),
    .level_i         (level_i),
    .drained_i       (drained_i),
    .vdd_cycles_i    (vdd_cycles_i),
    .relock_cycles_i (relock_cycles_i),
    // The state is a debug output: synthesis removes the logic only it uses.
    /* verilator lint_off PINCONNECTEMPTY */
    .state_o         (),
    /* verilator lint_on PINCONNECTEMPTY */
    .powered_o       (powered_o),
    .routable_o      (routable_o),
    .tx_enable_o     (tx_enable_o),
    .rate_level_o    (rate_level_o),
    .power_level_o   (power_level_o),
    .until_o         (until_o)
  );
endmodule
`default_nettype wire
