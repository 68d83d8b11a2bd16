// SPDX-License-Identifier: Apache-2.0
// The link-end contract: what the harness gives a controller at each end of every two-way link,
// and what it takes from it (docs/controllers.md says it for users). Any top with these ports runs
// in LinkEndControllers, which needs no C++ of the controller's own:
//
//   inputs   clk_i, rst_ni          one rising edge per evaluated cycle; reset once, before cycle 0
//            now_i [31:0]           time base: the cycle being closed, modulo 2^32
//            tx_queue_i [15:0]      packets waiting for or sending on this output (saturates)
//            tx_busy_i, rx_busy_i   a flit left / arrived on the link this cycle
//            ctl_rx_i [2:0]         the partner end's ctl_tx_o, a link latency later (0 = none)
//   straps   master_i               (optional) this end wins where both ends decide at once
//            latency_i              (optional) the link's latency in cycles, one way
//            others                 set once from the controller's keys
//   outputs  ctl_tx_o [2:0]         a message to the partner end (0 = none)
//            tx_en_o                this end may start sending a flit
//            power_o                the end's power state: an index into its declared states;
//                                   state 0 is awake, the only state a flit may arrive in
//            deadline_o [31:0],     the first later cycle (time base) on which the controller must
//            deadline_valid_o       be clocked even if no input changes; invalid = none
//            busy_o                 (optional) registers move on their own: clock the next cycle
//
// A controller whose last edge toggled no register and whose inputs are those of that edge is at a
// fixed point until its deadline: the harness skips its evaluation until then (exact; tested cycle
// for cycle against every edge). So the deadline must name every cycle on which now_i would change
// a register when nothing else does.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/energy_ledger.h"

namespace icn {

struct LinkEndPowerState {
  std::string name;  // as the ledger and results.json name it
  double watts;      // power of one end in this state
  bool asleep;       // a low-power state (the share of ends in one is a timeseries column)
};

// A kind of link-end controller as a mechanism runs it.
struct LinkEndSpec {
  std::string section;     // its section of results.json, and its timeseries columns' prefix ("eee")
  std::string switch_key;  // the key that turns it on, named by errors ("eee.mode")
  std::string off_value;   // that key's value when off
  std::string group;       // its energy-ledger group ("eee_port")
  std::vector<LinkEndPowerState> states;  // by power_o
  // Both ends change power state together (a link-wide handshake): a link's sleeps and wakeups
  // are counted once, at its master end; otherwise at every end.
  bool link_wide = true;
  // Counts the report adds: cycles on which an end sends this message (results key, ctl_tx_o value).
  std::vector<std::pair<std::string, uint8_t>> counted_messages;
};

// Its energy-ledger group: `members` ends (or ports), each charged in the state power_o names.
inline EnergyLedger::Group& AddPowerGroup(EnergyLedger& ledger, const LinkEndSpec& spec, int members) {
  std::vector<std::string> names;
  std::vector<double> watts;
  for (const LinkEndPowerState& s : spec.states) {
    names.push_back(s.name);
    watts.push_back(s.watts);
  }
  return ledger.AddGroup(spec.group, names, watts, members);
}

}  // namespace icn
