`default_nettype none
`include "pb_geometry.svh"
/// PerfBound idle-period histogram of one port (SPEC M3, Sanchez de la Rosa et al. sections 2.4 and 3.2).
/// Each idle period t_inac, clamped at MaxValCycles (h_maxval), counts in bin
/// floor(t_inac / BinCycles) of NumBins saturating counters. Three ways to keep it bounded:
///
///   Strategy 0, self-clearing: every bin is cleared TtlCycles (TTL_hist) after the last clear,
///               or once MaxN (h_maxN) values have been recorded since it.
///   Strategy 1, sliding window: a circular buffer holds the bins of the last MaxN values; a
///               new value evicts the oldest, so the bins always count exactly those values.
///   Strategy 2, unbounded: saturating counters, never cleared.
///
/// Storage (paper 3.3): NumBins x CounterWidth bits of counters, plus MaxN x ceil(log2 NumBins)
/// bits of circular buffer for the sliding window (bin indices stand for the values: the
/// counters only ever need the bin of an evicted value).
module pb_histogram #(
  /// Number of bins (n_bins).
  parameter int unsigned NumBins = `PB_NUM_BINS,
  /// Bin width r_bin in cycles; a power of two so that the bin is a shift of the value.
  parameter int unsigned BinCycles = `PB_BIN_CYCLES,
  /// Bits of each bin counter (w_counter x 8).
  parameter int unsigned CounterWidth = `PB_COUNTER_WIDTH,
  /// Bits of an idle-period value.
  parameter int unsigned ValueWidth = 32,
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
  // One idle period per pulse
  input  logic                              sample_valid_i,
  input  logic [ValueWidth-1:0]             sample_i,
  // Bin counters, bin b at [b*CounterWidth +: CounterWidth]
  output logic [NumBins*CounterWidth-1:0]   counts_o,
  // Values recorded since the last clear (self-clearing) or held (sliding window)
  output logic [$clog2(MaxN+1)-1:0]         values_o,
  output logic                              cleared_o  // the bins were cleared this cycle
);
  localparam int unsigned BinShift  = $clog2(BinCycles);
  localparam int unsigned BinBits   = (NumBins > 1) ? $clog2(NumBins) : 1;
  localparam int unsigned NumWidth  = $clog2(MaxN + 1);
  localparam int unsigned TtlWidth  = (TtlCycles > 0) ? $clog2(TtlCycles + 1) : 1;
  localparam int unsigned PtrWidth  = (MaxN > 1) ? $clog2(MaxN) : 1;
  localparam logic [CounterWidth-1:0] CountMax = '1;

  // Elaboration-time checks of the parameters.
  if (BinCycles != (1 << BinShift)) begin : gen_check_bin
    $error("%m: BinCycles = %0d must be a power of two", BinCycles);
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

  logic [CounterWidth-1:0] count_q [NumBins];
  logic [CounterWidth-1:0] count_d [NumBins];
  logic [NumWidth-1:0]     values_q, values_d;
  logic [TtlWidth-1:0]     age_q, age_d;
  logic                    clear;
  logic [ValueWidth-1:0]   clamped;
  logic [BinBits-1:0]      bin;
  // Sliding window: circular buffer of bin indices
  logic [BinBits-1:0]      ring_q [MaxN];
  logic [PtrWidth-1:0]     head_q, head_d;
  logic [BinBits-1:0]      evicted;
  logic                    evict;

  assign clamped = (sample_i > ValueWidth'(MaxValCycles)) ? ValueWidth'(MaxValCycles) : sample_i;
  assign bin     = ((clamped >> BinShift) > ValueWidth'(NumBins - 1)) ? BinBits'(NumBins - 1)
                                                                        : BinBits'(clamped >> BinShift);
  assign evicted = ring_q[head_q];
  assign evict   = (Strategy == 1) && sample_valid_i && (values_q == NumWidth'(MaxN));

  // Self-clearing: after MaxN values, or TtlCycles after the last clear.
  always_comb begin
    clear = 1'b0;
    if (Strategy == 0) begin
      clear = (values_q == NumWidth'(MaxN)) || (TtlCycles > 0 && age_q == TtlWidth'(TtlCycles));
    end
  end

  always_comb begin
    for (int b = 0; b < NumBins; b++) count_d[b] = clear ? '0 : count_q[b];
    values_d = clear ? '0 : values_q;
    age_d    = (clear || TtlCycles == 0) ? '0 : age_q + 1'b1;
    head_d   = head_q;
    if (sample_valid_i) begin
      if (count_d[bin] != CountMax) count_d[bin] = count_d[bin] + 1'b1;
      if (evict) begin
        // The oldest value leaves the window: its bin was counted, so it is not zero.
        count_d[evicted] = count_d[evicted] - 1'b1;
      end else if (Strategy != 2 || values_q != NumWidth'(MaxN)) begin
        values_d = values_d + 1'b1;
      end
      if (Strategy == 1) head_d = (head_q == PtrWidth'(MaxN - 1)) ? '0 : head_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int b = 0; b < NumBins; b++) count_q[b] <= '0;
      values_q <= '0;
      age_q    <= '0;
      head_q   <= '0;
    end else begin
      for (int b = 0; b < NumBins; b++) count_q[b] <= count_d[b];
      values_q <= values_d;
      age_q    <= age_d;
      head_q   <= head_d;
    end
  end

  // The circular buffer has no reset: an entry is read only after it has been written.
  always_ff @(posedge clk_i) begin
    if (Strategy == 1 && sample_valid_i) ring_q[head_q] <= bin;
  end

  for (genvar b = 0; b < NumBins; b++) begin : gen_counts
    assign counts_o[b*CounterWidth +: CounterWidth] = count_q[b];
  end
  assign values_o  = values_q;
  assign cleared_o = clear;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      // An evicted bin still holds the value being evicted.
      if (evict) assert (count_q[evicted] != '0 || bin == evicted);
      assert (values_q <= NumWidth'(MaxN));
    end
  end
`endif
endmodule
`default_nettype wire
