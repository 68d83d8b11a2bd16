`default_nettype none
/// On/off link controller of one switch of a k-ary n-tree (Alonso et al., IPDPS 2006). It owns the
/// switch's outgoing links (ports 0..K-1 down, K..2K-1 up), each with a power sequencer:
/// a link turned off stops taking new packets at once, sends the packets already committed to
/// it, then powers down for T_off cycles; a link turned on draws power at once and carries
/// flits after T_on cycles. The rule that decides depends on the switch's place in the tree:
///
///   util     Minimal-Tree switch below the root (all leaves): every check period, the up links'
///            utilisation u = busy cycles / usable cycles over the window, where busy is a flit
///            sent (occupancy_i = 0) or a flit sent or a packet committed to the link and waiting
///            (occupancy_i = 1: a link stalled on credits is busy too). u < U_off turns off
///            one up link, highest index first (2K-1, 2K-2, ..., never K); u > U_on turns on the
///            lowest-index inactive one. Down links and up link K (Minimal Tree) stay on.
///   follow   switch of levels 1..n-2 outside the Minimal Tree: up link K+i follows the input
///            link on down port i (off when it starts turning off, on when it starts turning on);
///            down links are on while any input link is active, off when none is (standby).
///            A packet that still arrives on an input turning off (it was committed to that link)
///            and finds no up link turns the lowest-index one on.
///   mt_root  the root of the Minimal Tree: everything always on.
///   standby  the other roots: down links on while any input from level 1 is active.
///
/// No register moves while the switch is quiet: the check period is a pulse from the harness
/// (check_i, like PerfBound's search), and the meters and sequencers compare the time base now_i.
///
/// Reading adopted (no flit may be stranded): a switch still holding packets keeps its down
/// links, and at least the up links it had, on until it is empty.
module fattree_switch_ctrl #(
  /// Switch arity k: K down ports and K up ports.
  parameter int unsigned Arity = 4,
  /// Width of the utilisation meters (a check period < 2^CountWidth cycles).
  parameter int unsigned CountWidth = 16,
  /// Width of T_on and T_off.
  parameter int unsigned TransWidth = 16,
  /// Fraction bits of the thresholds (Q0.FracBits of the link bandwidth).
  parameter int unsigned FracBits = 16,
  /// Width of the time base: what the meters and the sequencers compare (derived).
  parameter int unsigned TimeWidth = (CountWidth > TransWidth) ? CountWidth : TransWidth
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // Time base: the current cycle (modulo 2^TimeWidth), and the last cycle of each check period
  input  logic [TimeWidth-1:0]       now_i,
  input  logic                       check_i,
  // Straps: place in the tree and parameters
  input  logic                       in_mt_i,
  input  logic                       is_root_i,
  input  logic [2*Arity-1:0]         connected_i,
  input  logic [FracBits-1:0]        u_off_i,
  input  logic [FracBits-1:0]        u_on_i,
  input  logic                       occupancy_i,  // meters count waiting packets as busy
  input  logic [TransWidth-1:0]      t_on_i,
  input  logic [TransWidth-1:0]      t_off_i,
  // Observables of the switch, one bit per port
  input  logic [2*Arity-1:0]         busy_i,       // a flit left on the outgoing link
  input  logic [2*Arity-1:0]         committed_i,  // packets routed to the output and not yet sent
  input  logic [2*Arity-1:0]         in_active_i,  // the incoming link is on or turning on
  input  logic                       empty_i,      // no flit buffered in the switch
  input  logic                       need_up_i,    // a packet waits for an up link that can take it
  // Outgoing links, one bit per port
  output logic [2*Arity-1:0]         active_o,     // on or turning on
  output logic [2*Arity-1:0]         routable_o,   // may take new packets
  output logic [2*Arity-1:0]         tx_en_o,      // may send flits
  output logic [2*Arity-1:0]         powered_o,    // draws power
  // Debug
  output logic [4*Arity-1:0]         link_state_o, // 2 bits per port, enum: seq_state_e (link_power_seq)
  output logic [SumWidth-1:0]        up_busy_o,    // up links, last window: flits sent
  output logic [SumWidth-1:0]        up_usable_o,  // up links, last window: usable cycles
  output logic [1:0]                 decision_o    // last check, enum: decision_e
);
  localparam int unsigned Ports    = 2 * Arity;
  localparam int unsigned SumWidth = CountWidth + $clog2(Arity) + 1;
  localparam int unsigned ProdWidth = SumWidth + FracBits;

  typedef enum logic [1:0] {
    RoleUtil    = 2'd0,  // Minimal-Tree switch below the root: utilisation thresholds
    RoleFollow  = 2'd1,  // non-MT switch of levels 1..n-2: up link K+i follows input i
    RoleMtRoot  = 2'd2,  // root of the Minimal Tree: never changes
    RoleStandby = 2'd3   // other roots: down links follow their inputs
  } role_e;

  role_e                 role;
  logic [Ports-1:0]      want_q, want_d, off_pick, on_pick, first_up;
  logic                  decide_q, decide_d;
  typedef enum logic [1:0] {
    DecisionNone  = 2'd0,  // no up link changed at the last check
    DecisionUpOff = 2'd1,  // one up link turned off
    DecisionUpOn  = 2'd2   // one up link turned on
  } decision_e;

  decision_e             decision_q, decision_d;
  logic                  window_end;
  logic [Ports-1:0]      seq_on, seq_off;
  logic [CountWidth-1:0] meter_busy [Arity];
  logic [CountWidth-1:0] meter_usable [Arity];
  logic [SumWidth-1:0]   up_busy, up_usable;
  logic [ProdWidth-1:0]  busy_scaled, off_level, on_level;
  logic                  below_off, above_on, any_input, any_input_below;

  assign role = is_root_i ? (in_mt_i ? RoleMtRoot : RoleStandby) : (in_mt_i ? RoleUtil : RoleFollow);

  // ---- Check period and the up links' utilisation -------------------------------------------
  assign window_end = check_i;

  for (genvar i = 0; i < Arity; i++) begin : gen_meter
    util_meter #(
      .CountWidth (CountWidth)
    ) u_meter (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .now_i        (now_i[CountWidth-1:0]),
      .busy_i       (busy_i[Arity+i] || (occupancy_i && committed_i[Arity+i] && seq_on[Arity+i])),
      .usable_i     (seq_on[Arity+i]),
      .window_end_i (window_end),
      .busy_o       (meter_busy[i]),
      .usable_o     (meter_usable[i])
    );
  end

  always_comb begin
    up_busy   = '0;
    up_usable = '0;
    for (int i = 0; i < Arity; i++) begin
      up_busy   = up_busy + SumWidth'(meter_busy[i]);
      up_usable = up_usable + SumWidth'(meter_usable[i]);
    end
  end

  // u < U_off  <=>  busy * 2^F < U_off * usable (and likewise for U_on): no divider.
  assign busy_scaled = {up_busy, {FracBits{1'b0}}};
  assign off_level   = ProdWidth'(up_usable) * ProdWidth'(u_off_i);
  assign on_level    = ProdWidth'(up_usable) * ProdWidth'(u_on_i);
  assign below_off   = busy_scaled < off_level;
  assign above_on    = busy_scaled > on_level;

  assign any_input       = |(in_active_i & connected_i);
  assign any_input_below = |(in_active_i[Arity-1:0] & connected_i[Arity-1:0]);

  // ---- Which links are wanted on ----------------------------------------------------------
  // Candidates of the utilisation rule (one-hot): the highest-index up link that is on, never K;
  // the lowest-index up link that is off.
  always_comb begin
    off_pick = '0;
    on_pick  = '0;
    first_up = '0;
    for (int p = Ports - 1; p >= Arity; p--) begin
      if (connected_i[p]) first_up = Ports'(1) << p;
    end
    for (int p = Arity + 1; p < Ports; p++) begin
      if (want_q[p] && connected_i[p]) off_pick = Ports'(1) << p;
    end
    for (int p = Ports - 1; p > Arity; p--) begin
      if (!want_q[p] && connected_i[p]) on_pick = Ports'(1) << p;
    end
  end

  always_comb begin
    want_d     = want_q;
    decide_d   = window_end;  // decide once the meters hold the finished window
    decision_d = decision_q;
    unique case (role)
      RoleUtil: begin
        if (decide_q) begin
          decision_d = DecisionNone;
          if (below_off && off_pick != '0) begin
            want_d     = want_q & ~off_pick;
            decision_d = DecisionUpOff;
          end else if (above_on && on_pick != '0) begin
            want_d     = want_q | on_pick;
            decision_d = DecisionUpOn;
          end
        end
      end
      RoleFollow: begin
        for (int i = 0; i < Arity; i++) begin
          want_d[i]         = connected_i[i] && (any_input || !empty_i);
          want_d[Arity + i] = connected_i[Arity + i] &&
                              (in_active_i[i] || (!any_input_below && !empty_i && want_q[Arity + i]));
        end
        if (need_up_i && (want_d[Ports-1:Arity] & connected_i[Ports-1:Arity]) == '0) want_d = want_d | first_up;
      end
      RoleStandby: begin
        for (int i = 0; i < Arity; i++) want_d[i] = connected_i[i] && (any_input || !empty_i);
      end
      default: want_d = connected_i;  // RoleMtRoot
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      want_q     <= '1;  // out of reset every link is on; unconnected ports drop next cycle
      decide_q   <= 1'b0;
      decision_q <= DecisionNone;
    end else begin
      want_q     <= want_d & connected_i;
      decide_q   <= decide_d;
      decision_q <= decision_d;
    end
  end

  // ---- One power sequencer per outgoing link ------------------------------------------------
  for (genvar p = 0; p < Ports; p++) begin : gen_link
    logic [1:0] state;
    // Off only once drained: the packets already committed to the link are sent first.
    link_power_seq #(
      .CountWidth (TransWidth)
    ) u_seq (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .now_i        (now_i[TransWidth-1:0]),
      .go_off_i     (!want_q[p] && !committed_i[p]),
      .go_on_i      (want_q[p]),
      .off_cycles_i (t_off_i),
      .on_cycles_i  (t_on_i),
      .state_o      (state),
      .on_o         (seq_on[p]),
      /* verilator lint_off PINCONNECTEMPTY */
      .stable_o     (),  // the state says it all
      .count_o      (),
      .until_o      ()   // the harness evaluates every cycle while a link is in transition
      /* verilator lint_on PINCONNECTEMPTY */
    );
    assign seq_off[p]              = (state == 2'd2);
    assign link_state_o[2*p +: 2]  = state;
  end

  assign active_o      = want_q;
  assign routable_o    = want_q & seq_on;
  assign tx_en_o       = seq_on;
  assign powered_o     = ~seq_off;
  assign up_busy_o     = up_busy;
  assign up_usable_o   = up_usable;
  assign decision_o    = decision_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      // Minimal-Tree links never turn off: all down links and up link K of an MT switch.
      if (in_mt_i) begin
        assert ((want_q[Arity-1:0] & connected_i[Arity-1:0]) == connected_i[Arity-1:0]);
        if (!is_root_i && connected_i[Arity]) assert (want_q[Arity]);
      end
      // A link with committed packets keeps sending until they have left.
      for (int p = 0; p < Ports; p++) if (committed_i[p] && !want_q[p] && seq_on[p]) assert (tx_en_o[p]);
    end
  end
`endif

