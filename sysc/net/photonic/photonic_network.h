// SPDX-License-Identifier: Apache-2.0
// The circuit-switched photonic data plane (network.switching = photonic; the paper "Segment Switching: A New
// Switching Strategy for Optical HPC Networks"): WDM links of W channels between photonic switches (a torus
// or a k-ary n-tree), each switch with one buffer port where the layout puts a buffer. Data moves only on
// circuits (segments) that the switches' control planes (SwitchControl: the verilated photonic_switch_ctrl)
// have reserved and configured; once a segment stands, its transfer takes its size / channel rate and meets
// no contention. Reservation, walk-back, confirmation and teardown requests travel a separate electronic
// control network one hop per cycle; each switch answers every request that reaches it in a cycle, or at
// most photonic.requests_per_cycle (a request that finds its switch busy waits a cycle: control_waits).
//
// What a circuit carries (a "unit"): in circuit mode a whole workload message (its packets back to
// back), in packetised and segment modes one MTU packet. Sources: each node's NIC (its link to the
// switch has W channels: up to W attempts or transfers at once) and each buffer (one output channel).
// A source starts the units that may try, in order; a failed attempt tries again as
// photonic.on_failure says (by default it keeps its channel until the output that refused it frees
// one). Segments ending in a buffer store the unit there, from where it continues with a new
// reservation. Packets of a pair that overtake each other (different buffers, adaptive up-paths) are
// delivered in injection order (PairOrder).
//
// Timing of a lone circuit over H switches of T cycles' data: Reserve at the H switches in cycles
// t .. t+H-1 (the last one takes the ejection channel), Confirm back in t+H .. t+2H-1, data in
// t+2H .. t+2H+T-1, delivered at t+2H+T; Teardown follows the data one hop a cycle.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/rng.h"
#include "net/fabric.h"
#include "net/flit.h"
#include "net/nic.h"
#include "net/pair_order.h"
#include "net/photonic/photonic_params.h"
#include "net/photonic/switch_control.h"
#include "net/topologies/kary_ntree.h"
#include "net/topology.h"

namespace icn {

class PhotonicNetwork : public Fabric {
 public:
  PhotonicNetwork(std::shared_ptr<const Topology> topology, PacketPool& pool, SinkObserver& observer);

  // The control plane (the photonic mechanism's adapter) and its parameters; before the first cycle.
  void Attach(const PhotonicParams& params, SwitchControl* control);

  std::string Name() const override { return topology_->Name() + ", photonic " + params_.mode_name; }
  int nodes() const override { return topology_->nodes; }
  void DeliverArrivals(uint64_t now) override;
  void Inject(uint32_t packet) override;
  void Advance(uint64_t now) override;
  bool Quiet() const override { return live_units_ == 0 && live_circuits_ == 0 && absorbed_.empty(); }
  void CountFlits(std::vector<uint32_t>& present) const override;
  std::string Locate(uint32_t packet) const override;
  const std::vector<LinkEnd>& link_ends() const override { return no_ends_; }
  const std::vector<EndActivity>& activity() const override { return no_activity_; }
  // One per channel of every directed link: switch to switch first, then node links.
  const std::vector<std::unique_ptr<Channel>>& channels() const override { return channels_; }
  // Finished transfers' busy cycles and those of the transfers still sending.
  uint64_t BusyChannelCycles(uint64_t cycles) const override {
    return Fabric::BusyChannelCycles(cycles) + cycles * sending_channels_ - sending_from_sum_;
  }
  std::vector<std::vector<double>> HopShares(int) override { return {}; }
  // Threads answer the switches' requests of a cycle at once, each the switches of its regions
  // (torus slabs, tree pods); what the answers do then follows on one thread, in one order.
  int MaxParts() const override { return RegionCount(*topology_); }
  void UseTeam(ThreadTeam& team) override;

