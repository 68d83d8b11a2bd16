`default_nettype none
/// The E-RAPID control plane of a whole system: Boards boards (erapid_board), their RCs on the
/// unidirectional ring b -> b+1 mod B, with one time base and the same straps. Laser (b, x, y) is
/// laser y of LC x at board b: wavelength x into the coupler of board y. Its FORMAL block proves
/// the reconfiguration safe across boards: no two lasers are ever lit on one wavelength toward one
/// board (scripts/formal.py, docs/formal.md).
module erapid_ring #(
  parameter int unsigned Boards = 3,
  parameter int unsigned TimeWidth = 16,
  parameter int unsigned QueueWidth = 8,
  parameter int unsigned Levels = 6,
  localparam int unsigned BoardWidth = $clog2(Boards),
  localparam int unsigned Slots = Boards * Boards,
  localparam int unsigned Lasers = Boards * Slots,
  localparam int unsigned RingWidth = Boards + (TimeWidth + BoardWidth) + (TimeWidth + QueueWidth + BoardWidth)
`ifdef FORMAL
  ,
  /// The proof's window Rw in cycles: one bounded run spans one window (scripts/formal.py)
  parameter int unsigned FormalWindow = 70
`endif
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic [TimeWidth-1:0]          now_i,
  // Straps, the same at every board
  input  logic [TimeWidth-1:0]          rw_cycles_i,
  input  logic                          dbr_i,
  input  logic                          dpm_i,
  input  logic [BoardWidth:0]           degree_i,
  input  logic [QueueWidth-1:0]         capacity_i,
  input  logic [8:0]                    l_min_i,
  input  logic [8:0]                    b_min_i,
  input  logic [8:0]                    b_max_i,
  input  logic [8:0]                    b_con_i,
  input  logic [TimeWidth-1:0]          vdd_cycles_i,
  input  logic [TimeWidth-1:0]          relock_cycles_i,
  // Harness observables, per laser b*Slots + x*Boards + y
  input  logic [Lasers-1:0]             sent_i,
  input  logic [Lasers*QueueWidth-1:0]  queue_i,
  input  logic [Lasers-1:0]             drained_i,
  // Per laser, to the harness
  output logic [Lasers-1:0]             powered_o,
  output logic [Lasers-1:0]             routable_o,
  output logic [Lasers-1:0]             tx_enable_o,
  output logic [Lasers*3-1:0]           laser_state_o, // 3 bits per laser, enum: laser_state_e
  output logic [Lasers-1:0]             on_o,        // each laser's command at its board's RC
  // Each board's RC: the next step, the cycle it starts, the owners of its incoming wavelengths
  // (absolute; the board itself: free)
  output logic [Boards*3-1:0]           step_o,      // 3 bits per board, enum: rc_step_e
  output logic [Boards*TimeWidth-1:0]   deadline_o,
  output logic [Boards*Boards*BoardWidth-1:0] owner_o
);
  logic [Boards-1:0]             ring_valid;
  logic [Boards*2-1:0]           ring_kind;
  logic [Boards*RingWidth-1:0]   ring_data;

`ifdef FORMAL
  logic [Lasers-1:0]                   f_on;
  logic [Boards-1:0]                   f_quiet;
  logic [Boards*Boards*BoardWidth-1:0] f_owner;
  logic [Boards*TimeWidth-1:0]         f_window_end;
  logic [Lasers-1:0]                   f_lit;
