// SPDX-License-Identifier: Apache-2.0
#include "net/photonic/photonic_network.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "core/errors.h"
#include "net/channel.h"
#include "net/data_plane.h"
#include "net/topologies/kary_ntree.h"

namespace icn {
namespace {

// An id from the free list, or a new element.
template <typename T>
uint32_t Reuse(std::vector<T>& items, std::vector<uint32_t>& free) {
  if (free.empty()) {
    items.emplace_back();
    return static_cast<uint32_t>(items.size() - 1);
  }
  const uint32_t id = free.back();
  free.pop_back();
  return id;
}

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// q = 0, 1/20, ..., 1 quantiles of `values` (sorted here): the sorted per-link curve in 21 points.
nlohmann::json Quantiles(std::vector<double> values) {
  nlohmann::json q = nlohmann::json::array();
  if (values.empty()) return q;
  std::sort(values.begin(), values.end());
  for (int i = 0; i <= 20; ++i) q.push_back(values[(values.size() - 1) * i / 20]);
  return q;
}

double Mean(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return values.empty() ? 0.0 : sum / static_cast<double>(values.size());
}

}  // namespace

PhotonicNetwork::PhotonicNetwork(std::shared_ptr<const Topology> topology, PacketPool& pool,
                                 SinkObserver& observer)
    : topology_(std::move(topology)), pool_(pool), observer_(observer), order_(topology_->nodes) {
  const Topology& t = *topology_;
  switch_part_.assign(static_cast<size_t>(t.routers), 0);
  parts_.resize(1);
  const std::string name = t.Name();
  if (const KaryNTreeShape* tree = TreeShape(t)) {
    tree_ = std::make_unique<KaryNTreeShape>(*tree);
  } else if (EndsWith(name, " torus") || EndsWith(name, " mesh")) {
    dims_ = t.PatternDims();
    wraps_ = EndsWith(name, " torus");
  } else {  // (the key table's rule on network.switching and topology.kind lets no other through)
    throw std::logic_error("photonic: a " + name + " is no torus, mesh or k-ary n-tree");
  }
  const int p = t.ports;
  peer_.assign(static_cast<size_t>(t.routers) * p, INT32_MIN);
  for (const Wire& w : t.wires) {
    peer_[w.a_router * p + w.a_port] = w.b_router * p + w.b_port;
    peer_[w.b_router * p + w.b_port] = w.a_router * p + w.a_port;
  }
  for (int node = 0; node < t.nodes; ++node) peer_[Switch(node) * p + Port(node)] = -1 - node;
  // Directed links: switch to switch, then switch to node n (ejection, inter + n), then node n to
  // switch (injection, inter + nodes + n).
  link_of_.assign(peer_.size(), -1);
  for (size_t i = 0; i < peer_.size(); ++i)
    if (peer_[i] >= 0) link_of_[i] = inter_switch_links_++;
  for (int node = 0; node < t.nodes; ++node)
    link_of_[Switch(node) * p + Port(node)] = inter_switch_links_ + node;
}

void PhotonicNetwork::Attach(const PhotonicParams& params, SwitchControl* control) {
  params_ = params;
  control_ = control;
  rng_ = Rng(params.seed * 0x9e3779b97f4a7c15ULL + 0x5107);
  const Topology& t = *topology_;
  buffered_ = BufferedSwitches(t, params.layout);
  const int links = inter_switch_links_ + 2 * t.nodes;
  for (int i = 0; i < links * params.channels; ++i) channels_.push_back(std::make_unique<Channel>(1, 1.0, 0));
  sources_.resize(t.nodes + t.routers);
  for (int node = 0; node < t.nodes; ++node) sources_[node].free = (1u << params.source_channels) - 1;
  for (int sw = 0; sw < t.routers; ++sw)
    sources_[t.nodes + sw].free = buffered_[sw] ? (1u << params.buffer_channels) - 1 : 0;
  open_unit_.assign(t.nodes, -1);
  inbox_.resize(t.routers);
  listed_switch_.assign(t.routers, 0);
  slots_.assign(t.routers, 0);
  held_.assign(static_cast<size_t>(t.routers) * (t.ports + 1), 0);
  ahead_held_ = held_;
  ahead_slots_.assign(t.routers, 0);
  waiting_.resize(static_cast<size_t>(t.routers) * t.ports);
  ejection_work_.assign(t.nodes, 0.0);
  slot_cycles_.assign(t.routers, 0);
  slots_since_.assign(t.routers, 0);
  times_buffered_.assign(1, 0);
}

void PhotonicNetwork::UseTeam(ThreadTeam& team) {
  team_ = &team;
  switch_part_ = PartsByRegion(*topology_, team.size());
  parts_.resize(static_cast<size_t>(team.size()));
}

uint32_t PhotonicNetwork::Candidates(int sw, int dst) const {
  if (sw == Switch(dst)) return 1u << Port(dst);
  if (tree_) {  // up adaptively until dst is below, then down deterministically
    const int down = TreeDownPort(*tree_, sw, dst);
    return down >= 0 ? 1u << down : ((1u << tree_->k) - 1) << tree_->k;
  }
  // Dimension order; on a torus the shorter way, a tie by the destination and the switch.
  for (int d = 0, stride = 1; d < static_cast<int>(dims_.size()); stride *= dims_[d], ++d) {
    const int k = dims_[d], here = sw / stride % k, there = dst / stride % k;
    if (here == there) continue;
    bool plus = there > here;
    if (wraps_) {
      const int forward = (there - here + k) % k;
      plus = 2 * forward < k || (2 * forward == k && ((dst * 0x9e3779b1u ^ sw * 0x85ebca6bu) >> 7 & 1));
    }
    return 1u << (plus ? 1 + 2 * d : 2 + 2 * d);
  }
  throw std::logic_error("photonic: a route from a switch to itself");
}

uint32_t PhotonicNetwork::AllocUnit() {
  const uint32_t id = Reuse(units_, free_units_);
  if (wait_token_.size() < units_.size()) wait_token_.resize(units_.size(), 0);
  Unit& u = units_[id];
  u.packets.clear();
  u.flits = 0;
  u.message = Packet::kNoMessage;
  u.live = true;
  u.started = false;
  u.stored_at = u.buffer_cycles = 0;
  u.times_buffered = u.switches = 0;
  u.first_sent = UINT64_MAX;
  ++live_units_;
  return id;
}

void PhotonicNetwork::FreeUnit(uint32_t unit) {
  units_[unit].live = false;
  free_units_.push_back(unit);
  --live_units_;
}

uint32_t PhotonicNetwork::AllocCircuit(uint32_t unit, int source, int ch) {
  const uint32_t id = Reuse(circuits_, free_circuits_);
  Circuit& c = circuits_[id];
  c.unit = unit;
  c.source = source;
  c.dst = units_[unit].dst;
  c.source_ch = static_cast<uint8_t>(ch);
  c.path.clear();
  c.used.clear();
  c.ends_in_buffer = false;
  c.blocked_sw = -1;
  c.blocked_ports = 0;
  c.sending_from = kNotSending;
  ++live_circuits_;
  return id;
}

void PhotonicNetwork::FreeCircuit(uint32_t circuit) {
  free_circuits_.push_back(circuit);
  --live_circuits_;
}

uint64_t PhotonicNetwork::TransferCycles(const Unit& u) const {
  return std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(u.flits * params_.cycles_per_flit - 1e-9)));
}