  int switches() const { return topology_->routers; }
  int ports() const { return topology_->ports; }
  bool buffered(int sw) const { return buffered_[sw]; }
  // The harness's own count of a buffer's entries (reserved or holding a packet), for the check
  // against the control plane's.
  uint32_t slots_used(int sw) const { return slots_[sw]; }
  // Reserves answered Failed without the switch's model (photonic.predict_refusals).
  uint64_t predicted_refusals() const { return predicted_refusals_; }
  // Of those, the ones past the source at a switch with a buffer (its port or its entries taken).
  uint64_t predicted_refusals_at_buffers() const { return predicted_refusals_at_buffers_; }
  // results.json's "photonic" section: utilisation, buffers, reservations, latency split.
  nlohmann::json Report(uint64_t cycles) const;
  // Answers that contradicted the harness (a control-plane Error), and switches whose tables hold
  // other channels or buffer entries than the circuits through them.
  std::vector<std::string> Problems() const;

 private:
  struct Hop {
    int32_t sw;
    uint8_t in_port, in_ch;
    uint64_t taken = 0;    // when this switch took the circuit's output channel
    uint8_t out_port = 0;  // that channel's port (the switch's port count: its buffer)
  };
  // One reservation attempt and, once it stands, its segment (until the teardown has passed).
  static constexpr uint64_t kNotSending = UINT64_MAX;
  struct Circuit {
    uint32_t unit;
    int32_t source;  // whose channel the attempt holds (Unit::source when it began)
    int32_t dst;     // its unit's
    uint8_t source_ch;
    std::vector<Hop> path;
    std::vector<uint32_t> used;  // channels (indices into channels_) confirmed for its transfer
    bool ends_in_buffer = false;
    int32_t blocked_sw = -1;              // where a reservation was first refused
    uint32_t blocked_ports = 0;           // the outputs it could have taken there
    uint64_t sending_from = kNotSending;  // the first cycle of its transfer, until it arrives
    uint64_t sending_cycles = 0;
  };
  // What one circuit carries, and where it is.
  struct Unit {
    std::vector<uint32_t> packets;
    uint64_t flits = 0;
    uint32_t message = Packet::kNoMessage;
    int32_t dst = 0;
    int32_t source = 0;  // node id (its NIC) or nodes + switch (that switch's buffer)
    bool live = false;
    bool started = false;  // an attempt has begun (circuit mode: no more packets join it)
    uint64_t stored_at = 0;
    uint64_t buffer_cycles = 0;
    uint16_t times_buffered = 0;
    uint16_t switches = 0;  // switches crossed so far
    uint64_t first_sent = UINT64_MAX;
    uint8_t kept_ch = 0;  // photonic.on_failure retry / wait: the source channel it keeps meanwhile
  };
  struct Source {
    uint32_t free = 0;           // bit c: channel c free
    std::deque<uint32_t> ready;  // units that may try now, in order
    bool listed = false;         // in sources_to_serve_
  };
  // A control-network request carries what its switch reads (the hop's input and, once reserved,
  // output; the destination), so answering it touches neither the circuit nor its unit.
  struct Request {
    uint32_t circuit;
    int32_t dst;
    uint16_t hop;
    PhotonicReq kind;
    uint8_t in_port, in_ch;
    uint8_t out_port;
  };
  // An answer found ahead of what it does; `predicted`: the counts refused, no model was asked.
  struct Decision {
    SwitchAnswer answer;
    bool predicted = false;
  };
  // One switch's counts as its answering thread keeps them (in ahead_held_ and ahead_slots_).
  struct AheadCounts {
    uint16_t* held;  // channels held per output, then of the buffer port
    uint32_t& slots;
    void Hold(int port, int change) { held[port] = static_cast<uint16_t>(held[port] + change); }
    void Slots(int change) { slots += change; }
  };
  // One thread's share of a cycle's switches: indices into serving_.
  struct Part {
    std::vector<uint32_t> serving;
  };
  // kRequeue: a unit joins the end of its source's queue; kResume: it tries again on the channel it kept.
  enum class Timed : uint8_t { kArrive, kRequeue, kResume };
  struct Event {
    uint64_t at;
    uint64_t seq;
    Timed kind;
    uint32_t id;  // circuit (kArrive) or unit
    bool operator>(const Event& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };

