`default_nettype none
/// Power-down-threshold (PDT) timer of one EEE port.
/// Armed with t_PDT when the last flit of the output queue leaves, cancelled when a packet enters
/// the queue or a flit is received, and reports expiry (a power-down request) until it is consumed.
/// t_PDT = 0 expires on the cycle after arming; t_PDT = all ones never expires.
/// No register moves while it waits: arming stores the cycle of expiry, and the timer compares the
/// time base now_i with it. The harness must therefore evaluate it on that cycle (deadline_o);
/// after it the expiry is held in a register.
module eee_pdt_timer #(
  /// Width of the threshold, the time base and the deadline (32 bits = 4.295 s at 1 ns).
  parameter int unsigned TimerWidth = 32
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Time base: the current cycle (modulo 2^TimerWidth)
  input  logic [TimerWidth-1:0] now_i,
  // Threshold in cycles
  input  logic [TimerWidth-1:0] pdt_cycles_i,
  // Events
  input  logic                  arm_i,
  input  logic                  cancel_i,
  input  logic                  consume_i,   // the expiry has been acted on
  // Status
  output logic                  armed_o,
  output logic                  expired_o,
  output logic [TimerWidth-1:0] count_o,     // cycles left while armed, else 0
  // Registers, for the harness: the cycle of expiry, and whether it has passed or never comes
  output logic [TimerWidth-1:0] deadline_o,
  output logic                  fired_o,
  output logic                  never_o
);
  localparam logic [TimerWidth-1:0] Never = '1;

  logic                  armed_q, armed_d, fired_q, fired_d, never_q, never_d;
  logic [TimerWidth-1:0] deadline_q, deadline_d;
  logic                  due;

  assign due = armed_q && !never_q && (fired_q || now_i == deadline_q);

  always_comb begin
    armed_d    = armed_q;
    fired_d    = fired_q;
    never_d    = never_q;
    deadline_d = deadline_q;
    if (cancel_i) begin
      armed_d = 1'b0;
      fired_d = 1'b0;
    end else if (arm_i) begin
      armed_d    = 1'b1;
      fired_d    = 1'b0;
      never_d    = (pdt_cycles_i == Never);
      deadline_d = now_i + pdt_cycles_i + 1'b1;
    end else if (due) begin
      armed_d = !consume_i;
      fired_d = !consume_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      armed_q    <= 1'b0;
      fired_q    <= 1'b0;
      never_q    <= 1'b0;
      deadline_q <= '0;
    end else begin
      armed_q    <= armed_d;
      fired_q    <= fired_d;
      never_q    <= never_d;
      deadline_q <= deadline_d;
    end
  end

  assign armed_o    = armed_q;
  assign expired_o  = due;
  assign count_o    = !armed_q || due ? '0 : never_q ? Never : deadline_q - now_i;
  assign deadline_o = deadline_q;
  assign fired_o    = fired_q;
  assign never_o    = never_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    // Expiry is recorded only on the deadline's cycle.
    if (rst_ni && fired_d && !fired_q) assert (now_i == deadline_q);
  end
`endif
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
