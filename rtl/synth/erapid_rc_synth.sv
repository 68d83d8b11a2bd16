`default_nettype none
/// Synthesis wrapper: the E-RAPID reconfiguration controller of the paper's 64-node system (B = 8
/// boards, 64 lasers per board), six power levels, 16-bit time base and window counts, 8-bit
/// transmitter-queue occupancy: the configuration the network simulates (sysc/mech/erapid/).
module erapid_rc_synth (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic [15:0]  now_i,
  input  logic [2:0]   board_i,
  input  logic [15:0]  rw_cycles_i,
  input  logic         dbr_i,
  input  logic         dpm_i,
  input  logic [3:0]   degree_i,
  input  logic [7:0]   capacity_i,
  input  logic [8:0]   l_min_i,
  input  logic [8:0]   b_min_i,
  input  logic [8:0]   b_max_i,
  input  logic [8:0]   b_con_i,
  output logic         chain_valid_o,
  output logic [1:0]   chain_kind_o,
  output logic [56:0]  chain_data_o,
  input  logic         chain_valid_i,
  input  logic [1:0]   chain_kind_i,
  input  logic [56:0]  chain_data_i,
  output logic         ring_valid_o,
  output logic [1:0]   ring_kind_o,
  output logic [53:0]  ring_data_o,
  input  logic         ring_valid_i,
  input  logic [1:0]   ring_kind_i,
  input  logic [53:0]  ring_data_i,
  output logic [15:0]  deadline_o,
  output logic [63:0]  on_o,
  output logic [191:0] level_o
);
  erapid_rc #(
    .Boards     (8),
    .TimeWidth  (16),
    .QueueWidth (8),
    .Levels     (6)
  ) u_rc (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .now_i         (now_i),
    .board_i       (board_i),
    .rw_cycles_i   (rw_cycles_i),
    .dbr_i         (dbr_i),
    .dpm_i         (dpm_i),
    .degree_i      (degree_i),
    .capacity_i    (capacity_i),
    .l_min_i       (l_min_i),
    .b_min_i       (b_min_i),
    .b_max_i       (b_max_i),
    .b_con_i       (b_con_i),
    .chain_valid_o (chain_valid_o),
    .chain_kind_o  (chain_kind_o),
    .chain_data_o  (chain_data_o),
    .chain_valid_i (chain_valid_i),
    .chain_kind_i  (chain_kind_i),
    .chain_data_i  (chain_data_i),
    .ring_valid_o  (ring_valid_o),
    .ring_kind_o   (ring_kind_o),
    .ring_data_o   (ring_data_o),
    .ring_valid_i  (ring_valid_i),
    .ring_kind_i   (ring_kind_i),
    .ring_data_i   (ring_data_i),
    // Status outputs for waveforms only: synthesis removes what only they use.
    /* verilator lint_off PINCONNECTEMPTY */
    .step_o        (),
    .owner_o       (),
    .class_o       (),
    /* verilator lint_on PINCONNECTEMPTY */
    .deadline_o    (deadline_o),
    .on_o          (on_o),
    .level_o       (level_o)
  );
endmodule
`default_nettype wire