  int Switch(int node) const { return topology_->attach[node].router; }
  int Port(int node) const { return topology_->attach[node].port; }
  // Outputs the route allows at switch `sw` toward node `dst` (bit per port).
  uint32_t Candidates(int sw, int dst) const;
  uint32_t AllocUnit();
  uint32_t AllocCircuit(uint32_t unit, int source, int ch);
  void FreeUnit(uint32_t unit);
  void FreeCircuit(uint32_t circuit);
  uint64_t TransferCycles(const Unit& u) const;
  // Request `kind` of `circuit` at its hop `hop`, and that hop's switch; sent this cycle (at the
  // switch next cycle) or queued there now.
  std::pair<int, Request> Addressed(uint32_t circuit, PhotonicReq kind, int hop) const;
  void Send(uint32_t circuit, PhotonicReq kind, int hop) { next_.push_back(Addressed(circuit, kind, hop)); }
  void Queue(uint32_t circuit, PhotonicReq kind, int hop);
  void Queue(int sw, const Request& r);
  void ListSource(int source);
  void ServeSource(int source);
  // An attempt of `unit` from `source` on the source's channel `ch`.
  void Start(uint32_t unit, int source, int ch);
  // The answers to the requests the switches in serving_ serve this cycle (batch_ and decisions_ in
  // the range decided_[i] for serving_[i]), found by the parts' threads at once: a switch's answers
  // depend only on its model and its own counts, which only its own answers change this cycle.
  void DecideAll();
  void Decide(int sw, uint32_t first, uint32_t end, int lane);
  // What answer `a` to request `r` changes in its switch's counts: counts.Hold(port, change) for a
  // channel of an output (the buffer port: the switch's port count), counts.Slots(change) for its
  // buffer's entries.
  template <typename SwitchCounts>
  void Account(const Request& r, const SwitchAnswer& a, SwitchCounts&& counts) const;
  size_t HeldAt(int sw) const { return static_cast<size_t>(sw) * (topology_->ports + 1); }
  AheadCounts Ahead(int sw) { return {&ahead_held_[HeldAt(sw)], ahead_slots_[sw]}; }
  // Whether one of `ports` (a mask of a switch's outputs) has a channel no circuit holds, given the
  // channels held per output.
  bool AnyFree(const uint16_t* held, uint32_t ports) const;
  // The channels circuits hold at switch `sw`, outputs and buffer port; Problems() checks the sum
  // against the switch's tables (a total: a count wrong on two ports in opposite ways passes).
  int CircuitChannels(int sw) const;
  // Whether a segment reserved through switch `sw` may end in its buffer (Segment Switching, a
  // buffer there, not the segment's source), given a free buffer channel and entry.
  bool MayEndInBuffer(int sw, bool segment_source) const {
    return params_.mode == PhotonicMode::kSegment && buffered_[sw] && !segment_source;
  }
  // Whether switch `sw` must refuse a reserve toward `candidates`: the RTL's rule (no candidate
  // output with a free channel, no buffer the segment may end in) on the harness's own counts (the
  // answering thread's).
  // The answer is Failed without asking the model, so a model that would answer Error (its tables
  // disagree with the harness) is not caught at that request; Problems() still compares the totals.
  bool MustRefuse(int sw, const AheadCounts& counts, uint32_t candidates, bool segment_source) const;
  void Answer(const Request& r, int sw, const SwitchAnswer& a, uint64_t now);
  // The attempt failed back at its source: try again as photonic.on_failure says.
  void Retry(uint32_t circuit, uint64_t now);
  // A circuit took (+1) or gave back (-1) a channel of output `port` of switch `sw` (the buffer port
  // when `port` is the switch's port count); a release wakes the units waiting for that output
  // (photonic.on_failure = wait).
  void Hold(int sw, int port, int change, uint64_t now);
  // The segment's data has arrived at its end: deliver, or store in that switch's buffer.
  void Arrive(uint32_t circuit, uint64_t now);
  void SetSlots(int sw, uint32_t slots, uint64_t now);
  void Schedule(uint64_t at, Timed kind, uint32_t id);

  std::shared_ptr<const Topology> topology_;
  PacketPool& pool_;
  SinkObserver& observer_;
  PhotonicParams params_;
  SwitchControl* control_ = nullptr;
  Rng rng_{1};
  std::vector<int32_t> peer_;  // [sw * ports + port]: switch * ports + port at the other end, or -1 - node
  std::vector<uint8_t> buffered_;
  std::unique_ptr<KaryNTreeShape> tree_;  // null on a torus or mesh
  std::vector<int> dims_;                 // torus / mesh sides
  bool wraps_ = false;
  int inter_switch_links_ = 0;    // directed; their channels come first in channels_
  std::vector<int32_t> link_of_;  // [sw * ports + port] -> directed link index (channels at link * W)