`ifdef FORMAL
  // Proved by scripts/formal.py (docs/formal.md): a Minimal-Tree link is never switched off. The
  // straps hold one arbitrary value each; traffic, check pulses and the time base are arbitrary.
  (* anyconst *) logic                  f_in_mt, f_is_root, f_occupancy;
  (* anyconst *) logic [Ports-1:0]      f_connected;
  (* anyconst *) logic [FracBits-1:0]   f_u_off, f_u_on;
  (* anyconst *) logic [TransWidth-1:0] f_t_on, f_t_off;
  logic f_started = 1'b0;
  always_ff @(posedge clk_i) f_started <= 1'b1;
  always_comb begin
    if (!f_started) assume (!rst_ni);
    assume (in_mt_i == f_in_mt && is_root_i == f_is_root && occupancy_i == f_occupancy
            && connected_i == f_connected && u_off_i == f_u_off && u_on_i == f_u_on
            && t_on_i == f_t_on && t_off_i == f_t_off);
  end
  // The Minimal Tree's links here: all of its root's; every down link and up link K below it.
  logic [Ports-1:0] f_minimal;
  assign f_minimal = !in_mt_i ? '0 : is_root_i ? connected_i
                   : connected_i & (Ports'(1) << Arity | {{Arity{1'b0}}, {Arity{1'b1}}});
  always_comb begin
    if (rst_ni) begin
      for (int p = 0; p < Ports; p++) begin
        if (f_minimal[p]) assert (want_q[p] && link_state_o[2*p +: 2] == 2'd0 && powered_o[p] && tx_en_o[p]);
      end
    end
  end
  // Reachable: a Minimal-Tree switch below the root switches its last up link off.
  always_comb if (rst_ni) cover (in_mt_i && !is_root_i && link_state_o[2*(Ports-1) +: 2] == 2'd2);
`endif
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
