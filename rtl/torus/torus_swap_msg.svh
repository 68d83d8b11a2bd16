// Words of the swap handshake between neighbours of one directed cycle (u -> a -> b -> c becomes
// u -> b -> a -> c). Down words go to the successor, up words to the predecessor; each carries the
// labels of a and b as far as the sender knows them. Included in each module that reads them.
typedef enum logic [2:0] {
  MsgNone   = 3'd0,
  MsgLockB  = 3'd1,  // a -> b: a wants to swap with b
  MsgLockC  = 3'd2,  // b -> c: c takes part (its input is re-steered)
  MsgGrant  = 3'd3,  // c -> b -> a: all three locked
  MsgDeny   = 3'd4,  // up: a node was busy; the lock is released
  MsgDrain  = 3'd5,  // a -> b: a holds its output, b may drain
  MsgSwitch = 3'd6,  // b -> a and b -> c: b drained, the beams switch now
  MsgAbort  = 3'd7   // b -> a and b -> c: b did not drain within a period
} swap_msg_e;
// SPDX-License-Identifier: Apache-2.0
