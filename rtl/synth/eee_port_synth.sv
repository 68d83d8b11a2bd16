`default_nettype none
/// Synthesis wrapper: eee_port with the parameters the network uses (32-bit PDT timer at the
/// cycle resolution, 24-bit transition counter, 8-bit link latency, 16-bit queue observable).
module eee_port_synth (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        master_i,
  input  logic        lpi_deep_i,
  input  logic [7:0]  latency_i,
  input  logic [23:0] sleep_cycles_i,
  input  logic [23:0] wake_cycles_i,
  input  logic [31:0] pdt_cycles_i,
  input  logic [31:0] now_i,
  input  logic [15:0] tx_queue_i,
  input  logic        tx_busy_i,
  input  logic        rx_busy_i,
  input  logic [2:0]  ctl_rx_i,
  output logic [2:0]  ctl_tx_o,
  output logic        tx_en_o,
  output logic [1:0]  power_o
);
  eee_port #(
    .TimerWidth   (32),
    .TransWidth   (24),
    .LatencyWidth (8),
    .QueueWidth   (16)
  ) u_port (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .master_i       (master_i),
    .lpi_deep_i     (lpi_deep_i),
    .latency_i      (latency_i),
    .sleep_cycles_i (sleep_cycles_i),
    .wake_cycles_i  (wake_cycles_i),
    .pdt_cycles_i   (pdt_cycles_i),
    .now_i          (now_i),
    .tx_queue_i     (tx_queue_i),
    .tx_busy_i      (tx_busy_i),
    .rx_busy_i      (rx_busy_i),
    .ctl_rx_i       (ctl_rx_i),
    .ctl_tx_o       (ctl_tx_o),
    .tx_en_o        (tx_en_o),
    .power_o        (power_o),
    // Debug outputs are left open: synthesis removes the logic only they use.
    /* verilator lint_off PINCONNECTEMPTY */
    .hs_state_o     (),
    .sync_count_o   (),
    .go_o           (),
    .seq_state_o    (),
    .trans_count_o  (),
    .pdt_armed_o    (),
    .pdt_count_o    (),
    .trans_until_o  (),
    .pdt_deadline_o (),
    .pdt_fired_o    (),
    .pdt_never_o    ()
    /* verilator lint_on PINCONNECTEMPTY */
  );
endmodule
`default_nettype wire