void PhotonicNetwork::Inject(uint32_t id) {
  if (!control_) throw std::logic_error("photonic: no control plane attached");
  const Packet& p = pool_[id];
  order_.Add(p, id);
  int32_t& open = open_unit_[p.src];
  // Circuit mode: a message's packets (released together) share one circuit.
  const bool joins = params_.mode == PhotonicMode::kCircuit && p.message != Packet::kNoMessage && open >= 0 &&
                     units_[open].live && !units_[open].started && units_[open].message == p.message;
  if (!joins) {
    open = static_cast<int32_t>(AllocUnit());
    Unit& u = units_[open];
    u.message = p.message;
    u.dst = p.dst;
    u.source = p.src;
    sources_[p.src].ready.push_back(static_cast<uint32_t>(open));
    ListSource(p.src);
  }
  units_[open].packets.push_back(id);
  units_[open].flits += p.flits;
  ejection_work_[p.dst] += p.flits * params_.cycles_per_flit;
}

void PhotonicNetwork::ListSource(int source) {
  if (sources_[source].listed) return;
  sources_[source].listed = true;
  sources_to_serve_.push_back(source);
}

std::pair<int, PhotonicNetwork::Request> PhotonicNetwork::Addressed(uint32_t circuit, PhotonicReq kind,
                                                                    int hop) const {
  const Circuit& c = circuits_[circuit];
  const Hop& h = c.path[hop];
  return {h.sw, {circuit, c.dst, static_cast<uint16_t>(hop), kind, h.in_port, h.in_ch, h.out_port}};
}

