`default_nettype none
/// Window statistics of one E-RAPID laser, the link controller's hardware counters: over the
/// window that a LinkRequest closes (sample_i), the cycles the laser sent a flit (Link_util =
/// busy / window) and the sum over cycles of the packets waiting in its transmitter queue
/// (Buffer_util = occupancy / (queue capacity x window)). The totals of the last complete window
/// are held until the next sample; the caller compares them in fixed point (no divider here).
/// The window's length comes from the time base: no register moves while the laser is idle and
/// its queue empty.
module erapid_link_stats #(
  /// Width of the time base and of the busy count (a window < 2^TimeWidth cycles).
  parameter int unsigned TimeWidth = 16,
  /// Width of the queue occupancy (packets).
  parameter int unsigned QueueWidth = 8
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  // Time base: the current cycle (modulo 2^TimeWidth)
  input  logic [TimeWidth-1:0]            now_i,
  // Harness observables, per cycle
  input  logic                            sent_i,    // a flit started on the laser
  input  logic [QueueWidth-1:0]           queue_i,   // packets waiting for the laser
  // The LinkRequest passes: this cycle is the last of the window
  input  logic                            sample_i,
  // Totals of the last complete window
  output logic [TimeWidth-1:0]            window_o,     // cycles
  output logic [TimeWidth-1:0]            busy_o,       // cycles with a flit sent
  output logic [TimeWidth+QueueWidth-1:0] occupancy_o   // packet-cycles waiting
);
  localparam int unsigned SumWidth = TimeWidth + QueueWidth;

  logic [TimeWidth-1:0] start_q, start_d, busy_q, busy_d, window_total_q, window_total_d;
  logic [TimeWidth-1:0] busy_total_q, busy_total_d;
  logic [SumWidth-1:0]  occ_q, occ_d, occ_total_q, occ_total_d;

  always_comb begin
    busy_d         = busy_q + {{(TimeWidth-1){1'b0}}, sent_i};
    occ_d          = occ_q + {{TimeWidth{1'b0}}, queue_i};
    start_d        = start_q;
    window_total_d = window_total_q;
    busy_total_d   = busy_total_q;
    occ_total_d    = occ_total_q;
    if (sample_i) begin
      window_total_d = now_i - start_q + 1'b1;
      busy_total_d   = busy_d;
      occ_total_d    = occ_d;
      busy_d         = '0;
      occ_d          = '0;
      start_d        = now_i + 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      start_q        <= '0;
      busy_q         <= '0;
      occ_q          <= '0;
      window_total_q <= '0;
      busy_total_q   <= '0;
      occ_total_q    <= '0;
    end else begin
      start_q        <= start_d;
      busy_q         <= busy_d;
      occ_q          <= occ_d;
      window_total_q <= window_total_d;
      busy_total_q   <= busy_total_d;
      occ_total_q    <= occ_total_d;
    end
  end

  assign window_o    = window_total_q;
  assign busy_o      = busy_total_q;
  assign occupancy_o = occ_total_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    // The counters never wrap inside a window.
    if (rst_ni) begin
      assert (busy_q != '1);
      assert (occ_q <= occ_d || sample_i);
    end
  end
`endif
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
