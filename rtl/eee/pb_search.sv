`default_nettype none
`include "pb_geometry.svh"
/// PerfBound t_PDT search of one port (Sánchez de la Rosa et al. 2025, section 2.4).
///   l = bound x sum_h p_h / h        (p_h: share of this port's packets that travel h hops)
///   N = l x span / t_w               (packets that may be delayed by a wake-up in the span)
/// The paper states N for a period X; here the span is the time the histogram's counts really
/// cover (span_i: since its last clear, the recording of the last value evicted, or reset), so
/// that N and the counts describe the same idle periods. The histogram is scanned from the highest
/// bin down, accumulating counts; the result is the lowest bin whose accumulated count is still
/// <= N, and t_PDT = the centre of that bin (the smallest t_PDT whose longer idle periods, each a
/// power-down and a wake-up, number at most N). If even the highest bin alone holds more than N,
/// t_PDT = all ones (never). A computation is started by start_i but only redone if the port was
/// active (active_i) since the last one and the histogram holds an idle period (an empty one, just
/// cleared, would make every bin fit and t_PDT 0); otherwise the previous t_PDT is reported again
/// at once.
///
/// Bins as pb_histogram's: logarithmic, 2^SubBinBits to an octave; bin b < 2^(SubBinBits+1) is
/// the length b, and above it covers [top << k, (top + 1) << k) with k = b / 2^SubBinBits - 1 and
/// top = 2^SubBinBits + b mod 2^SubBinBits; its centre is its lower edge + half its width.
///
/// Fixed point: p_h, bound and 1/h in Q0.FracBits, 1/t_w (inv_tw_i) in Q0.32, the sum and l in
/// Q0.(2 FracBits), l / t_w in Q0.32, N in Q32.32. Sequential, on one 32 x 32 multiplier:
/// MaxHops cycles for the sum, one each for l, l / t_w and N, then one cycle per bin scanned.
module pb_search #(
  /// Histogram geometry (as pb_histogram).
  parameter int unsigned SubBinBits = `PB_SUB_BIN_BITS,
  parameter int unsigned NumBins = `PB_BINS(32, SubBinBits),
  parameter int unsigned CounterWidth = `PB_COUNTER_WIDTH,
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
  input  logic [31:0]                      inv_tw_i,     // 1 / t_w (cycles), Q0.32
  // Histogram: bin read_bin_o's count, and the cycles the counts cover
  output logic [$clog2(NumBins)-1:0]       read_bin_o,
  input  logic [CounterWidth-1:0]          read_count_i,
  input  logic [31:0]                      span_i,
  input  logic                             empty_i,      // the histogram holds no idle period
  // Control
  input  logic                             active_i,     // the port carried traffic this cycle
  input  logic                             start_i,      // compute t_PDT now
  output logic                             busy_o,
  output logic                             done_o,       // pulse: pdt_cycles_o is the new result
  output logic                             recomputed_o, // with done_o: the scan was redone
  output logic [TimerWidth-1:0]            pdt_cycles_o,
  // Debug
  output logic [2*FracBits+31:0]           limit_o,      // N in Q32.(2 FracBits)
  output logic [$clog2(NumBins)-1:0]       bin_o         // bin of the last result
);
  localparam int unsigned LWidth   = 2 * FracBits;       // the sum, l and l / t_w in Q0.(2F)
  localparam int unsigned NWidth   = 2 * FracBits + 32;  // N in Q32.(2F)
  localparam int unsigned MulWidth = (LWidth > 32) ? LWidth : 32;
  localparam int unsigned HopBits  = $clog2(MaxHops + 1);
  localparam int unsigned BinBits  = $clog2(NumBins);
  localparam int unsigned AccWidth = CounterWidth + BinBits;
  localparam int unsigned SubBins  = 1 << SubBinBits;

  typedef enum logic [2:0] {
    StIdle   = 3'd0,  // waiting for start_i
    StShare  = 3'd1,  // accumulating sum_h p_h / h, one hop count per cycle
    StLimit  = 3'd2,  // l = bound x sum
    StRate   = 3'd3,  // l / t_w
    StBudget = 3'd4,  // N = l / t_w x span
    StScan   = 3'd5   // accumulating bins from the highest down
  } search_state_e;

  search_state_e          state_q, state_d;
  logic                   dirty_q, dirty_d;
  logic [HopBits-1:0]     hop_q, hop_d;
  logic [LWidth-1:0]      frac_q, frac_d;  // the sum, then l, then l / t_w
  logic [NWidth-1:0]      limit_q, limit_d;
  logic [BinBits-1:0]     bin_q, bin_d, best_q, best_d;
  logic                   found_q, found_d;
  logic [AccWidth-1:0]    acc_q, acc_d;
  logic [TimerWidth-1:0]  pdt_q, pdt_d, centre;
  logic                   done_d, recomputed_d, done_q, recomputed_q;
  logic [FracBits-1:0]    share, reciprocal;
  logic [AccWidth-1:0]    acc_next;
  logic                   fits;
  logic [MulWidth-1:0]    mul_a, mul_b;
  logic [2*MulWidth-1:0]  product;

  // 1/h, rounded, in Q0.FracBits (h = 1 saturates to the largest fraction).
  always_comb begin
    reciprocal = '1;
    for (int h = 2; h <= MaxHops; h++) begin
      if (hop_q == HopBits'(h)) reciprocal = FracBits'(((1 << FracBits) + h / 2) / h);
    end
  end
  assign share      = hop_share_i[(32'(hop_q) - 32'd1) * FracBits +: FracBits];
  assign read_bin_o = bin_q;
  assign acc_next   = acc_q + AccWidth'(read_count_i);
  assign fits       = (NWidth'(acc_next) << LWidth) <= limit_q;  // accumulated count <= N

  // The one multiplier, shared by the states that compute N.
  always_comb begin
    unique case (state_q)
      StShare:  begin mul_a = MulWidth'(share);  mul_b = MulWidth'(reciprocal); end
      StLimit:  begin mul_a = MulWidth'(frac_q); mul_b = MulWidth'(bound_i);    end
      StRate:   begin mul_a = MulWidth'(frac_q); mul_b = MulWidth'(inv_tw_i);   end
      default:  begin mul_a = MulWidth'(frac_q); mul_b = MulWidth'(span_i);     end
    endcase
  end
  assign product = mul_a * mul_b;

  // Centre of the lowest bin that fits (best_d): its lower edge + half its width.
  always_comb begin
    if (32'(best_d) < 2 * SubBins) begin
      centre = TimerWidth'(best_d);
    end else begin
      centre = (TimerWidth'(SubBins + 32'(best_d) % SubBins) << (32'(best_d) / SubBins - 1))
             + (TimerWidth'(1) << (32'(best_d) / SubBins - 2));
    end
  end

  always_comb begin
    state_d      = state_q;
    dirty_d      = dirty_q || active_i;
    hop_d        = hop_q;
    frac_d       = frac_q;
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
        if (dirty_q && !empty_i) begin
          state_d = StShare;
          dirty_d = active_i;
          hop_d   = HopBits'(1);
          frac_d  = '0;
        end else begin
          done_d = 1'b1;  // nothing new to learn: the previous t_PDT stands
        end
      end
      StShare: begin
        frac_d = frac_q + LWidth'(product);
        if (hop_q == HopBits'(MaxHops)) state_d = StLimit;
        else hop_d = hop_q + 1'b1;
      end
      StLimit: begin
        frac_d  = LWidth'(product >> FracBits);
        state_d = StRate;
      end
      StRate: begin
        frac_d  = LWidth'(product >> 32);
        state_d = StBudget;
      end
      StBudget: begin
        limit_d = NWidth'(product);
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
          pdt_d        = found_d ? centre : '1;  // none fits: never power down
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
      frac_q       <= '0;
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
      frac_q       <= frac_d;
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
// SPDX-License-Identifier: Apache-2.0