void PhotonicNetwork::Queue(uint32_t circuit, PhotonicReq kind, int hop) {
  const auto [sw, r] = Addressed(circuit, kind, hop);
  Queue(sw, r);
}

void PhotonicNetwork::Queue(int sw, const Request& r) {
  inbox_[sw].items.push_back(r);
  if (listed_switch_[sw]) return;
  listed_switch_[sw] = 1;
  busy_switches_.push_back(sw);
}

// Starts an attempt for each unit that may try while the source has a free channel.
void PhotonicNetwork::ServeSource(int source) {
  Source& s = sources_[source];
  s.listed = false;
  while (s.free && !s.ready.empty()) {
    const uint32_t unit = s.ready.front();
    s.ready.pop_front();
    const int ch = __builtin_ctz(s.free);
    s.free &= s.free - 1;
    Start(unit, source, ch);
  }
}

void PhotonicNetwork::Start(uint32_t unit, int source, int ch) {
  const int nodes = topology_->nodes;
  units_[unit].started = true;
  const uint32_t c = AllocCircuit(unit, source, ch);
  const bool nic = source < nodes;
  const int sw = nic ? Switch(source) : source - nodes;
  const int in_port = nic ? Port(source) : topology_->ports;
  circuits_[c].path.push_back({sw, static_cast<uint8_t>(in_port), static_cast<uint8_t>(ch)});
  ++attempts_;
  Queue(c, PhotonicReq::kReserve, 0);
}

void PhotonicNetwork::Advance(uint64_t now) {
  arriving_.swap(next_);
  for (const auto& [sw, r] : arriving_) Queue(sw, r);
  arriving_.clear();
  now_ = now;
  due_.swap(soon_);
  for (size_t next = 0;;) {  // the heap's and the list's events by (at, seq)
    const bool heap = !timed_.empty() && timed_.top().at <= now;
    if (!heap && next == due_.size()) break;
    Event e;
    if (heap && (next == due_.size() || due_[next] > timed_.top())) {
      e = timed_.top();
      timed_.pop();
    } else {
      e = due_[next++];
    }
    if (e.kind == Timed::kArrive) {
      Arrive(e.id, now);
    } else if (e.kind == Timed::kResume) {
      Start(e.id, units_[e.id].source, units_[e.id].kept_ch);
    } else {
      sources_[units_[e.id].source].ready.push_back(e.id);
      ListSource(units_[e.id].source);
    }
  }
  due_.clear();
  serving_.swap(sources_to_serve_);
  for (int source : serving_) ServeSource(source);
  serving_.clear();
  serving_.swap(busy_switches_);
  DecideAll();
  for (size_t i = 0; i < serving_.size(); ++i) {
    const int sw = serving_[i];
    for (uint32_t d = decided_[i].first; d < decided_[i].second; ++d) {
      const Request& r = batch_[d];
      ++control_requests_;
      if (decisions_[d].predicted) {
        ++predicted_refusals_;
        predicted_refusals_at_buffers_ += MayEndInBuffer(sw, r.hop == 0);
      }
      Answer(r, sw, decisions_[d].answer, now);
    }
    Inbox& inbox = inbox_[sw];
    inbox.head += decided_[i].second - decided_[i].first;
    if (inbox.head == inbox.items.size()) {
      inbox.items.clear();
      inbox.head = 0;
      listed_switch_[sw] = 0;
    } else {
      control_waits_ += inbox.items.size() - inbox.head;
      busy_switches_.push_back(sw);
      if (2 * inbox.head >= inbox.items.size()) {  // the served half goes
        inbox.items.erase(inbox.items.begin(), inbox.items.begin() + inbox.head);
        inbox.head = 0;
      }
    }
  }
  serving_.clear();
}

