`default_nettype none
/// E-RAPID reconfiguration controller (RC), one per board: Lock-Step (Table 1 of the paper) over
/// its board's LC chain (RC -> LC0 -> ... -> LC{B-1} -> RC) and the unidirectional ring of RCs
/// (board b -> b+1 mod B). Every step starts at a time computed from the window's end, read off
/// the time base, so the RCs of all boards move in lock-step without a handshake:
///
///   step 2  window end W       LinkRequest down the chain; each laser's statistics come back:
///                              DPM decides its next level, and they add up per destination board
///   step 3  W + C2 + b*G       BoardRequest around the ring, one slot per board; board s writes
///                              {lasers lit toward the requester, busy, occupancy} of its lasers
///                              toward it (G: the ring's time-division gap, no two packets meet)
///   step 4  (its return)       classify each source (over / normal / under-utilised) and, with
///                              DBR, re-allocate this board's incoming wavelengths, one per cycle
///   step 5  W + C2 + C3 + b*G  BoardResponse around the ring: slot s = the wavelengths source s
///                              holds toward the requester; board s lights or darkens its lasers
///   step 7  W + C2 + C3 + C5   LinkResponse down the chain: every laser's {on, level}
///
/// Re-allocation is safe by construction: a wavelength taken from a source becomes free, and a
/// free wavelength is granted only once no board reported its laser lit (a draining laser is lit
/// until its packets have left), so two lasers never share a wavelength into one coupler.
/// Owners are stored relative to this board (rel r = source (board + r) mod B): reset values are
/// constants, and rel x is wavelength x's static owner (rel 0, this board itself: free).
module erapid_rc #(
  /// Boards B (= transmitters per board = lasers per transmitter).
  parameter int unsigned Boards = 4,
  /// Width of the time base, of step times and of window counts.
  parameter int unsigned TimeWidth = 16,
  /// Width of a transmitter queue's occupancy (packets).
  parameter int unsigned QueueWidth = 8,
  /// Power levels 0 .. Levels-1.
  parameter int unsigned Levels = 6,
  localparam int unsigned BoardWidth = $clog2(Boards),
  localparam int unsigned Slots = Boards * Boards,
  localparam int unsigned SlotWidth = $clog2(Slots + 1),
  localparam int unsigned LaserWidth = $clog2(Slots),
  /// A chain word's data: an LC's ReqSlot {powered, window, busy, occupancy}.
  localparam int unsigned ChainWidth = 1 + 3 * TimeWidth + QueueWidth,
  localparam int unsigned BusyWidth = TimeWidth + BoardWidth,
  localparam int unsigned OccWidth = TimeWidth + QueueWidth + BoardWidth,
  /// A ring word's data: a BoardRequest slot {lit mask, busy, occupancy}.
  localparam int unsigned RingWidth = Boards + BusyWidth + OccWidth

`ifdef FORMAL
  ,
  /// The RC's proof starts from reset, the ring's from a window's boundary (scripts/formal.py).
  parameter bit FormalFromReset = 1