`endif

  for (genvar b = 0; b < Boards; b++) begin : gen_board
    localparam int unsigned Prev = (b + Boards - 1) % Boards;
    /* verilator lint_off PINCONNECTEMPTY */
    erapid_board #(
      .Boards     (Boards),
      .TimeWidth  (TimeWidth),
      .QueueWidth (QueueWidth),
      .Levels     (Levels)
    ) u_board (
      .clk_i           (clk_i),
      .rst_ni          (rst_ni),
      .now_i           (now_i),
      .board_i         (BoardWidth'(b)),
      .rw_cycles_i     (rw_cycles_i),
      .dbr_i           (dbr_i),
      .dpm_i           (dpm_i),
      .degree_i        (degree_i),
      .capacity_i      (capacity_i),
      .l_min_i         (l_min_i),
      .b_min_i         (b_min_i),
      .b_max_i         (b_max_i),
      .b_con_i         (b_con_i),
      .vdd_cycles_i    (vdd_cycles_i),
      .relock_cycles_i (relock_cycles_i),
      .sent_i          (sent_i[b*Slots +: Slots]),
      .queue_i         (queue_i[b*Slots*QueueWidth +: Slots*QueueWidth]),
      .drained_i       (drained_i[b*Slots +: Slots]),
      .ring_valid_o    (ring_valid[b]),
      .ring_kind_o     (ring_kind[b*2 +: 2]),
      .ring_data_o     (ring_data[b*RingWidth +: RingWidth]),
      .ring_valid_i    (ring_valid[Prev]),
      .ring_kind_i     (ring_kind[Prev*2 +: 2]),
      .ring_data_i     (ring_data[Prev*RingWidth +: RingWidth]),
      .powered_o       (powered_o[b*Slots +: Slots]),
      .routable_o      (routable_o[b*Slots +: Slots]),
      .tx_enable_o     (tx_enable_o[b*Slots +: Slots]),
      .rate_level_o    (),
      .power_level_o   (),
      .until_o         (),
      .deadline_o      (deadline_o[b*TimeWidth +: TimeWidth]),
      .on_o            (on_o[b*Slots +: Slots]),
      .step_o          (step_o[b*3 +: 3]),
      .level_o         (),
      .laser_state_o   (laser_state_o[b*Slots*3 +: Slots*3]),
      .owner_o         (owner_o[b*Boards*BoardWidth +: Boards*BoardWidth]),
      .class_o         ()
`ifdef FORMAL
      ,
      .f_on_o          (f_on[b*Slots +: Slots]),
      .f_quiet_o       (f_quiet[b]),
      .f_owner_o       (f_owner[b*Boards*BoardWidth +: Boards*BoardWidth]),
      .f_window_end_o  (f_window_end[b*TimeWidth +: TimeWidth]),
      .f_lit_o         (f_lit[b*Slots +: Slots])