void PhotonicNetwork::DecideAll() {
  const size_t limit = params_.requests_per_cycle == 0 ? SIZE_MAX : params_.requests_per_cycle;
  decided_.resize(serving_.size());
  for (uint32_t i = 0; i < serving_.size(); ++i) {
    const int sw = serving_[i];
    decided_[i].second = static_cast<uint32_t>(
        std::min(inbox_[sw].items.size() - inbox_[sw].head, limit));  // (a count, for now)
    parts_[switch_part_[sw]].serving.push_back(i);
  }
  // Each part's requests and answers side by side (its thread reads them in order), a cache line
  // apart from the next part's.
  uint32_t next = 0;
  for (Part& part : parts_) {
    for (uint32_t i : part.serving) {
      const Inbox& inbox = inbox_[serving_[i]];
      decided_[i] = {next, next + decided_[i].second};
      if (batch_.size() < decided_[i].second) batch_.resize(2 * decided_[i].second);
      std::copy_n(inbox.items.begin() + static_cast<ptrdiff_t>(inbox.head), decided_[i].second - next,
                  batch_.begin() + next);
      next = decided_[i].second;
    }
    next += 64 / sizeof(Decision);
  }
  decisions_.resize(next);
  auto job = [&](int member) {
    Part& part = parts_[static_cast<size_t>(member)];
    for (uint32_t i : part.serving) Decide(serving_[i], decided_[i].first, decided_[i].second, member);
    part.serving.clear();
  };
  const auto busy =
      std::count_if(parts_.begin(), parts_.end(), [](const Part& p) { return !p.serving.empty(); });
  if (busy > 1) return team_->Run(job);
  for (int member = 0; member < static_cast<int>(parts_.size()); ++member) job(member);  // (no meeting)
}

void PhotonicNetwork::Decide(int sw, uint32_t first, uint32_t end, int lane) {
  AheadCounts counts = Ahead(sw);
  bool asked = false;
  for (uint32_t d = first; d < end; ++d) {
    const Request& r = batch_[d];
    SwitchRequest q;
    q.kind = r.kind;
    q.in_port = r.in_port;
    q.in_ch = r.in_ch;
    q.candidates = r.kind == PhotonicReq::kReserve ? Candidates(sw, r.dst) : 0;
    q.segment_source = r.hop == 0;
    Decision& out = decisions_[d];
    out.predicted = params_.predict_refusals && r.kind == PhotonicReq::kReserve &&
                    MustRefuse(sw, counts, q.candidates, q.segment_source);
    if (out.predicted) {
      out.answer = {PhotonicRsp::kFailed, 0, 0};
    } else {
      out.answer = control_->Handle(sw, q, lane);
      asked = true;
    }
    Account(r, out.answer, counts);
  }
  if (asked) control_->Close(sw, lane);
}

template <typename SwitchCounts>
void PhotonicNetwork::Account(const Request& r, const SwitchAnswer& a, SwitchCounts&& counts) const {
  const int p = topology_->ports;
  if (r.kind == PhotonicReq::kReserve && a.kind == PhotonicRsp::kGranted) counts.Hold(a.out_port, +1);
  if (r.kind == PhotonicReq::kWalkBack || r.kind == PhotonicReq::kTeardown) counts.Hold(r.out_port, -1);
  // (A segment from a buffer enters its first switch at the buffer port.)
  if (r.kind == PhotonicReq::kTeardown && r.hop == 0 && r.in_port == p) counts.Slots(-1);
  if ((r.kind == PhotonicReq::kReserve || r.kind == PhotonicReq::kWalkBack) &&
      a.kind == PhotonicRsp::kBuffered) {
    counts.Hold(p, +1);  // the segment ends in this switch's buffer
    counts.Slots(+1);
  }
}

