`default_nettype none
/// One laser of an E-RAPID link controller: whether it is lit, and its power level (bit rate and
/// supply) moved one level at a time in the paper's order. Raising: the supply first (vdd_cycles;
/// the link keeps sending at the old rate), then the rate, and the receiver relocks (relock_cycles,
/// nothing sent: the paper's 65 cycles). Lowering: the rate first (relock), then the supply. A lit
/// laser told off stops taking packets, sends those on it, and goes dark once drained_i says
/// nothing of it is in flight; a dark laser told on lights at the commanded level and is usable
/// once its receiver has locked (relock_cycles). Commands are levels, taken only in the On state.
/// Dark out of reset: a laser the static assignment lights locks first, as at power-up.
/// No register moves while waiting: a step stores the cycle it ends, compared with now_i.
///
///   Off --on--> Lock --until--> On --level up--> VddUp --until--> Relock --until--> On
///                                 --level down--> RateDown --until--> VddDown --until--> On
///                                 --off--> Drain --drained--> Off      (Drain --on--> On)
module erapid_laser_seq #(
  /// Width of the time base and of the step times (a step < 2^TimeWidth cycles).
  parameter int unsigned TimeWidth = 16,
  /// Power levels 0 .. Levels-1 (the paper: 6, 5..10 Gb/s).
  parameter int unsigned Levels = 6
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // Time base: the current cycle (modulo 2^TimeWidth)
  input  logic [TimeWidth-1:0] now_i,
  // Commands (levels, from the reconfiguration controller's LinkResponse)
  input  logic                 on_i,      // the laser should be lit here
  input  logic [2:0]           level_i,   // the power level it should run at
  // Harness observable: nothing of this laser's is in flight, no packet is routed to it
  input  logic                 drained_i,
  // Step times in cycles (run-time straps, at least 1)
  input  logic [TimeWidth-1:0] vdd_cycles_i,     // one supply step
  input  logic [TimeWidth-1:0] relock_cycles_i,  // receiver relock after a rate change or lighting
  // Status
  output logic [2:0]           state_o,        // enum: laser_state_e
  output logic                 powered_o,      // draws power
  output logic                 routable_o,     // routing may choose it
  output logic                 tx_enable_o,    // it may send a flit this cycle
  output logic [2:0]           rate_level_o,   // level of the bit rate in use
  output logic [2:0]           power_level_o,  // level whose power it draws (the higher one mid-change)
  output logic [TimeWidth-1:0] until_o         // register: the last cycle of the step under way
);
  typedef enum logic [2:0] {
    StOff      = 3'd0,  // dark, no power
    StLock     = 3'd1,  // lit, the receiver locks: nothing sent, not routable
    StOn       = 3'd2,  // lit at rate_level
    StVddUp    = 3'd3,  // supply rising to power_level, sending at the old rate
    StRelock   = 3'd4,  // rate raised, the receiver relocks: nothing sent
    StRateDown = 3'd5,  // rate lowered, the receiver relocks: nothing sent
    StVddDown  = 3'd6,  // supply falling to rate_level, sending at the new rate
    StDrain    = 3'd7   // told off: takes no packet, sends those on it
  } laser_state_e;

  localparam logic [2:0] TopLevel = 3'(Levels - 1);

  laser_state_e         state_q, state_d;
  logic [2:0]           rate_q, rate_d, power_q, power_d;
  logic [TimeWidth-1:0] until_q, until_d;
  logic                 ends;

  assign ends = (now_i == until_q);

  always_comb begin
    state_d = state_q;
    rate_d  = rate_q;
    power_d = power_q;
    until_d = until_q;
    unique case (state_q)
      StOff: if (on_i) begin
        state_d = StLock;
        rate_d  = level_i;
        power_d = level_i;
        until_d = now_i + relock_cycles_i;
      end
      StLock: if (ends) state_d = StOn;
      StOn: begin
        if (!on_i) begin
          state_d = StDrain;
        end else if (level_i > rate_q) begin
          state_d = StVddUp;
          power_d = rate_q + 3'd1;
          until_d = now_i + vdd_cycles_i;
        end else if (level_i < rate_q) begin
          state_d = StRateDown;
          rate_d  = rate_q - 3'd1;
          until_d = now_i + relock_cycles_i;
        end
      end
      StVddUp: if (ends) begin
        state_d = StRelock;
        rate_d  = power_q;
        until_d = now_i + relock_cycles_i;
      end
      StRelock: if (ends) state_d = StOn;
      StRateDown: if (ends) begin
        state_d = StVddDown;
        until_d = now_i + vdd_cycles_i;
      end
      StVddDown: if (ends) begin
        state_d = StOn;
        power_d = rate_q;
      end
      StDrain: begin
        if (on_i) state_d = StOn;
        else if (drained_i) state_d = StOff;
      end
      default: state_d = StOff;
    endcase
  end

  // Out of reset every laser is lit at full power (the static network, NP-NB); the controller
  // turns off those its board does not own in the first cycle (they have nothing to drain).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StOff;
      rate_q  <= TopLevel;
      power_q <= TopLevel;
      until_q <= '0;
    end else begin
      state_q <= state_d;
      rate_q  <= rate_d;
      power_q <= power_d;
      until_q <= until_d;
    end
  end

  assign state_o       = state_q;
  assign powered_o     = (state_q != StOff);
  assign routable_o    = (state_q == StOn) || (state_q == StVddUp) || (state_q == StRelock) ||
                         (state_q == StRateDown) || (state_q == StVddDown);
  assign tx_enable_o   = (state_q == StOn) || (state_q == StVddUp) || (state_q == StVddDown) ||
                         (state_q == StDrain);
  assign rate_level_o  = rate_q;
  assign power_level_o = power_q;
  assign until_o       = until_q;

`ifndef SYNTHESIS
  initial begin
    if (Levels < 2 || Levels > 8) $fatal(1, "%m: Levels = %0d; allowed: 2 .. 8", Levels);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      // Legal commands and straps; a level moves by one step at most, the rate never above the
      // supply's level, and the supply is never lowered before the rate.
      assert (level_i <= TopLevel);
      assert (vdd_cycles_i != '0 && relock_cycles_i != '0);
      assert (rate_q <= power_q && power_q <= TopLevel);
      if (state_q != StOff) begin
        assert (rate_d == rate_q || rate_d == rate_q + 3'd1 || rate_d + 3'd1 == rate_q);
        assert (power_d == power_q || power_d == power_q + 3'd1 || power_d + 3'd1 == power_q);
      end
    end
  end
`endif
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
