`default_nettype none
`include "pb_geometry.svh"
/// PerfBound t_PDT search of one port (Sanchez de la Rosa et al. section 2.4, SPEC M3).
///   l = bound x sum_h p_h / h        (p_h: share of this port's packets that travel h hops)
///   N = l x X / t_w                  (packets that may be delayed by a wake-up in a period X)
/// then the histogram is scanned from the highest bin down, accumulating counts; the result is
/// the lowest bin whose accumulated count is still <= N, and t_PDT = the centre of that bin
/// (the smallest t_PDT whose longer idle periods, each a power-down and a wake-up, number at
/// most N). If even the highest bin alone holds more than N, t_PDT = all ones (never).
/// A computation is started by start_i but only redone if the port was active (active_i) since
/// the last one; otherwise the previous t_PDT is reported again at once.
///
/// Fixed point: p_h and bound in Q0.FracBits, 1/h as a rounded Q0.FracBits constant, l in
/// Q0.(2 FracBits), N in Q.(2 FracBits). Sequential: MaxHops cycles for l, one for N, then one
/// cycle per bin scanned.
module pb_search #(
  /// Histogram geometry (as pb_histogram).
  parameter int unsigned NumBins = `PB_NUM_BINS,
  parameter int unsigned CounterWidth = `PB_COUNTER_WIDTH,
  parameter int unsigned BinCycles = `PB_BIN_CYCLES,
  /// Largest hop count in the share table.
  parameter int unsigned MaxHops = `PB_MAX_HOPS,
  /// Fraction bits of p_h, bound and 1/h.
  parameter int unsigned FracBits = `PB_FRAC_BITS,
  /// Width of t_PDT.
  parameter int unsigned TimerWidth = 32,
  /// t_PDT before the first computation.
  parameter int unsigned InitPdtCycles = 1000
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  // Configuration (straps)
  input  logic [MaxHops*FracBits-1:0]      hop_share_i,  // p_h at [(h-1)*FracBits +: FracBits]
  input  logic [FracBits-1:0]              bound_i,      // performance bound, e.g. 1 % = 0.01
  input  logic [31:0]                      x_over_tw_i,  // period X / t_w
  // Histogram
  input  logic [NumBins*CounterWidth-1:0]  counts_i,
  // Control
  input  logic                             active_i,     // the port carried traffic this cycle
  input  logic                             start_i,      // compute t_PDT now
  output logic                             busy_o,
  output logic                             done_o,       // pulse: pdt_cycles_o is the new result
  output logic                             recomputed_o, // with done_o: the scan was redone
  output logic [TimerWidth-1:0]            pdt_cycles_o,
  // Debug
  output logic [2*FracBits+31:0]           limit_o,      // N in Q.(2 FracBits)
  output logic [$clog2(NumBins)-1:0]       bin_o         // bin of the last result
);
  localparam int unsigned LWidth   = 2 * FracBits;       // l in Q0.(2F)
  localparam int unsigned NWidth   = 2 * FracBits + 32;  // N in Q.(2F)
  localparam int unsigned HopBits  = $clog2(MaxHops + 1);
  localparam int unsigned BinBits  = $clog2(NumBins);
  localparam int unsigned AccWidth = CounterWidth + BinBits;

  typedef enum logic [1:0] {
    StIdle  = 2'd0,  // waiting for start_i
    StShare = 2'd1,  // accumulating sum_h p_h / h, one hop count per cycle
    StLimit = 2'd2,  // l = bound x sum, N = l x X / t_w
    StScan  = 2'd3   // accumulating bins from the highest down
  } search_state_e;

  search_state_e          state_q, state_d;
  logic                   dirty_q, dirty_d;
  logic [HopBits-1:0]     hop_q, hop_d;
  logic [LWidth-1:0]      sum_q, sum_d;
  logic [NWidth-1:0]      limit_q, limit_d;
  logic [BinBits-1:0]     bin_q, bin_d, best_q, best_d;
  logic                   found_q, found_d;
  logic [AccWidth-1:0]    acc_q, acc_d;
  logic [TimerWidth-1:0]  pdt_q, pdt_d;
  logic                   done_d, recomputed_d, done_q, recomputed_q;
  logic [FracBits-1:0]    share, reciprocal;
  logic [AccWidth-1:0]    acc_next;
  logic                   fits;
  logic [LWidth+FracBits-1:0] scaled;

  // 1/h, rounded, in Q0.FracBits (h = 1 saturates to the largest fraction).
  always_comb begin
    reciprocal = '1;
    for (int h = 2; h <= MaxHops; h++) begin
      if (hop_q == HopBits'(h)) reciprocal = FracBits'(((1 << FracBits) + h / 2) / h);
    end
  end
  assign share    = hop_share_i[(32'(hop_q) - 32'd1) * FracBits +: FracBits];
  assign acc_next = acc_q + AccWidth'(counts_i[bin_q * CounterWidth +: CounterWidth]);
  assign scaled   = sum_q * bound_i;  // Q0.3F
  assign fits     = (NWidth'(acc_next) << LWidth) <= limit_q;  // accumulated count <= N

  always_comb begin
    state_d      = state_q;
    dirty_d      = dirty_q || active_i;
    hop_d        = hop_q;
    sum_d        = sum_q;
    limit_d      = limit_q;
    bin_d        = bin_q;
    best_d       = best_q;
    found_d      = found_q;
    acc_d        = acc_q;
    pdt_d        = pdt_q;
    done_d       = 1'b0;
    recomputed_d = 1'b0;
    unique case (state_q)
      StIdle: if (start_i) begin
        if (dirty_q) begin
          state_d = StShare;
          dirty_d = active_i;
          hop_d   = HopBits'(1);
          sum_d   = '0;
        end else begin
          done_d = 1'b1;  // nothing new to learn: the previous t_PDT stands
        end
      end
      StShare: begin
        sum_d = sum_q + LWidth'(share) * LWidth'(reciprocal);
        if (hop_q == HopBits'(MaxHops)) state_d = StLimit;
        else hop_d = hop_q + 1'b1;
      end
      StLimit: begin
        limit_d = (NWidth'(scaled) >> FracBits) * NWidth'(x_over_tw_i);
        state_d = StScan;
        bin_d   = BinBits'(NumBins - 1);
        acc_d   = '0;
        found_d = 1'b0;
      end
      StScan: begin
        acc_d = acc_next;
        if (fits) begin
          best_d  = bin_q;
          found_d = 1'b1;
        end
        if (!fits || bin_q == '0) begin
          state_d      = StIdle;
          done_d       = 1'b1;
          recomputed_d = 1'b1;
          // Centre of the lowest bin that fits; none fits: never power down.
          pdt_d = found_d ? TimerWidth'(best_d) * TimerWidth'(BinCycles) + TimerWidth'(BinCycles / 2) : '1;
        end else begin
          bin_d = bin_q - 1'b1;
        end
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q      <= StIdle;
      dirty_q      <= 1'b0;
      hop_q        <= '0;
      sum_q        <= '0;
      limit_q      <= '0;
      bin_q        <= '0;
      best_q       <= '0;
      found_q      <= 1'b0;
      acc_q        <= '0;
      pdt_q        <= TimerWidth'(InitPdtCycles);
      done_q       <= 1'b0;
      recomputed_q <= 1'b0;
    end else begin
      state_q      <= state_d;
      dirty_q      <= dirty_d;
      hop_q        <= hop_d;
      sum_q        <= sum_d;
      limit_q      <= limit_d;
      bin_q        <= bin_d;
      best_q       <= best_d;
      found_q      <= found_d;
      acc_q        <= acc_d;
      pdt_q        <= pdt_d;
      done_q       <= done_d;
      recomputed_q <= recomputed_d;
    end
  end

  assign busy_o       = (state_q != StIdle);
  assign done_o       = done_q;
  assign recomputed_o = recomputed_q;
  assign pdt_cycles_o = pdt_q;
  assign limit_o      = limit_q;
  assign bin_o        = best_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      // The accumulated count never wraps, and a start while busy is not allowed.
      if (state_q == StScan) assert (acc_next >= acc_q);
      if (busy_o) assert (!start_i);
    end
  end
`endif
endmodule
`default_nettype wire
