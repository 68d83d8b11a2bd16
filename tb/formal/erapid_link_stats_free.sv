`default_nettype none
/// Stand-in for rtl/erapid/erapid_link_stats.sv in the E-RAPID ring proof (scripts/formal.py): the
/// same ports, but every window total is free on every cycle. A property proved for any statistics
/// holds for the ones the counters make: the reconfiguration controllers may classify each source
/// and scale each laser in any way, and the counters (most of a board's state) stay out of the proof.
module erapid_link_stats #(
  parameter int unsigned TimeWidth = 16,
  parameter int unsigned QueueWidth = 8
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic [TimeWidth-1:0]            now_i,
  input  logic                            sent_i,
  input  logic [QueueWidth-1:0]           queue_i,
  input  logic                            sample_i,
  output logic [TimeWidth-1:0]            window_o,
  output logic [TimeWidth-1:0]            busy_o,
  output logic [TimeWidth+QueueWidth-1:0] occupancy_o
);
  (* anyseq *) logic [TimeWidth-1:0]            f_window, f_busy;
  (* anyseq *) logic [TimeWidth+QueueWidth-1:0] f_occupancy;
  assign window_o    = f_window;
  assign busy_o      = f_busy;
  assign occupancy_o = f_occupancy;

  logic f_unused;
  assign f_unused = &{1'b0, clk_i, rst_ni, now_i, sent_i, queue_i, sample_i};
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
