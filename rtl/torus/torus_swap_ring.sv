`default_nettype none
/// One directed cycle of a reconfigurable torus: the swap controllers of its P nodes (indexed by
/// label, the node's place at reset) and the cycle's current order, which wires each controller's
/// handshake and notification words to its present neighbours and its criterion to its
/// successor's totals. A swap (b's switching_o) changes the order at the end of that step:
/// u -> a -> b -> c becomes u -> b -> a -> c. The harness moves packets along succ_o.
module torus_swap_ring #(
  parameter int unsigned Nodes = 8,
  parameter int unsigned CountWidth = 16,
  parameter int unsigned TimeWidth = 16,
  localparam int unsigned LabelWidth = $clog2(Nodes),
  localparam int unsigned BackWidth = CountWidth + 8,
  localparam int unsigned MWidth = CountWidth + 10
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  input  logic [TimeWidth-1:0]                now_i,
  // Straps, the same for every node (seed_i: this cycle's; each node's LFSR gets its own)
  input  logic [TimeWidth-1:0]                period_i,
  input  logic [1:0]                          variant_i,      // enum: threshold_variant_e
  input  logic [CountWidth-1:0]               threshold_i,
  input  logic [CountWidth-1:0]               cost_i,
  input  logic [7:0]                          extra_hops_i,
  input  logic                                back_credit_i,  // F'_ba: 1 hops saved, 0 l per packet
  input  logic [CountWidth-1:0]               step_i,
  input  logic [7:0]                          rare_periods_i,
  input  logic [15:0]                         seed_i,
  input  logic [TimeWidth-1:0]                block_i,
  input  logic                                drain_i,        // 1: the drain protocol, 0: the paper's
  // Per node (bit or field k = label k): this step's flux events (with the hops of a packet sent
  // toward the predecessor in the opposite cycle), drain status, and the node's back total in the
  // opposite cycle (its packets sent there toward its predecessor here)
  input  logic [Nodes-1:0]                    arrive_self_i,
  input  logic [Nodes-1:0]                    arrive_next_i,
  input  logic [Nodes-1:0]                    orig_near_i,
  input  logic [Nodes-1:0]                    orig_far_i,
  input  logic [Nodes-1:0]                    orig_back_i,
  input  logic [Nodes*LabelWidth-1:0]         back_hops_i,
  input  logic [Nodes-1:0]                    drained_i,
  input  logic [Nodes*BackWidth-1:0]          back_i,
  // Per node: data-plane controls, the routing table, the criterion's figures
  output logic [Nodes-1:0]                    hold_out_o,
  output logic [Nodes-1:0]                    hold_admit_o,
  output logic [Nodes-1:0]                    block_in_o,
  output logic [Nodes-1:0]                    switching_o,
  output logic [Nodes-1:0]                    updated_o,
  output logic [Nodes*Nodes*LabelWidth-1:0]   table_o,
  output logic [Nodes*CountWidth-1:0]         near_o,
  output logic [Nodes*BackWidth-1:0]          back_o,
  output logic [Nodes*CountWidth-1:0]         threshold_o,
  output logic [Nodes*MWidth-1:0]             m_o,
  output logic [Nodes*4-1:0]                  role_o,
  output logic [Nodes*TimeWidth-1:0]          deadline_o,
  output logic [Nodes-1:0]                    busy_o,
  // The order: each node's successor and predecessor (labels)
  output logic [Nodes*LabelWidth-1:0]         succ_o,
  output logic [Nodes*LabelWidth-1:0]         pred_o
);
  localparam int unsigned LW = LabelWidth;

  logic [Nodes*LW-1:0]         succ_q, succ_d, pred_q, pred_d, succ_reset, pred_reset;
  logic [Nodes*3-1:0]          dn_msg, up_msg;
  logic [Nodes*LW-1:0]         dn_a, dn_b, up_b, note_a, note_b, note_pos, note_hops;
  logic [Nodes-1:0]            note_valid;
  logic [Nodes*CountWidth-1:0] orig_total, far_total;

`ifdef FORMAL
  logic [Nodes*TimeWidth-1:0]  f_until;
