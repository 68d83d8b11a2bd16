`default_nettype none
`include "pb_geometry.svh"
/// PerfBound idle-period histogram of one port (Sánchez de la Rosa et al. 2025, sections 2.4 and 3.2).
/// Each idle period t_inac, clamped at MaxValCycles (h_maxval), counts in one of NumBins saturating
/// counters. The bins are logarithmic: a length below 2^(SubBinBits+1) cycles has a bin of its own,
/// and each octave above is split into 2^SubBinBits bins by the SubBinBits bits after the leading
/// one (a 32-bit length with SubBinBits = 2: 124 bins, each at most 25 % wider than its lower
/// edge, 19 % on average), so that t_PDT can be chosen from 0 cycles to the longest idle period.
/// Three ways to keep it bounded:
///
///   Strategy 0, self-clearing: every bin is cleared TtlCycles (TTL_hist) after the last clear,
///               or once MaxN (h_maxN) values have been recorded since it; a clear waits while
///               hold_i is set (the search is reading the counts), values still count meanwhile.
///   Strategy 1, sliding window: a circular buffer holds the last MaxN values; a new value evicts
///               the oldest, so the bins always count exactly those values.
///   Strategy 2, unbounded: saturating counters, never cleared.
///
/// since_o is the cycle (of the time base now_i) from which the idle periods counted ended: the
/// last clear (0), the recording of the last evicted value (1), reset (2). PerfBound's budget N is
/// taken over that span, the time the counts really cover.
///
/// Storage (paper 3.3): NumBins x CounterWidth bits of counters (and a valid bit per bin, so that
/// a clear is one register), plus MaxN x (bin index + time stamp) bits of circular buffer for the
/// sliding window (the counters need the bin of an evicted value, the span its time).
module pb_histogram #(
  /// Bins to an octave: 2^SubBinBits.
  parameter int unsigned SubBinBits = `PB_SUB_BIN_BITS,
  /// Bits of an idle-period value and of the time base.
  parameter int unsigned ValueWidth = 32,
  /// Number of bins (n_bins): every ValueWidth-bit length has one.
  parameter int unsigned NumBins = `PB_BINS(ValueWidth, SubBinBits),
  /// Bits of each bin counter (w_counter x 8).
  parameter int unsigned CounterWidth = `PB_COUNTER_WIDTH,
  /// 0 self-clearing, 1 sliding window, 2 unbounded.
  parameter int unsigned Strategy = 0,
  /// h_maxN: values before a self-clearing histogram clears / length of the sliding window.
  parameter int unsigned MaxN = `PB_MAX_N,
  /// TTL_hist in cycles for the self-clearing strategy (0 = no time limit).
  parameter int unsigned TtlCycles = 0,
  /// h_maxval: longer idle periods are clamped to this value.
  parameter int unsigned MaxValCycles = `PB_MAX_VAL_CYCLES
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  input  logic [ValueWidth-1:0]             now_i,   // time base: the current cycle
  input  logic                              hold_i,  // defer a clear (the counts are being read)
  // One idle period per pulse
  input  logic                              sample_valid_i,
  input  logic [ValueWidth-1:0]             sample_i,
  // Read port of the bin counters (the search scans them one per cycle)
  input  logic [$clog2(NumBins)-1:0]        read_bin_i,
  output logic [CounterWidth-1:0]           read_count_o,
  // Values recorded since the last clear (self-clearing) or held (sliding window)
  output logic [$clog2(MaxN+1)-1:0]         values_o,
  output logic [ValueWidth-1:0]             since_o,    // the counts hold idle periods ended from it on
  output logic                              cleared_o   // the bins were cleared this cycle
);
  localparam int unsigned BinBits   = $clog2(NumBins);
  localparam int unsigned ShiftBits = $clog2(ValueWidth);
  localparam int unsigned NumWidth  = $clog2(MaxN + 1);
  localparam int unsigned TtlWidth  = (TtlCycles > 0) ? $clog2(TtlCycles + 1) : 1;
  localparam int unsigned PtrWidth  = (MaxN > 1) ? $clog2(MaxN) : 1;
  localparam logic [CounterWidth-1:0] CountMax = '1;

  // Elaboration-time checks of the parameters.
  if (NumBins != `PB_BINS(ValueWidth, SubBinBits) || SubBinBits >= ValueWidth) begin : gen_check_bins
    $error("%m: NumBins = %0d must be (ValueWidth - SubBinBits + 1) << SubBinBits", NumBins);
  end
  if (Strategy > 2) begin : gen_check_strategy
    $error("%m: Strategy = %0d must be 0, 1 or 2", Strategy);
  end
  if (MaxN < 1) begin : gen_check_maxn
    $error("%m: MaxN must be at least 1");
  end
  if (Strategy == 1 && MaxN > (1 << CounterWidth) - 1) begin : gen_check_window
    $error("%m: a sliding window of MaxN = %0d values needs CounterWidth >= %0d", MaxN, $clog2(MaxN + 1));
  end

  // The counters: a register file of NumBins words, written only where a value lands or leaves. A
  // bin reads 0 until it is written after reset or the last clear (valid_q), so that a clear is
  // one vector of NumBins bits, and so is what an idle edge touches.
  logic [CounterWidth-1:0] count_q [NumBins];
  logic [NumBins-1:0]      valid_q, valid_d;
  logic [CounterWidth-1:0] count_bin, count_evicted, bin_next;
  logic [NumWidth-1:0]     values_q, values_d;
  logic [TtlWidth-1:0]     age_q, age_d;
  logic [ValueWidth-1:0]   since_q, since_d;
  logic                    clear;
  logic [ValueWidth-1:0]   clamped;
  logic [ShiftBits-1:0]    msb;
  logic [BinBits-1:0]      bin;
  // Sliding window: the oldest value's bin and recording cycle (see gen_window)
  logic [PtrWidth-1:0]     head_q, head_d;
  logic [BinBits-1:0]      evicted;
  logic [ValueWidth-1:0]   evicted_since;
  logic                    evict;

  if (64'(MaxValCycles) < (64'd1 << ValueWidth) - 1) begin : gen_clamp
    assign clamped = (sample_i > ValueWidth'(MaxValCycles)) ? ValueWidth'(MaxValCycles) : sample_i;
  end else begin : gen_no_clamp
    assign clamped = sample_i;
  end

  // Logarithmic bin: the octave (leading one) and the SubBinBits bits below it.
  always_comb begin
    msb = '0;
    for (int b = 0; b < ValueWidth; b++) begin
      if (clamped[b]) msb = ShiftBits'(b);
    end
    if (msb <= ShiftBits'(SubBinBits)) begin
      bin = BinBits'(clamped);  // below 2^(SubBinBits+1): one bin per length
    end else begin
      bin = BinBits'((32'(msb) - SubBinBits) << SubBinBits)
          + BinBits'(clamped >> (msb - ShiftBits'(SubBinBits)));
    end
  end

  assign evict = (Strategy == 1) && sample_valid_i && (values_q == NumWidth'(MaxN));

  // Self-clearing: after MaxN values, or TtlCycles after the last clear.
  always_comb begin
    clear = 1'b0;
    if (Strategy == 0) begin
      clear = !hold_i && ((values_q == NumWidth'(MaxN)) || (TtlCycles > 0 && age_q == TtlWidth'(TtlCycles)));
    end
  end

  assign count_bin     = valid_q[bin] ? count_q[bin] : '0;
  assign count_evicted = valid_q[evicted] ? count_q[evicted] : '0;
  assign read_count_o  = valid_q[read_bin_i] ? count_q[read_bin_i] : '0;

  // The sampled bin's new count: 1 after a clear, else one more (saturating). When the value a
  // sliding window evicts has the same bin, the count stays.
  always_comb begin
    if (clear) bin_next = CounterWidth'(1);
    else if (evict && evicted == bin) bin_next = count_bin;
    else if (count_bin != CountMax) bin_next = count_bin + 1'b1;
    else bin_next = count_bin;
  end

  always_comb begin
    valid_d  = clear ? '0 : valid_q;
    values_d = clear ? '0 : values_q;
    age_d    = (clear || TtlCycles == 0) ? '0 : (age_q == TtlWidth'(TtlCycles)) ? age_q : age_q + 1'b1;
    since_d  = clear ? now_i : since_q;
    head_d   = head_q;
    if (sample_valid_i) begin
      valid_d[bin] = 1'b1;
      if (evict) begin
        since_d = evicted_since;  // the oldest value leaves the window
      end else if (values_d != NumWidth'(MaxN)) begin
        values_d = values_d + 1'b1;  // (saturates: unbounded, or a clear held back)
      end
      if (Strategy == 1) head_d = (head_q == PtrWidth'(MaxN - 1)) ? '0 : head_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q  <= '0;
      values_q <= '0;
      age_q    <= '0;
      since_q  <= '0;
      head_q   <= '0;
    end else begin
      valid_q  <= valid_d;
      values_q <= values_d;
      age_q    <= age_d;
      since_q  <= since_d;
      head_q   <= head_d;
    end
  end

  // No reset: a counter is read only after it is written (valid_q).
  always_ff @(posedge clk_i) begin
    if (sample_valid_i) count_q[bin] <= bin_next;
    // An evicted value's bin was counted, so it is not zero. (A clear and an eviction never meet:
    // only a self-clearing histogram clears, only a sliding window evicts.)
    if (evict && evicted != bin) count_q[evicted] <= count_evicted - 1'b1;
  end

  // The sliding window's circular buffer of bin indices and the cycles they were recorded (only
  // there: the other strategies have none). No reset: an entry is read only after it is written.
  if (Strategy == 1) begin : gen_window
    logic [BinBits-1:0]    ring_q [MaxN];
    logic [ValueWidth-1:0] stamp_q [MaxN];
    always_ff @(posedge clk_i) begin
      if (sample_valid_i) begin
        ring_q[head_q]  <= bin;
        stamp_q[head_q] <= now_i;
      end
    end
    assign evicted       = ring_q[head_q];
    assign evicted_since = stamp_q[head_q];
  end else begin : gen_no_window
    assign evicted       = '0;
    assign evicted_since = '0;
  end

  assign values_o  = values_q;
  assign since_o   = since_q;
  assign cleared_o = clear;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      // An evicted bin still holds the value being evicted.
      if (evict) assert (count_evicted != '0);
      assert (values_q <= NumWidth'(MaxN));
    end
  end
`endif
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
