`default_nettype none
/// A switch controller that breaks the contract on purpose, for the harness's check to catch
/// (tb/net/test_declared_network.cpp): with mode_i 1 every output says it is asleep and sends
/// anyway; with mode_i 2 it names a power state it did not declare after a flit, with mode_i 3 from
/// reset. Mode 0 keeps the contract.
module careless_switch #(
  parameter int unsigned Ports = 8
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [1:0]          mode_i,
  input  logic [31:0]         now_i,
  input  logic [16*Ports-1:0] tx_queue_i,
  input  logic [Ports-1:0]    tx_busy_i,
  input  logic [Ports-1:0]    rx_busy_i,
  output logic [Ports-1:0]    tx_en_o,
  output logic [2*Ports-1:0]  power_o,
  // Debug: the contract's deadline (simulation only)
  output logic [31:0]         deadline_o,
  output logic                deadline_valid_o
);
  logic sent_q;  // a flit left last cycle (a register for the harness to watch)

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) sent_q <= 1'b0;
    else         sent_q <= |tx_busy_i;
  end

  assign tx_en_o          = '1;
  assign power_o          = {Ports{mode_i == 2'd1 ? 2'd1 : (mode_i == 2'd2 && sent_q) || mode_i == 2'd3 ? 2'd3 : 2'd0}};
  assign deadline_o       = '0;
  assign deadline_valid_o = 1'b0;

  logic unused;
  assign unused = ^{now_i, tx_queue_i, rx_busy_i};
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