`endif

  for (genvar k = 0; k < Nodes; k++) begin : g_node
    localparam logic [LW-1:0] Label = LW'(k);
    logic [LW-1:0] pred, succ;
    logic [CountWidth-1:0] near;
    assign pred = pred_q[k*LW +: LW];
    assign succ = succ_q[k*LW +: LW];
    assign near = near_o[k*CountWidth +: CountWidth];
    // O: what this node originated and sent on in this cycle (its successor's criterion reads it)
    assign orig_total[k*CountWidth +: CountWidth] = near + far_total[k*CountWidth +: CountWidth];

    torus_swap_ctrl #(
      .Nodes     (Nodes),
      .CountWidth(CountWidth),
      .TimeWidth (TimeWidth)
    ) ctrl (
      .clk_i, .rst_ni, .now_i,
      .period_i, .variant_i, .threshold_i, .cost_i, .extra_hops_i, .back_credit_i, .step_i,
      .rare_periods_i,
      .seed_i       (seed_i ^ (16'(k) * 16'h9e37) ^ 16'h5a5a),
      .block_i, .drain_i,
      .label_i      (Label),
      .arrive_self_i(arrive_self_i[k]),
      .arrive_next_i(arrive_next_i[k]),
      .orig_near_i  (orig_near_i[k]),
      .orig_far_i   (orig_far_i[k]),
      .orig_back_i  (orig_back_i[k]),
      .back_hops_i  (back_hops_i[k*LW +: LW]),
      .b_orig_i     (orig_total[succ*CountWidth +: CountWidth]),
      .b_back_i     (back_i[succ*BackWidth +: BackWidth]),
      .drained_i    (drained_i[k]),
      .dn_msg_i     (dn_msg[pred*3 +: 3]),
      .dn_a_i       (dn_a[pred*LW +: LW]),
      .dn_b_i       (dn_b[pred*LW +: LW]),
      .up_msg_i     (up_msg[succ*3 +: 3]),
      .up_b_i       (up_b[succ*LW +: LW]),
      .note_valid_i (note_valid[pred]),
      .note_a_i     (note_a[pred*LW +: LW]),
      .note_b_i     (note_b[pred*LW +: LW]),
      .note_pos_i   (note_pos[pred*LW +: LW]),
      .note_hops_i  (note_hops[pred*LW +: LW]),
      .dn_msg_o     (dn_msg[k*3 +: 3]),
      .dn_a_o       (dn_a[k*LW +: LW]),
      .dn_b_o       (dn_b[k*LW +: LW]),
      .up_msg_o     (up_msg[k*3 +: 3]),
      .up_b_o       (up_b[k*LW +: LW]),
      .note_valid_o (note_valid[k]),
      .note_a_o     (note_a[k*LW +: LW]),
      .note_b_o     (note_b[k*LW +: LW]),
      .note_pos_o   (note_pos[k*LW +: LW]),
      .note_hops_o  (note_hops[k*LW +: LW]),
      .near_o       (near_o[k*CountWidth +: CountWidth]),
      .far_o        (far_total[k*CountWidth +: CountWidth]),
      .back_o       (back_o[k*BackWidth +: BackWidth]),
      .m_o          (m_o[k*MWidth +: MWidth]),
      .threshold_o  (threshold_o[k*CountWidth +: CountWidth]),
      .role_o       (role_o[k*4 +: 4]),
      .hold_out_o   (hold_out_o[k]),
      .hold_admit_o (hold_admit_o[k]),
      .block_in_o   (block_in_o[k]),
      .switching_o  (switching_o[k]),
      .table_o      (table_o[k*Nodes*LW +: Nodes*LW]),
      .updated_o    (updated_o[k]),
      .deadline_o   (deadline_o[k*TimeWidth +: TimeWidth]),
      .busy_o       (busy_o[k])

`ifdef FORMAL
      ,
      .f_until_o    (f_until[k*TimeWidth +: TimeWidth])
