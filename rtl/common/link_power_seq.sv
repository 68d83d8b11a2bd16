`default_nettype none
/// Power sequencer of one link end: On -> ToOff -> Off -> ToOn -> On.
/// Shared by every mechanism that switches a link between a powered and an unpowered state
/// (EEE low-power idle, fat-tree on/off links). A transition, once started, always completes:
/// a request in the wrong state is ignored and the caller keeps it asserted until it is taken.
/// Transitions draw full power; Off is the only saving state. The link carries flits only in On.
/// No register moves during a transition: its start stores the cycle it ends, compared with the
/// time base now_i, so the harness must evaluate the sequencer on that cycle (until_o).
module link_power_seq #(
  /// Width of the transition-time inputs and of the time base (transitions < 2^CountWidth cycles).
  parameter int unsigned CountWidth = 24
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // Time base: the current cycle (modulo 2^CountWidth)
  input  logic [CountWidth-1:0] now_i,
  // Commands (level; taken only in the stable state they leave)
  input  logic                  go_off_i,
  input  logic                  go_on_i,
  // Transition times in cycles (run-time straps; 0 = immediate)
  input  logic [CountWidth-1:0] off_cycles_i,
  input  logic [CountWidth-1:0] on_cycles_i,
  // Status
  output logic [1:0]            state_o,   // enum: seq_state_e
  output logic                  on_o,
  output logic                  stable_o,
  output logic [CountWidth-1:0] count_o,   // cycles left in a transition, else 0
  output logic [CountWidth-1:0] until_o    // register: the last cycle of the transition
);
  typedef enum logic [1:0] {
    StOn    = 2'd0,  // powered and usable
    StToOff = 2'd1,  // powering down: unusable, still full power
    StOff   = 2'd2,  // low power, unusable
    StToOn  = 2'd3   // powering up: unusable, full power
  } seq_state_e;

  seq_state_e            state_q, state_d;
  logic [CountWidth-1:0] until_q, until_d;
  logic                  ends;

  assign ends = (now_i == until_q);

  always_comb begin
    state_d = state_q;
    until_d = until_q;
    unique case (state_q)
      StOn: if (go_off_i) begin
        if (off_cycles_i == '0) state_d = StOff;
        else begin
          state_d = StToOff;
          until_d = now_i + off_cycles_i;
        end
      end
      StToOff: if (ends) state_d = StOff;
      StOff: if (go_on_i) begin
        if (on_cycles_i == '0) state_d = StOn;
        else begin
          state_d = StToOn;
          until_d = now_i + on_cycles_i;
        end
      end
      StToOn: if (ends) state_d = StOn;
      default: state_d = StOn;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StOn;
      until_q <= '0;
    end else begin
      state_q <= state_d;
      until_q <= until_d;
    end
  end

  assign state_o  = state_q;
  assign on_o     = (state_q == StOn);
  assign stable_o = (state_q == StOn) || (state_q == StOff);
  assign count_o  = stable_o ? '0 : until_q - now_i;
  assign until_o  = until_q;

`ifndef SYNTHESIS
  // Legal moves only: On->ToOff|Off, ToOff->Off, Off->ToOn|On, ToOn->On.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      if (state_q == StToOff) assert (state_d == StToOff || state_d == StOff);
      if (state_q == StToOn) assert (state_d == StToOn || state_d == StOn);
      if (state_q == StOn) assert (state_d != StToOn);
      if (state_q == StOff) assert (state_d != StToOff);
    end
  end
`endif
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