`endif
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // Time base: the current cycle (modulo 2^TimeWidth)
  input  logic [TimeWidth-1:0]        now_i,
  // Straps (the scenario's erapid.* keys)
  input  logic [BoardWidth-1:0]       board_i,       // this board
  input  logic [TimeWidth-1:0]        rw_cycles_i,   // window Rw
  input  logic                        dbr_i,         // re-allocate wavelengths
  input  logic                        dpm_i,         // scale power levels
  input  logic [BoardWidth:0]         degree_i,      // N: wavelengths a source may hold toward one board
  input  logic [QueueWidth-1:0]       capacity_i,    // transmitter queue capacity (packets)
  input  logic [8:0]                  l_min_i,       // thresholds in 1/256
  input  logic [8:0]                  b_min_i,
  input  logic [8:0]                  b_max_i,
  input  logic [8:0]                  b_con_i,
  // Control chain: to LC0, from the last LC
  output logic                        chain_valid_o,
  output logic [1:0]                  chain_kind_o,  // enum: chain_kind_e
  output logic [ChainWidth-1:0]       chain_data_o,
  input  logic                        chain_valid_i,
  input  logic [1:0]                  chain_kind_i,  // enum: chain_kind_e
  input  logic [ChainWidth-1:0]       chain_data_i,
  // Ring: to the next board's RC, from the previous one's
  output logic                        ring_valid_o,
  output logic [1:0]                  ring_kind_o,   // enum: chain_kind_e
  output logic [RingWidth-1:0]        ring_data_o,
  input  logic                        ring_valid_i,
  input  logic [1:0]                  ring_kind_i,   // enum: chain_kind_e
  input  logic [RingWidth-1:0]        ring_data_i,
  // Status
  output logic [2:0]                  step_o,        // enum: rc_step_e, the next step to start
  output logic [TimeWidth-1:0]        deadline_o,    // register: the cycle it starts
  output logic [Boards*BoardWidth-1:0] owner_o,      // source of each incoming wavelength (= board: free)
  output logic [Boards*2-1:0]         class_o,       // rc_class_e of each source, last window
  output logic [Slots-1:0]            on_o,          // laser x*B+y (transmitter x, toward y) lit here
  output logic [Slots*3-1:0]          level_o        // ... its commanded level

`ifdef FORMAL
  ,
  // For the ring's proof: sends nothing, re-allocates nothing; the owners (relative)
  output logic                        f_quiet_o,
  output logic [Boards*BoardWidth-1:0] f_owner_o,
  output logic [TimeWidth-1:0]        f_window_end_o,
  output logic [Slots-1:0]            f_lit_o        // lasers lit at the last LinkRequest
