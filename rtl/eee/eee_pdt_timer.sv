`default_nettype none
/// Power-down-threshold (PDT) timer of one EEE port.
/// Armed with t_PDT when the last flit of the output queue leaves, cancelled when a packet enters
/// the queue or a flit is received, and reports expiry (a power-down request) once.
/// t_PDT = 0 expires on the cycle after arming; t_PDT = all ones never expires.
module eee_pdt_timer #(
  /// Width of the threshold register and the countdown (32 bits = 4.295 s at 1 ns).
  parameter int unsigned TimerWidth = 32
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Threshold in cycles
  input  logic [TimerWidth-1:0] pdt_cycles_i,
  // Events
  input  logic                  arm_i,
  input  logic                  cancel_i,
  input  logic                  consume_i,   // the expiry has been acted on
  // Status
  output logic                  armed_o,
  output logic                  expired_o,
  output logic [TimerWidth-1:0] count_o
);
  localparam logic [TimerWidth-1:0] Never = '1;

  logic                  armed_q, armed_d;
  logic [TimerWidth-1:0] count_q, count_d;

  always_comb begin
    armed_d = armed_q;
    count_d = count_q;
    if (cancel_i) begin
      armed_d = 1'b0;
    end else if (arm_i) begin
      armed_d = 1'b1;
      count_d = pdt_cycles_i;
    end else if (armed_q) begin
      if (count_q == '0) begin
        if (consume_i) armed_d = 1'b0;
      end else if (count_q != Never) begin
        count_d = count_q - 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      armed_q <= 1'b0;
      count_q <= '0;
    end else begin
      armed_q <= armed_d;
      count_q <= count_d;
    end
  end

  assign armed_o   = armed_q;
  assign expired_o = armed_q && (count_q == '0);
  assign count_o   = count_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    // The countdown never wraps: it only decrements from a non-zero value.
    if (rst_ni && armed_q && !arm_i && !cancel_i) assert (count_d <= count_q);
  end
`endif
endmodule
`default_nettype wire
