`default_nettype none
/// E-RAPID link controller (LC): one per optical transmitter x of a board, owning its Lasers
/// lasers (x, y), one per destination board y: each laser's sequencer (lit or dark, power level)
/// and window counters (Link_util, Buffer_util). It sits on its board's control chain
/// RC -> LC0 -> LC1 -> ... -> RC, one word per cycle, one cycle per hop:
///
///   word        data                                            this LC
///   ReqHead     -                                               closes every laser's window
///   ReqSlot     {powered, window, busy, occupancy} of slot s    fills slots lc*Lasers .. +Lasers-1
///   RespHead    -                                               -
///   RespSlot    {on, level} for slot s                          takes its slots as commands
///
/// A head is followed by Lcs * Lasers slots, slot s for laser s mod Lasers of LC s / Lasers
/// (Table 1, steps 2a and 7: LinkRequest and LinkResponse). Until its first LinkResponse the LC
/// keeps the static assignment (static_on_i) at full power.
module erapid_lc #(
  /// Lasers per transmitter = boards B.
  parameter int unsigned Lasers = 4,
  /// LCs on the chain = transmitters per board = B.
  parameter int unsigned Lcs = 4,
  /// Width of the time base, of step times and of window counts.
  parameter int unsigned TimeWidth = 16,
  /// Width of a transmitter queue's occupancy (flits).
  parameter int unsigned QueueWidth = 8,
  /// Power levels 0 .. Levels-1.
  parameter int unsigned Levels = 6,
  /// Width of a chain word's data: a ReqSlot's statistics.
  localparam int unsigned DataWidth = 1 + 3 * TimeWidth + QueueWidth,
  localparam int unsigned SlotWidth = $clog2(Lcs * Lasers + 1),
  localparam int unsigned LaserWidth = $clog2(Lasers)
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  // Time base: the current cycle (modulo 2^TimeWidth)
  input  logic [TimeWidth-1:0]         now_i,
  // Straps
  input  logic [SlotWidth-1:0]         lc_index_i,       // this LC's place on the chain (transmitter x)
  input  logic [Lasers-1:0]            static_on_i,      // lasers lit here by the static assignment
  input  logic [TimeWidth-1:0]         vdd_cycles_i,     // one supply step
  input  logic [TimeWidth-1:0]         relock_cycles_i,  // receiver relock (the paper: 65)
  // Harness observables, per laser
  input  logic [Lasers-1:0]            sent_i,           // a flit started on the laser
  input  logic [Lasers*QueueWidth-1:0] queue_i,          // packets waiting for the laser
  input  logic [Lasers-1:0]            drained_i,        // nothing of the laser's in flight
  // Control chain, from the previous hop
  input  logic                         chain_valid_i,
  input  logic [1:0]                   chain_kind_i,     // enum: chain_kind_e
  input  logic [DataWidth-1:0]         chain_data_i,
  // ... to the next hop
  output logic                         chain_valid_o,
  output logic [1:0]                   chain_kind_o,     // enum: chain_kind_e
  output logic [DataWidth-1:0]         chain_data_o,
  // Per laser, to the harness
  output logic [Lasers-1:0]            powered_o,
  output logic [Lasers-1:0]            routable_o,
  output logic [Lasers-1:0]            tx_enable_o,
  output logic [Lasers*3-1:0]          rate_level_o,
  output logic [Lasers*3-1:0]          power_level_o,
  output logic [Lasers*3-1:0]          laser_state_o,    // 3 bits per laser, enum: laser_state_e
  output logic [Lasers*TimeWidth-1:0]  until_o           // each laser's step end

`ifdef FORMAL
  ,
  output logic [Lasers-1:0]            f_on_o            // each laser's command (the ring's proof)
