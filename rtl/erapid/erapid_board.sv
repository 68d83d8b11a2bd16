`default_nettype none
/// The E-RAPID control plane of one board, as the network runs it: the reconfiguration controller
/// and its chain of Boards link controllers (RC -> LC0 -> ... -> LC{B-1} -> RC), with the ring to
/// the neighbouring boards' RCs left outside. Laser i = x*B + y is laser y of LC x (transmitter x,
/// wavelength x, toward board y); lasers lit statically are those of erapid_rc's assignment.
module erapid_board #(
  parameter int unsigned Boards = 8,
  parameter int unsigned TimeWidth = 16,
  parameter int unsigned QueueWidth = 8,
  parameter int unsigned Levels = 6,
  localparam int unsigned BoardWidth = $clog2(Boards),
  localparam int unsigned Slots = Boards * Boards,
  localparam int unsigned ChainWidth = 1 + 3 * TimeWidth + QueueWidth,
  localparam int unsigned RingWidth = Boards + (TimeWidth + BoardWidth) + (TimeWidth + QueueWidth + BoardWidth)
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic [TimeWidth-1:0]         now_i,
  // Straps
  input  logic [BoardWidth-1:0]        board_i,
  input  logic [TimeWidth-1:0]         rw_cycles_i,
  input  logic                         dbr_i,
  input  logic                         dpm_i,
  input  logic [BoardWidth:0]          degree_i,
  input  logic [QueueWidth-1:0]        capacity_i,
  input  logic [8:0]                   l_min_i,
  input  logic [8:0]                   b_min_i,
  input  logic [8:0]                   b_max_i,
  input  logic [8:0]                   b_con_i,
  input  logic [TimeWidth-1:0]         vdd_cycles_i,
  input  logic [TimeWidth-1:0]         relock_cycles_i,
  // Harness observables, per laser
  input  logic [Slots-1:0]             sent_i,
  input  logic [Slots*QueueWidth-1:0]  queue_i,
  input  logic [Slots-1:0]             drained_i,
  // Ring
  output logic                         ring_valid_o,
  output logic [1:0]                   ring_kind_o,   // enum: chain_kind_e
  output logic [RingWidth-1:0]         ring_data_o,
  input  logic                         ring_valid_i,
  input  logic [1:0]                   ring_kind_i,   // enum: chain_kind_e
  input  logic [RingWidth-1:0]         ring_data_i,
  // Per laser, to the harness
  output logic [Slots-1:0]             powered_o,
  output logic [Slots-1:0]             routable_o,
  output logic [Slots-1:0]             tx_enable_o,
  output logic [Slots*3-1:0]           rate_level_o,
  output logic [Slots*3-1:0]           power_level_o,
  output logic [Slots*TimeWidth-1:0]   until_o,
  // The RC's status
  output logic [TimeWidth-1:0]         deadline_o,
  output logic [Slots-1:0]             on_o,
  output logic [Slots*3-1:0]           level_o,
  // Debug: the lasers' and the RC's states (the harness reads them to know when the board rests)
  output logic [Slots*3-1:0]           laser_state_o, // 3 bits per laser, enum: laser_state_e
  output logic [2:0]                   step_o,        // enum: rc_step_e
  output logic [Boards*BoardWidth-1:0] owner_o,
  output logic [Boards*2-1:0]          class_o

`ifdef FORMAL
  ,
  // For the ring's proof (scripts/formal.py): each laser's command at its LC, and no word on the
  // chain or the ring and no re-allocation under way
  output logic [Slots-1:0]             f_on_o,
  output logic                         f_quiet_o,
  output logic [Boards*BoardWidth-1:0] f_owner_o,  // the RC's owners, relative to this board
  output logic [TimeWidth-1:0]         f_window_end_o, // the RC's last window end
  output logic [Slots-1:0]             f_lit_o         // the RC's lasers lit at the last LinkRequest
