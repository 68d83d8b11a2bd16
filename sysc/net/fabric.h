// SPDX-License-Identifier: Apache-2.0
// The data-plane interface: what a run needs from a network, whatever its switching. The wormhole
// network (net/wormhole_network.h) implements it; a circuit-switched photonic one can sit beside
// it. Packets live in a PacketPool the run owns: the run creates them, the data plane carries them
// and tells a SinkObserver when one has arrived whole, and the run's census, results, workloads
// and sweeps work the same on any data plane.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/thread_team.h"
#include "net/channel.h"
#include "net/end_touches.h"

namespace icn {

// What a link end's channels did last, in one flat array over the link ends (Fabric::activity()):
// the cycle its outgoing channel last sent a flit and its incoming one last delivered one.
struct EndActivity {
  uint64_t sent = ~0ULL;
  uint64_t received = ~0ULL;
};

// One end of a bidirectional link as the network was wired: the channel it sends on, the one it
// receives on, the packets queued for its output, and its partner. A controller sits at each end.
struct LinkEnd {
  std::string name;       // e.g. "r12_p5" (router 12, port 5) or "nic3"
  Channel* tx = nullptr;  // null at the receiving end of a one-way wire
  Channel* rx = nullptr;  // null at the sending end of a one-way wire
  const int32_t* tx_queue = nullptr;
  int partner = -1;     // index of the other end
  bool master = false;  // wins simultaneous handshake requests
  int router = -1;      // the router whose port this end is, and the port (-1: a NIC's end)
  int port = -1;
};

class Fabric {
 public:
  virtual ~Fabric() = default;

  // The topology's name, for results.
  virtual std::string Name() const = 0;
  virtual int nodes() const = 0;

  // One cycle in two halves. First everything due arrives: flits and credits reach the end of
  // their wires, and each packet that is now whole at its sink is reported to the observer. Then
  // the run injects the packets it creates this cycle (a workload may release a message in the
  // cycle its last dependency arrives), and Advance() moves every packet on.
  virtual void DeliverArrivals(uint64_t now) = 0;
  // Queues a packet (its record already filled in the pool) at its source node.
  virtual void Inject(uint32_t packet) = 0;
  virtual void Advance(uint64_t now) = 0;
  // Nothing on any wire, flit or credit (with no packet outstanding: an empty network, which a
  // cycle leaves as it is, so the run may jump over cycles).
  virtual bool Quiet() const = 0;
  // A still network: the first cycle >= now on which Advance() (or an arrival) could change
  // anything if no controller acts and no packet is injected meanwhile; UINT64_MAX when every
  // packet inside waits for a controller (a link it may not send on) or for a credit that only
  // such a move would free. The run may then jump to the controllers' next deadline with packets
  // inside. The default: it may move at once.
  virtual uint64_t NextMove(uint64_t now) const { return now; }
  // Threads (before the first cycle): the most parts the network can be split into, then running
  // each cycle's deliveries and moves on a team of threads, one part each, with results identical
  // to one thread's; the part each link end belongs to (its controller's thread). The default:
  // one part.
  virtual int MaxParts() const { return 1; }
  virtual void UseTeam(ThreadTeam& team) { (void)team; }
  virtual std::vector<uint16_t> EndParts() const { return std::vector<uint16_t>(link_ends().size(), 0); }

  // Adds, per packet id, the flits of that packet anywhere inside: queued at the source, on a
  // wire, in a buffer. The run's end-of-run census compares them with what each sink received.
  virtual void CountFlits(std::vector<uint32_t>& present) const = 0;
  // Where the first flit of a packet not yet delivered is (for a stalled run's report).
  virtual std::string Locate(uint32_t packet) const = 0;

  // Link ends for mechanisms with a controller per link end; every channel, for utilisation.
  virtual const std::vector<LinkEnd>& link_ends() const = 0;
  // Per link end (same order), the cycles its channels last sent and received: what a controller
  // per link end reads every cycle, without touching the channels.
  virtual const std::vector<EndActivity>& activity() const = 0;
  // From the first call on, the link ends whose activity changed (a flit sent or received, a
  // packet newly queued for the output), for the one controller adapter that visits only those
  // (a second reader would take the first one's touches); null where the data plane has none,
  // and the adapter must look at every end every cycle. The wiring is the one at the first call.
  virtual EndTouches* WatchEnds() { return nullptr; }
  virtual const std::vector<std::unique_ptr<Channel>>& channels() const = 0;
  // Cycles the channels have been busy in the run's first `cycles` cycles, summed: the run's measure
  // of progress (its watchdog) and of utilisation. The default: every channel's count.
  virtual uint64_t BusyChannelCycles(uint64_t cycles) const {
    (void)cycles;
    uint64_t busy = 0;
    for (const auto& ch : channels()) busy += ch->busy_cycles();
    return busy;
  }

  // Per link end, the share of source-destination pairs routed through it that travel h links
  // (h = 1 .. max_hops, longer paths counted as max_hops), found by walking the routing over
  // every pair, or a deterministic sample of destinations on large networks.
  virtual std::vector<std::vector<double>> HopShares(int max_hops) = 0;
};

}  // namespace icn
