`default_nettype none
/// Node-swap controller of one node in one directed cycle of a reconfigurable torus (Shafarenko
/// and Vasekin, section 3, "Implementation of reconfiguration"). Around the swap criterion (flux
/// counters, M, threshold) it runs:
///
/// - the local handshake of a swap u -> a -> b -> c  =>  u -> b -> a -> c, initiated by a when
///   its criterion wants it: LockB (a -> b), LockC (b -> c), Grant (c -> b -> a) or Deny from the
///   first busy node; a then sends Drain (go ahead) and b answers Switch both ways;
/// - the beam switch, two protocols (strap drain_i):
///   - the paper's (0): the beams switch at once and only b's input is blocked for Tr steps;
///     packets queued at b may then fall behind packets of the same pair that a sends straight to c
///     (the network's absorption restores each pair's order);
///   - drain (1): a holds its output in this cycle from Grant on, b admits into its output only
///     what arrives from a and waits until its input from a and its output are empty (so no packet
///     of a pair overtakes another), or sends Abort if it did not drain within a period; the
///     receivers of a, b and c (the three re-steered beams) are then blocked for Tr steps, all
///     three starting on the same step (b waits one step for Switch to reach a and c);
/// - the cycle-wide notification: c sends {a, b, b's new position} down the cycle; each of the
///   other P - 3 nodes updates its routing table and passes it on (a late update only lengthens
///   routes: a packet never changes direction).
///
/// The routing table holds the position of every node (label) of the cycle as this node knows it;
/// its own position is always exact (only its own swaps change it). Deadlines come from the time
/// base (period end, drain limit, block end); at rest with no word in flight it needs no clock.
module torus_swap_ctrl #(
  /// P: nodes in the cycle (at least 4: a swap involves three and notifies the others).
  parameter int unsigned Nodes = 8,
  parameter int unsigned CountWidth = 16,
  parameter int unsigned TimeWidth = 16,
  localparam int unsigned LabelWidth = $clog2(Nodes),
  localparam int unsigned BackWidth = CountWidth + 8,
  localparam int unsigned MWidth = CountWidth + 10
) (
  input  logic                           clk_i,
  input  logic                           rst_ni,
  input  logic [TimeWidth-1:0]           now_i,
  // Straps (the scenario's torus_swap.* keys); label_i is this node's place at reset
  input  logic [TimeWidth-1:0]           period_i,
  input  logic [1:0]                     variant_i,       // enum: threshold_variant_e
  input  logic [CountWidth-1:0]          threshold_i,
  input  logic [CountWidth-1:0]          cost_i,
  input  logic [7:0]                     extra_hops_i,
  input  logic                           back_credit_i,   // see torus_swap_criterion
  input  logic [CountWidth-1:0]          step_i,
  input  logic [7:0]                     rare_periods_i,
  input  logic [15:0]                    seed_i,
  input  logic [TimeWidth-1:0]           block_i,         // Tr
  input  logic                           drain_i,         // 1: the drain protocol, 0: the paper's
  input  logic [LabelWidth-1:0]          label_i,
  // Flux events of this step and b's totals (see torus_swap_criterion)
  input  logic                           arrive_self_i,
  input  logic                           arrive_next_i,
  input  logic                           orig_near_i,
  input  logic                           orig_far_i,
  input  logic                           orig_back_i,
  input  logic [LabelWidth-1:0]          back_hops_i,
  input  logic [CountWidth-1:0]          b_orig_i,
  input  logic [BackWidth-1:0]           b_back_i,
  // This node's input from upstream and its output in this cycle are both empty
  input  logic                           drained_i,
  // Handshake words: from the predecessor (down) and from the successor (up)
  input  logic [2:0]                     dn_msg_i,        // enum: swap_msg_e
  input  logic [LabelWidth-1:0]          dn_a_i,
  input  logic [LabelWidth-1:0]          dn_b_i,
  input  logic [2:0]                     up_msg_i,        // enum: swap_msg_e
  input  logic [LabelWidth-1:0]          up_b_i,
  // Notification from the predecessor: b now at note_pos, a after it; note_hops nodes still to visit
  input  logic                           note_valid_i,
  input  logic [LabelWidth-1:0]          note_a_i,
  input  logic [LabelWidth-1:0]          note_b_i,
  input  logic [LabelWidth-1:0]          note_pos_i,
  input  logic [LabelWidth-1:0]          note_hops_i,
  // Words to the successor and to the predecessor (registers)
  output logic [2:0]                     dn_msg_o,        // enum: swap_msg_e
  output logic [LabelWidth-1:0]          dn_a_o,
  output logic [LabelWidth-1:0]          dn_b_o,
  output logic [2:0]                     up_msg_o,        // enum: swap_msg_e
  output logic [LabelWidth-1:0]          up_b_o,
  output logic                           note_valid_o,
  output logic [LabelWidth-1:0]          note_a_o,
  output logic [LabelWidth-1:0]          note_b_o,
  output logic [LabelWidth-1:0]          note_pos_o,
  output logic [LabelWidth-1:0]          note_hops_o,
  // Criterion (this node's totals for its neighbours, M and R of the last decision)
  output logic [CountWidth-1:0]          near_o,
  output logic [CountWidth-1:0]          far_o,
  output logic [BackWidth-1:0]           back_o,
  output logic signed [MWidth-1:0]       m_o,
  output logic [CountWidth-1:0]          threshold_o,
  // Data-plane controls
  output logic [3:0]                     role_o,          // enum: swap_role_e
  output logic                           hold_out_o,      // a (drain): send nothing in this cycle
  output logic                           hold_admit_o,    // b (drain): admit into this cycle's output only from upstream
  output logic                           block_in_o,      // receiver re-steered: accept nothing
  output logic                           switching_o,     // b: the order changes at the end of this step
  output logic [Nodes*LabelWidth-1:0]    table_o,         // position of label k at [k*LabelWidth +: LabelWidth]
  output logic                           updated_o,       // the table changed at the last edge
  output logic [TimeWidth-1:0]           deadline_o,      // next time-base compare
  output logic                           busy_o           // must be clocked this step

`ifdef FORMAL
  ,
  output logic [TimeWidth-1:0]           f_until_o        // until_q, for the ring's proof
