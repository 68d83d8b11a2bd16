`default_nettype none
`include "pb_geometry.svh"
/// EEE port with an adaptive power-down threshold (Sánchez de la Rosa et al. 2025, sections 2.4, 3.2-3.4).
/// The foundation's eee_port, whose PDT timer is loaded with the t_PDT chosen by policy_i:
///   0 fixed             pdt_cycles_i
///   1 PerfBound         the pb_search result over this port's idle-period histogram
///   2 PerfBoundCorrect  that result x max(1, cf) from pb_correct
/// Until a search has scanned a histogram (the port sent something first), PerfBound uses
/// pdt_cycles_i: the harness straps the initial t_PDT there (eee.perfbound.initial_pdt_ns).
///
/// An idle period runs from the cycle after the output sent its last queued flit (or from
/// reset) to the cycle a packet is queued (or sent) again. Its length is read off a free-running
/// time base now_i (cycles; the switch's clock counter), so that no register moves while a port
/// idles, and goes to the histogram (which clamps it at h_maxval) and, with its outcome, to the
/// correction: a miss when the link was not awake at some point of the period (the packet waits
/// for a wake-up), else a hit. A search starts on each search_i pulse, which the switch's time
/// base gives every X cycles (the period X), and is redone only when the port sent something
/// since the last one; its budget N = l x span / t_w is taken over the span the histogram covers.
module eee_pb_port #(
  /// eee_port widths.
  parameter int unsigned TimerWidth   = 32,
  parameter int unsigned TransWidth   = 24,
  parameter int unsigned LatencyWidth = 8,
  parameter int unsigned QueueWidth   = 16,
  /// Width of the time base and of idle-period lengths (modulo 2^IdleWidth).
  parameter int unsigned IdleWidth    = 32,
  /// Histogram (pb_histogram): bins to an octave (log2), n_bins, counter bits, strategy, h_maxN,
  /// TTL_hist, h_maxval. The geometry comes from pb_geometry.svh; the harness reads these
  /// parameters from the build (sim_models.py), and its fixed-point skip needs TtlCycles = 0 (a
  /// TTL counter would tick on).
  parameter int unsigned SubBinBits   = `PB_SUB_BIN_BITS,
  parameter int unsigned NumBins      = `PB_BINS(IdleWidth, SubBinBits),
  parameter int unsigned CounterWidth = `PB_COUNTER_WIDTH,
  parameter int unsigned Strategy     = 0,
  parameter int unsigned MaxN         = `PB_MAX_N,
  parameter int unsigned TtlCycles    = 0,
  parameter int unsigned MaxValCycles = `PB_MAX_VAL_CYCLES,
  /// Search (pb_search): hop-share table length and fraction bits.
  parameter int unsigned MaxHops      = `PB_MAX_HOPS,
  parameter int unsigned FracBits     = `PB_FRAC_BITS,
  /// Correction (pb_correct): n_R and the cap of cf in Q.8.
  parameter int unsigned HistLen      = `PB_HIST_LEN,
  parameter int unsigned CfMaxQ8      = `PB_CF_MAX_Q8
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // eee_port straps and observables (see eee_port)
  input  logic                        master_i,
  input  logic                        lpi_deep_i,
  input  logic                        eager_wake_i,
  input  logic [LatencyWidth-1:0]     latency_i,
  input  logic [TransWidth-1:0]       sleep_cycles_i,
  input  logic [TransWidth-1:0]       wake_cycles_i,
  input  logic [TimerWidth-1:0]       pdt_cycles_i,   // fixed t_PDT, or PerfBound's initial one
  input  logic [QueueWidth-1:0]       tx_queue_i,
  input  logic                        tx_busy_i,
  input  logic                        rx_busy_i,
  input  logic [2:0]                  ctl_rx_i,       // enum: ctl_msg_e (eee_port)
  output logic [2:0]                  ctl_tx_o,       // enum: ctl_msg_e
  output logic                        tx_en_o,
  output logic [1:0]                  power_o,        // enum: power_e (eee_port)
  // Policy straps
  input  logic [1:0]                  policy_i,       // 0 fixed, 1 PerfBound, 2 PerfBoundCorrect
  input  logic [MaxHops*FracBits-1:0] hop_share_i,    // p_h of this port, Q0.FracBits
  input  logic [FracBits-1:0]         bound_i,        // performance bound, Q0.FracBits
  input  logic [31:0]                 inv_tw_i,       // 1 / t_w (cycles), Q0.32
  input  logic [IdleWidth-1:0]        now_i,          // time base: the current cycle
  input  logic                        search_i,       // start a search (every X cycles)
  // Debug: the port's own state, and what the policy decided
  output logic [1:0]                  hs_state_o,     // enum: hs_state_e (eee_port)
  output logic [LatencyWidth-1:0]     sync_count_o,
  output logic                        go_o,
  output logic [1:0]                  seq_state_o,    // enum: seq_state_e (link_power_seq)
  output logic [TransWidth-1:0]       trans_count_o,
  output logic                        pdt_armed_o,
  output logic [TimerWidth-1:0]       pdt_count_o,
  output logic [TransWidth-1:0]       trans_until_o,  // registers compared with now_i (see eee_port)
  output logic [TimerWidth-1:0]       pdt_deadline_o,
  output logic                        pdt_fired_o,
  output logic                        pdt_never_o,
  output logic [TimerWidth-1:0]       pdt_applied_o,  // t_PDT loaded at the next arming
  output logic [TimerWidth-1:0]       pdt_search_o,   // last PerfBound result
  output logic [15:0]                 cf_o,           // max(1, cf), Q.8
  output logic                        idle_o,
  output logic [IdleWidth-1:0]        idle_count_o,   // length of the idle period so far
  output logic                        busy_o,         // the search runs or has just finished
  output logic                        slept_o,        // the link left WAKE during this idle period
  output logic                        outcome_o,      // an idle period ended this cycle
  output logic                        miss_o,         // with outcome_o: it was a miss
  output logic [TimerWidth-1:0]       deadline_o,     // the link-end contract's deadline (eee_port)
  output logic                        deadline_valid_o
);
  logic                        queued, arrival, missed, idle_starts;
  logic                        idle_q, idle_d, slept_q, slept_d;
  logic [IdleWidth-1:0]        idle_start_q, idle_start_d, idle_length;
  logic                        have_result_q;
  logic                        search_start, search_busy, search_done, search_recomputed;
  logic [TimerWidth-1:0]       pdt_search, pdt_perfbound, pdt_corrected, pdt_applied;
  logic [$clog2(NumBins)-1:0]  read_bin;
  logic [CounterWidth-1:0]     read_count;
  logic [IdleWidth-1:0]        since;
  logic [$clog2(MaxN+1)-1:0]   values;

  assign queued      = (tx_queue_i != '0);
  // A one-flit packet may be queued and sent in the same cycle: sending also ends an idle period.
  assign arrival     = idle_q && (queued || tx_busy_i);
  assign missed      = slept_q || (idle_q && power_o != 2'd0);
  assign idle_starts = tx_busy_i && !queued;  // the last queued flit leaves: idle from the next cycle
  assign idle_length = now_i - idle_start_q;

  // Idle-period measurement and its outcome.
  always_comb begin
    idle_d       = idle_q;
    idle_start_d = idle_start_q;
    slept_d      = missed;
    if (idle_starts) begin
      idle_d       = 1'b1;
      idle_start_d = now_i + 1'b1;
      slept_d      = 1'b0;
    end else if (arrival) begin
      idle_d = 1'b0;
    end
  end

  // A pulse while the search still runs is skipped.
  assign search_start = search_i && !search_busy;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      idle_q        <= 1'b1;  // idle since reset (the time base starts at 0 with it)
      idle_start_q  <= '0;
      slept_q       <= 1'b0;
      have_result_q <= 1'b0;
    end else begin
      idle_q        <= idle_d;
      idle_start_q  <= idle_start_d;
      slept_q       <= slept_d;
      have_result_q <= have_result_q || (search_done && search_recomputed);
    end
  end

  pb_histogram #(
    .SubBinBits   (SubBinBits),
    .ValueWidth   (IdleWidth),
    .NumBins      (NumBins),
    .CounterWidth (CounterWidth),
    .Strategy     (Strategy),
    .MaxN         (MaxN),
    .TtlCycles    (TtlCycles),
    .MaxValCycles (MaxValCycles)
  ) u_hist (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .now_i          (now_i),
    .hold_i         (search_busy),
    .sample_valid_i (arrival),
    .sample_i       (idle_length),
    .read_bin_i     (read_bin),
    .read_count_o   (read_count),
    .since_o        (since),
    .values_o       (values),
    /* verilator lint_off PINCONNECTEMPTY */
    .cleared_o      ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  pb_search #(
    .SubBinBits   (SubBinBits),
    .NumBins      (NumBins),
    .CounterWidth (CounterWidth),
    .MaxHops      (MaxHops),
    .FracBits     (FracBits),
    .TimerWidth   (TimerWidth)
  ) u_search (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .hop_share_i  (hop_share_i),
    .bound_i      (bound_i),
    .inv_tw_i     (inv_tw_i),
    .read_bin_o   (read_bin),
    .read_count_i (read_count),
    .span_i       (32'(now_i - since)),
    .empty_i      (values == '0),
    .active_i     (tx_busy_i),
    .start_i      (search_start),
    .busy_o       (search_busy),
    .done_o       (search_done),
    .recomputed_o (search_recomputed),
    .pdt_cycles_o (pdt_search),
    /* verilator lint_off PINCONNECTEMPTY */
    .limit_o      (),
    .bin_o        ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  assign pdt_perfbound = have_result_q ? pdt_search : pdt_cycles_i;

  pb_correct #(
    .HistLen    (HistLen),
    .CfMaxQ8    (CfMaxQ8),
    .TimerWidth (TimerWidth)
  ) u_correct (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .outcome_valid_i (arrival),
    .hit_i           (!missed),
    .t_inac_i        (TimerWidth'(idle_length)),
    .t_pdt_i         (pdt_applied),
    .pdt_perfbound_i (pdt_perfbound),
    .pdt_cycles_o    (pdt_corrected),
    .cf_o            (cf_o),
    /* verilator lint_off PINCONNECTEMPTY */
    .misses_o        (),
    .history_o       (),
    .log_sum_o       ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  always_comb begin
    unique case (policy_i)
      2'd1:    pdt_applied = pdt_perfbound;
      2'd2:    pdt_applied = pdt_corrected;
      default: pdt_applied = pdt_cycles_i;
    endcase
  end

  eee_port #(
    .TimerWidth   (TimerWidth),
    .TransWidth   (TransWidth),
    .LatencyWidth (LatencyWidth),
    .QueueWidth   (QueueWidth)
  ) u_port (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .master_i       (master_i),
    .lpi_deep_i     (lpi_deep_i),
    .eager_wake_i   (eager_wake_i),
    .latency_i      (latency_i),
    .sleep_cycles_i (sleep_cycles_i),
    .wake_cycles_i  (wake_cycles_i),
    .pdt_cycles_i   (pdt_applied),
    .now_i          (now_i),  // (lint flags a width mismatch if IdleWidth != TimerWidth)
    .tx_queue_i     (tx_queue_i),
    .tx_busy_i      (tx_busy_i),
    .rx_busy_i      (rx_busy_i),
    .ctl_rx_i       (ctl_rx_i),
    .ctl_tx_o       (ctl_tx_o),
    .tx_en_o        (tx_en_o),
    .power_o        (power_o),
    .hs_state_o     (hs_state_o),
    .sync_count_o   (sync_count_o),
    .go_o           (go_o),
    .seq_state_o    (seq_state_o),
    .trans_count_o  (trans_count_o),
    .pdt_armed_o    (pdt_armed_o),
    .pdt_count_o    (pdt_count_o),
    .trans_until_o  (trans_until_o),
    .pdt_deadline_o (pdt_deadline_o),
    .pdt_fired_o    (pdt_fired_o),
    .pdt_never_o    (pdt_never_o),
    .deadline_o       (deadline_o),
    .deadline_valid_o (deadline_valid_o)
  );

  assign pdt_applied_o = pdt_applied;
  assign pdt_search_o  = pdt_perfbound;
  assign idle_o        = idle_q;
  assign idle_count_o  = idle_q ? idle_length : '0;
  assign busy_o        = search_busy || search_done;
  assign slept_o       = slept_q;
  assign outcome_o     = arrival;
  assign miss_o        = missed;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert (policy_i != 2'd3);
    end
  end
`endif
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
