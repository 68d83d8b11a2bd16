`default_nettype none
/// Swap criterion of one node a in one directed cycle of a reconfigurable torus (Shafarenko and
/// Vasekin, section 2): flux counters over the observation period T and, at each period's end, the
/// criterion for swapping a with its downstream neighbour b (u -> a -> b -> c becomes
/// u -> b -> a -> c), in hops the period's traffic would have saved:
///
///   M = A_b - A_a + O_a - O_b - l * (F_ab - F'_ba)
///
///   A_a   arrivals from upstream absorbed here              (after the swap: one hop more)
///   A_b   arrivals from upstream destined to b             (one hop less)
///   O_a   originated here, destined past b                 (one hop less)
///   O_b   originated at b and sent on, b's O_near + O_far  (one hop more: they now pass a)
///   F_ab  originated here, destined to b = this node's O_near (the long way round: l hops more)
///   F'_ba originated at b, destined to a, in the opposite cycle (after the swap b is a's
///         predecessor here, so such a packet takes one hop in this cycle instead of its d there)
///
/// How F'_ba is credited is a strap (back_credit_i). Hops (1): each such packet counts the hops the
/// swap saves it, max(0, d - 1) from the hops d it takes in the opposite cycle (back_hops_i), and M
/// uses the sum as it is; a packet to a neighbour there saves nothing. Ring (0): each counts one
/// and M multiplies by l, the first reading of the paper's formula, - l (F_ab - F'_ba), which
/// credits l hops even for a packet whose route the swap does not shorten.
///
/// A swap is wanted when M - C_r > R (C_r: the reconfiguration's cost in hops). The threshold R:
/// fixed; randomised each period, uniform in [0, 2 R) from an LFSR; or adaptive, starting at R and
/// raised by a step after each period with a swap (too frequent), lowered by a step after
/// rare_periods periods without one (too rare). The counters count one event per step each (a
/// channel moves one packet per step); the period's end comes from the time base, and a quiet
/// period moves no register but the ones that count.
///
/// Step 0 (the period's last cycle): totals latched, counters cleared. Step 1 (the next cycle):
/// M from this node's totals and b's (b_orig_i, b_back_i: b's totals latched at the same edge),
/// the decision (want_o for one cycle), the next threshold.
module torus_swap_criterion #(
  /// Width of the flux counters (a period < 2^CountWidth steps).
  parameter int unsigned CountWidth = 16,
  /// Width of the time base.
  parameter int unsigned TimeWidth = 16,
  localparam int unsigned BackWidth = CountWidth + 8,  // F'_ba in hops: up to 255 per step
  localparam int unsigned MWidth = CountWidth + 10     // signed: l x flux and the sums fit
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Time base: the current step (modulo 2^TimeWidth)
  input  logic [TimeWidth-1:0]  now_i,
  // Straps (the scenario's torus_swap.* keys)
  input  logic [TimeWidth-1:0]  period_i,        // T
  input  logic [1:0]            variant_i,       // enum: threshold_variant_e
  input  logic [CountWidth-1:0] threshold_i,     // R, or the adaptive threshold's start
  input  logic [CountWidth-1:0] cost_i,          // C_r in hops
  input  logic [7:0]            extra_hops_i,    // l: the long way round (P - 2 in a cycle of P)
  input  logic                  back_credit_i,   // F'_ba: 1 the hops the swap saves, 0 l per packet
  input  logic [CountWidth-1:0] step_i,          // the adaptive threshold's step
  input  logic [7:0]            rare_periods_i,  // ... lowered after this many periods without a swap
  input  logic [15:0]           seed_i,          // LFSR seed of the randomised threshold (not 0)
  // Events of this step at this node, in this directed cycle
  input  logic                  arrive_self_i,   // a packet from upstream absorbed here
  input  logic                  arrive_next_i,   // a packet from upstream passed on, destined to b
  input  logic                  orig_near_i,     // a packet originated here sent on, destined to b
  input  logic                  orig_far_i,      // ... destined past b
  input  logic                  orig_back_i,     // ... destined to this node's predecessor in the opposite cycle
  input  logic [7:0]            back_hops_i,     // ... the hops that packet takes in this cycle (d >= 1)
  input  logic                  swapped_i,       // this node swapped places (counts for the adaptive R)
  // Downstream neighbour b's totals of the same period
  input  logic [CountWidth-1:0] b_orig_i,        // O_b: b's orig_near + orig_far totals
  input  logic [BackWidth-1:0]  b_back_i,        // F'_ba: b's back total in the opposite cycle
  // This node's totals of the last period (for its neighbours)
  output logic [CountWidth-1:0] self_o,          // A_a
  output logic [CountWidth-1:0] next_o,          // A_b
  output logic [CountWidth-1:0] near_o,          // F_ab
  output logic [CountWidth-1:0] far_o,           // O_a
  output logic [BackWidth-1:0]  back_o,          // for the opposite cycle's criterion: its F'_ba
  // Decision
  output logic signed [MWidth-1:0] m_o,          // M of the last period
  output logic [CountWidth-1:0] threshold_o,     // R of the last decision
  output logic                  want_o,          // one cycle: M - C_r > R
  output logic [TimeWidth-1:0]  deadline_o,      // register: the period's last step
  output logic                  busy_o           // must be clocked this step whatever the deadline
);
  typedef enum logic [1:0] {
    VariantFixed      = 2'd0,
    VariantRandomised = 2'd1,
    VariantAdaptive   = 2'd2
  } threshold_variant_e;

  logic [1:0]               variant;
  logic [CountWidth-1:0]    self_q, self_d, next_q, next_d, near_q, near_d, far_q, far_d;
  logic [CountWidth-1:0]    self_total_q, self_total_d, next_total_q, next_total_d;
  logic [CountWidth-1:0]    near_total_q, near_total_d, far_total_q, far_total_d;
  logic [BackWidth-1:0]     back_q, back_d, back_total_q, back_total_d, back_step;
  logic [7:0]               back_saved;  // hops the swap saves the packet: max(0, d - 1)
  logic [TimeWidth-1:0]     deadline_q, deadline_d;
  logic                     started_q, started_d, decide_q, decide_d, want_q, want_d;
  logic                     swapped_q, swapped_d;
  logic [15:0]              lfsr_q, lfsr_d;
  logic [CountWidth-1:0]    adaptive_q, adaptive_d, threshold_q, threshold_d;
  logic [7:0]               quiet_q, quiet_d;  // periods since this node's last swap
  logic signed [MWidth-1:0] m_q, m_d, m, l, back_packets, back_hops;
  logic [CountWidth-1:0]    threshold, raised;
  logic                     period_end;

  assign variant    = variant_i;
  assign period_end = started_q && now_i == deadline_q;
  assign l          = MWidth'(extra_hops_i);
  // What one packet toward the predecessor in the opposite cycle adds to the back counter.
  assign back_saved = back_hops_i > 8'd1 ? back_hops_i - 8'd1 : '0;
  assign back_step  = !orig_back_i ? '0 : back_credit_i ? BackWidth'(back_saved) : BackWidth'(1);
  // F'_ba in hops is added as it is, in packets it shares l's multiplier with F_ab.
  assign back_packets = back_credit_i ? '0 : MWidth'(b_back_i);
  assign back_hops    = back_credit_i ? MWidth'(b_back_i) : '0;
  // M from the totals latched at the period's end (this node's and b's).
  assign m = MWidth'(next_total_q) - MWidth'(self_total_q) + MWidth'(far_total_q) - MWidth'(b_orig_i)
             - l * (MWidth'(near_total_q) - back_packets) + back_hops;
  assign raised = adaptive_q + step_i < adaptive_q ? '1 : adaptive_q + step_i;  // saturating

  // The threshold this period's decision uses.
  always_comb begin
    unique case (variant)
      VariantRandomised: threshold = CountWidth'(((CountWidth+16)'(lfsr_q) * (CountWidth+16)'(threshold_i)) >> 15);  // [0, 2R)
      VariantAdaptive:   threshold = adaptive_q;
      default:           threshold = threshold_i;
    endcase
  end

  always_comb begin
    self_d = self_q + CountWidth'(arrive_self_i);
    next_d = next_q + CountWidth'(arrive_next_i);
    near_d = near_q + CountWidth'(orig_near_i);
    far_d  = far_q + CountWidth'(orig_far_i);
    back_d = back_q + back_step;
    self_total_d = self_total_q;  next_total_d = next_total_q;
    near_total_d = near_total_q;  far_total_d  = far_total_q;  back_total_d = back_total_q;
    deadline_d  = deadline_q;
    started_d   = 1'b1;
    decide_d    = period_end;
    want_d      = 1'b0;
    swapped_d   = swapped_q || swapped_i;
    lfsr_d      = lfsr_q;
    adaptive_d  = adaptive_q;
    threshold_d = threshold_q;
    quiet_d     = quiet_q;
    m_d         = m_q;
    if (!started_q) begin  // the first period starts at the first edge
      deadline_d = now_i + period_i - 1'b1;
      lfsr_d     = seed_i == '0 ? 16'h1 : seed_i;
      adaptive_d = threshold_i;
    end
    if (period_end) begin
      {self_total_d, next_total_d, near_total_d, far_total_d, back_total_d} = {self_d, next_d, near_d, far_d, back_d};
      {self_d, next_d, near_d, far_d, back_d} = '0;
      deadline_d = deadline_q + period_i;
    end
    if (decide_q) begin
      m_d         = m;
      threshold_d = threshold;
      want_d      = m - $signed(MWidth'(cost_i)) > $signed(MWidth'(threshold));
      lfsr_d      = {lfsr_q[14:0], lfsr_q[15] ^ lfsr_q[14] ^ lfsr_q[12] ^ lfsr_q[3]};  // x^16+x^15+x^13+x^4+1
      // Adaptive: a period with a swap raises R; rare_periods without one lower it.
      swapped_d   = 1'b0;
      if (swapped_q || swapped_i) begin
        adaptive_d = raised;
        quiet_d    = '0;
      end else if (quiet_q + 1'b1 >= rare_periods_i) begin
        adaptive_d = adaptive_q > step_i ? adaptive_q - step_i : '0;
        quiet_d    = '0;
      end else quiet_d = quiet_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      self_q <= '0;  next_q <= '0;  near_q <= '0;  far_q <= '0;  back_q <= '0;
      self_total_q <= '0;  next_total_q <= '0;  near_total_q <= '0;  far_total_q <= '0;  back_total_q <= '0;
      deadline_q <= '0;  started_q <= 1'b0;  decide_q <= 1'b0;  want_q <= 1'b0;  swapped_q <= 1'b0;
      lfsr_q <= 16'h1;  adaptive_q <= '0;  threshold_q <= '0;  quiet_q <= '0;  m_q <= '0;
    end else begin
      self_q <= self_d;  next_q <= next_d;  near_q <= near_d;  far_q <= far_d;  back_q <= back_d;
      self_total_q <= self_total_d;  next_total_q <= next_total_d;
      near_total_q <= near_total_d;  far_total_q <= far_total_d;  back_total_q <= back_total_d;
      deadline_q <= deadline_d;  started_q <= started_d;  decide_q <= decide_d;  want_q <= want_d;
      swapped_q <= swapped_d;  lfsr_q <= lfsr_d;  adaptive_q <= adaptive_d;  threshold_q <= threshold_d;
      quiet_q <= quiet_d;  m_q <= m_d;
    end
  end

  assign self_o      = self_total_q;
  assign next_o      = next_total_q;
  assign near_o      = near_total_q;
  assign far_o       = far_total_q;
  assign back_o      = back_total_q;
  assign m_o         = m_q;
  assign threshold_o = threshold_q;
  assign want_o      = want_q;
  assign deadline_o  = deadline_q;
  assign busy_o      = !started_q || decide_q || want_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert (period_i >= TimeWidth'(2));
      assert (variant != 2'd3);
    end
  end
`endif
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