`endif
);
  `include "torus_swap_msg.svh"

  // Grant or Deny reaches a within 4 steps of LockB, and b within 2 of LockC. A Deny can still be
  // lost: sent by a successor that switches places on the next step, it goes to the new
  // predecessor. a and b give up after this (b silently: a gives up on its own, and a Deny sent
  // this late could end a's next request instead).
  localparam int unsigned ReplySteps = 8;

  typedef enum logic [3:0] {
    RoleIdle     = 4'd0,
    RoleAWait    = 4'd1,  // a: LockB sent, waiting for Grant or Deny
    RoleAHold    = 4'd2,  // a: Drain sent (output held if drain_i), waiting for Switch or Abort
    RoleBWait    = 4'd3,  // b: LockC sent, waiting for c
    RoleBGranted = 4'd4,  // b: Grant passed to a, waiting for Drain
    RoleBDrain   = 4'd5,  // b: draining (deadline: a period)
    RoleBSwitch  = 4'd6,  // b: Switch sent, the beams switch at the end of this step
    RoleCHold    = 4'd7,  // c: waiting for Switch or Abort
    RoleBlocked  = 4'd8   // a, b or c: receiver blocked until the deadline
  } swap_role_e;

  swap_role_e                 role_q, role_d;
  logic [2:0]                 dn_msg, up_msg;
  logic [2:0]                 dn_msg_q, dn_msg_d, up_msg_q, up_msg_d;
  logic [LabelWidth-1:0]      dn_a_q, dn_a_d, dn_b_q, dn_b_d, up_b_q, up_b_d;
  logic [LabelWidth-1:0]      peer_a_q, peer_a_d, peer_b_q, peer_b_d;  // labels of this swap's a and b
  logic [Nodes*LabelWidth-1:0] pos_q, pos_d;  // the routing table: label k's position at k*LabelWidth
  logic [LabelWidth-1:0]      self_pos, swap_pos;
  logic                       note_out_q, note_out_d, pending_q, pending_d, updated_q, updated_d;
  logic [LabelWidth-1:0]      note_a_q, note_a_d, note_b_q, note_b_d, note_pos_q, note_pos_d;
  logic [LabelWidth-1:0]      note_hops_q, note_hops_d;
  logic [LabelWidth-1:0]      pend_a_q, pend_a_d, pend_b_q, pend_b_d, pend_pos_q, pend_pos_d;  // c's own
  logic [TimeWidth-1:0]       until_q, until_d;  // drain limit or block end
  logic                       want, crit_busy, swapped;
  logic [TimeWidth-1:0]       crit_deadline;
  logic [Nodes*LabelWidth-1:0] identity;  // the reset order: label k at position k

  for (genvar k = 0; k < Nodes; k++) begin : g_identity
    assign identity[k*LabelWidth +: LabelWidth] = LabelWidth'(k);
  end

  assign dn_msg = dn_msg_i;
  assign up_msg = up_msg_i;
  assign self_pos = pos_q[label_i*LabelWidth +: LabelWidth];

  torus_swap_criterion #(
    .CountWidth(CountWidth),
    .TimeWidth (TimeWidth)
  ) criterion (
    .clk_i, .rst_ni, .now_i,
    .period_i, .variant_i, .threshold_i, .cost_i, .extra_hops_i, .back_credit_i, .step_i,
    .rare_periods_i, .seed_i,
    .arrive_self_i, .arrive_next_i, .orig_near_i, .orig_far_i, .orig_back_i,
    .back_hops_i (8'(back_hops_i)),
    .swapped_i   (swapped),
    .b_orig_i, .b_back_i,
    // A_a and A_b are this node's own terms: no neighbour reads them
    /* verilator lint_off PINCONNECTEMPTY */
    .self_o      (),
    .next_o      (),
    /* verilator lint_on PINCONNECTEMPTY */
    .near_o, .far_o, .back_o, .m_o, .threshold_o,
    .want_o      (want),
    .deadline_o  (crit_deadline),
    .busy_o      (crit_busy)
  );

  // Positions k steps down the cycle (k < Nodes), and one step up.
  function automatic logic [LabelWidth-1:0] wrap_sub(input logic [LabelWidth-1:0] pos, input int unsigned k);
    wrap_sub = pos >= LabelWidth'(k) ? pos - LabelWidth'(k) : pos + LabelWidth'(Nodes - k);
  endfunction
  function automatic logic [LabelWidth-1:0] wrap_inc(input logic [LabelWidth-1:0] pos);
    wrap_inc = pos == LabelWidth'(Nodes - 1) ? '0 : pos + 1'b1;
  endfunction

  // Entering the block: this node's old place in the swap decides where a's place was.
  always_comb begin
    unique case (role_q)
      RoleAHold: swap_pos = self_pos;
      RoleCHold: swap_pos = wrap_sub(self_pos, 2);
      default:   swap_pos = wrap_sub(self_pos, 1);  // b
    endcase
  end

  always_comb begin
    role_d    = role_q;
    dn_msg_d  = MsgNone;
    dn_a_d    = peer_a_q;
    dn_b_d    = peer_b_q;
    up_msg_d  = MsgNone;
    up_b_d    = peer_b_q;
    peer_a_d  = peer_a_q;
    peer_b_d  = peer_b_q;
    until_d   = until_q;
    pos_d     = pos_q;
    updated_d = 1'b0;
    swapped   = 1'b0;
    pending_d = pending_q;
    pend_a_d  = pend_a_q;
    pend_b_d  = pend_b_q;
    pend_pos_d = pend_pos_q;
    note_a_d  = note_a_q;
    note_b_d  = note_b_q;
    note_pos_d  = note_pos_q;
    note_hops_d = note_hops_q;
    note_out_d  = 1'b0;

    unique case (role_q)
      RoleIdle: begin
        if (dn_msg == MsgLockB) begin  // this node is b
          role_d   = RoleBWait;
          peer_a_d = dn_a_i;
          peer_b_d = label_i;
          dn_msg_d = MsgLockC;
          dn_a_d   = dn_a_i;
          dn_b_d   = label_i;
          until_d  = now_i + TimeWidth'(ReplySteps);
        end else if (dn_msg == MsgLockC && !pending_q) begin  // this node is c
          role_d   = RoleCHold;
          peer_a_d = dn_a_i;
          peer_b_d = dn_b_i;
          up_msg_d = MsgGrant;
          up_b_d   = dn_b_i;
        end else if (dn_msg == MsgLockC) begin
          up_msg_d = MsgDeny;
        end else if (want) begin  // this node is a
          role_d   = RoleAWait;
          peer_a_d = label_i;
          dn_msg_d = MsgLockB;
          dn_a_d   = label_i;
          until_d  = now_i + TimeWidth'(ReplySteps);
        end
      end
      RoleAWait: begin
        if (up_msg == MsgGrant) begin
          role_d   = RoleAHold;
          peer_b_d = up_b_i;
          dn_msg_d = MsgDrain;
        end else if (up_msg == MsgDeny || now_i == until_q) role_d = RoleIdle;
      end
      RoleBWait: begin
        if (up_msg == MsgGrant) begin
          role_d   = RoleBGranted;
          up_msg_d = MsgGrant;
        end else if (up_msg == MsgDeny) begin
          role_d   = RoleIdle;
          up_msg_d = MsgDeny;
        end else if (now_i == until_q) role_d = RoleIdle;  // c's Deny lost to a switch
      end
      RoleBGranted: begin
        if (dn_msg == MsgDrain && drain_i) begin
          role_d  = RoleBDrain;
          until_d = now_i + period_i;
        end else if (dn_msg == MsgDrain) begin  // the paper's swap: no drain
          role_d   = RoleBSwitch;
          dn_msg_d = MsgSwitch;
          up_msg_d = MsgSwitch;
        end
      end
      RoleBDrain: begin
        if (drained_i) begin
          role_d   = RoleBSwitch;
          dn_msg_d = MsgSwitch;
          up_msg_d = MsgSwitch;
        end else if (now_i == until_q) begin
          role_d   = RoleIdle;
          dn_msg_d = MsgAbort;
          up_msg_d = MsgAbort;
        end
      end
      RoleBSwitch, RoleAHold, RoleCHold: begin
        if (role_q == RoleBSwitch || (role_q == RoleCHold ? dn_msg : up_msg) == MsgSwitch) begin
          // b's receiver is blocked in either protocol, a's and c's only in the drain protocol
          role_d    = role_q == RoleBSwitch || drain_i ? RoleBlocked : RoleIdle;
          until_d   = now_i + block_i;
          swapped   = role_q != RoleCHold;
          pos_d[peer_b_q*LabelWidth +: LabelWidth] = swap_pos;
          pos_d[peer_a_q*LabelWidth +: LabelWidth] = wrap_inc(swap_pos);
          updated_d = 1'b1;
          if (role_q == RoleCHold) begin  // c tells the others
            pending_d  = 1'b1;
            pend_a_d   = peer_a_q;
            pend_b_d   = peer_b_q;
            pend_pos_d = swap_pos;
          end
        end else if ((role_q == RoleCHold ? dn_msg : up_msg) == MsgAbort) role_d = RoleIdle;
      end
      RoleBlocked: if (now_i == until_q) role_d = RoleIdle;
      default: role_d = RoleIdle;
    endcase

    // A lock request to a busy node is denied (only the predecessor sends one: a, whose own words
    // go down, so the up word is free).
    if (role_q != RoleIdle && (dn_msg == MsgLockB || dn_msg == MsgLockC))
      up_msg_d = MsgDeny;

    // Notifications: apply and pass on; this node's own waits while it passes others on.
    if (note_valid_i) begin
      pos_d[note_b_i*LabelWidth +: LabelWidth] = note_pos_i;
      pos_d[note_a_i*LabelWidth +: LabelWidth] = wrap_inc(note_pos_i);
      updated_d = 1'b1;
    end
    if (note_valid_i && note_hops_i > LabelWidth'(1)) begin
      note_out_d  = 1'b1;
      note_a_d    = note_a_i;
      note_b_d    = note_b_i;
      note_pos_d  = note_pos_i;
      note_hops_d = note_hops_i - 1'b1;
    end else if (pending_q) begin
      note_out_d  = 1'b1;
      note_a_d    = pend_a_q;
      note_b_d    = pend_b_q;
      note_pos_d  = pend_pos_q;
      note_hops_d = LabelWidth'(Nodes - 3);
      pending_d   = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      role_q <= RoleIdle;
      dn_msg_q <= MsgNone;  dn_a_q <= '0;  dn_b_q <= '0;  up_msg_q <= MsgNone;  up_b_q <= '0;
      peer_a_q <= '0;  peer_b_q <= '0;  until_q <= '0;
      pos_q <= identity;
      updated_q <= 1'b0;  pending_q <= 1'b0;  note_out_q <= 1'b0;
      note_a_q <= '0;  note_b_q <= '0;  note_pos_q <= '0;  note_hops_q <= '0;
      pend_a_q <= '0;  pend_b_q <= '0;  pend_pos_q <= '0;
    end else begin
      role_q <= role_d;
      dn_msg_q <= dn_msg_d;  dn_a_q <= dn_a_d;  dn_b_q <= dn_b_d;  up_msg_q <= up_msg_d;  up_b_q <= up_b_d;
      peer_a_q <= peer_a_d;  peer_b_q <= peer_b_d;  until_q <= until_d;
      pos_q <= pos_d;
      updated_q <= updated_d;  pending_q <= pending_d;  note_out_q <= note_out_d;
      note_a_q <= note_a_d;  note_b_q <= note_b_d;  note_pos_q <= note_pos_d;  note_hops_q <= note_hops_d;
      pend_a_q <= pend_a_d;  pend_b_q <= pend_b_d;  pend_pos_q <= pend_pos_d;
    end
  end

  assign dn_msg_o     = dn_msg_q;
  assign dn_a_o       = dn_a_q;
  assign dn_b_o       = dn_b_q;
  assign up_msg_o     = up_msg_q;
  assign up_b_o       = up_b_q;
  assign note_valid_o = note_out_q;
  assign note_a_o     = note_a_q;
  assign note_b_o     = note_b_q;
  assign note_pos_o   = note_pos_q;
  assign note_hops_o  = note_hops_q;
  assign role_o       = role_q;
  assign hold_out_o   = role_q == RoleAHold && drain_i;
  assign hold_admit_o = role_q == RoleBDrain;
  assign block_in_o   = role_q == RoleBlocked;
  assign switching_o  = role_q == RoleBSwitch;
  assign updated_o    = updated_q;
  assign table_o = pos_q;
  assign deadline_o = role_q == RoleBDrain || role_q == RoleBlocked ? until_q : crit_deadline;
  assign busy_o     = crit_busy || (role_q != RoleIdle && role_q != RoleBlocked)
                      || dn_msg_q != MsgNone || up_msg_q != MsgNone || note_out_q || pending_q;

`ifdef FORMAL
  assign f_until_o  = until_q;
`endif

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert (Nodes >= 4);
      assert (block_i >= TimeWidth'(1));
      assert (role_q <= RoleBlocked);
    end
  end
`endif
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
