`default_nettype none
/// One link between two EEE ports (eee_port), joined as the harness joins them: the end strapped as
/// master is end 0, and a control message reaches the partner latency_i cycles after the edge that
/// sent it (the port's message register is the first of those cycles). Both ends share the straps
/// that must agree (eager wake, t_s, t_w, latency); each has its own PDT, queue and traffic.
/// Written for the proof of the handshake (scripts/formal.py, docs/formal.md).
module eee_link #(
  /// Longest one-way latency the delay lines hold (cycles, at least 2).
  parameter int unsigned MaxLatency = 2,
  parameter int unsigned TimerWidth = 32,
  parameter int unsigned TransWidth = 24,
  parameter int unsigned QueueWidth = 16,
  localparam int unsigned LatencyWidth = $clog2(MaxLatency + 1)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic [TimerWidth-1:0]   now_i,
  // Straps of both ends
  input  logic                    lpi_deep_i,
  input  logic                    eager_wake_i,
  input  logic [LatencyWidth-1:0] latency_i,      // 1 .. MaxLatency
  input  logic [TransWidth-1:0]   sleep_cycles_i,
  input  logic [TransWidth-1:0]   wake_cycles_i,
  // Per end (field 0: the master's)
  input  logic [2*TimerWidth-1:0] pdt_cycles_i,
  input  logic [2*QueueWidth-1:0] tx_queue_i,
  input  logic [1:0]              tx_busy_i,
  input  logic [1:0]              rx_busy_i,
  output logic [1:0]              tx_en_o,
  output logic [3:0]              power_o,        // enum: power_e (eee_port)
  output logic [3:0]              seq_state_o,    // enum: seq_state_e (link_power_seq)
  output logic [3:0]              hs_state_o,     // enum: hs_state_e (eee_port)
  output logic [5:0]              ctl_tx_o,       // enum: ctl_msg_e (eee_port)
  output logic [2*LatencyWidth-1:0] sync_count_o,
  output logic [1:0]              go_o,
  output logic [2*TransWidth-1:0] trans_until_o,
  output logic [5:0]              ctl_rx_o        // what each end receives this cycle
);
  // End e's message register d + 1 edges ago at line_q[e*LineWidth + d*3 +: 3]
  localparam int unsigned LineWidth = (MaxLatency - 1) * 3;
  logic [2*LineWidth-1:0] line_q;

  for (genvar e = 0; e < 2; e++) begin : g_end
    /* verilator lint_off PINCONNECTEMPTY */
    eee_port #(
      .TimerWidth  (TimerWidth),
      .TransWidth  (TransWidth),
      .LatencyWidth(LatencyWidth),
      .QueueWidth  (QueueWidth)
    ) port (
      .clk_i, .rst_ni,
      .master_i        (e == 0),
      .lpi_deep_i, .eager_wake_i, .latency_i,
      .sleep_cycles_i, .wake_cycles_i,
      .pdt_cycles_i    (pdt_cycles_i[e*TimerWidth +: TimerWidth]),
      .now_i,
      .tx_queue_i      (tx_queue_i[e*QueueWidth +: QueueWidth]),
      .tx_busy_i       (tx_busy_i[e]),
      .rx_busy_i       (rx_busy_i[e]),
      .ctl_rx_i        (ctl_rx_o[e*3 +: 3]),
      .ctl_tx_o        (ctl_tx_o[e*3 +: 3]),
      .tx_en_o         (tx_en_o[e]),
      .power_o         (power_o[e*2 +: 2]),
      .hs_state_o      (hs_state_o[e*2 +: 2]),
      .sync_count_o    (sync_count_o[e*LatencyWidth +: LatencyWidth]),
      .go_o            (go_o[e]),
      .seq_state_o     (seq_state_o[e*2 +: 2]),
      .trans_count_o   (),
      .pdt_armed_o     (),
      .pdt_count_o     (),
      .trans_until_o   (trans_until_o[e*TransWidth +: TransWidth]),
      .pdt_deadline_o  (),
      .pdt_fired_o     (),
      .pdt_never_o     (),
      .deadline_o      (),
      .deadline_valid_o()
    );
    /* verilator lint_on PINCONNECTEMPTY */
    // The partner's message from latency_i - 1 edges before its register's present value.
    assign ctl_rx_o[e*3 +: 3] = latency_i <= 1 ? ctl_tx_o[(1-e)*3 +: 3]
                                               : line_q[(1-e)*LineWidth + (32'(latency_i) - 2) * 3 +: 3];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) line_q <= '0;
    else begin
      for (int e = 0; e < 2; e++)
        line_q[e*LineWidth +: LineWidth] <= LineWidth'({line_q[e*LineWidth +: LineWidth], ctl_tx_o[e*3+:3]});
    end
  end
`ifdef FORMAL
  // Proved by scripts/formal.py (docs/formal.md). The straps hold one arbitrary value each, the time
  // base counts cycles, and queues, traffic and PDT thresholds are arbitrary within the harness's
  // contract: an end sends a flit only when enabled, and a packet leaves its queue only by being sent.
  (* anyconst *) logic                        f_eager, f_deep;
  (* anyconst *) logic [LatencyWidth-1:0]     f_latency;
  (* anyconst *) logic [TransWidth-1:0]       f_sleep, f_wake;
  (* anyconst *) logic [2*TimerWidth-1:0]     f_pdt;
  logic                  f_started = 1'b0;
  logic [TimerWidth-1:0] f_now_q;
  logic [1:0]            f_queued_q, f_sent_q;
  always_ff @(posedge clk_i) begin
    f_started  <= 1'b1;
    f_now_q    <= now_i;
    f_sent_q   <= tx_busy_i;
    for (int e = 0; e < 2; e++) f_queued_q[e] <= tx_queue_i[e*QueueWidth +: QueueWidth] != '0;
  end
  always_comb begin
    assume (rst_ni == f_started);
    assume (eager_wake_i == f_eager && lpi_deep_i == f_deep && latency_i == f_latency && f_latency != '0
            && f_latency <= LatencyWidth'(MaxLatency) && sleep_cycles_i == f_sleep && wake_cycles_i == f_wake
            && pdt_cycles_i == f_pdt);
    if (f_started) assume (now_i == f_now_q + 1'b1);
    for (int e = 0; e < 2; e++) begin
      if (tx_busy_i[e]) assume (tx_en_o[e]);
      if (f_started && f_queued_q[e] && !f_sent_q[e]) assume (tx_queue_i[e*QueueWidth +: QueueWidth] != '0);
    end
  end

  // Each end's sequencer state over the last MaxLatency - 1 cycles (end e's d + 1 cycles ago at
  // f_seen_q[(e*(MaxLatency-1) + d)*2 +: 2]), and the cycles each end has had a packet waiting since
  // its link was off (this cycle included).
  logic [2*(MaxLatency-1)*2-1:0] f_seen_q;
  logic [9:0]                    f_wait_q, f_wait;  // end e's at [e*5 +: 5]
  logic [1:0]                    f_follows;         // end e is where the other was at most L - 1 cycles ago
  always_comb begin
    for (int e = 0; e < 2; e++) begin
      f_wait[e*5 +: 5] = !tx_en_o[e] && (f_wait_q[e*5 +: 5] != '0 || (seq_state_o[e*2 +: 2] == 2'd2
                         && tx_queue_i[e*QueueWidth +: QueueWidth] != '0)) ? f_wait_q[e*5 +: 5] + 1'b1 : '0;
      f_follows[e] = seq_state_o[e*2 +: 2] == seq_state_o[(1-e)*2 +: 2];
      for (int d = 0; d + 1 < MaxLatency; d++) begin
        if (d + 1 < 32'(f_latency) && seq_state_o[e*2 +: 2] == f_seen_q[((1-e)*(MaxLatency-1) + d)*2 +: 2])
          f_follows[e] = 1'b1;
      end
    end
  end
  always_ff @(posedge clk_i) begin
    f_wait_q <= rst_ni ? f_wait : '0;
    for (int e = 0; e < 2; e++) begin
      f_seen_q[e*(MaxLatency-1)*2 +: (MaxLatency-1)*2] <= !rst_ni ? '0
        : ((MaxLatency-1)*2)'({f_seen_q[e*(MaxLatency-1)*2 +: (MaxLatency-1)*2], seq_state_o[e*2 +: 2]});
    end
  end
  always_comb begin
    if (rst_ni) begin
      // The ends go through the same states on the same cycles, except that an eager wake starts the
      // partner a latency minus one cycle after its requester: one end then follows the other.
      if (f_eager) assert (f_follows != 2'b00);
      else assert (seq_state_o[1:0] == seq_state_o[3:2]);
      for (int e = 0; e < 2; e++)
        assert (f_wait[e*5 +: 5] <= 5'(f_wake) + (f_eager ? 5'd2 : 5'(3 * f_latency) + 5'd1));
    end
  end

  // The protocol's invariants, which make the proof inductive: what is in flight from each end and
  // the handshake states agree. f_flight: end e's message at age a (a edges after its register took
  // it; a <= L - 1 is still to arrive) at [(e*MaxLatency + a)*3 +: 3], else none.
  logic [2*MaxLatency*3-1:0] f_flight;
  logic [1:0]                f_req_out, f_refuse_out;  // a handshake's request, a refusal in flight
  logic                      f_first_q;  // the first cycle after reset
  always_comb begin
    for (int e = 0; e < 2; e++) begin
      f_req_out[e] = 1'b0;
      f_refuse_out[e] = 1'b0;
      for (int a = 0; a < MaxLatency; a++) begin
        f_flight[(e*MaxLatency + a)*3 +: 3] = a >= 32'(f_latency) ? 3'd0
          : a == 0 ? ctl_tx_o[e*3 +: 3] : line_q[e*LineWidth + (a == 0 ? 0 : a - 1)*3 +: 3];
        if (f_flight[(e*MaxLatency + a)*3 +: 3] == 3'd1
            || (f_flight[(e*MaxLatency + a)*3 +: 3] == 3'd2 && !f_eager)) f_req_out[e] = 1'b1;
        if (f_flight[(e*MaxLatency + a)*3 +: 3] == 3'd4) f_refuse_out[e] = 1'b1;
      end
    end
  end
  always_ff @(posedge clk_i) f_first_q <= !rst_ni;
  always_comb begin
    if (rst_ni) begin
      for (int e = 0; e < 2; e++) begin
        // HsStart only on the first cycle after reset
        assert ((hs_state_o[e*2 +: 2] == 2'd3) == f_first_q);
        // An Accept is in flight exactly while its sender waits in HsSync, the partner in HsReq
        for (int a = 0; a < MaxLatency; a++) begin
          assert ((f_flight[(e*MaxLatency + a)*3 +: 3] == 3'd3)
                  == (hs_state_o[e*2 +: 2] == 2'd2
                      && 32'(sync_count_o[e*LatencyWidth +: LatencyWidth]) + a == 32'(f_latency)));
        end
        if (hs_state_o[e*2 +: 2] == 2'd2) begin
          assert (sync_count_o[e*LatencyWidth +: LatencyWidth] != '0 && hs_state_o[(1-e)*2 +: 2] == 2'd1
                  && go_o == 2'b00 && !f_req_out[1-e]);
        end
        if (f_refuse_out[e]) assert (hs_state_o[(1-e)*2 +: 2] == 2'd1 && !f_req_out[1-e]);
        // A request waits for its answer, which is on its way or about to be (the slave's, when the
        // master asked too, for the master's request)
        if (hs_state_o[e*2 +: 2] == 2'd1)
          assert (f_req_out[e] || hs_state_o[(1-e)*2 +: 2] == 2'd2 || f_refuse_out[1-e]
                  || (e == 1 && hs_state_o[1:0] == 2'd1 && f_req_out[0]));
        // The slave's request overtaken by the master's
        if (f_req_out[e] && hs_state_o[e*2 +: 2] != 2'd1) assert (e == 1 && hs_state_o[1:0] == 2'd1);
      end
      if (!f_eager) begin
        assert (go_o[0] == go_o[1]);
        if (seq_state_o[0]) assert (trans_until_o[TransWidth-1:0] == trans_until_o[TransWidth +: TransWidth]);
      end
    end
  end

  // How long a packet can have waited, by the state of its wake (the invariants that bound it).
  // A wake starts at most 3L + 1 cycles after the wait did (the slave's request overtaken by the
  // master's: L - 1 cycles until the master asks, 2L for its handshake), then takes t_w.
  logic [1:0]            f_other_out;  // a message in flight that is not an eager wake
  logic [2*5-1:0]        f_req_age;  // end e's request in flight: its age at [e*5 +: 5]
  always_comb begin
    for (int e = 0; e < 2; e++) begin
      f_other_out[e] = 1'b0;
      f_req_age[e*5 +: 5] = '0;
      for (int a = 0; a < MaxLatency; a++) begin
        if (f_flight[(e*MaxLatency + a)*3 +: 3] != 3'd0
            && !(f_eager && f_flight[(e*MaxLatency + a)*3 +: 3] == 3'd2)) f_other_out[e] = 1'b1;
        if (f_flight[(e*MaxLatency + a)*3 +: 3] == 3'd1 || f_flight[(e*MaxLatency + a)*3 +: 3] == 3'd2)
          f_req_age[e*5 +: 5] = 5'(a);  // (the oldest, were there two)
      end
    end
  end
  always_comb begin
    if (rst_ni) begin
      for (int e = 0; e < 2; e++) begin
        logic [4:0] w, l, sync_here, sync_there, left, at_go;
        logic [1:0] seq, hs;
        logic [TransWidth-1:0] left_mod;
        w = f_wait_q[e*5 +: 5];
        l = 5'(f_latency);
        seq = seq_state_o[e*2 +: 2];
        hs = hs_state_o[e*2 +: 2];
        sync_here = 5'(sync_count_o[e*LatencyWidth +: LatencyWidth]);
        sync_there = 5'(sync_count_o[(1-e)*LatencyWidth +: LatencyWidth]);
        left_mod = trans_until_o[e*TransWidth +: TransWidth] - now_i[TransWidth-1:0];
        left = 5'(left_mod);
        at_go = f_eager ? 5'd1 : 3 * l;  // the most a packet has waited when its wake starts
        // During a transition no handshake is open and nothing is in flight but an eager wake
        if (seq[0]) assert (hs == 2'd0 && !go_o[e] && !f_other_out[e]);
        if (seq == 2'd1) assert (w == '0 && left <= 5'(f_sleep));
        if (seq == 2'd0 && w != '0) assert (tx_en_o[e]);
        if (seq == 2'd3) assert (left <= 5'(f_wake) && w + left <= at_go + 5'(f_wake));
        if (seq == 2'd2 && go_o[e]) assert (w <= at_go);
        if (seq == 2'd2 && !go_o[e] && f_eager) assert (w == '0);
        if (seq == 2'd2 && !go_o[e] && !f_eager) begin
          if (hs == 2'd0) assert (w == '0);
          if (hs == 2'd2) assert (w + sync_here <= 3 * l);
          if (hs == 2'd1) assert ((f_req_out[e] && w <= f_req_age[e*5 +: 5] + 1'b1)
                                  || (hs_state_o[(1-e)*2 +: 2] == 2'd2 && w + sync_there <= 2 * l + 1'b1)
                                  || (e == 1 && f_req_out[0] && w <= l + f_req_age[4:0]));
        end
      end
    end
  end
  // Reachable: both ends asleep; an eager wake with the partner behind; the longest wait (the
  // slave's request overtaken by the master's).
  always_comb begin
    if (rst_ni) begin
      cover (seq_state_o == 4'b1010);
      cover (f_eager && f_follows != 2'b11);
      cover (!f_eager && f_latency == 2'd2 && f_wait[9:5] == 5'(f_wake) + 5'd7);
    end
  end
`endif
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
