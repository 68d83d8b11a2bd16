`default_nettype none
/// Synthesis wrapper: the swap criterion of one node in one directed cycle of the reconfigurable
/// torus (16-bit flux counters and time base), the building block of the node-swap controller
/// (in progress: the handshake and the routing-table notification come with it).
module torus_swap_criterion_synth (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic [15:0]        now_i,
  input  logic [15:0]        period_i,
  input  logic [1:0]         variant_i,
  input  logic [15:0]        threshold_i,
  input  logic [15:0]        cost_i,
  input  logic [7:0]         extra_hops_i,
  input  logic [15:0]        step_i,
  input  logic [7:0]         rare_periods_i,
  input  logic [15:0]        seed_i,
  input  logic               arrive_self_i,
  input  logic               arrive_next_i,
  input  logic               orig_near_i,
  input  logic               orig_far_i,
  input  logic               swapped_i,
  input  logic [15:0]        b_orig_i,
  input  logic [15:0]        b_back_near_i,
  output logic [15:0]        self_o,
  output logic [15:0]        next_o,
  output logic [15:0]        near_o,
  output logic [15:0]        far_o,
  output logic signed [25:0] m_o,
  output logic [15:0]        threshold_o,
  output logic               want_o,
  output logic [15:0]        deadline_o
);
  torus_swap_criterion #(
    .CountWidth (16),
    .TimeWidth  (16)
  ) u_criterion (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .now_i          (now_i),
    .period_i       (period_i),
    .variant_i      (variant_i),
    .threshold_i    (threshold_i),
    .cost_i         (cost_i),
    .extra_hops_i   (extra_hops_i),
    .step_i         (step_i),
    .rare_periods_i (rare_periods_i),
    .seed_i         (seed_i),
    .arrive_self_i  (arrive_self_i),
    .arrive_next_i  (arrive_next_i),
    .orig_near_i    (orig_near_i),
    .orig_far_i     (orig_far_i),
    .swapped_i      (swapped_i),
    .b_orig_i       (b_orig_i),
    .b_back_near_i  (b_back_near_i),
    .self_o         (self_o),
    .next_o         (next_o),
    .near_o         (near_o),
    .far_o          (far_o),
    .m_o            (m_o),
    .threshold_o    (threshold_o),
    .want_o         (want_o),
    .deadline_o     (deadline_o)
  );
endmodule
`default_nettype wire
