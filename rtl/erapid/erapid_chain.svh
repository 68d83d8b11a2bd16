// Words of E-RAPID's control packets, on a board's LC chain and on the ring of RCs alike: a head,
// then one slot per laser (chain) or per board (ring). Included in each module that reads them.
typedef enum logic [1:0] {
  KindReqHead  = 2'd0,  // LinkRequest / BoardRequest: a request starts (ring: data = requester)
  KindReqSlot  = 2'd1,  // ... one laser's or one board's statistics
  KindRespHead = 2'd2,  // LinkResponse / BoardResponse: commands follow
  KindRespSlot = 2'd3   // ... one laser's command {on, level} or one board's wavelengths
} chain_kind_e;
// SPDX-License-Identifier: Apache-2.0