`endif
);
  localparam int unsigned SlotWidth = $clog2(Slots + 1);

  // Chain hop h: from the RC (h = 0) or LC h-1, into LC h (h < Boards) or the RC (h = Boards).
  logic [Boards:0]              hop_valid;
  logic [(Boards+1)*2-1:0]      hop_kind;
  logic [(Boards+1)*ChainWidth-1:0] hop_data;

`ifdef FORMAL
  logic f_rc_quiet;
  assign f_quiet_o = f_rc_quiet && hop_valid == '0 && !ring_valid_o;
`endif

  erapid_rc #(
    .Boards     (Boards),
    .TimeWidth  (TimeWidth),
    .QueueWidth (QueueWidth),
    .Levels     (Levels)
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
    .chain_valid_o (hop_valid[0]),
    .chain_kind_o  (hop_kind[0 +: 2]),
    .chain_data_o  (hop_data[0 +: ChainWidth]),
    .chain_valid_i (hop_valid[Boards]),
    .chain_kind_i  (hop_kind[Boards*2 +: 2]),
    .chain_data_i  (hop_data[Boards*ChainWidth +: ChainWidth]),
    .ring_valid_o  (ring_valid_o),
    .ring_kind_o   (ring_kind_o),
    .ring_data_o   (ring_data_o),
    .ring_valid_i  (ring_valid_i),
    .ring_kind_i   (ring_kind_i),
    .ring_data_i   (ring_data_i),
    .step_o        (step_o),
    .deadline_o    (deadline_o),
    .owner_o       (owner_o),
    .class_o       (class_o),
    .on_o          (on_o),
    .level_o       (level_o)

`ifdef FORMAL
    ,
    .f_quiet_o     (f_rc_quiet),
    .f_owner_o     (f_owner_o),
    .f_window_end_o (f_window_end_o),
    .f_lit_o       (f_lit_o)
`endif
  );

  for (genvar x = 0; x < Boards; x++) begin : gen_lc
    // Laser y of transmitter x is lit statically at board (x + y) mod B, but for the spare (x = 0).
    logic [Boards-1:0] static_on;
    for (genvar y = 0; y < Boards; y++) begin : gen_static
      assign static_on[y] = x != 0 && BoardWidth'((x + y) % Boards) == board_i;
    end

    erapid_lc #(
      .Lasers     (Boards),
      .Lcs        (Boards),
      .TimeWidth  (TimeWidth),
      .QueueWidth (QueueWidth),
      .Levels     (Levels)
    ) u_lc (
      .clk_i           (clk_i),
      .rst_ni          (rst_ni),
      .now_i           (now_i),
      .lc_index_i      (SlotWidth'(x)),
      .static_on_i     (static_on),
      .vdd_cycles_i    (vdd_cycles_i),
      .relock_cycles_i (relock_cycles_i),
      .sent_i          (sent_i[x*Boards +: Boards]),
      .queue_i         (queue_i[x*Boards*QueueWidth +: Boards*QueueWidth]),
      .drained_i       (drained_i[x*Boards +: Boards]),
      .chain_valid_i   (hop_valid[x]),
      .chain_kind_i    (hop_kind[x*2 +: 2]),
      .chain_data_i    (hop_data[x*ChainWidth +: ChainWidth]),
      .chain_valid_o   (hop_valid[x+1]),
      .chain_kind_o    (hop_kind[(x+1)*2 +: 2]),
      .chain_data_o    (hop_data[(x+1)*ChainWidth +: ChainWidth]),
      .powered_o       (powered_o[x*Boards +: Boards]),
      .routable_o      (routable_o[x*Boards +: Boards]),
      .tx_enable_o     (tx_enable_o[x*Boards +: Boards]),
      .rate_level_o    (rate_level_o[x*Boards*3 +: Boards*3]),
      .power_level_o   (power_level_o[x*Boards*3 +: Boards*3]),
      .laser_state_o   (laser_state_o[x*Boards*3 +: Boards*3]),
      .until_o         (until_o[x*Boards*TimeWidth +: Boards*TimeWidth])

`ifdef FORMAL
      ,
      .f_on_o          (f_on_o[x*Boards +: Boards])
`endif
    );
  end
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