`endif
    );
    /* verilator lint_on PINCONNECTEMPTY */
  end
`ifdef FORMAL
  // Proved by scripts/formal.py (docs/formal.md), with every laser's statistics free
  // (tb/formal/erapid_link_stats_free.sv): the RCs may classify sources and scale lasers in any way.
  // The schedule passes points where no word is in flight, each with an invariant (f_at below):
  //   Settled    every RC waits for the same LinkRequest deadline (Boundary: it is now)
  //   Sampled    the LinkRequests are back: each RC knows which of its lasers were lit
  //   Allocated  every RC has re-allocated; the BoardResponses start now or later
  //   Responded  the BoardResponses are in; the LinkResponses start now
  // Bounded runs from any state an invariant allows show that reset leads to Settled, Settled (not
  // at its boundary) to Settled, Boundary to Sampled, Sampled to Allocated, Allocated to Responded
  // and Responded to Boundary, each with its invariant, and that no wavelength is lit twice into
  // one coupler on any cycle of any run: by induction, never. The straps hold one value each (the
  // RCs assume it), the window is FormalWindow, the time base counts cycles, drain status and
  // traffic are arbitrary.
  localparam int unsigned FGap = Boards + 2;  // the RC's schedule (erapid_rc.sv: G, C2, C3, C5)
  localparam int unsigned FSampled = Slots + Boards + 3;
  localparam int unsigned FAllocated = FSampled + (Boards - 1) * FGap + 3 * Boards + 2;
  localparam int unsigned FResponded = FAllocated + (Boards - 1) * FGap + 2 * Boards + 2;
  typedef enum logic [2:0] {
    FromReset, FromSettled, FromBoundary, FromSampled, FromAllocated, FromResponded
  } f_start_e;
  localparam int unsigned FRuns = 6;
  localparam int unsigned FPoints = 5;  // Settled, Boundary, Sampled, Allocated, Responded
  (* anyconst *) logic [2:0]           f_start;
  (* anyconst *) logic [TimeWidth-1:0] f_vdd, f_relock;
  logic [7:0]           f_cycle = '0;  // cycles since the run's first (saturates)
  logic [TimeWidth-1:0] f_now_q;
  always_ff @(posedge clk_i) begin
    if (f_cycle != '1) f_cycle <= f_cycle + 1'b1;
    f_now_q <= now_i;
  end

  function automatic logic [BoardWidth-1:0] f_rel(input int unsigned source, input int unsigned dest);
    f_rel = BoardWidth'((source + Boards - dest) % Boards);  // source relative to dest (0: itself)
  endfunction
  function automatic logic [BoardWidth-1:0] f_owner_of(input int unsigned dest, input int unsigned x);
    f_owner_of = f_owner[(dest*Boards + x)*BoardWidth +: BoardWidth];
  endfunction
  function automatic int unsigned f_laser(input int unsigned b, input int unsigned x, input int unsigned y);
    f_laser = b*Slots + x*Boards + y;  // laser (b, x, y)
  endfunction
  function automatic logic f_owns(input int unsigned b, input int unsigned y, input logic [BoardWidth-1:0] owner);
    f_owns = b != y && owner == f_rel(b, y);  // board b is the owner (relative to y) of a wavelength toward y
  endfunction
  function automatic logic f_may(input int unsigned b, input int unsigned y, input logic [BoardWidth-1:0] owner);
    f_may = b != y && (owner == f_rel(b, y) || owner == '0);  // ... or the wavelength is free
  endfunction
  function automatic logic [BoardWidth:0] f_lit_count(input int unsigned dest, input int unsigned x);
    f_lit_count = '0;  // lasers lit on wavelength x toward dest
    for (int b = 0; b < Boards; b++) f_lit_count += (BoardWidth+1)'(powered_o[b*Slots + x*Boards + dest]);
  endfunction

  // Where the schedule stands: every RC at the same next step (waiting for it, or starting it now
  // or, for BoardRequests and BoardResponses, G cycles apart from board 0's), its window begun the
  // step's offset ago.
  logic [FPoints-1:0] f_point;
  always_comb begin
    f_point = '1;
    for (int b = 0; b < Boards; b++) begin
      f_point[0] &= step_o[b*3 +: 3] == 3'd0 && deadline_o[b*TimeWidth +: TimeWidth] == deadline_o[0 +: TimeWidth];
      f_point[1] &= step_o[b*3 +: 3] == 3'd0 && deadline_o[b*TimeWidth +: TimeWidth] == now_i;
      f_point[2] &= step_o[b*3 +: 3] == 3'd1 && deadline_o[b*TimeWidth +: TimeWidth] == now_i + TimeWidth'(b * FGap)
                    && f_window_end[b*TimeWidth +: TimeWidth] == now_i - TimeWidth'(FSampled);
      f_point[3] &= step_o[b*3 +: 3] == 3'd2 && deadline_o[b*TimeWidth +: TimeWidth] == now_i + TimeWidth'(b * FGap)
                    && f_window_end[b*TimeWidth +: TimeWidth] == now_i - TimeWidth'(FAllocated);
      f_point[4] &= step_o[b*3 +: 3] == 3'd3 && deadline_o[b*TimeWidth +: TimeWidth] == now_i
                    && f_window_end[b*TimeWidth +: TimeWidth] == now_i - TimeWidth'(FResponded);
    end
  end

  // The invariants. At every point: no word in flight and no re-allocation under way; owners are
  // boards, none holds more than N; at most one laser lit on a wavelength toward a board, none
  // toward its own board; a wavelength with an owner, or commanded lit at one board (by its RC or
  // at its LC), is lit and commanded by no other board. Each RC commands a laser exactly when the
  // destination's RC names its board the owner, but between re-allocation and the BoardResponse
  // (Allocated), when it may command one its board owns or that is free; each LC holds what its RC
  // commands, but between the BoardResponse and the LinkResponse (Responded), when it may hold one
  // its board owns or that is free. Sampled: a laser its RC saw dark, and not commanded, is dark.
  logic [FPoints-1:0] f_at;
  logic               f_common, f_same, f_by_owner, f_rc_loose, f_lc_loose, f_seen;
  logic [BoardWidth:0] f_held;
  always_comb begin
    f_common = f_quiet == '1;
    f_same = f_on == on_o;
    f_by_owner = 1'b1;
    f_rc_loose = 1'b1;
    f_lc_loose = 1'b1;
    f_seen = 1'b1;
    for (int y = 0; y < Boards; y++) begin
      for (int r = 1; r < Boards; r++) begin
        f_held = '0;
        for (int x = 0; x < Boards; x++) f_held += (BoardWidth+1)'(f_owner_of(y, x) == BoardWidth'(r));
        f_common &= f_held <= degree_i;
      end
      for (int x = 0; x < Boards; x++) begin
        f_common &= 32'(f_owner_of(y, x)) < Boards && f_lit_count(y, x) <= 1
                    && !powered_o[y*Slots + x*Boards + y];
        for (int b = 0; b < Boards; b++) begin
          if (f_owner_of(y, x) != '0 && !f_owns(b, y, f_owner_of(y, x)))
            f_common &= !powered_o[f_laser(b, x, y)] && !on_o[f_laser(b, x, y)] && !f_on[f_laser(b, x, y)];
          for (int c = 0; c < Boards; c++)
            if (c != b && (on_o[f_laser(b, x, y)] || f_on[f_laser(b, x, y)]))
              f_common &= !powered_o[f_laser(c, x, y)] && !on_o[f_laser(c, x, y)] && !f_on[f_laser(c, x, y)];
          f_by_owner &= on_o[f_laser(b, x, y)] == f_owns(b, y, f_owner_of(y, x));
          f_rc_loose &= !on_o[f_laser(b, x, y)] || f_may(b, y, f_owner_of(y, x));
          f_lc_loose &= !f_on[f_laser(b, x, y)] || f_may(b, y, f_owner_of(y, x));
          f_seen &= f_lit[f_laser(b, x, y)] || on_o[f_laser(b, x, y)] || !powered_o[f_laser(b, x, y)];
        end
      end
    end
    f_at[0] = f_point[0] && f_common && f_same && f_by_owner;
    f_at[1] = f_point[1] && f_at[0];
    f_at[2] = f_point[2] && f_common && f_same && f_by_owner && f_seen;
    f_at[3] = f_point[3] && f_common && f_same && f_rc_loose;
    f_at[4] = f_point[4] && f_common && f_by_owner && f_lc_loose;
  end

  // Each run: where it starts, and the point it must reach, after how many cycles.
  logic [7:0] f_length;
  logic [2:0] f_goal;
  always_comb begin
    unique case (f_start)
      FromReset:     begin f_length = 8'd2;                          f_goal = 3'd0; end
      FromSettled:   begin f_length = 8'd1;                          f_goal = 3'd0; end
      FromBoundary:  begin f_length = 8'(FSampled);                  f_goal = 3'd2; end
      FromSampled:   begin f_length = 8'(FAllocated - FSampled);     f_goal = 3'd3; end
      FromAllocated: begin f_length = 8'(FResponded - FAllocated);   f_goal = 3'd4; end
      default:       begin f_length = 8'(FormalWindow - FResponded); f_goal = 3'd1; end
    endcase
  end

  always_comb begin
    assume (32'(f_start) < FRuns);
    assume (rst_ni == !(f_start == FromReset && f_cycle == '0));
    if (f_cycle == '0) begin
      if (f_start == FromSettled) assume (f_at[0] && !f_point[1]);
      if (f_start == FromBoundary) assume (f_at[1]);
      if (f_start == FromSampled) assume (f_at[2]);
      if (f_start == FromAllocated) assume (f_at[3]);
      if (f_start == FromResponded) assume (f_at[4]);
    end else begin
      assume (now_i == f_now_q + 1'b1);
    end
    assume (f_cycle <= f_length);
    assume (rw_cycles_i == TimeWidth'(FormalWindow) && vdd_cycles_i == f_vdd && relock_cycles_i == f_relock);
    if (rst_ni) begin
      // Safety: on every cycle, at most one laser lit on wavelength x toward board y.
      for (int y = 0; y < Boards; y++)
        for (int x = 0; x < Boards; x++) assert (f_lit_count(y, x) <= 1);
      if (f_cycle == f_length) assert (f_at[f_goal]);
    end
  end
  // Reached: a wavelength lit by a board that is not its static source (a grant took effect), and
  // every run's first steps (its start is a state: the later assumptions only advance the time
  // base, so the run reaches its goal, where the assertion above checks the invariant).
  logic [Lasers-1:0] f_powered_q;
  always_ff @(posedge clk_i) f_powered_q <= powered_o;
  always_comb begin
    if (rst_ni) begin
      for (int y = 0; y < Boards; y++)
        for (int x = 0; x < Boards; x++)
          for (int b = 0; b < Boards; b++)
            if (b != y && 32'(f_rel(b, y)) != x)
              cover (f_cycle != '0 && powered_o[f_laser(b, x, y)] && !f_powered_q[f_laser(b, x, y)]);
      for (int run = 0; run < FRuns; run++) cover (32'(f_start) == run && f_cycle == 8'd1);
    end
  end
`endif
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
