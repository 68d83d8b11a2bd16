`default_nettype none
/// Synthesis wrapper: the control plane of one photonic switch, W = 5 channels per link and at the
/// buffer port, 24-bit entry count (4 KB slots: up to 64 GB). scripts/cost.sh synthesises a
/// switch of the 12-ary 3-tree (radix 24) and one of the 3-D torus (six links and the node's).
/// Variant tree: Ports=24 | (24 + 1) x 5 channel bits + 125 converter entries x 10 bits + 24-bit count + 5-bit pointer = 1404 bits
/// Variant torus: Ports=7 | (7 + 1) x 5 channel bits + 40 converter entries x 8 bits + 24-bit count + 3-bit pointer = 387 bits
module photonic_switch_ctrl_synth #(
  /// Link ports (to switches and nodes).
  parameter int unsigned Ports = 24,
  /// Width of a port number, the buffer port included (derived).
  parameter int unsigned PortWidth = $clog2(Ports + 1)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic [1:0]                mode_i,
  input  logic                      has_buffer_i,
  input  logic [23:0]               slots_i,
  input  logic [2:0]                req_i,
  input  logic [PortWidth-1:0]      in_port_i,
  input  logic [2:0]                in_ch_i,
  input  logic [Ports-1:0]          cand_i,
  input  logic                      seg_src_i,
  output logic [2:0]                rsp_o,
  output logic [PortWidth-1:0]      out_port_o,
  output logic [2:0]                out_ch_o,
  output logic [(Ports+1)*5-1:0]    busy_o,
  output logic [23:0]               slots_used_o,
  output logic [PortWidth-1:0]      rr_o
);
  photonic_switch_ctrl #(
    .Ports      (Ports),
    .Channels   (5),
    .SlotWidth  (24)
  ) u_ctrl (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .mode_i      (mode_i),
    .has_buffer_i(has_buffer_i),
    .slots_i     (slots_i),
    .channels_i  (4'd5),
    .buf_channels_i(4'd5),
    .req_i       (req_i),
    .in_port_i   (in_port_i),
    .in_ch_i     (in_ch_i),
    .cand_i      (cand_i),
    .seg_src_i   (seg_src_i),
    .rsp_o       (rsp_o),
    .out_port_o  (out_port_o),
    .out_ch_o    (out_ch_o),
    .busy_o      (busy_o),
    .slots_used_o(slots_used_o),
    .rr_o        (rr_o)
  );
endmodule
`default_nettype wire