bool PhotonicNetwork::AnyFree(const uint16_t* held, uint32_t ports) const {
  for (; ports; ports &= ports - 1)
    if (held[__builtin_ctz(ports)] < params_.channels) return true;
  return false;
}

int PhotonicNetwork::CircuitChannels(int sw) const {
  const auto at = held_.begin() + static_cast<ptrdiff_t>(HeldAt(sw));
  return std::accumulate(at, at + topology_->ports + 1, 0);
}

bool PhotonicNetwork::MustRefuse(int sw, const AheadCounts& counts, uint32_t candidates,
                                 bool segment_source) const {
  if (AnyFree(counts.held, candidates)) return false;
  return !MayEndInBuffer(sw, segment_source) || counts.held[topology_->ports] >= params_.buffer_channels ||
         counts.slots >= params_.slots;
}

void PhotonicNetwork::Answer(const Request& r, int sw, const SwitchAnswer& a, uint64_t now) {
  struct SwitchCounts {  // switch sw's own
    PhotonicNetwork& net;
    int sw;
    uint64_t now;
    void Hold(int port, int change) { net.Hold(sw, port, change, now); }
    void Slots(int change) { net.SetSlots(sw, net.slots_[sw] + change, now); }
  };
  Account(r, a, SwitchCounts{*this, sw, now});
  Circuit& c = circuits_[r.circuit];
  const int p = topology_->ports;
  if (a.kind == PhotonicRsp::kError && problems_.size() < 20) {
    problems_.push_back("switch " + std::to_string(sw) + " refused request " +
                        std::to_string(static_cast<int>(r.kind)) + " of a circuit toward node " +
                        std::to_string(r.dst) + " (its tables disagree with the harness)");
  }
  // The output a release names was read when the request was sent; the path must still hold it.
  const bool releases = r.kind == PhotonicReq::kWalkBack || r.kind == PhotonicReq::kTeardown;
  if (releases && r.out_port != c.path[r.hop].out_port && problems_.size() < 20) {
    problems_.push_back("switch " + std::to_string(sw) + ": a release named output " +
                        std::to_string(r.out_port) + ", the circuit holds " +
                        std::to_string(c.path[r.hop].out_port));
  }
  const auto end_in_buffer = [&] {
    c.path[r.hop].taken = now;
    c.path[r.hop].out_port = static_cast<uint8_t>(p);
    c.ends_in_buffer = true;
    ++buffered_segments_;
    Send(r.circuit, PhotonicReq::kConfirm, r.hop);
  };
  const auto walk_back = [&] {  // Algorithm 1, lines 14-20: the previous switch releases, tries its buffer
    if (r.hop == 0) return Retry(r.circuit, now);
    c.path.pop_back();
    Send(r.circuit, PhotonicReq::kWalkBack, r.hop - 1);
  };
  switch (r.kind) {
    case PhotonicReq::kReserve:
      if (a.kind == PhotonicRsp::kGranted) {
        c.path[r.hop].taken = now;
        c.path[r.hop].out_port = a.out_port;
        if (sw == Switch(r.dst) && a.out_port == Port(r.dst)) {  // the whole circuit: confirm back
          Send(r.circuit, PhotonicReq::kConfirm, r.hop);
          return;
        }
        const int32_t there = peer_[sw * p + a.out_port];
        if (there < 0) throw std::logic_error("photonic: a reservation granted toward no switch");
        c.path.push_back({there / p, static_cast<uint8_t>(there % p), a.out_ch, 0});
        Send(r.circuit, PhotonicReq::kReserve, r.hop + 1);
      } else if (a.kind == PhotonicRsp::kBuffered) {
        end_in_buffer();
      } else {
        if (r.hop > 0) ++walk_backs_;
        if (sw == Switch(r.dst)) ++ejection_failures_;
        if (c.blocked_sw < 0) {
          c.blocked_sw = sw;
          c.blocked_ports = Candidates(sw, r.dst);
        }
        walk_back();
      }
      return;
    case PhotonicReq::kWalkBack:
      reserved_channel_cycles_ += now - c.path[r.hop].taken;
      if (a.kind == PhotonicRsp::kBuffered) {
        end_in_buffer();
      } else {
        walk_back();
      }
      return;
    case PhotonicReq::kConfirm: {
      const int link = a.out_port < p ? link_of_[sw * p + a.out_port] : -1;
      if (link >= 0) c.used.push_back(static_cast<uint32_t>(link * params_.channels + a.out_ch));
      if (r.hop > 0) {
        Send(r.circuit, PhotonicReq::kConfirm, r.hop - 1);
        return;
      }
      // The segment stands: the data leaves next cycle and arrives after its transfer time.
      Unit& u = units_[c.unit];
      const uint64_t start = now + 1, cycles = TransferCycles(u);
      const int nodes = topology_->nodes;
      if (c.source < nodes) {
        const int injection = inter_switch_links_ + nodes + c.source;
        c.used.push_back(static_cast<uint32_t>(injection * params_.channels + c.source_ch));
      } else {
        u.buffer_cycles += start - u.stored_at;
      }
      // Busy cycles are counted as they pass (SendingCycles), so utilisation and the watchdog see a
      // long transfer progress and none runs past the run's end.
      c.sending_from = start;
      c.sending_cycles = cycles;
      sending_channels_ += c.used.size();
      sending_from_sum_ += start * c.used.size();
      if (u.first_sent == UINT64_MAX) {
        u.first_sent = start;
        for (uint32_t id : u.packets) pool_[id].injected = start;
      }
      ++segments_;
      Schedule(start + cycles, Timed::kArrive, r.circuit);
      return;
    }
    case PhotonicReq::kTeardown:
      reserved_channel_cycles_ += now - c.path[r.hop].taken;
      if (r.hop == 0) {  // the source's channel is free again; a buffer's entry left with the packet
        sources_[c.source].free |= 1u << c.source_ch;
        ListSource(c.source);
      }
      if (r.hop + 1u < c.path.size()) {
        Send(r.circuit, PhotonicReq::kTeardown, r.hop + 1);
      } else {
        FreeCircuit(r.circuit);
      }
      return;
    default:
      return;
  }
}

