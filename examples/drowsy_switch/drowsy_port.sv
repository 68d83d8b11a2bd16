`default_nettype none
/// One output port of drowsy_switch: after idle_cycles_i cycles (2 at the least) with nothing
/// queued for it, sent or received it sleeps; a packet queued for it wakes it, wake_cycles_i cycles
/// later. A port without a link (link_i low) stays awake and still.
module drowsy_port (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        link_i,         // strap: the port has a link
  input  logic [23:0] idle_cycles_i,  // N: idle cycles before the port sleeps (2 at the least)
  input  logic [23:0] wake_cycles_i,  // cycles from asleep to awake
  input  logic [31:0] now_i,
  input  logic        queued_i,       // a packet waits for or is sending on the output
  input  logic        active_i,       // queued, or a flit sent or received this cycle
  output logic        tx_en_o,
  output logic [1:0]  power_o,        // enum: power_e
  output logic [31:0] due_o,          // the cycle the time base acts on the port, if due_valid_o
  output logic        due_valid_o
);
  typedef enum logic [1:0] {
    PowerAwake  = 2'd0,
    PowerWaking = 2'd1,
    PowerAsleep = 2'd2
  } power_e;

  typedef enum logic [1:0] {
    Awake  = 2'd0,
    Asleep = 2'd1,
    Waking = 2'd2
  } state_e;

  state_e      state_q, state_d;
  logic [31:0] mark_q, mark_d;  // Awake: the first idle cycle; Waking: the last cycle of waking
  logic        active_q;        // the last cycle had traffic

  // The idle cycles before sleeping: the first idle cycle only records the idle period's start.
  logic [23:0] idle_cycles;
  logic        idle_long;
  assign idle_cycles = idle_cycles_i < 24'd2 ? 24'd2 : idle_cycles_i;
  assign idle_long   = !active_i && !active_q && now_i - mark_q + 32'd1 >= {8'd0, idle_cycles};

  always_comb begin
    state_d = state_q;
    mark_d  = mark_q;
    if (link_i) begin
      unique case (state_q)
        Awake: begin
          if (idle_long) state_d = Asleep;
          else if (!active_i && active_q) mark_d = now_i;
        end
        Asleep: begin
          if (queued_i) begin
            state_d = wake_cycles_i == '0 ? Awake : Waking;
            mark_d  = now_i + {8'd0, wake_cycles_i};
          end
        end
        Waking: if (now_i == mark_q) state_d = Awake;
        default: state_d = Awake;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q  <= Awake;
      mark_q   <= '0;
      active_q <= 1'b1;
    end else begin
      state_q  <= state_d;
      mark_q   <= mark_d;
      active_q <= active_i || !link_i;  // (no link: held as reset leaves it)
    end
  end

  assign tx_en_o = state_q == Awake;
  assign power_o = state_q == Asleep ? PowerAsleep : state_q == Waking ? PowerWaking : PowerAwake;
  // The end of an idle period of N cycles (awake, no traffic last cycle), or of waking.
  assign due_valid_o = link_i && ((state_q == Awake && !active_q) || state_q == Waking);
  assign due_o       = state_q == Awake ? mark_q + {8'd0, idle_cycles} - 32'd1 : mark_q;
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