`endif
);
  `include "erapid_chain.svh"
  typedef enum logic [2:0] {
    StepLinkReq   = 3'd0,  // step 2 at the window's end
    StepBoardReq  = 3'd1,  // step 3
    StepBoardResp = 3'd2,  // step 5
    StepLinkResp  = 3'd3,  // step 7
    StepStart     = 3'd4   // out of reset: the first window starts at the first edge
  } rc_step_e;
  typedef enum logic [1:0] {
    ClassNormal = 2'd0,
    ClassUnder  = 2'd1,
    ClassOver   = 2'd2
  } rc_class_e;

  localparam logic [2:0] TopLevel = 3'(Levels - 1);
  localparam int unsigned Gap = Boards + 2;                                  // G
  localparam int unsigned ChainTrip = Slots + Boards + 3;                    // C2
  localparam int unsigned RequestTrip = (Boards - 1) * Gap + 3 * Boards + 2;  // C3
  localparam int unsigned ResponseTrip = (Boards - 1) * Gap + 2 * Boards + 2; // C5
  localparam int unsigned ProdWidth = OccWidth + 9;  // occupancy x 256, b x capacity x window

  // ---- Registers --------------------------------------------------------------------------------
  logic [2:0]                  step_q, step_d;
  logic [TimeWidth-1:0]        deadline_q, deadline_d, window_end_q, window_end_d;
  // Sender: a packet's words, one per cycle (count = slots sent so far)
  logic                        chain_send_q, chain_send_d, ring_send_q, ring_send_d;
  logic                        send_request_q, send_request_d;  // LinkRequest / BoardRequest
  logic [SlotWidth-1:0]        send_count_q, send_count_d;
  logic                        chain_valid_q, chain_valid_d, ring_valid_q, ring_valid_d;
  logic [1:0]                  chain_kind_q, chain_kind_d, ring_kind_q, ring_kind_d;
  logic [ChainWidth-1:0]       chain_data_q, chain_data_d;
  logic [RingWidth-1:0]        ring_data_q, ring_data_d;
  // Chain receiver: slot of the returning LinkRequest as (transmitter, destination)
  logic [BoardWidth-1:0]       rx_x_q, rx_x_d, rx_y_q, rx_y_d;
  logic [TimeWidth-1:0]        window_q, window_d;               // this board's window, cycles
  logic [Boards*BusyWidth-1:0] agg_busy_q, agg_busy_d;           // per destination board
  logic [Boards*OccWidth-1:0]  agg_occ_q, agg_occ_d;
  logic [Slots-1:0]            lit_q, lit_d;                     // lasers lit at the last LinkRequest
  // Ring receiver: the passing packet's requester and slot
  logic [BoardWidth-1:0]       ring_req_q, ring_req_d, ring_slot_q, ring_slot_d;
  // Destination side: owners (relative), classes, wavelengths lit anywhere, re-allocation pass
  logic [Boards*BoardWidth-1:0] owner_q, owner_d;
  logic [Boards*2-1:0]         class_q, class_d;                 // by relative source
  logic [Boards-1:0]           lit_anywhere_q, lit_anywhere_d;
  logic                        alloc_q, alloc_d;
  logic [BoardWidth-1:0]       alloc_x_q, alloc_x_d, rr_q, rr_d;
  // Source side: lasers lit and their levels, commanded per destination once its response came
  logic [Slots-1:0]            on_q, on_d;
  logic [Boards-1:0]           commanded_q, commanded_d;
  logic [Slots*3-1:0]          level_q, level_d;

  // ---- Helpers ------------------------------------------------------------------------------------
  function automatic logic [BoardWidth-1:0] wrap(input logic [BoardWidth:0] value);
    wrap = value >= (BoardWidth+1)'(Boards) ? BoardWidth'(value - (BoardWidth+1)'(Boards))
                                             : BoardWidth'(value);
  endfunction
  function automatic logic [BoardWidth-1:0] add_mod(input logic [BoardWidth-1:0] a, input logic [BoardWidth-1:0] b);
    add_mod = wrap({1'b0, a} + {1'b0, b});
  endfunction
  function automatic logic [BoardWidth-1:0] sub_mod(input logic [BoardWidth-1:0] a, input logic [BoardWidth-1:0] b);
    sub_mod = wrap({1'b0, a} + (BoardWidth+1)'(Boards) - {1'b0, b});
  endfunction

  // Wavelengths each relative source holds toward this board.
  logic [Boards*(BoardWidth+1)-1:0] held;
  always_comb begin
    held = '0;
    for (int r = 0; r < Boards; r++) begin
      for (int x = 0; x < Boards; x++) begin
        if (owner_q[x*BoardWidth +: BoardWidth] == BoardWidth'(r))
          held[r*(BoardWidth+1) +: BoardWidth+1] = held[r*(BoardWidth+1) +: BoardWidth+1] + 1'b1;
      end
    end
  end

  // The static assignment: laser x*B+y is lit at board (x + y) mod B, except the spares (x = 0).
  logic [Slots-1:0] static_on;
  always_comb begin
    for (int i = 0; i < Slots; i++) begin
      static_on[i] = (i / Boards) != 0 &&
                     add_mod(BoardWidth'(i / Boards), BoardWidth'(i % Boards)) == board_i;
    end
  end

  // Buffer_util > b: occupancy x 256 > b x capacity x window.
  function automatic logic above(input logic [OccWidth-1:0] occupancy, input logic [8:0] b,
                                 input logic [QueueWidth-1:0] capacity, input logic [TimeWidth-1:0] window);
    logic [ProdWidth-1:0] lhs, rhs;
    lhs = {{(ProdWidth-OccWidth-8){1'b0}}, occupancy, 8'd0};
    rhs = ProdWidth'(b) * ProdWidth'(capacity) * ProdWidth'(window);
    above = lhs > rhs;
  endfunction

  // Lasers lit here by command (the static assignment toward a board until its first response).
  logic [Slots-1:0] on_now;
  always_comb begin
    for (int i = 0; i < Slots; i++) on_now[i] = commanded_q[i % Boards] ? on_q[i] : static_on[i];
  end

  // ---- Chain receiver: step 2a's statistics ----------------------------------------------------
  logic [ChainWidth-1:0]      slot_stats;
  logic                       slot_powered;
  logic [TimeWidth-1:0]       slot_window, slot_busy;
  logic [TimeWidth+QueueWidth-1:0] slot_occ;
  logic [LaserWidth-1:0]      rx_laser, send_laser;
  assign slot_stats = chain_data_i;
  assign {slot_powered, slot_window, slot_busy, slot_occ} = slot_stats;
  assign rx_laser = LaserWidth'(rx_x_q) * LaserWidth'(Boards) + LaserWidth'(rx_y_q);
  assign send_laser = LaserWidth'(send_count_q);

  // ---- Ring: which slot passes, and this board's answer ----------------------------------------
  logic [1:0]            ring_kind_in;
  logic                  ring_head, ring_slot, ring_home, ring_mine;
  logic [BoardWidth-1:0] ring_requester, ring_source_rel;
  assign ring_kind_in   = ring_kind_i;
  assign ring_head      = ring_valid_i && (ring_kind_in == KindReqHead || ring_kind_in == KindRespHead);
  assign ring_slot      = ring_valid_i && !ring_head;
  assign ring_requester = ring_head ? ring_data_i[BoardWidth-1:0] : ring_req_q;
  assign ring_home      = ring_requester == board_i;
  assign ring_mine      = ring_slot && !ring_home && ring_slot_q == board_i;
  assign ring_source_rel = sub_mod(ring_slot_q, board_i);

  // This board's BoardRequest answer toward board y: {lasers lit toward y, busy, occupancy}.
  function automatic logic [RingWidth-1:0] answer(input logic [BoardWidth-1:0] y);
    logic [Boards-1:0] mask;
    for (int x = 0; x < Boards; x++) mask[x] = lit_q[x*Boards + 32'(y)];
    answer = {mask, agg_busy_q[y*BusyWidth +: BusyWidth], agg_occ_q[y*OccWidth +: OccWidth]};
  endfunction

  // The wavelengths relative source r holds toward this board (a BoardResponse slot).
  function automatic logic [Boards-1:0] holdings(input logic [BoardWidth-1:0] r);
    for (int x = 0; x < Boards; x++) holdings[x] = owner_q[x*BoardWidth +: BoardWidth] == r;
  endfunction

  // ---- Step 4: classification of a returning BoardRequest slot ------------------------------------
  logic [Boards-1:0]    home_mask;
  logic [BusyWidth-1:0] home_busy;
  logic [OccWidth-1:0]  home_occ;
  logic [BoardWidth:0]  home_held;
  logic [1:0]           home_class;
  assign {home_mask, home_busy, home_occ} = ring_data_i;
  assign home_held = held[ring_source_rel*(BoardWidth+1) +: BoardWidth+1];
  logic [BoardWidth:0]  home_lasers;
  assign home_lasers = home_held == '0 ? (BoardWidth+1)'(1) : home_held;
  always_comb begin
    // Over first: a source that lost every wavelength and has packets waiting needs one back.
    // Buffer_util is the source's backlog toward this board over its queue capacity (the packets
    // waiting for all its lasers toward here share the board's input VCs), Link_util per laser.
    if (home_held == '0 ? home_occ != '0 : above(home_occ, b_con_i, capacity_i, window_q))
      home_class = ClassOver;
    else if (ProdWidth'({home_busy, 8'd0}) <= ProdWidth'(l_min_i) * ProdWidth'(window_q) * ProdWidth'(home_lasers))
      home_class = ClassUnder;
    else home_class = ClassNormal;
  end

  // ---- Step 4: re-allocation of wavelength alloc_x ------------------------------------------------
  logic [BoardWidth-1:0] alloc_owner, alloc_static, pick;
  logic                  pick_found;
  function automatic logic wants(input logic [BoardWidth-1:0] r);
    wants = r != '0 && class_q[r*2 +: 2] == ClassOver &&
            held[r*(BoardWidth+1) +: BoardWidth+1] < degree_i;
  endfunction
  assign alloc_owner  = owner_q[alloc_x_q*BoardWidth +: BoardWidth];
  assign alloc_static = alloc_x_q;  // relative: wavelength x's static owner is rel x
  always_comb begin
    pick = '0;
    pick_found = 1'b0;
    for (int i = Boards - 1; i >= 0; i--) begin  // the first wanting source at or after rr
      if (wants(add_mod(rr_q, BoardWidth'(i)))) begin
        pick = add_mod(rr_q, BoardWidth'(i));
        pick_found = 1'b1;
      end
    end
  end

  // ---- Next state ---------------------------------------------------------------------------------
  always_comb begin
    step_d = step_q;  deadline_d = deadline_q;  window_end_d = window_end_q;
    chain_send_d = chain_send_q;  ring_send_d = ring_send_q;  send_request_d = send_request_q;
    send_count_d = send_count_q;
    chain_valid_d = 1'b0;  chain_kind_d = chain_kind_q;  chain_data_d = chain_data_q;
    ring_valid_d = 1'b0;  ring_kind_d = ring_kind_q;  ring_data_d = ring_data_q;
    rx_x_d = rx_x_q;  rx_y_d = rx_y_q;  window_d = window_q;
    agg_busy_d = agg_busy_q;  agg_occ_d = agg_occ_q;  lit_d = lit_q;
    ring_req_d = ring_req_q;  ring_slot_d = ring_slot_q;
    owner_d = owner_q;  class_d = class_q;  lit_anywhere_d = lit_anywhere_q;
    alloc_d = alloc_q;  alloc_x_d = alloc_x_q;  rr_d = rr_q;
    on_d = on_q;  commanded_d = commanded_q;  level_d = level_q;

    // Steps start at their deadlines.
    if (step_q == StepStart || now_i == deadline_q) begin
      send_count_d = '0;
      unique case (step_q)
        StepStart: begin
          step_d = StepLinkReq;
          deadline_d = now_i + rw_cycles_i - 1'b1;
        end
        StepLinkReq: begin
          chain_send_d = 1'b1;  send_request_d = 1'b1;
          chain_valid_d = 1'b1;  chain_kind_d = KindReqHead;  chain_data_d = '0;
          window_end_d = now_i;
          step_d = StepBoardReq;
          deadline_d = now_i + TimeWidth'(ChainTrip) + TimeWidth'(board_i) * TimeWidth'(Gap);
        end
        StepBoardReq: begin
          ring_send_d = 1'b1;  send_request_d = 1'b1;
          ring_valid_d = 1'b1;  ring_kind_d = KindReqHead;  ring_data_d = RingWidth'(board_i);
          step_d = StepBoardResp;
          deadline_d = now_i + TimeWidth'(RequestTrip);
        end
        StepBoardResp: begin
          ring_send_d = 1'b1;  send_request_d = 1'b0;
          ring_valid_d = 1'b1;  ring_kind_d = KindRespHead;  ring_data_d = RingWidth'(board_i);
          step_d = StepLinkResp;
          deadline_d = window_end_q + TimeWidth'(ChainTrip + RequestTrip + ResponseTrip);
        end
        default: begin  // StepLinkResp
          chain_send_d = 1'b1;  send_request_d = 1'b0;
          chain_valid_d = 1'b1;  chain_kind_d = KindRespHead;  chain_data_d = '0;
          step_d = StepLinkReq;
          deadline_d = window_end_q + rw_cycles_i;
        end
      endcase
    end else if (chain_send_q) begin  // a chain packet's slots
      chain_valid_d = 1'b1;
      chain_kind_d  = send_request_q ? KindReqSlot : KindRespSlot;
      chain_data_d  = send_request_q ? '0
                                     : ChainWidth'({on_now[send_laser], level_q[send_laser*3 +: 3]});
      send_count_d  = send_count_q + 1'b1;
      if (send_count_d == SlotWidth'(Slots)) chain_send_d = 1'b0;
    end else if (ring_send_q) begin   // a ring packet's slots (empty for a request: boards fill them)
      ring_valid_d = 1'b1;
      ring_kind_d  = send_request_q ? KindReqSlot : KindRespSlot;
      ring_data_d  = send_request_q ? '0
                                    : RingWidth'(holdings(sub_mod(BoardWidth'(send_count_q), board_i)));
      send_count_d = send_count_q + 1'b1;
      if (send_count_d == SlotWidth'(Boards)) ring_send_d = 1'b0;
    end

    // Step 2a: the LinkRequest comes back with every laser's window.
    if (chain_valid_i && chain_kind_i == KindReqHead) begin
      rx_x_d = '0;  rx_y_d = '0;
      agg_busy_d = '0;  agg_occ_d = '0;
    end
    if (chain_valid_i && chain_kind_i == KindReqSlot) begin
      if (rx_x_q == '0 && rx_y_q == '0) window_d = slot_window;
      agg_busy_d[rx_y_q*BusyWidth +: BusyWidth] = agg_busy_q[rx_y_q*BusyWidth +: BusyWidth] + BusyWidth'(slot_busy);
      agg_occ_d[rx_y_q*OccWidth +: OccWidth] = agg_occ_q[rx_y_q*OccWidth +: OccWidth] + OccWidth'(slot_occ);
      lit_d[rx_laser] = slot_powered;
      // Step 6, DPM, for a laser lit by command: one level per window.
      if (dpm_i && on_now[rx_laser]) begin
        if (!above(OccWidth'(slot_occ), b_min_i, capacity_i, slot_window)) begin
          if (level_q[rx_laser*3 +: 3] != 3'd0) level_d[rx_laser*3 +: 3] = level_q[rx_laser*3 +: 3] - 3'd1;
        end else if (above(OccWidth'(slot_occ), b_max_i, capacity_i, slot_window)) begin
          if (level_q[rx_laser*3 +: 3] != TopLevel) level_d[rx_laser*3 +: 3] = level_q[rx_laser*3 +: 3] + 3'd1;
        end
      end
      if (rx_y_q == BoardWidth'(Boards - 1)) begin
        rx_y_d = '0;  rx_x_d = rx_x_q + 1'b1;
      end else rx_y_d = rx_y_q + 1'b1;
    end

    // The ring: forward others' packets (filling or reading this board's slot), consume our own.
    if (ring_valid_i) begin
      if (ring_head) begin
        ring_req_d = ring_data_i[BoardWidth-1:0];
        ring_slot_d = '0;
        if (ring_data_i[BoardWidth-1:0] == board_i && ring_kind_in == KindReqHead) lit_anywhere_d = '0;
      end else ring_slot_d = ring_slot_q + 1'b1;
      if (!ring_home) begin
        ring_valid_d = 1'b1;  ring_kind_d = ring_kind_i;  ring_data_d = ring_data_i;
        if (ring_mine && ring_kind_in == KindReqSlot) ring_data_d = answer(ring_requester);
        if (ring_mine && ring_kind_in == KindRespSlot) begin  // step 5a
          commanded_d[ring_requester] = 1'b1;
          for (int x = 0; x < Boards; x++) begin
            on_d[x*Boards + 32'(ring_requester)] = ring_data_i[x];
            // A laser lit anew starts at full power: its source asked for bandwidth.
            if (ring_data_i[x] && !on_now[x*Boards + 32'(ring_requester)])
              level_d[(x*Boards + 32'(ring_requester))*3 +: 3] = TopLevel;
          end
        end
      end else if (ring_slot && ring_kind_in == KindReqSlot) begin  // step 4a
        lit_anywhere_d = lit_anywhere_q | home_mask;
        class_d[ring_source_rel*2 +: 2] = ring_source_rel == '0 ? ClassNormal : home_class;
        if (ring_slot_q == BoardWidth'(Boards - 1)) begin
          alloc_d = dbr_i;  alloc_x_d = '0;
        end
      end
    end

    // Step 4: one wavelength per cycle. A source that sent nothing frees what it holds; an
    // over-utilised source takes back its static wavelength (freed now, granted once dark) and
    // gets free dark wavelengths, its static one first, others in turn, up to N.
    if (alloc_q) begin
      if (alloc_owner != '0 && class_q[alloc_owner*2 +: 2] == ClassUnder) begin
        owner_d[alloc_x_q*BoardWidth +: BoardWidth] = '0;
      end else if (alloc_owner != '0 && alloc_owner != alloc_static && wants(alloc_static)) begin
        owner_d[alloc_x_q*BoardWidth +: BoardWidth] = '0;
      end else if (alloc_owner == '0 && !lit_anywhere_q[alloc_x_q]) begin
        if (wants(alloc_static)) begin
          owner_d[alloc_x_q*BoardWidth +: BoardWidth] = alloc_static;
        end else if (pick_found) begin
          owner_d[alloc_x_q*BoardWidth +: BoardWidth] = pick;
          rr_d = add_mod(pick, BoardWidth'(1));
        end
      end
      alloc_x_d = alloc_x_q + 1'b1;
      if (alloc_x_q == BoardWidth'(Boards - 1)) alloc_d = 1'b0;
    end
  end

  // ---- Registers ----------------------------------------------------------------------------------
  logic [Boards*BoardWidth-1:0] owner_reset;
  logic [Slots*3-1:0]           level_reset;
  always_comb begin
    for (int x = 0; x < Boards; x++) owner_reset[x*BoardWidth +: BoardWidth] = BoardWidth'(x);
    for (int i = 0; i < Slots; i++) level_reset[i*3 +: 3] = TopLevel;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      step_q <= StepStart;  deadline_q <= '0;  window_end_q <= '0;
      chain_send_q <= 1'b0;  ring_send_q <= 1'b0;  send_request_q <= 1'b0;  send_count_q <= '0;
      chain_valid_q <= 1'b0;  chain_kind_q <= '0;  chain_data_q <= '0;
      ring_valid_q <= 1'b0;  ring_kind_q <= '0;  ring_data_q <= '0;
      rx_x_q <= '0;  rx_y_q <= '0;  window_q <= '0;  agg_busy_q <= '0;  agg_occ_q <= '0;  lit_q <= '0;
      ring_req_q <= '0;  ring_slot_q <= '0;
      owner_q <= owner_reset;  class_q <= '0;  lit_anywhere_q <= '0;
      alloc_q <= 1'b0;  alloc_x_q <= '0;  rr_q <= '0;
      on_q <= '0;  commanded_q <= '0;  level_q <= level_reset;
    end else begin
      step_q <= step_d;  deadline_q <= deadline_d;  window_end_q <= window_end_d;
      chain_send_q <= chain_send_d;  ring_send_q <= ring_send_d;  send_request_q <= send_request_d;
      send_count_q <= send_count_d;
      chain_valid_q <= chain_valid_d;  chain_kind_q <= chain_kind_d;  chain_data_q <= chain_data_d;
      ring_valid_q <= ring_valid_d;  ring_kind_q <= ring_kind_d;  ring_data_q <= ring_data_d;
      rx_x_q <= rx_x_d;  rx_y_q <= rx_y_d;  window_q <= window_d;
      agg_busy_q <= agg_busy_d;  agg_occ_q <= agg_occ_d;  lit_q <= lit_d;
      ring_req_q <= ring_req_d;  ring_slot_q <= ring_slot_d;
      owner_q <= owner_d;  class_q <= class_d;  lit_anywhere_q <= lit_anywhere_d;
      alloc_q <= alloc_d;  alloc_x_q <= alloc_x_d;  rr_q <= rr_d;
      on_q <= on_d;  commanded_q <= commanded_d;  level_q <= level_d;
    end
  end

  assign chain_valid_o = chain_valid_q;
  assign chain_kind_o  = chain_kind_q;
  assign chain_data_o  = chain_data_q;
  assign ring_valid_o  = ring_valid_q;
  assign ring_kind_o   = ring_kind_q;
  assign ring_data_o   = ring_data_q;
  assign step_o        = step_q;
  assign deadline_o    = deadline_q;
  assign class_o       = class_q;
  assign level_o       = level_q;
  always_comb begin
    for (int x = 0; x < Boards; x++) owner_o[x*BoardWidth +: BoardWidth] = add_mod(owner_q[x*BoardWidth +: BoardWidth], board_i);
  end
  assign on_o = on_now;

`ifndef SYNTHESIS
  initial begin
    if (Boards < 2 || Levels > 8) $fatal(1, "%m: Boards = %0d, Levels = %0d; allowed: Boards >= 2, Levels <= 8", Boards, Levels);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      // The schedule keeps packets apart: a step starts only after the last one's packet has left
      // (rw_cycles_i at least the Lock-Step's length), and ring packets never meet.
      if (now_i == deadline_q && step_q != StepStart) assert (!chain_send_q && !ring_send_q);
      if (ring_valid_i && !ring_home) assert (!(ring_send_q || (now_i == deadline_q &&
                                                 (step_q == StepBoardReq || step_q == StepBoardResp))));
      assert (degree_i >= (BoardWidth+1)'(1) && degree_i <= (BoardWidth+1)'(Boards));
    end
  end
`endif

`ifdef FORMAL
  // Proved by scripts/formal.py (docs/formal.md): this RC passes a wavelength to a source only
  // from free and only when no board reported its laser lit at the last BoardRequest; no source
  // holds more than N wavelengths toward this board. The straps hold one arbitrary value each;
  // the chain's and the ring's words are arbitrary (that the reports are true is not proved here).
  (* anyconst *) logic [BoardWidth-1:0] f_board;
  (* anyconst *) logic [TimeWidth-1:0]  f_rw;
  (* anyconst *) logic                  f_dbr, f_dpm;
  (* anyconst *) logic [BoardWidth:0]   f_degree;
  (* anyconst *) logic [QueueWidth-1:0] f_capacity;
  (* anyconst *) logic [8:0]            f_l_min, f_b_min, f_b_max, f_b_con;
  logic f_started = 1'b0;
  always_ff @(posedge clk_i) f_started <= 1'b1;
  assign f_quiet_o = !(chain_send_q || ring_send_q || chain_valid_q || ring_valid_q || alloc_q);
  assign f_owner_o = owner_q;
  assign f_window_end_o = window_end_q;
  assign f_lit_o = lit_q;
  always_comb begin
    if (!f_started && FormalFromReset) assume (!rst_ni);
    assume (board_i == f_board && rw_cycles_i == f_rw && dbr_i == f_dbr && dpm_i == f_dpm
            && degree_i == f_degree && capacity_i == f_capacity && l_min_i == f_l_min
            && b_min_i == f_b_min && b_max_i == f_b_max && b_con_i == f_b_con);
    assume (degree_i >= (BoardWidth+1)'(1) && degree_i <= (BoardWidth+1)'(Boards));
    assume (32'(board_i) < Boards);
  end
  always_comb begin
    if (rst_ni) begin
      for (int x = 0; x < Boards; x++) begin
        if (owner_d[x*BoardWidth +: BoardWidth] != owner_q[x*BoardWidth +: BoardWidth]
            && owner_d[x*BoardWidth +: BoardWidth] != '0) begin
          assert (owner_q[x*BoardWidth +: BoardWidth] == '0 && !lit_anywhere_q[x]);
        end
        assert (32'(owner_q[x*BoardWidth +: BoardWidth]) < Boards);
      end
      for (int r = 1; r < Boards; r++) assert (held[r*(BoardWidth+1) +: BoardWidth+1] <= degree_i);
    end
  end
  // Reachable: a grant (wavelength 0 is free from reset: this board's own spare).
  always_comb if (rst_ni) cover (owner_q[0 +: BoardWidth] == '0 && owner_d[0 +: BoardWidth] != '0);
`endif
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