void PhotonicNetwork::Retry(uint32_t circuit, uint64_t now) {
  const Circuit& c = circuits_[circuit];
  Unit& u = units_[c.unit];
  ++failures_;
  const uint64_t backoff = static_cast<uint64_t>(params_.backoff_cycles);
  const auto after_backoff = [&] { return now + backoff + rng_.Below(static_cast<uint32_t>(backoff)); };
  if (params_.on_failure == OnFailure::kBackoff) {
    sources_[c.source].free |= 1u << c.source_ch;
    ListSource(c.source);
    Schedule(after_backoff(), Timed::kRequeue, c.unit);
  } else if (params_.on_failure == OnFailure::kRetry) {
    u.kept_ch = c.source_ch;
    Schedule(after_backoff(), Timed::kResume, c.unit);
  } else {
    // Wait: at once if an output it could take has a free channel again (or none was recorded),
    // else until one of them frees a channel.
    u.kept_ch = c.source_ch;
    const int p = topology_->ports;
    if (c.blocked_ports == 0 || AnyFree(&held_[HeldAt(c.blocked_sw)], c.blocked_ports)) {
      Schedule(now + 1, Timed::kResume, c.unit);
    } else {
      for (uint32_t ports = c.blocked_ports; ports; ports &= ports - 1)
        waiting_[c.blocked_sw * p + __builtin_ctz(ports)].push_back({c.unit, wait_token_[c.unit]});
    }
  }
  FreeCircuit(circuit);
}

void PhotonicNetwork::Schedule(uint64_t at, Timed kind, uint32_t id) {
  const Event e{at, seq_++, kind, id};
  if (at == now_ + 1) {
    soon_.push_back(e);
  } else {
    timed_.push(e);
  }
}

void PhotonicNetwork::Hold(int sw, int port, int change, uint64_t now) {
  uint16_t& held = held_[HeldAt(sw) + static_cast<size_t>(port)];
  held = static_cast<uint16_t>(held + change);
  if (change > 0 || port == topology_->ports) return;  // no unit waits for the buffer port
  const size_t at = static_cast<size_t>(sw) * topology_->ports + port;
  if (waiting_[at].empty()) return;
  for (const auto& [unit, token] : waiting_[at]) {
    if (wait_token_[unit] != token) continue;  // woken already by another output
    ++wait_token_[unit];
    Schedule(now + 1, Timed::kResume, unit);
  }
  waiting_[at].clear();
}

