`default_nettype none
/// Stand-in for rtl/torus/torus_swap_criterion.sv in the torus proof (scripts/formal.py): the same
/// ports, but want_o is free on every cycle. A property proved for every sequence of swap wishes
/// holds for the ones the flux counters make; the counters, the LFSR and the thresholds (most of
/// the controller's state) stay out of the proof.
module torus_swap_criterion #(
  parameter int unsigned CountWidth = 16,
  parameter int unsigned TimeWidth = 16,
  localparam int unsigned BackWidth = CountWidth + 8,
  localparam int unsigned MWidth = CountWidth + 10
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [TimeWidth-1:0]  now_i,
  input  logic [TimeWidth-1:0]  period_i,
  input  logic [1:0]            variant_i,
  input  logic [CountWidth-1:0] threshold_i,
  input  logic [CountWidth-1:0] cost_i,
  input  logic [7:0]            extra_hops_i,
  input  logic                  back_credit_i,
  input  logic [CountWidth-1:0] step_i,
  input  logic [7:0]            rare_periods_i,
  input  logic [15:0]           seed_i,
  input  logic                  arrive_self_i,
  input  logic                  arrive_next_i,
  input  logic                  orig_near_i,
  input  logic                  orig_far_i,
  input  logic                  orig_back_i,
  input  logic [7:0]            back_hops_i,
  input  logic                  swapped_i,
  input  logic [CountWidth-1:0] b_orig_i,
  input  logic [BackWidth-1:0]  b_back_i,
  output logic [CountWidth-1:0] self_o,
  output logic [CountWidth-1:0] next_o,
  output logic [CountWidth-1:0] near_o,
  output logic [CountWidth-1:0] far_o,
  output logic [BackWidth-1:0]  back_o,
  output logic signed [MWidth-1:0] m_o,
  output logic [CountWidth-1:0] threshold_o,
  output logic                  want_o,
  output logic [TimeWidth-1:0]  deadline_o,
  output logic                  busy_o
);
  (* anyseq *) logic want;
  assign want_o = want;
  assign {self_o, next_o, near_o, far_o, back_o, m_o, threshold_o, deadline_o, busy_o} = '0;
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
