`default_nettype none
/// Test fixture of the register-activity counter (tb/unit/test_register_activity.cpp): registers
/// whose toggles are easy to count by hand. An 8-bit binary counter, a 70-bit register (a VlWide
/// in the verilated model) loaded from a pattern, and a memory of 4 x 6 bits (a VlUnpacked).
module toggle_fixture (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       count_i,   // the counter adds one
  input  logic       load_i,    // the wide register takes pattern_i, repeated
  input  logic [9:0] pattern_i,
  input  logic       write_i,   // memory word addr_i takes data_i
  input  logic [1:0] addr_i,
  input  logic [5:0] data_i,
  output logic [7:0] count_o,
  output logic [69:0] wide_o,
  output logic [5:0] word_o
);
  logic [7:0]  count_q;
  logic [69:0] wide_q;
  logic [5:0]  mem_q [4];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
      wide_q  <= '0;
    end else begin
      if (count_i) count_q <= count_q + 8'd1;
      if (load_i) wide_q <= {7{pattern_i}};
    end
  end
  always_ff @(posedge clk_i) begin
    if (write_i) mem_q[addr_i] <= data_i;
  end

  assign count_o = count_q;
  assign wide_o  = wide_q;
  assign word_o  = mem_q[addr_i];
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
