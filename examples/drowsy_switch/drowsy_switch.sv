`default_nettype none
/// A switch whose idle outputs doze: the example of a switch controller declared by a manifest
/// (controller.yaml beside it), with no C++ of its own. Each output port decides for itself
/// (drowsy_port); the switch tells the harness the earliest cycle on which one acts.
module drowsy_switch #(
  parameter int unsigned Ports = 8
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // Straps
  input  logic [Ports-1:0]    ports_i,        // the ports with a link
  input  logic [23:0]         idle_cycles_i,  // N: idle cycles before a port sleeps (2 at the least)
  input  logic [23:0]         wake_cycles_i,  // cycles from asleep to awake
  // Time base and observables
  input  logic [31:0]         now_i,
  input  logic [16*Ports-1:0] tx_queue_i,
  input  logic [Ports-1:0]    tx_busy_i,
  input  logic [Ports-1:0]    rx_busy_i,
  output logic [Ports-1:0]    tx_en_o,
  output logic [2*Ports-1:0]  power_o,        // per port, as drowsy_port's
  // Debug: the contract's deadline (simulation only)
  output logic [31:0]         deadline_o,
  output logic                deadline_valid_o
);
  logic [32*Ports-1:0] due;  // per port, 32 bits each
  logic [Ports-1:0]    due_valid;

  for (genvar p = 0; p < Ports; p++) begin : gen_port
    logic queued;
    assign queued = tx_queue_i[16*p +: 16] != '0;
    drowsy_port u_port (
      .clk_i         (clk_i),
      .rst_ni        (rst_ni),
      .link_i        (ports_i[p]),
      .idle_cycles_i (idle_cycles_i),
      .wake_cycles_i (wake_cycles_i),
      .now_i         (now_i),
      .queued_i      (queued),
      .active_i      (queued || tx_busy_i[p] || rx_busy_i[p]),
      .tx_en_o       (tx_en_o[p]),
      .power_o       (power_o[2*p +: 2]),
      .due_o         (due[32*p +: 32]),
      .due_valid_o   (due_valid[p])
    );
  end

  // The earliest port's (the ports' cycles lie within 2^24 of each other: compared modulo 2^32).
  always_comb begin
    deadline_valid_o = 1'b0;
    deadline_o       = '0;
    for (int p = 0; p < Ports; p++) begin
      if (due_valid[p] && (!deadline_valid_o || $signed(due[32*p +: 32] - deadline_o) < 0)) begin
        deadline_valid_o = 1'b1;
        deadline_o       = due[32*p +: 32];
      end
    end
  end
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
