`default_nettype none
/// Energy Efficient Ethernet port controller: one at each end of a link.
/// A PDT timer decides when to ask the partner to power the link down; the partners agree through
/// a request/answer handshake carried over the link and start every transition on the same cycle;
/// the power sequencer then runs TO_SLEEP (t_s) -> LPI -> TO_WAKE (t_w).
///
/// Handshake (L = link latency in cycles, messages take L cycles each way):
///
///   cycle      T0          T0+L              T0+2L
///   requester  ReqSleep -> ...               Accept seen: go
///   responder              ReqSleep seen,    go (sync counter ran out)
///                          Accept sent
///
/// A power-down request is refused while the responder has packets queued or is transmitting.
/// A power-up request is always accepted, so with eager_wake_i it is not answered: the requester
/// starts TO_WAKE 1 cycle after its request appears instead of 2L + 1, the partner on the edge at
/// which the request arrives, L - 1 cycles later: awake before the first flit, which takes L.
/// When both ends request at once (sleep, or an answered wake) the end strapped as master wins:
/// the master ignores the slave's request and the slave answers the master's.
/// A packet that arrives while the link goes to sleep waits: the transition completes, then the
/// port asks to wake. Every transition start cancels the PDT timer: it is armed again only when
/// this end next finishes sending, so the last end to transmit is the one that asks to sleep. The port transmits only while awake with no handshake open (tx_en_o).
module eee_port #(
  /// Width of the PDT threshold and timer (32 bits = 4.295 s at 1 ns per cycle).
  parameter int unsigned TimerWidth = 32,
  /// Width of the transition-time inputs t_s and t_w.
  parameter int unsigned TransWidth = 24,
  /// Width of the link-latency strap (one way, cycles).
  parameter int unsigned LatencyWidth = 8,
  /// Width of the queued-packet observable.
  parameter int unsigned QueueWidth = 16
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // Straps: set once by the harness
  input  logic                    master_i,       // wins simultaneous requests
  input  logic                    lpi_deep_i,     // 0 = fast wake, 1 = deep sleep (reported only)
  input  logic                    eager_wake_i,   // wake without waiting for the answer (both ends)
  input  logic [LatencyWidth-1:0] latency_i,      // one-way link latency, >= 1
  input  logic [TransWidth-1:0]   sleep_cycles_i, // t_s
  input  logic [TransWidth-1:0]   wake_cycles_i,  // t_w
  input  logic [TimerWidth-1:0]   pdt_cycles_i,   // t_PDT
  // Time base: the current cycle (modulo 2^TimerWidth); see deadline_o
  input  logic [TimerWidth-1:0]   now_i,
  // Observables of the harness
  input  logic [QueueWidth-1:0]   tx_queue_i,     // packets waiting for or sending on this output
  input  logic                    tx_busy_i,      // a flit left on the link this cycle
  input  logic                    rx_busy_i,      // a flit arrived from the link this cycle
  // Control messages over the link (arrive L cycles after the partner sent them)
  input  logic [2:0]              ctl_rx_i,       // enum: ctl_msg_e
  output logic [2:0]              ctl_tx_o,       // enum: ctl_msg_e
  // Link state
  output logic                    tx_en_o,        // this end may start sending a flit
  output logic [1:0]              power_o,        // enum: power_e
  // Debug: together with ctl_tx_o these are the whole state of the port
  output logic [1:0]              hs_state_o,     // enum: hs_state_e
  output logic [LatencyWidth-1:0] sync_count_o,
  output logic                    go_o,
  output logic [1:0]              seq_state_o,    // enum: seq_state_e (link_power_seq)
  output logic [TransWidth-1:0]   trans_count_o,  // cycles left in a transition
  output logic                    pdt_armed_o,
  output logic [TimerWidth-1:0]   pdt_count_o,    // cycles left before the PDT expires
  // Registers the time base is compared with: a port whose inputs stay the same changes no register
  // until now_i reaches one of them, so the harness may skip its evaluation until then
  output logic [TransWidth-1:0]   trans_until_o,  // last cycle of a transition
  output logic [TimerWidth-1:0]   pdt_deadline_o, // cycle the PDT expires (armed, not fired, not never)
  output logic                    pdt_fired_o,
  output logic                    pdt_never_o,
  // The link-end contract's deadline (docs/controllers.md): the first cycle after this one whose
  // time base reaches one of the registers above, if any (simulation only, like all debug outputs)
  output logic [TimerWidth-1:0]   deadline_o,
  output logic                    deadline_valid_o
);
  // Control messages carried on ctl_*. The enums name the encodings of the ports too: GTKWave
  // views show them by name (translate filters generated from these typedefs).
  typedef enum logic [2:0] {
    MsgNone     = 3'd0,
    MsgReqSleep = 3'd1,
    MsgReqWake  = 3'd2,
    MsgAccept   = 3'd3,
    MsgRefuse   = 3'd4
  } ctl_msg_e;

  typedef enum logic [1:0] {
    PowerWake       = 2'd0,  // awake
    PowerTransition = 2'd1,  // going to sleep or waking: full power, no transmission
    PowerFastLpi    = 2'd2,  // fast-wake LPI
    PowerDeepLpi    = 2'd3   // deep-sleep LPI
  } power_e;

  typedef enum logic [1:0] {
    HsIdle  = 2'd0,  // no handshake open
    HsReq   = 2'd1,  // request sent, waiting for the answer
    HsSync  = 2'd2,  // request accepted here, waiting L cycles so both ends start together
    HsStart = 2'd3   // first cycle after reset: arm the PDT timer
  } hs_state_e;

  hs_state_e               hs_q, hs_d;
  logic [2:0]              ctl_q, ctl_d;
  logic [LatencyWidth-1:0] sync_q, sync_d;
  logic                    go_q, go_d;     // start the transition this cycle

  logic       seq_on, seq_stable;
  logic [1:0] seq_state;
  logic       pdt_expired, pdt_consume;
  logic       queued, rx_req_sleep, rx_req_wake, rx_answer;
  logic       tx_done_empty, settled, can_accept, answer, eager_start;

  assign queued        = (tx_queue_i != '0);
  assign rx_req_sleep  = (ctl_rx_i == MsgReqSleep);
  assign rx_req_wake   = (ctl_rx_i == MsgReqWake);
  assign rx_answer     = (ctl_rx_i == MsgAccept) || (ctl_rx_i == MsgRefuse);
  assign tx_done_empty = tx_busy_i && !queued;
  // Answer to a partner's request: wake is always accepted, sleep only with nothing queued or
  // sending. A request that does not match the link's stable state (the partner is out of step,
  // which the protocol never does) is refused rather than started mid-transition.
  assign settled       = seq_stable && !go_q;  // no transition running or about to start
  assign can_accept    = settled && (rx_req_wake ? !seq_on : (seq_on && !queued && !tx_busy_i));
  // Requests are answered when no handshake is open, or when both ends asked at once and the
  // partner is the master: the slave drops its own request and answers the master's.
  assign answer        = (rx_req_sleep || (rx_req_wake && !eager_wake_i)) &&
                         (hs_q == HsIdle || (hs_q == HsReq && !master_i));
  // The partner's eager wake starts this end on this edge (unless it is waking already).
  assign eager_start   = eager_wake_i && rx_req_wake && settled && !seq_on;

  always_comb begin
    hs_d        = hs_q;
    ctl_d       = MsgNone;
    sync_d      = sync_q;
    go_d        = 1'b0;
    pdt_consume = 1'b0;
    unique case (hs_q)
      HsStart: hs_d = HsIdle;
      HsIdle: begin
        if (answer) begin
          hs_d = HsIdle;  // answered after the case
        end else if (settled && seq_on && pdt_expired && !queued && !tx_busy_i) begin
          ctl_d       = MsgReqSleep;
          hs_d        = HsReq;
          pdt_consume = 1'b1;
        end else if (settled && !seq_on && queued && !eager_start) begin
          ctl_d = MsgReqWake;
          if (eager_wake_i) go_d = 1'b1;
          else hs_d = HsReq;
        end
      end
      HsReq: begin
        if (rx_answer) begin
          hs_d = HsIdle;
          go_d = (ctl_rx_i == MsgAccept);
        end
      end
      HsSync: begin
        if (sync_q <= 'd1) begin
          hs_d = HsIdle;
          go_d = 1'b1;
        end else begin
          sync_d = sync_q - 1'b1;
        end
      end
      default: hs_d = HsIdle;
    endcase
    // The partner's request: accept (both ends start together L cycles from now) or refuse.
    if (answer) begin
      ctl_d = can_accept ? MsgAccept : MsgRefuse;
      hs_d  = can_accept ? HsSync : HsIdle;
      if (can_accept) sync_d = latency_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hs_q   <= HsStart;
      ctl_q  <= MsgNone;
      sync_q <= '0;
      go_q   <= 1'b0;
    end else begin
      hs_q   <= hs_d;
      ctl_q  <= ctl_d;
      sync_q <= sync_d;
      go_q   <= go_d;
    end
  end

  // go_q is registered, so both ends see it one cycle after the handshake ends, on the same cycle.
  link_power_seq #(
    .CountWidth (TransWidth)
  ) u_seq (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .now_i        (now_i[TransWidth-1:0]),
    .go_off_i     (go_q && seq_on),
    .go_on_i      ((go_q && !seq_on) || eager_start),
    .off_cycles_i (sleep_cycles_i),
    .on_cycles_i  (wake_cycles_i),
    .state_o      (seq_state),
    .on_o         (seq_on),
    .stable_o     (seq_stable),
    .count_o      (trans_count_o),
    .until_o      (trans_until_o)
  );

  eee_pdt_timer #(
    .TimerWidth (TimerWidth)
  ) u_pdt (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .now_i        (now_i),
    .pdt_cycles_i (pdt_cycles_i),
    .arm_i        (tx_done_empty || (hs_q == HsStart)),
    .cancel_i     (queued || rx_busy_i || go_q || eager_start),
    .consume_i    (pdt_consume),
    .armed_o      (pdt_armed_o),
    .expired_o    (pdt_expired),
    .count_o      (pdt_count_o),
    .deadline_o   (pdt_deadline_o),
    .fired_o      (pdt_fired_o),
    .never_o      (pdt_never_o)
  );

  assign ctl_tx_o    = ctl_q;
  assign tx_en_o     = seq_on && (hs_q == HsIdle || hs_q == HsStart) && !go_q;
  assign power_o     = (seq_state == 2'd0) ? PowerWake :
                       (seq_state == 2'd2) ? (lpi_deep_i ? PowerDeepLpi : PowerFastLpi) : PowerTransition;
  assign hs_state_o  = hs_q;
  assign sync_count_o = sync_q;
  assign go_o        = go_q;
  assign seq_state_o = seq_state;

  // Distances from the next cycle: the PDT's when armed, not fired and not never; a transition's
  // end (24-bit time base) while the sequencer is in one.
  logic                  pdt_due, trans_due;
  logic [TimerWidth-1:0] next, to_pdt, to_trans;
  logic [TransWidth-1:0] trans_left;
  assign next             = now_i + 1'b1;
  assign pdt_due          = pdt_armed_o && !pdt_fired_o && !pdt_never_o;
  assign trans_due        = seq_state[0];
  assign to_pdt           = pdt_deadline_o - next;
  assign trans_left       = trans_until_o - next[TransWidth-1:0];
  assign to_trans         = TimerWidth'(trans_left);
  assign deadline_valid_o = pdt_due || trans_due;
  assign deadline_o       = next + ((pdt_due && (!trans_due || to_pdt < to_trans)) ? to_pdt : to_trans);

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      // A transition starts only from a stable state, and the port never sends while unusable.
      if (go_q) assert (seq_stable);
      if (tx_busy_i) assert (tx_en_o);
      assert (latency_i != '0);
    end
  end
`endif
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
