`default_nettype none
/// Windowed utilisation meter of one link: counts the flits sent and the cycles the link could
/// send during a window, and holds both totals from the end of one window to the end of the next.
/// Utilisation = busy / usable, compared by the caller in fixed point (no divider here).
/// No register moves while the link is quiet: usable cycles are measured on the time base now_i
/// (the cycle usable_i last changed, or the window started), not counted one by one.
module util_meter #(
  /// Width of the counters and of the time base: a window must not exceed 2^CountWidth - 1 cycles.
  parameter int unsigned CountWidth = 16
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Time base: the current cycle (modulo 2^CountWidth)
  input  logic [CountWidth-1:0] now_i,
  // Per cycle
  input  logic                  busy_i,        // a flit left on the link
  input  logic                  usable_i,      // the link could carry a flit
  input  logic                  window_end_i,  // last cycle of the window
  // Totals of the last complete window
  output logic [CountWidth-1:0] busy_o,
  output logic [CountWidth-1:0] usable_o
);
  logic [CountWidth-1:0] busy_q, busy_d, usable_q, usable_d, since_q, since_d;
  logic [CountWidth-1:0] busy_total_q, busy_total_d, usable_total_q, usable_total_d;
  logic                  was_usable_q, was_usable_d;
  logic [CountWidth-1:0] closed;  // usable cycles from since_q to the previous cycle

  // usable_q holds the usable cycles of the window before since_q; was_usable_q is usable_i from
  // since_q to the previous cycle.
  assign closed = was_usable_q ? now_i - since_q : '0;

  always_comb begin
    busy_d         = busy_q + {{(CountWidth-1){1'b0}}, busy_i};
    usable_d       = usable_q;
    since_d        = since_q;
    was_usable_d   = usable_i;
    busy_total_d   = busy_total_q;
    usable_total_d = usable_total_q;
    if (window_end_i) begin
      busy_total_d   = busy_d;
      usable_total_d = usable_q + closed + {{(CountWidth-1){1'b0}}, usable_i};
      busy_d         = '0;
      usable_d       = '0;
      since_d        = now_i + 1'b1;
    end else if (usable_i != was_usable_q) begin
      usable_d = usable_q + closed;
      since_d  = now_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q         <= '0;
      usable_q       <= '0;
      since_q        <= '0;
      was_usable_q   <= 1'b0;
      busy_total_q   <= '0;
      usable_total_q <= '0;
    end else begin
      busy_q         <= busy_d;
      usable_q       <= usable_d;
      since_q        <= since_d;
      was_usable_q   <= was_usable_d;
      busy_total_q   <= busy_total_d;
      usable_total_q <= usable_total_d;
    end
  end

  assign busy_o   = busy_total_q;
  assign usable_o = usable_total_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    // A flit needs a usable link, and the counters never wrap inside a window.
    if (rst_ni) begin
      if (busy_i) assert (usable_i);
      assert (busy_q != '1);
    end
  end
`endif
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