  std::vector<int32_t> open_unit_;  // per node, circuit mode: the unit a message's packets join
  std::vector<Unit> units_;
  std::vector<uint32_t> free_units_;
  std::vector<Circuit> circuits_;
  std::vector<uint32_t> free_circuits_;
  uint64_t live_units_ = 0, live_circuits_ = 0;
  // Channels carrying a transfer now (each one's first cycle at most the next), and the sum of those
  // transfers' first cycles per channel: BusyChannelCycles without a loop.
  uint64_t sending_channels_ = 0, sending_from_sum_ = 0;
  std::vector<Source> sources_;  // nodes' NICs, then one per switch (its buffer)
  std::vector<int> sources_to_serve_;
  // Per switch: the requests at it, the first `head` of them served (a vector rather than a deque:
  // most are served the cycle they arrive, and their switch's list is empty again).
  struct Inbox {
    std::vector<Request> items;
    size_t head = 0;
  };
  std::vector<Inbox> inbox_;
  std::vector<int> busy_switches_;  // switches with a request waiting
  std::vector<uint8_t> listed_switch_;
  std::vector<std::pair<int, Request>> next_;  // sent this cycle, at their switch next cycle
  std::vector<std::pair<int, Request>> arriving_;
  std::vector<int> serving_;  // scratch
  std::vector<std::pair<uint32_t, uint32_t>> decided_;
  std::vector<Request> batch_;  // the requests of decisions_, copied out of the inboxes
  std::vector<Decision> decisions_;
  ThreadTeam* team_ = nullptr;
  std::vector<uint16_t> switch_part_;
  std::vector<Part> parts_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> timed_;
  // Events for the next cycle (most of them: wake-ups, retries at once) in the order they were
  // scheduled, so in seq order: a list beside the heap; due_: the list Advance takes them from.
  std::vector<Event> soon_, due_;
  uint64_t now_ = 0;  // the cycle being advanced
  uint64_t seq_ = 0;
  PairOrder order_;
  std::vector<std::pair<uint32_t, uint64_t>> absorbed_;
  std::vector<std::unique_ptr<Channel>> channels_;

  // Figures.
  std::vector<uint32_t> slots_;  // per switch
  std::vector<uint16_t> held_;   // [HeldAt(sw) + port]: channels held of each output, the buffer port last
  // The same counts kept by the threads that answer (each switch's by its part's): equal to held_
  // and slots_ when a cycle's answers begin, ahead of them until the answers are carried out. Both
  // follow the same answers through Account(), so Problems(), which compares them, finds a
  // difference only if one of them was written outside it (a race).
  std::vector<uint16_t> ahead_held_;  // laid out as held_
  std::vector<uint32_t> ahead_slots_;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> waiting_;  // [sw * ports + port]: (unit, token)
  // Per unit (photonic.on_failure = wait): bumped when it wakes, so its other waiting places go stale.
  // Beside the units, not in them: a release reads the token of every unit waiting for it.
  std::vector<uint32_t> wait_token_;
  std::vector<uint64_t> slot_cycles_, slots_since_;  // occupancy integral, and when it last changed
  uint64_t attempts_ = 0, failures_ = 0, ejection_failures_ = 0, walk_backs_ = 0, segments_ = 0,
           buffered_segments_ = 0;
  uint64_t control_requests_ = 0, control_waits_ = 0, reserved_channel_cycles_ = 0, predicted_refusals_ = 0,
           predicted_refusals_at_buffers_ = 0;
  uint64_t packets_delivered_ = 0, buffer_cycles_ = 0, network_cycles_ = 0;
  std::vector<double> ejection_work_;     // per destination: channel-cycles of the data sent to it
  std::vector<uint64_t> times_buffered_;  // packets delivered after being stored 0, 1, 2, ... times
  std::vector<std::string> problems_;
  std::vector<LinkEnd> no_ends_;
  std::vector<EndActivity> no_activity_;
};

}  // namespace icn