void PhotonicNetwork::Arrive(uint32_t circuit, uint64_t now) {
  Circuit& c = circuits_[circuit];
  for (uint32_t channel : c.used) channels_[channel]->CountBusy(c.sending_cycles);
  sending_channels_ -= c.used.size();
  sending_from_sum_ -= c.sending_from * c.used.size();
  c.sending_from = kNotSending;
  const uint32_t unit = c.unit;
  Unit& u = units_[unit];
  u.switches = static_cast<uint16_t>(u.switches + c.path.size());
  Queue(circuit, PhotonicReq::kTeardown, 0);
  if (c.ends_in_buffer) {
    const int sw = c.path.back().sw;
    u.source = topology_->nodes + sw;
    u.stored_at = now;
    ++u.times_buffered;
    sources_[u.source].ready.push_back(unit);
    ListSource(u.source);
    return;
  }
  if (times_buffered_.size() <= u.times_buffered) times_buffered_.resize(u.times_buffered + 1, 0);
  for (uint32_t id : u.packets) {
    Packet& p = pool_[id];
    p.hops = u.switches;
    ++packets_delivered_;
    buffer_cycles_ += u.buffer_cycles;
    network_cycles_ += now - p.created - u.buffer_cycles;
    ++times_buffered_[u.times_buffered];
    order_.Arrive(pool_, id, [&](uint32_t next) {
      pool_[next].next_index = pool_[next].flits;
      absorbed_.push_back({next, now});
    });
  }
  FreeUnit(unit);
}

void PhotonicNetwork::SetSlots(int sw, uint32_t slots, uint64_t now) {
  slot_cycles_[sw] += static_cast<uint64_t>(slots_[sw]) * (now - slots_since_[sw]);
  slots_since_[sw] = now;
  slots_[sw] = slots;
}

void PhotonicNetwork::DeliverArrivals(uint64_t) {
  for (const auto& [id, at] : absorbed_) observer_.OnDelivered(id, at);
  absorbed_.clear();
}

void PhotonicNetwork::CountFlits(std::vector<uint32_t>& present) const {
  for (const Unit& u : units_)
    if (u.live)
      for (uint32_t id : u.packets) present[id] += pool_[id].flits;
  order_.CountFlits(pool_, present);
}

std::string PhotonicNetwork::Locate(uint32_t packet) const {
  for (const Unit& u : units_) {
    if (!u.live || std::find(u.packets.begin(), u.packets.end(), packet) == u.packets.end()) continue;
    const int nodes = topology_->nodes;
    const std::string where = u.source < nodes ? "NIC of node " + std::to_string(u.source)
                                               : "buffer of switch " + std::to_string(u.source - nodes);
    return (u.started ? "sending from or reserving at the " : "waiting in the ") + where;
  }
  if (std::string held = order_.Locate(packet); !held.empty()) return held;
  return "nowhere in the network";
}

