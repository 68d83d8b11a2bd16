`default_nettype none
`include "pb_geometry.svh"
/// PerfBoundCorrect (Sánchez de la Rosa et al. 2025, section 3.4): corrects the PerfBound t_PDT of one port
/// with the history of its last HistLen (n_R) predictions. A packet that arrives while the PDT
/// timer still runs is a hit; one that arrives after the power-down is a miss, and the ratio
/// t_inac / t_PDT by which t_PDT was too short enters a FIFO kept in step with the hit/miss
/// shift register (a miss shifted out pops the oldest ratio).
///   cf = miss share x geometric mean of the ratios, capped at CfMax;
///   t_PDT = t_PerfBound x max(1, cf).
/// The geometric mean is taken in the log2 domain in fixed point with 8 fraction bits: log2 by
/// leading one + a 64-entry table of log2(1 + i/64), the mean by a table of 1/m, 2^x by a
/// 64-entry table of 2^(i/64). The result is within 5 % of the exact geometric mean (tested).
module pb_correct #(
  /// n_R: predictions remembered; a power of two (the miss share is a shift).
  parameter int unsigned HistLen = `PB_HIST_LEN,
  /// Cap of the correction factor in Q.8 (the paper's cf_b = min(cf, h_maxval)), 16.0 = 4096.
  parameter int unsigned CfMaxQ8 = `PB_CF_MAX_Q8,
  /// Width of the times (at most 32).
  parameter int unsigned TimerWidth = 32
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  // One prediction outcome per pulse (a packet arrived at the port)
  input  logic                         outcome_valid_i,
  input  logic                         hit_i,           // the PDT timer was still running
  input  logic [TimerWidth-1:0]        t_inac_i,        // idle period that ended (on a miss)
  input  logic [TimerWidth-1:0]        t_pdt_i,         // t_PDT that was in force (on a miss)
  // Correction
  input  logic [TimerWidth-1:0]        pdt_perfbound_i, // t_PDT from the PerfBound search
  output logic [TimerWidth-1:0]        pdt_cycles_o,    // corrected t_PDT
  output logic [15:0]                  cf_o,            // max(1, cf) in Q.8
  // Debug
  output logic [$clog2(HistLen+1)-1:0] misses_o,
  output logic [HistLen-1:0]           history_o,       // 1 = miss, bit 0 the newest
  output logic [17:0]                  log_sum_o        // sum of the log2 ratios held, Q.8
);
  localparam int unsigned LogWidth    = 14;  // log2 of a 32-bit value in Q.8: < 32 x 256
  localparam int unsigned LogSumWidth = 18;  // HistLen ratios of LogWidth bits, HistLen <= 16
  localparam int unsigned MissWidth   = $clog2(HistLen + 1);
  localparam int unsigned PtrWidth    = $clog2(HistLen);
  localparam int unsigned ShareShift  = $clog2(HistLen);

  if (HistLen != (1 << ShareShift) || HistLen > 16 || HistLen < 2) begin : gen_check_len
    $error("%m: HistLen = %0d must be a power of two in [2, 16]", HistLen);
  end
  if (TimerWidth > 32) begin : gen_check_width
    $error("%m: TimerWidth = %0d must be at most 32", TimerWidth);
  end

  logic [HistLen-1:0]     history_q, history_d;
  logic [MissWidth-1:0]   misses_q, misses_d;
  logic [LogSumWidth-1:0] sum_q, sum_d;
  logic [LogWidth-1:0]    fifo_q [HistLen];
  logic [PtrWidth-1:0]    head_q, head_d, tail_q, tail_d;
  logic                   miss, leaving_miss;
  logic [LogWidth-1:0]    log_inac, log_pdt, log_ratio;

  // ---- log2 in Q.8 of the two times: leading one + table ------------------------------------
  logic [4:0]  msb_inac, msb_pdt;
  // Bit 31 is the leading one and bits 24:0 lie below the table's resolution.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] norm_inac, norm_pdt;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [7:0]  frac_inac, frac_pdt;

  always_comb begin
    msb_inac = '0;
    msb_pdt  = '0;
    for (int b = 0; b < 32; b++) begin
      if ((32'(t_inac_i) >> b) != 32'd0) msb_inac = 5'(b);
      if ((32'(t_pdt_i) >> b) != 32'd0) msb_pdt = 5'(b);
    end
  end
  assign norm_inac = 32'(t_inac_i) << (5'd31 - msb_inac);  // leading one at bit 31
  assign norm_pdt  = 32'(t_pdt_i) << (5'd31 - msb_pdt);

  // log2(1 + i/64) in Q.8, i = 0..63: the fraction of a log2 below its leading one.
  function automatic logic [7:0] log2_frac(input logic [5:0] i);
    unique case (i)
      6'd0: log2_frac = 8'd0;
      6'd1: log2_frac = 8'd6;
      6'd2: log2_frac = 8'd11;
      6'd3: log2_frac = 8'd17;
      6'd4: log2_frac = 8'd22;
      6'd5: log2_frac = 8'd28;
      6'd6: log2_frac = 8'd33;
      6'd7: log2_frac = 8'd38;
      6'd8: log2_frac = 8'd44;
      6'd9: log2_frac = 8'd49;
      6'd10: log2_frac = 8'd54;
      6'd11: log2_frac = 8'd59;
      6'd12: log2_frac = 8'd63;
      6'd13: log2_frac = 8'd68;
      6'd14: log2_frac = 8'd73;
      6'd15: log2_frac = 8'd78;
      6'd16: log2_frac = 8'd82;
      6'd17: log2_frac = 8'd87;
      6'd18: log2_frac = 8'd92;
      6'd19: log2_frac = 8'd96;
      6'd20: log2_frac = 8'd100;
      6'd21: log2_frac = 8'd105;
      6'd22: log2_frac = 8'd109;
      6'd23: log2_frac = 8'd113;
      6'd24: log2_frac = 8'd118;
      6'd25: log2_frac = 8'd122;
      6'd26: log2_frac = 8'd126;
      6'd27: log2_frac = 8'd130;
      6'd28: log2_frac = 8'd134;
      6'd29: log2_frac = 8'd138;
      6'd30: log2_frac = 8'd142;
      6'd31: log2_frac = 8'd146;
      6'd32: log2_frac = 8'd150;
      6'd33: log2_frac = 8'd154;
      6'd34: log2_frac = 8'd157;
      6'd35: log2_frac = 8'd161;
      6'd36: log2_frac = 8'd165;
      6'd37: log2_frac = 8'd169;
      6'd38: log2_frac = 8'd172;
      6'd39: log2_frac = 8'd176;
      6'd40: log2_frac = 8'd179;
      6'd41: log2_frac = 8'd183;
      6'd42: log2_frac = 8'd186;
      6'd43: log2_frac = 8'd190;
      6'd44: log2_frac = 8'd193;
      6'd45: log2_frac = 8'd197;
      6'd46: log2_frac = 8'd200;
      6'd47: log2_frac = 8'd203;
      6'd48: log2_frac = 8'd207;
      6'd49: log2_frac = 8'd210;
      6'd50: log2_frac = 8'd213;
      6'd51: log2_frac = 8'd216;
      6'd52: log2_frac = 8'd220;
      6'd53: log2_frac = 8'd223;
      6'd54: log2_frac = 8'd226;
      6'd55: log2_frac = 8'd229;
      6'd56: log2_frac = 8'd232;
      6'd57: log2_frac = 8'd235;
      6'd58: log2_frac = 8'd238;
      6'd59: log2_frac = 8'd241;
      6'd60: log2_frac = 8'd244;
      6'd61: log2_frac = 8'd247;
      6'd62: log2_frac = 8'd250;
      6'd63: log2_frac = 8'd253;
      default: log2_frac = '0;
    endcase
  endfunction

  assign frac_inac = log2_frac(norm_inac[30:25]);
  assign frac_pdt  = log2_frac(norm_pdt[30:25]);
  assign log_inac  = {1'b0, msb_inac, frac_inac};
  assign log_pdt   = {1'b0, msb_pdt, frac_pdt};
  // A miss means t_inac > t_PDT; the tables may round the difference below zero: clamp.
  assign log_ratio = (log_inac > log_pdt) ? log_inac - log_pdt : '0;

  // ---- History: shift register of misses and the FIFO of their log ratios --------------------
  assign miss         = outcome_valid_i && !hit_i;
  assign leaving_miss = outcome_valid_i && history_q[HistLen-1];

  always_comb begin
    history_d = history_q;
    misses_d  = misses_q;
    sum_d     = sum_q;
    head_d    = head_q;
    tail_d    = tail_q;
    if (outcome_valid_i) begin
      history_d = {history_q[HistLen-2:0], miss};
      if (leaving_miss) begin
        sum_d    = sum_d - LogSumWidth'(fifo_q[head_q]);
        head_d   = head_q + 1'b1;
        misses_d = misses_d - 1'b1;
      end
      if (miss) begin
        sum_d    = sum_d + LogSumWidth'(log_ratio);
        tail_d   = tail_q + 1'b1;
        misses_d = misses_d + 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      history_q <= '0;
      misses_q  <= '0;
      sum_q     <= '0;
      head_q    <= '0;
      tail_q    <= '0;
    end else begin
      history_q <= history_d;
      misses_q  <= misses_d;
      sum_q     <= sum_d;
      head_q    <= head_d;
      tail_q    <= tail_d;
    end
  end

  // FIFO storage: an entry is read only after it has been written.
  always_ff @(posedge clk_i) begin
    if (miss) fifo_q[tail_q] <= log_ratio;
  end

  // ---- cf = misses / n_R x 2^(sum / misses), capped; applied factor max(1, cf) ---------------
  logic [16:0]             recip;     // 2^16 / misses, rounded (2^16 itself for one miss)
  logic [LogSumWidth+16:0] mean_wide;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [LogSumWidth-1:0]  mean;      // Q.8; bits 1:0 lie below the 2^x table's resolution
  /* verilator lint_on UNUSEDSIGNAL */
  logic [7:0]              exp_frac;  // 2^(fraction) - 1 in Q.8
  logic [47:0]             gm;        // geometric mean, Q.8
  logic [47:0]             cf;        // Q.8
  logic [15:0]             factor;
  logic [47:0]             corrected;

  always_comb begin
    recip = '0;
    for (int m = 1; m <= HistLen; m++) begin
      if (misses_q == MissWidth'(m)) recip = 17'((65536 + m / 2) / m);
    end
  end
  assign mean_wide = LogSumWidth'(sum_q) * recip;
  assign mean      = LogSumWidth'(mean_wide >> 16);

  always_comb begin
    unique case (mean[7:2])
      6'd0: exp_frac = 8'd0;
      6'd1: exp_frac = 8'd3;
      6'd2: exp_frac = 8'd6;
      6'd3: exp_frac = 8'd8;
      6'd4: exp_frac = 8'd11;
      6'd5: exp_frac = 8'd14;
      6'd6: exp_frac = 8'd17;
      6'd7: exp_frac = 8'd20;
      6'd8: exp_frac = 8'd23;
      6'd9: exp_frac = 8'd26;
      6'd10: exp_frac = 8'd29;
      6'd11: exp_frac = 8'd32;
      6'd12: exp_frac = 8'd36;
      6'd13: exp_frac = 8'd39;
      6'd14: exp_frac = 8'd42;
      6'd15: exp_frac = 8'd45;
      6'd16: exp_frac = 8'd48;
      6'd17: exp_frac = 8'd52;
      6'd18: exp_frac = 8'd55;
      6'd19: exp_frac = 8'd58;
      6'd20: exp_frac = 8'd62;
      6'd21: exp_frac = 8'd65;
      6'd22: exp_frac = 8'd69;
      6'd23: exp_frac = 8'd72;
      6'd24: exp_frac = 8'd76;
      6'd25: exp_frac = 8'd80;
      6'd26: exp_frac = 8'd83;
      6'd27: exp_frac = 8'd87;
      6'd28: exp_frac = 8'd91;
      6'd29: exp_frac = 8'd94;
      6'd30: exp_frac = 8'd98;
      6'd31: exp_frac = 8'd102;
      6'd32: exp_frac = 8'd106;
      6'd33: exp_frac = 8'd110;
      6'd34: exp_frac = 8'd114;
      6'd35: exp_frac = 8'd118;
      6'd36: exp_frac = 8'd122;
      6'd37: exp_frac = 8'd126;
      6'd38: exp_frac = 8'd130;
      6'd39: exp_frac = 8'd135;
      6'd40: exp_frac = 8'd139;
      6'd41: exp_frac = 8'd143;
      6'd42: exp_frac = 8'd147;
      6'd43: exp_frac = 8'd152;
      6'd44: exp_frac = 8'd156;
      6'd45: exp_frac = 8'd161;
      6'd46: exp_frac = 8'd165;
      6'd47: exp_frac = 8'd170;
      6'd48: exp_frac = 8'd175;
      6'd49: exp_frac = 8'd179;
      6'd50: exp_frac = 8'd184;
      6'd51: exp_frac = 8'd189;
      6'd52: exp_frac = 8'd194;
      6'd53: exp_frac = 8'd198;
      6'd54: exp_frac = 8'd203;
      6'd55: exp_frac = 8'd208;
      6'd56: exp_frac = 8'd214;
      6'd57: exp_frac = 8'd219;
      6'd58: exp_frac = 8'd224;
      6'd59: exp_frac = 8'd229;
      6'd60: exp_frac = 8'd234;
      6'd61: exp_frac = 8'd240;
      6'd62: exp_frac = 8'd245;
      6'd63: exp_frac = 8'd250;
      default: exp_frac = '0;
    endcase
  end

  always_comb begin
    // 2^int x (1 + table); a mean of 2^31 or more is past any cap.
    gm = 48'({1'b1, exp_frac}) << mean[LogSumWidth-1:8];
    if (misses_q == '0) cf = '0;
    else if (mean[LogSumWidth-1:8] > 10'd30) cf = 48'(CfMaxQ8);
    else cf = (gm * 48'(misses_q)) >> ShareShift;
    if (cf > 48'(CfMaxQ8)) cf = 48'(CfMaxQ8);
    factor = (cf < 48'd256) ? 16'd256 : 16'(cf);
  end

  assign corrected    = 48'(pdt_perfbound_i) * 48'(factor);
  assign pdt_cycles_o = (pdt_perfbound_i == '1 || (corrected >> 8) > 48'({TimerWidth{1'b1}}))
                        ? '1 : TimerWidth'(corrected >> 8);
  assign cf_o         = factor;
  assign misses_o     = misses_q;
  assign history_o    = history_q;
  assign log_sum_o    = sum_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      // The FIFO holds exactly one ratio per miss in the shift register.
      assert (misses_q == MissWidth'($countones(history_q)));
    end
  end
`endif
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