`endif
    );
    assign succ_reset[k*LW +: LW] = k == Nodes - 1 ? '0 : LW'(k + 1);
    assign pred_reset[k*LW +: LW] = k == 0 ? LW'(Nodes - 1) : LW'(k - 1);
  end

  // The swaps switching this step (b = k, a = pred(b)): u -> a -> b -> c becomes u -> b -> a -> c.
  // Swaps in progress lock disjoint triples, so their updates touch different entries.
  always_comb begin
    logic [LW-1:0] a, u, c;
    succ_d = succ_q;
    pred_d = pred_q;
    {a, u, c} = '0;
    for (int unsigned b = 0; b < Nodes; b++) begin
      if (switching_o[b]) begin
        a = pred_q[b*LW +: LW];
        u = pred_q[a*LW +: LW];
        c = succ_q[b*LW +: LW];
        succ_d[u*LW +: LW] = LW'(b);
        pred_d[b*LW +: LW] = u;
        succ_d[b*LW +: LW] = a;
        pred_d[a*LW +: LW] = LW'(b);
        succ_d[a*LW +: LW] = c;
        pred_d[c*LW +: LW] = a;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      succ_q <= succ_reset;
      pred_q <= pred_reset;
    end else begin
      succ_q <= succ_d;
      pred_q <= pred_d;
    end
  end

  assign succ_o = succ_q;
  assign pred_o = pred_q;

`ifndef SYNTHESIS
  // The order stays one cycle through every node: P successor steps from node 0 return to it.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      logic [LW-1:0] at;
      at = '0;
      for (int unsigned i = 0; i < Nodes; i++) begin
        at = succ_q[at*LW +: LW];
        assert (pred_q[succ_q[at*LW +: LW]*LW +: LW] == at);
        if (i + 1 < Nodes) assert (at != '0);
      end
      assert (at == '0);
    end
  end
`endif

`ifdef FORMAL
  // Proved by scripts/formal.py (docs/formal.md), with the criterion's swap wishes free on every
  // cycle (tb/formal/torus_swap_criterion_free.sv). The straps hold one arbitrary value each, the
  // time base counts cycles, drain status is arbitrary.
  (* anyconst *) logic                 f_drain;
  (* anyconst *) logic [TimeWidth-1:0] f_period, f_block;
  logic                 f_started = 1'b0;
  logic [TimeWidth-1:0] f_now_q;
  always_ff @(posedge clk_i) begin
    f_started <= 1'b1;
    f_now_q   <= now_i;
  end
  always_comb begin
    assume (rst_ni == f_started);
    assume (drain_i == f_drain && period_i == f_period && block_i == f_block && f_block != '0);
    if (f_started) assume (now_i == f_now_q + 1'b1);
  end
  // torus_swap_ctrl's roles (swap_role_e)
  localparam logic [3:0] RoleIdle = 4'd0, RoleAWait = 4'd1, RoleAHold = 4'd2, RoleBWait = 4'd3,
                         RoleBGranted = 4'd4, RoleBDrain = 4'd5, RoleBSwitch = 4'd6, RoleCHold = 4'd7,
                         RoleBlocked = 4'd8;
  `include "torus_swap_msg.svh"
  always_comb begin
    if (rst_ni) begin
      logic [LW-1:0] at;
      // The order is one cycle through every node
      at = '0;
      for (int unsigned i = 0; i < Nodes; i++) begin
        at = succ_q[at*LW +: LW];
        assert (pred_q[at*LW +: LW] != at && succ_q[pred_q[at*LW +: LW]*LW +: LW] == at);
        if (i + 1 < Nodes) assert (at != '0);
      end
      assert (at == '0);
      // The handshake's invariants, which make the proof inductive: each stage of a swap, with the
      // roles of its three nodes, the words in flight between them, and how long a and b wait
      for (int unsigned k = 0; k < Nodes; k++) begin
        logic [LW-1:0] p, n;
        logic [3:0] r, rp, rn;
        logic [2:0] dn, up, dnp, upn;
        logic [TimeWidth-1:0] left, left_p;  // cycles to this node's and its predecessor's limit
        p = pred_q[k*LW +: LW];
        n = succ_q[k*LW +: LW];
        r = role_o[k*4 +: 4];
        rp = role_o[p*4 +: 4];
        rn = role_o[n*4 +: 4];
        dn = dn_msg[k*3 +: 3];
        up = up_msg[k*3 +: 3];
        dnp = dn_msg[p*3 +: 3];
        upn = up_msg[n*3 +: 3];
        left = f_until[k*TimeWidth +: TimeWidth] - now_i;
        left_p = f_until[p*TimeWidth +: TimeWidth] - now_i;
        assert (r <= RoleBlocked);
        if (r == RoleAWait) assert (left <= TimeWidth'(8));
        if (dn == MsgLockB) assert (r == RoleAWait && left == TimeWidth'(7));
        if (dn == MsgLockC)
          assert (r == RoleBWait && rp == RoleAWait && left_p == TimeWidth'(6) && left == TimeWidth'(7));
        if (r == RoleBWait && dn != MsgLockC)
          assert (rp == RoleAWait && left_p == TimeWidth'(5) && left == TimeWidth'(6)
                  && (upn == MsgDeny || (upn == MsgGrant && rn == RoleCHold)));
        if (r == RoleBGranted && up == MsgGrant)
          assert (rp == RoleAWait && left_p == TimeWidth'(4) && rn == RoleCHold);
        if (r == RoleBGranted && up != MsgGrant)
          assert (rp == RoleAHold && dnp == MsgDrain && rn == RoleCHold);
        if (r == RoleBDrain || r == RoleBSwitch)
          assert (rp == RoleAHold && dnp != MsgDrain && rn == RoleCHold);
        if (r == RoleBSwitch) assert (dn == MsgSwitch && up == MsgSwitch);
        if (dn == MsgSwitch || up == MsgSwitch) assert (r == RoleBSwitch);
        if (dn == MsgDrain) assert (r == RoleAHold && rn == RoleBGranted);
        if (r == RoleAHold && dn != MsgDrain)
          assert (rn == RoleBDrain || rn == RoleBSwitch || (rn == RoleIdle && upn == MsgAbort));
        if (dn == MsgAbort || up == MsgAbort)
          assert (r == RoleIdle && dn == MsgAbort && up == MsgAbort && rp == RoleAHold && rn == RoleCHold);
        if (up == MsgGrant)
          assert ((r == RoleCHold && rp == RoleBWait) || (r == RoleBGranted && rp == RoleAWait));
        if (r == RoleCHold)
          assert ((rp == RoleBWait && up == MsgGrant) || rp == RoleBGranted || rp == RoleBDrain
                  || rp == RoleBSwitch || (rp == RoleIdle && dnp == MsgAbort));
      end
      // A node switches places only with its predecessor holding as a and its successor as c
      for (int unsigned b = 0; b < Nodes; b++) begin
        if (switching_o[b]) begin
          assert (role_o[pred_q[b*LW +: LW]*4 +: 4] == RoleAHold
                  && role_o[succ_q[b*LW +: LW]*4 +: 4] == RoleCHold);
        end
      end
    end
  end
  // Reachable: a swap in each protocol, a lock denied, an aborted drain.
  logic f_denied, f_aborted;
  always_comb begin
    f_denied = 1'b0;
    f_aborted = 1'b0;
    for (int unsigned k = 0; k < Nodes; k++) begin
      if (up_msg[k*3 +: 3] == MsgDeny) f_denied = 1'b1;
      if (up_msg[k*3 +: 3] == MsgAbort) f_aborted = 1'b1;
    end
    if (rst_ni) begin
      cover (switching_o != '0 && !f_drain);
      cover (switching_o != '0 && f_drain);
      cover (f_denied);
      cover (f_aborted);
    end
  end
`endif
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