`endif
);
  `include "erapid_chain.svh"

  localparam logic [2:0] TopLevel = 3'(Levels - 1);
  localparam int unsigned Slots = Lcs * Lasers;

  logic [1:0]               kind_in;         // chain_kind_e (Yosys 0.23 casts to no user type)
  logic                     chain_valid_q, chain_valid_d;
  logic [1:0]               chain_kind_q, chain_kind_d;
  logic [DataWidth-1:0]     chain_data_q, chain_data_d;
  logic [SlotWidth-1:0]     slot_q, slot_d;  // slots seen since the last head
  logic [Lasers-1:0]        on_q, on_d, commanded_q, commanded_d;
  logic [Lasers*3-1:0]      level_q, level_d;
  logic [SlotWidth-1:0]     base;            // this LC's first slot
  logic                     mine;            // the word is one of this LC's slots
  logic [SlotWidth-1:0]     offset;          // ... at this offset from base
  logic [LaserWidth-1:0]    laser;           // ... for this laser
  logic                     sample;
  logic [Lasers*DataWidth-1:0] stats;        // per laser {powered, window, busy, occupancy}

  assign kind_in = chain_kind_i;
  assign base    = SlotWidth'(lc_index_i * SlotWidth'(Lasers));
  assign offset  = slot_q - base;
  assign laser   = offset[LaserWidth-1:0];
  assign mine    = chain_valid_i && (kind_in == KindReqSlot || kind_in == KindRespSlot) &&
                   slot_q >= base && offset < SlotWidth'(Lasers);
  assign sample  = chain_valid_i && kind_in == KindReqHead;

  always_comb begin
    chain_valid_d = chain_valid_i;
    chain_kind_d  = chain_kind_i;
    chain_data_d  = chain_data_i;
    slot_d        = slot_q;
    on_d          = on_q;
    level_d       = level_q;
    commanded_d   = commanded_q;
    if (chain_valid_i) begin
      if (kind_in == KindReqHead || kind_in == KindRespHead) slot_d = '0;
      else slot_d = slot_q + 1'b1;
      if (mine && kind_in == KindReqSlot) begin
        chain_data_d = stats[laser*DataWidth +: DataWidth];
      end
      if (mine && kind_in == KindRespSlot) begin
        on_d[laser]           = chain_data_i[3];
        level_d[laser*3 +: 3] = chain_data_i[2:0];
        commanded_d[laser]    = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      chain_valid_q <= 1'b0;
      chain_kind_q  <= 2'd0;
      chain_data_q  <= '0;
      slot_q        <= '0;
      on_q          <= '0;
      level_q       <= '0;
      commanded_q   <= '0;
    end else begin
      chain_valid_q <= chain_valid_d;
      chain_kind_q  <= chain_kind_d;
      chain_data_q  <= chain_data_d;
      slot_q        <= slot_d;
      on_q          <= on_d;
      level_q       <= level_d;
      commanded_q   <= commanded_d;
    end
  end

  for (genvar l = 0; l < Lasers; l++) begin : gen_laser
    logic                         on;
    logic [2:0]                   level;
    logic [TimeWidth-1:0]         window, busy;
    logic [TimeWidth+QueueWidth-1:0] occupancy;

    assign on    = commanded_q[l] ? on_q[l] : static_on_i[l];
    assign level = commanded_q[l] ? level_q[l*3 +: 3] : TopLevel;

`ifdef FORMAL
    assign f_on_o[l] = on;
`endif

    erapid_laser_seq #(
      .TimeWidth (TimeWidth),
      .Levels    (Levels)
    ) u_seq (
      .clk_i           (clk_i),
      .rst_ni          (rst_ni),
      .now_i           (now_i),
      .on_i            (on),
      .level_i         (level),
      .drained_i       (drained_i[l]),
      .vdd_cycles_i    (vdd_cycles_i),
      .relock_cycles_i (relock_cycles_i),
      .state_o         (laser_state_o[l*3 +: 3]),
      .powered_o       (powered_o[l]),
      .routable_o      (routable_o[l]),
      .tx_enable_o     (tx_enable_o[l]),
      .rate_level_o    (rate_level_o[l*3 +: 3]),
      .power_level_o   (power_level_o[l*3 +: 3]),
      .until_o         (until_o[l*TimeWidth +: TimeWidth])
    );

    erapid_link_stats #(
      .TimeWidth  (TimeWidth),
      .QueueWidth (QueueWidth)
    ) u_stats (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .now_i       (now_i),
      .sent_i      (sent_i[l]),
      .queue_i     (queue_i[l*QueueWidth +: QueueWidth]),
      .sample_i    (sample),
      .window_o    (window),
      .busy_o      (busy),
      .occupancy_o (occupancy)
    );

    assign stats[l*DataWidth +: DataWidth] = {powered_o[l], window, busy, occupancy};
  end

  assign chain_valid_o = chain_valid_q;
  assign chain_kind_o  = chain_kind_q;
  assign chain_data_o  = chain_data_q;

`ifndef SYNTHESIS
  initial begin
    if (Lasers < 2 || Lcs < 2) $fatal(1, "%m: Lasers = %0d, Lcs = %0d; allowed: at least 2 each", Lasers, Lcs);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      // A packet never carries more slots than the chain has lasers; commands name a real level.
      if (chain_valid_i && (kind_in == KindReqSlot || kind_in == KindRespSlot)) assert (slot_q < SlotWidth'(Slots));
      if (mine && kind_in == KindRespSlot) assert (chain_data_i[2:0] <= TopLevel);
      assert (lc_index_i < SlotWidth'(Lcs));
    end
  end
`endif
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
