`default_nettype none
/// Windowed utilisation meter of one link: counts the flits sent and the cycles the link could
/// send during a window, and holds both totals from the end of one window to the end of the next.
/// Utilisation = busy / usable, compared by the caller in fixed point (no divider here).
module util_meter #(
  /// Width of the counters: a window must not exceed 2^CountWidth - 1 cycles.
  parameter int unsigned CountWidth = 16
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Per cycle
  input  logic                  busy_i,        // a flit left on the link
  input  logic                  usable_i,      // the link could carry a flit
  input  logic                  window_end_i,  // last cycle of the window
  // Totals of the last complete window
  output logic [CountWidth-1:0] busy_o,
  output logic [CountWidth-1:0] usable_o
);
  logic [CountWidth-1:0] busy_q, busy_d, usable_q, usable_d;
  logic [CountWidth-1:0] busy_total_q, busy_total_d, usable_total_q, usable_total_d;

  always_comb begin
    busy_d         = busy_q + {{(CountWidth-1){1'b0}}, busy_i};
    usable_d       = usable_q + {{(CountWidth-1){1'b0}}, usable_i};
    busy_total_d   = busy_total_q;
    usable_total_d = usable_total_q;
    if (window_end_i) begin
      busy_total_d   = busy_d;
      usable_total_d = usable_d;
      busy_d         = '0;
      usable_d       = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q         <= '0;
      usable_q       <= '0;
      busy_total_q   <= '0;
      usable_total_q <= '0;
    end else begin
      busy_q         <= busy_d;
      usable_q       <= usable_d;
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
      assert (usable_q != '1);
    end
  end
`endif
endmodule
`default_nettype wire
