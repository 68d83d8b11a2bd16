`default_nettype none
/// A link end that sleeps after N idle cycles: the example of a link-end controller declared by
/// a manifest (controller.yaml beside it), with no C++ of its own.
///
/// Each end decides for itself. After idle_cycles_i cycles with nothing queued, sent or received
/// it tells its partner (MsgSleep) and stops sending; it stays awake 2L + 1 cycles more, because
/// the partner may have sent flits before the message reached it, then sleeps. A packet queued
/// here, or the partner's MsgWake, wakes it: wake_cycles_i cycles later it is awake and says so
/// (MsgAwake), after which the partner sends again. An end sends to its partner only while it
/// knows it awake. Traffic or a MsgWake while draining cancels the sleep (MsgAwake at once).
module sleepy_link (
  input  logic        clk_i,
  input  logic        rst_ni,
  // Straps
  input  logic [7:0]  latency_i,      // one-way link latency L, cycles
  input  logic [23:0] idle_cycles_i,  // N: idle cycles before this end sleeps
  input  logic [23:0] wake_cycles_i,  // cycles from asleep to awake
  // Time base and observables
  input  logic [31:0] now_i,
  input  logic [15:0] tx_queue_i,
  input  logic        tx_busy_i,
  input  logic        rx_busy_i,
  input  logic [2:0]  ctl_rx_i,       // enum: msg_e
  output logic [2:0]  ctl_tx_o,       // enum: msg_e
  output logic        tx_en_o,
  output logic [1:0]  power_o,        // enum: power_e
  // Debug: the link-end contract's deadline (simulation only)
  output logic [31:0] deadline_o,
  output logic        deadline_valid_o
);
  typedef enum logic [2:0] {
    MsgNone  = 3'd0,
    MsgSleep = 3'd1,  // I sleep: send me nothing
    MsgWake  = 3'd2,  // wake up: I have flits for you
    MsgAwake = 3'd3   // I am awake: send
  } msg_e;

  typedef enum logic [1:0] {
    PowerAwake  = 2'd0,
    PowerWaking = 2'd1,
    PowerAsleep = 2'd2
  } power_e;

  typedef enum logic [1:0] {
    Awake    = 2'd0,
    Draining = 2'd1,  // told the partner, still receiving what it sent before it knew
    Asleep   = 2'd2,
    Waking   = 2'd3
  } state_e;

  state_e      state_q, state_d;
  logic [31:0] until_q, until_d;      // Draining, Waking: the last cycle of the state
  logic [31:0] idle_since_q, idle_since_d;
  logic        active_q;              // the last cycle had traffic
  logic        partner_asleep_q, partner_asleep_d;
  logic        wake_sent_q, wake_sent_d;  // MsgWake sent, MsgAwake not yet back
  logic [2:0]  ctl_d;

  logic        active, idle_long, ends, awake_now;
  logic [31:0] idle_for;

  assign active    = tx_queue_i != '0 || tx_busy_i || rx_busy_i;
  assign idle_for  = now_i - idle_since_q + 32'd1;  // idle cycles including this one
  assign idle_long = !active && !active_q && idle_for >= {8'd0, idle_cycles_i};
  assign ends      = now_i == until_q;

  always_comb begin
    state_d          = state_q;
    until_d          = until_q;
    ctl_d            = MsgNone;
    partner_asleep_d = partner_asleep_q;
    wake_sent_d      = wake_sent_q;
    awake_now        = 1'b0;
    if (ctl_rx_i == MsgSleep) partner_asleep_d = 1'b1;
    if (ctl_rx_i == MsgAwake) begin
      partner_asleep_d = 1'b0;
      wake_sent_d      = 1'b0;
    end
    unique case (state_q)
      Awake: begin
        if (ctl_rx_i == MsgWake) begin
          ctl_d = MsgAwake;  // (the partner missed our last MsgAwake's effect: say it again)
        end else if (idle_long) begin
          ctl_d   = MsgSleep;
          state_d = Draining;
          until_d = now_i + 32'd2 * {24'd0, latency_i} + 32'd1;
        end
      end
      Draining: begin
        if (active || ctl_rx_i == MsgWake) begin
          ctl_d   = MsgAwake;
          state_d = Awake;
        end else if (ends) begin
          state_d = Asleep;
        end
      end
      Asleep: begin
        if (tx_queue_i != '0 || ctl_rx_i == MsgWake) begin
          state_d = Waking;
          until_d = now_i + {8'd0, wake_cycles_i};
          if (wake_cycles_i == '0) awake_now = 1'b1;
        end
      end
      Waking: if (ends) awake_now = 1'b1;
      default: state_d = Awake;
    endcase
    if (awake_now) begin
      ctl_d   = MsgAwake;
      state_d = Awake;
    end
    // Queued for a partner asleep: ask it once to wake, when no other message goes this cycle.
    if (state_d == Awake && ctl_d == MsgNone && tx_queue_i != '0 && partner_asleep_d && !wake_sent_d) begin
      ctl_d       = MsgWake;
      wake_sent_d = 1'b1;
    end
  end

  // The first cycle of an idle period, held while idle (no register moves at rest): after traffic,
  // or on becoming awake (a wake-up's idle time starts then, not at the last traffic).
  assign idle_since_d = ((!active && active_q) || (state_d == Awake && state_q != Awake)) ? now_i
                                                                                          : idle_since_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q          <= Awake;
      until_q          <= '0;
      idle_since_q     <= '0;
      active_q         <= 1'b1;
      partner_asleep_q <= 1'b0;
      wake_sent_q      <= 1'b0;
      ctl_tx_o         <= MsgNone;
    end else begin
      state_q          <= state_d;
      until_q          <= until_d;
      idle_since_q     <= idle_since_d;
      active_q         <= active;
      partner_asleep_q <= partner_asleep_d;
      wake_sent_q      <= wake_sent_d;
      ctl_tx_o         <= ctl_d;
    end
  end

  assign tx_en_o = state_q == Awake && !partner_asleep_q;
  assign power_o = state_q == Asleep ? PowerAsleep : state_q == Waking ? PowerWaking : PowerAwake;

  // Registers the time base acts on: the end of an idle period of N cycles (awake, no traffic last
  // cycle), the end of draining or waking.
  assign deadline_valid_o = (state_q == Awake && !active_q) || state_q == Draining || state_q == Waking;
  assign deadline_o       = state_q == Awake ? idle_since_q + {8'd0, idle_cycles_i} - 32'd1 : until_q;
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
