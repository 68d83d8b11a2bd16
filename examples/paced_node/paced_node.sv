`default_nettype none
/// A node that paces its injection: the example of a node controller declared by a manifest
/// (controller.yaml beside it), with no C++ of its own. After each flit the node sends into the
/// network it holds its output for gap_cycles_i cycles: at most one flit every gap_cycles_i + 1
/// cycles leaves the node, whatever the traffic offers.
module paced_node (
  input  logic        clk_i,
  input  logic        rst_ni,
  // Strap
  input  logic [15:0] gap_cycles_i,  // cycles held after each flit sent
  // Time base and observables
  input  logic [31:0] now_i,
  input  logic [15:0] tx_queue_i,    // packets waiting at the node (not read: pacing is per flit)
  input  logic        tx_busy_i,
  input  logic        rx_busy_i,     // (not read: delivery is not paced)
  output logic        tx_en_o,
  output logic        power_o,       // one power state: 0
  // Debug: the contract's deadline (simulation only)
  output logic [31:0] deadline_o,
  output logic        deadline_valid_o
);
  typedef enum logic [0:0] {
    Free    = 1'b0,  // may send
    Holding = 1'b1   // sent a flit: holds until until_q
  } state_e;

  state_e      state_q, state_d;
  logic [31:0] until_q, until_d;  // Holding: the last cycle held

  always_comb begin
    state_d = state_q;
    until_d = until_q;
    if (tx_busy_i && gap_cycles_i != '0) begin
      state_d = Holding;
      until_d = now_i + {16'd0, gap_cycles_i};
    end else if (state_q == Holding && now_i == until_q) begin
      state_d = Free;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= Free;
      until_q <= '0;
    end else begin
      state_q <= state_d;
      until_q <= until_d;
    end
  end

  assign tx_en_o          = state_q == Free;
  assign power_o          = 1'b0;
  assign deadline_valid_o = state_q == Holding;
  assign deadline_o       = until_q;

  logic unused;
  assign unused = ^{tx_queue_i, rx_busy_i};
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