nlohmann::json PhotonicNetwork::Report(uint64_t cycles) const {
  const double span = static_cast<double>(std::max<uint64_t>(1, cycles));
  const int w = params_.channels, nodes = topology_->nodes;
  // Per channel, the busy cycles of finished transfers and of those still sending.
  std::vector<uint64_t> busy(channels_.size());
  for (size_t ch = 0; ch < channels_.size(); ++ch) busy[ch] = channels_[ch]->busy_cycles();
  for (const Circuit& c : circuits_) {
    if (c.sending_from == kNotSending || c.sending_from >= cycles) continue;
    for (uint32_t ch : c.used) busy[ch] += std::min(c.sending_cycles, cycles - c.sending_from);
  }
  const auto link_use = [&](int link) {
    uint64_t sum = 0;
    for (int ch = 0; ch < w; ++ch) sum += busy[static_cast<size_t>(link * w + ch)];
    return static_cast<double>(sum) / (w * span);
  };
  std::vector<double> inter, injection, ejection;
  for (int l = 0; l < inter_switch_links_; ++l) inter.push_back(link_use(l));
  for (int n = 0; n < nodes; ++n) {
    ejection.push_back(link_use(inter_switch_links_ + n));
    injection.push_back(link_use(inter_switch_links_ + nodes + n));
  }
  const bool unlimited = params_.slots == PhotonicParams::kUnlimitedSlots;
  std::vector<double> occupancy, utilisation;
  for (int sw = 0; sw < switches(); ++sw) {
    if (!buffered_[sw]) continue;
    const double slot_cycles =
        static_cast<double>(slot_cycles_[sw] + uint64_t{slots_[sw]} * (cycles - slots_since_[sw]));
    occupancy.push_back(slot_cycles / span);
    if (!unlimited) utilisation.push_back(slot_cycles / (span * params_.slots));
  }
  const double delivered = static_cast<double>(std::max<uint64_t>(1, packets_delivered_));
  return {
      {"mode", params_.mode_name},
      {"channels", w},
      {"buffer_layout", params_.layout},
      {"buffer_channels", params_.buffer_channels},
      {"on_failure", params_.on_failure_name},
      {"buffers", occupancy.size()},
      {"buffer_slots", unlimited ? nlohmann::json("unlimited") : nlohmann::json(params_.slots)},
      {"link_utilisation_mean", Mean(inter)},
      {"link_utilisation_sorted", Quantiles(inter)},
      {"injection_utilisation_mean", Mean(injection)},
      {"ejection_utilisation_mean", Mean(ejection)},
      {"buffer_utilisation_mean", unlimited ? nlohmann::json(nullptr) : nlohmann::json(Mean(utilisation))},
      {"buffer_utilisation_sorted", Quantiles(utilisation)},
      {"buffer_occupancy_mean_slots", Mean(occupancy)},
      {"packets_by_times_buffered", times_buffered_},
      {"latency_buffer_avg", static_cast<double>(buffer_cycles_) / delivered},
      {"latency_network_avg", static_cast<double>(network_cycles_) / delivered},
      {"attempts", attempts_},
      {"failed_attempts", failures_},
      {"failed_at_ejection", ejection_failures_},
      {"walk_backs", walk_backs_},
      {"segments", segments_},
      {"segments_to_buffer", buffered_segments_},
      {"control_requests", control_requests_},
      {"control_waits", control_waits_},
      {"reserved_channel_cycles", reserved_channel_cycles_},
      {"reordered_packets", order_.reordered()},
      {"ejection_bound_cycles", *std::max_element(ejection_work_.begin(), ejection_work_.end()) / w}};
}

std::vector<std::string> PhotonicNetwork::Problems() const {
  std::vector<std::string> problems = problems_;
  for (int sw = 0; sw < switches() && control_ && problems.size() < 20; ++sw) {
    const int held = CircuitChannels(sw);
    if (control_->SlotsUsed(sw) != slots_[sw] || control_->HeldChannels(sw) != held) {
      problems.push_back("switch " + std::to_string(sw) + ": the control plane holds " +
                         std::to_string(control_->HeldChannels(sw)) + " channels and " +
                         std::to_string(control_->SlotsUsed(sw)) + " buffer entries, the circuits " +
                         std::to_string(held) + " and " + std::to_string(slots_[sw]));
    }
    const size_t at = HeldAt(sw);
    if (!std::equal(&ahead_held_[at], &ahead_held_[at] + ports() + 1, &held_[at]) ||
        ahead_slots_[sw] != slots_[sw])
      problems.push_back("switch " + std::to_string(sw) +
                         ": the answering thread's counts differ from the harness's");
  }
  return problems;
}

namespace {
std::unique_ptr<Fabric> MakePhotonic(const NetParams&, std::shared_ptr<const Topology> topology,
                                     PacketPool& pool, SinkObserver& observer) {
  return std::make_unique<PhotonicNetwork>(std::move(topology), pool, observer);
}
}  // namespace

DataPlaneInfo PhotonicDataPlane() { return {"photonic", MakePhotonic, {"torus", "mesh", "kary_ntree"}}; }

}  // namespace icn
