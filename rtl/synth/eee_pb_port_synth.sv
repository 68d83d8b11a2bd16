`default_nettype none
`include "pb_geometry.svh"
/// Synthesis wrapper: a whole EEE port with PerfBound / PerfBoundCorrect as the network uses it
/// (eee_pb_port defaults from rtl/eee/pb_geometry.svh: 64 bins of 128 cycles, 16-bit counters,
/// self-clearing after 250 values, h_maxval 8191 cycles, 8 hop shares in Q0.16, n_R = 16), i.e.
/// what each port adds in hardware.
/// Storage (paper 3.3): 64 bins x 16 bits = 1024 bits (w_counter x n_bins) + 16-bit hit/miss register + 16 x 14-bit log2 ratios = 240 bits (3.4); memory bits also count the ROM tables
module eee_pb_port_synth (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         master_i,
  input  logic         lpi_deep_i,
  input  logic [7:0]   latency_i,
  input  logic [23:0]  sleep_cycles_i,
  input  logic [23:0]  wake_cycles_i,
  input  logic [31:0]  pdt_cycles_i,
  input  logic [15:0]  tx_queue_i,
  input  logic         tx_busy_i,
  input  logic         rx_busy_i,
  input  logic [2:0]   ctl_rx_i,
  input  logic [1:0]   policy_i,
  input  logic [`PB_MAX_HOPS*`PB_FRAC_BITS-1:0] hop_share_i,
  input  logic [`PB_FRAC_BITS-1:0] bound_i,
  input  logic [31:0]  x_over_tw_i,
  input  logic [31:0]  now_i,
  input  logic         search_i,
  output logic [2:0]   ctl_tx_o,
  output logic         tx_en_o,
  output logic [1:0]   power_o
);
  eee_pb_port u_port (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .master_i        (master_i),
    .lpi_deep_i      (lpi_deep_i),
    .latency_i       (latency_i),
    .sleep_cycles_i  (sleep_cycles_i),
    .wake_cycles_i   (wake_cycles_i),
    .pdt_cycles_i    (pdt_cycles_i),
    .tx_queue_i      (tx_queue_i),
    .tx_busy_i       (tx_busy_i),
    .rx_busy_i       (rx_busy_i),
    .ctl_rx_i        (ctl_rx_i),
    .ctl_tx_o        (ctl_tx_o),
    .tx_en_o         (tx_en_o),
    .power_o         (power_o),
    .policy_i        (policy_i),
    .hop_share_i     (hop_share_i),
    .bound_i         (bound_i),
    .x_over_tw_i     (x_over_tw_i),
    .now_i           (now_i),
    .search_i        (search_i),
    // Debug outputs are left open: synthesis removes the logic only they use.
    /* verilator lint_off PINCONNECTEMPTY */
    .hs_state_o      (),
    .sync_count_o    (),
    .go_o            (),
    .seq_state_o     (),
    .trans_count_o   (),
    .pdt_armed_o     (),
    .pdt_count_o     (),
    .trans_until_o   (),
    .pdt_deadline_o  (),
    .pdt_fired_o     (),
    .pdt_never_o     (),
    .pdt_applied_o   (),
    .pdt_search_o    (),
    .cf_o            (),
    .idle_o          (),
    .idle_count_o    (),
    .search_busy_o   (),
    .slept_o         (),
    .outcome_o       (),
    .miss_o          ()
    /* verilator lint_on PINCONNECTEMPTY */
  );
endmodule
`default_nettype wire
