// Control-network words of the photonic switch control plane ("Segment Switching", IEEE Access 2021): what a switch
// is asked (one request per cycle) and what it answers. Included in each module that reads them.
typedef enum logic [2:0] {
  ReqNone     = 3'd0,
  ReqReserve  = 3'd1,  // forward: take a free channel on one of the candidate outputs
  ReqWalkBack = 3'd2,  // backward after a failure: release this circuit's output channel, try the buffer
  ReqConfirm  = 3'd3,  // backward: the segment stands; configure the converter
  ReqTeardown = 3'd4   // forward after the transfer: release the channel (and the slot it left)
} photonic_req_e;

typedef enum logic [2:0] {
  RspNone     = 3'd0,
  RspGranted  = 3'd1,  // reserve: out port and channel taken (tentatively)
  RspBuffered = 3'd2,  // reserve or walk-back: a buffer entry taken here, the segment ends here
  RspFailed   = 3'd3,  // reserve or walk-back: no channel and no buffer entry here
  RspDone     = 3'd4,  // confirm or teardown applied (out port and channel of the entry)
  RspError    = 3'd5   // the request contradicts the table (a harness bug; nothing changes)
} photonic_rsp_e;

// photonic.mode: which reservations the control plane makes.
typedef enum logic [1:0] {
  ModeCircuit    = 2'd0,  // whole messages, no buffers
  ModePacketised = 2'd1,  // one MTU packet per circuit, no buffers
  ModeSegment    = 2'd2   // MTU packets, segments ending in buffers (Algorithm 1)
} photonic_mode_e;
// SPDX-License-Identifier: Apache-2.0
