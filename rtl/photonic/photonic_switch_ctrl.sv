`default_nettype none
/// Control plane of one photonic switch ("Segment Switching", IEEE Access 2021, Section IV and Algorithm 1): the
/// channel reservation table of each output link (W channels), the converter of each input channel
/// (label extractor + tunable wavelength converter: input channel -> output port and channel) and
/// the buffer port's entries (paper Figure 2 draws one channel each way; buf_channels_i sets how many). It answers one control-network request per cycle; the harness carries
/// requests from switch to switch, one hop a cycle, and keeps no copy of the tables.
///
///   Reserve   forward. Takes the lowest free channel on the first candidate output (round-robin
///             from the port after the last grant: the fat tree's adaptive up-phase), writes the
///             converter tentatively: Granted. No channel: in segment mode, a switch that is not the
///             segment's source and has a free buffer entry and buffer-in channel ends the segment
///             here: Buffered (entry and channel taken). Else Failed, nothing taken.
///   WalkBack  backward from a failure (Algorithm 1, lines 14-20): releases the channel this circuit
///             took here, then tries the buffer as above: Buffered, or Failed (walk on; at the
///             segment's source the harness retries after a back-off).
///   Confirm   backward from the segment's end: the converter is configured (the circuit stands).
///   Teardown  forward after the transfer: releases the output channel (the buffer-in channel if
///             the segment ended here; the entry stays, the packet is stored) and, if the segment
///             started from this switch's buffer (in port = Ports), frees that entry.
///
/// Ports 0 .. Ports-1 are links (to switches or nodes); port Ports is the buffer port, whose input
/// channels are the buffer's output (a segment leaving the buffer enters the switch there). A
/// request that contradicts the table (a channel taken twice, a release of nothing) answers Error
/// and changes nothing.
///
///   cycle      t          t+1        ...  t+H-1      t+H        ...  t+2H-1     t+2H .. +T
///   switch 0   Reserve                                               Confirm    data
///   switch 1              Reserve                               Confirm         data
///   switch H-1                            Reserve    Confirm                    data
module photonic_switch_ctrl #(
  /// Link ports: to other switches and to nodes (the buffer port is number Ports).
  parameter int unsigned Ports = 7,
  /// WDM channels per link at most (channels_i says how many are in use).
  parameter int unsigned Channels = 5,
  /// Width of the buffer's entry count; slots_i = all ones: unlimited.
  parameter int unsigned SlotWidth = 24,
  /// Width of a port number, the buffer port included (derived).
  parameter int unsigned PortWidth = $clog2(Ports + 1),
  /// Width of a channel number (derived).
  parameter int unsigned ChanWidth = (Channels > 1) ? $clog2(Channels) : 1
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // Straps
  input  logic [1:0]                    mode_i,        // enum: photonic_mode_e
  input  logic                          has_buffer_i,
  input  logic [SlotWidth-1:0]          slots_i,       // buffer entries (MTU slots)
  input  logic [ChanWidth:0]            channels_i,    // channels in use per link (W <= Channels)
  input  logic [ChanWidth:0]            buf_channels_i,  // channels of the buffer port each way
  // The request of this cycle
  input  logic [2:0]                    req_i,         // enum: photonic_req_e
  input  logic [PortWidth-1:0]          in_port_i,     // where the circuit enters this switch
  input  logic [ChanWidth-1:0]          in_ch_i,
  input  logic [Ports-1:0]              cand_i,        // reserve: outputs the route allows
  input  logic                          seg_src_i,     // this switch is the segment's source
  // The answer (from the state before the edge; applied at the edge)
  output logic [2:0]                    rsp_o,         // enum: photonic_rsp_e
  output logic [PortWidth-1:0]          out_port_o,
  output logic [ChanWidth-1:0]          out_ch_o,
  // Tables, for waves and the harness
  output logic [(Ports+1)*Channels-1:0] busy_o,        // channel c of output p at p*Channels + c
  output logic [SlotWidth-1:0]          slots_used_o,  // entries reserved or holding a packet
  output logic [PortWidth-1:0]          rr_o           // first port the next reserve looks at
);
  `include "photonic_msg.svh"

  localparam int unsigned Entries = (Ports + 1) * Channels;
  // A converter entry: [0] in use, [1] configured, then the output port and channel.
  localparam int unsigned EntryWidth = 2 + PortWidth + ChanWidth;
  localparam int unsigned IndexWidth = $clog2(Entries);
  localparam int unsigned PortSpan = 1 << PortWidth;

  logic [(Ports+1)*Channels-1:0] busy_q, busy_d;
  logic [Entries*EntryWidth-1:0] conv_q, conv_d;
  logic [SlotWidth-1:0]          slots_q, slots_d;
  logic [PortWidth-1:0]          rr_q, rr_d;

  logic [IndexWidth-1:0]   index;
  logic [EntryWidth-1:0]   entry;
  logic                    entry_used, entry_configured;
  logic [PortWidth-1:0]    entry_port;
  logic [ChanWidth-1:0]    entry_ch;
  logic                    bad_input;
  logic                    port_bad, chan_bad;
  logic [PortSpan-1:0]     cand, port_free;
  logic                    found;
  logic [PortWidth-1:0]    pick, look;
  logic [PortWidth:0]      look_wide;
  logic [ChanWidth-1:0]    pick_ch, buf_ch;
  logic                    buf_free, buffer_ok;
  logic [Channels-1:0]     pick_busy, buf_busy, link_unusable, buf_unusable;
  logic [2:0]              rsp;
  logic                    end_here;

  // Bit of channel c of port p in the flat tables (and of input p's converter entry).
  function automatic logic [IndexWidth-1:0] flat(input logic [PortWidth-1:0] p, input logic [ChanWidth-1:0] c);
    flat = IndexWidth'(p) * IndexWidth'(Channels) + IndexWidth'(c);
  endfunction

  assign index = flat(in_port_i, in_ch_i);
  assign entry = conv_q[index*EntryWidth +: EntryWidth];
  assign entry_used = entry[0];
  assign entry_configured = entry[1];
  assign entry_port = entry[2 +: PortWidth];
  assign entry_ch = entry[2+PortWidth +: ChanWidth];
  // Numbers past the last port or channel (only where the widths allow them).
  if ((1 << PortWidth) > Ports + 1) begin : g_port_range
    assign port_bad = in_port_i > PortWidth'(Ports);
  end else begin : g_port_full
    assign port_bad = 1'b0;
  end
  if ((1 << ChanWidth) > Channels) begin : g_chan_range
    assign chan_bad = in_ch_i >= ChanWidth'(Channels);
  end else begin : g_chan_full
    assign chan_bad = 1'b0;
  end
  assign bad_input = port_bad || chan_bad
                     || (in_port_i == PortWidth'(Ports) ? buf_unusable[in_ch_i] : link_unusable[in_ch_i]);

  // Candidates and free outputs, padded to every port number (the buffer's and beyond are never chosen).
  assign cand = PortSpan'(cand_i);
  for (genvar c = 0; c < Channels; c++) begin : g_usable
    assign link_unusable[c] = (ChanWidth+1)'(c) >= channels_i;
    assign buf_unusable[c] = (ChanWidth+1)'(c) >= buf_channels_i;
  end
  for (genvar p = 0; p < PortSpan; p++) begin : g_port_free
    if (p < Ports) begin : g_link
      assign port_free[p] = ~&(busy_q[p*Channels +: Channels] | link_unusable);
    end else begin : g_none
      assign port_free[p] = 1'b0;
    end
  end

  // The first candidate with a free channel, round-robin from rr_q, and its lowest free channel.
  always_comb begin
    found = 1'b0;
    pick = '0;
    for (int i = 0; i < Ports; i++) begin
      look_wide = {1'b0, rr_q} + (PortWidth+1)'(i);
      look_wide = look_wide >= (PortWidth+1)'(Ports) ? look_wide - (PortWidth+1)'(Ports) : look_wide;
      look = look_wide[PortWidth-1:0];
      if (!found && cand[look] && port_free[look]) begin
        found = 1'b1;
        pick = look;
      end
    end
    pick_busy = busy_q[pick*Channels +: Channels] | link_unusable;
    pick_ch = '0;
    for (int c = Channels - 1; c >= 0; c--) if (!pick_busy[c]) pick_ch = ChanWidth'(c);
  end

  // The buffer may end the segment here (Algorithm 1, line 15).
  always_comb begin
    buf_busy = busy_q[Ports*Channels +: Channels] | buf_unusable;
    buf_free = ~&buf_busy;
    buf_ch = '0;
    for (int c = Channels - 1; c >= 0; c--) if (!buf_busy[c]) buf_ch = ChanWidth'(c);
    buffer_ok = mode_i == ModeSegment && has_buffer_i && !seg_src_i && buf_free && slots_q < slots_i;
  end

  always_comb begin
    busy_d = busy_q;
    conv_d = conv_q;
    slots_d = slots_q;
    rr_d = rr_q;
    rsp = RspNone;
    end_here = 1'b0;
    out_port_o = '0;
    out_ch_o = '0;
    unique case (req_i)
      ReqReserve: begin
        if (bad_input || entry_used) begin
          rsp = RspError;
        end else if (found) begin
          rsp = RspGranted;
          out_port_o = pick;
          out_ch_o = pick_ch;
          busy_d[flat(pick, pick_ch)] = 1'b1;
          conv_d[index*EntryWidth +: EntryWidth] = {pick_ch, pick, 1'b0, 1'b1};
          rr_d = (pick + 1'b1 == PortWidth'(Ports)) ? '0 : pick + 1'b1;
        end else begin
          end_here = buffer_ok;
          rsp = RspFailed;
        end
      end
      ReqWalkBack: begin
        if (bad_input || !entry_used || entry_configured || entry_port == PortWidth'(Ports)) begin
          rsp = RspError;
        end else begin
          busy_d[flat(entry_port, entry_ch)] = 1'b0;
          conv_d[index*EntryWidth +: EntryWidth] = '0;
          end_here = buffer_ok;
          rsp = RspFailed;
        end
      end
      ReqConfirm: begin
        if (bad_input || !entry_used || entry_configured) begin
          rsp = RspError;
        end else begin
          rsp = RspDone;
          out_port_o = entry_port;
          out_ch_o = entry_ch;
          conv_d[index*EntryWidth + 1] = 1'b1;
        end
      end
      ReqTeardown: begin
        if (bad_input || !entry_configured || (in_port_i == PortWidth'(Ports) && slots_q == '0)) begin
          rsp = RspError;
        end else begin
          rsp = RspDone;
          out_port_o = entry_port;
          out_ch_o = entry_ch;
          busy_d[flat(entry_port, entry_ch)] = 1'b0;
          conv_d[index*EntryWidth +: EntryWidth] = '0;
          if (in_port_i == PortWidth'(Ports)) slots_d = slots_q - 1'b1;
        end
      end
      default: ;
    endcase
    // No channel onward (reserve) or on the way back (walk-back): the segment ends in this buffer.
    if (end_here) begin
      rsp = RspBuffered;
      out_port_o = PortWidth'(Ports);
      out_ch_o = buf_ch;
      busy_d[flat(PortWidth'(Ports), buf_ch)] = 1'b1;
      conv_d[index*EntryWidth +: EntryWidth] = {buf_ch, PortWidth'(Ports), 1'b0, 1'b1};
      slots_d = slots_q + 1'b1;
    end
  end

  assign rsp_o = rsp;
  assign busy_o = busy_q;
  assign slots_used_o = slots_q;
  assign rr_o = rr_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= '0;  conv_q <= '0;  slots_q <= '0;  rr_q <= '0;
    end else begin
      busy_q <= busy_d;  conv_q <= conv_d;  slots_q <= slots_d;  rr_q <= rr_d;
    end
  end

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni) begin
      assert (buf_channels_i >= (ChanWidth+1)'(1) && buf_channels_i <= (ChanWidth+1)'(Channels));
      assert (rr_q < PortWidth'(Ports));
      assert (req_i <= ReqTeardown);
      assert (mode_i <= ModeSegment);
      assert (channels_i >= (ChanWidth+1)'(1) && channels_i <= (ChanWidth+1)'(Channels));
      assert (!(rsp == RspBuffered && slots_q == '1));  // the entry count never wraps
    end
  end
`endif

`ifdef FORMAL
  // Proved by scripts/formal.py (docs/formal.md): a channel is held by at most one reservation,
  // busy exactly when a converter entry holds it; the buffer holds at most its entries, and the
  // two invariants of the simulation checks above hold (Yosys 0.52 cannot prove a check clocked by
  // the reset too, so they are restated here). The straps hold one arbitrary value each; requests are arbitrary
  // (one that contradicts the table answers Error and changes nothing).
  (* anyconst *) logic [1:0]           f_mode;
  (* anyconst *) logic                 f_has_buffer;
  (* anyconst *) logic [SlotWidth-1:0] f_slots;
  (* anyconst *) logic [ChanWidth:0]   f_channels, f_buf_channels;
  logic f_started = 1'b0;
  always_ff @(posedge clk_i) f_started <= 1'b1;
  always_comb begin
    if (!f_started) assume (!rst_ni);
    assume (mode_i == f_mode && has_buffer_i == f_has_buffer && slots_i == f_slots
            && channels_i == f_channels && buf_channels_i == f_buf_channels);
    assume (channels_i >= (ChanWidth+1)'(1) && channels_i <= (ChanWidth+1)'(Channels));
    assume (buf_channels_i >= (ChanWidth+1)'(1) && buf_channels_i <= (ChanWidth+1)'(Channels));
    assume (req_i <= ReqTeardown && mode_i <= ModeSegment);
  end
  // holds[e] of channel o: converter entry e is a reservation of o.
  for (genvar o = 0; o < Entries; o++) begin : g_f_channel
    logic [Entries-1:0] holds;
    for (genvar e = 0; e < Entries; e++) begin : g_f_entry
      assign holds[e] = conv_q[e*EntryWidth]
                        && conv_q[e*EntryWidth+2 +: PortWidth] == PortWidth'(o / Channels)
                        && conv_q[e*EntryWidth+2+PortWidth +: ChanWidth] == ChanWidth'(o % Channels);
    end
    always_comb begin
      if (rst_ni) begin
        assert ($onehot0(holds));
        assert (busy_q[o] == |holds);
      end
    end
  end
  for (genvar e = 0; e < Entries; e++) begin : g_f_entry
    always_comb begin
      if (rst_ni) begin
        assert (!conv_q[e*EntryWidth+1] || conv_q[e*EntryWidth]);  // configured: a reservation
        assert (!conv_q[e*EntryWidth] || (conv_q[e*EntryWidth+2 +: PortWidth] <= PortWidth'(Ports)
                && (ChanWidth+1)'(conv_q[e*EntryWidth+2+PortWidth +: ChanWidth]) < (ChanWidth+1)'(Channels)));
      end
    end
  end
  always_comb if (rst_ni) assert (slots_q <= slots_i);
  always_comb if (rst_ni) assert (rr_q < PortWidth'(Ports) && !(rsp == RspBuffered && slots_q == '1));
  // Reachable (the assumptions leave traces that matter): a segment ending in the buffer, and two
  // reservations on one output at once.
  always_comb if (rst_ni) cover (rsp == RspBuffered);
  always_comb if (rst_ni) cover (busy_q[0] && busy_q[1]);
`endif
endmodule
`default_nettype wire
// SPDX-License-Identifier: Apache-2.0
