// SPDX-License-Identifier: Apache-2.0
// The switch and node contracts: one controller per router (switch) or per NIC (node) of the
// wormhole network, seeing each of its ports' output and commanding it (docs/controllers.md says it
// for users). A port here is the output of a link end: the transmitter and the wire it drives. Any
// top with these ports runs in PortGroupControllers, which needs no C++ of the controller's own.
// P is the width of tx_en_o: the most ports a switch may have (unused ones read 0); a node's is 1.
//
//   inputs   clk_i, rst_ni           one rising edge per evaluated cycle; reset once, before cycle 0
//            now_i [31:0]            time base: the cycle being closed, modulo 2^32
//            tx_queue_i [16P-1:0]    per port (port p in bits 16p+15:16p), packets waiting for or
//                                    sending on its output (saturates at 65535)
//            tx_busy_i [P-1:0]       per port, a flit left on its output this cycle
//            rx_busy_i [P-1:0]       per port, a flit arrived on its input this cycle
//   straps   ports_i [P-1:0]         (optional) the ports that have a link
//            others                  set once from the controller's keys
//   outputs  tx_en_o [P-1:0]         per port, its output may start sending a flit
//            power_o [WP-1:0]        per port (W bits each), its output's power state: an index into
//                                    the declared states; state 0 is awake, the only state in which a
//                                    flit may leave
//            deadline_o [31:0],      the first later cycle (time base) on which the controller must
//            deadline_valid_o        be clocked even if no input changes; invalid = none
//            busy_o                  (optional) registers move on their own: clock the next cycle
//
// Unlike a link end, a port's power state is its own output's: its partner keeps sending to it, so
// no handshake is needed, and a port that stops its output only holds back its own traffic.
#pragma once

namespace icn {

enum class PortGroupKind {
  kSwitch,  // one controller per router, a port per router port with a link
  kNode,    // one controller per NIC, its one port the NIC's output
};

}  // namespace icn
