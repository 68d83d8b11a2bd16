#include "mech/erapid/erapid_control.h"

#include <algorithm>

#include <verilated.h>
#include <verilated_fst_c.h>

#include "Verapid_board.h"
#include "Verapid_board_info.h"
#include "mech/clocking.h"
#include "mech/signal_bits.h"
#include "net/wormhole_network.h"

namespace icn {
namespace {

constexpr int kB = ErapidControl::kBoards;
constexpr int kStepLinkReq = 0;                        // erapid_rc's rc_step_e: waiting for the window's end
constexpr int kOff = 0, kOn = 2;                       // erapid_laser_seq's laser_state_e
constexpr int kLinkResponseCycles = kB * kB + kB + 2;  // its words through the chain

// Field i of `width` bits of a wide verilated signal.
template <typename Wide>
uint32_t Field(const Wide& w, int i, int width) {
  return static_cast<uint32_t>(Bits(w, i * width, width));
}

std::vector<std::string> LedgerStates() {
  std::vector<std::string> states = {"dark"};
  for (int level = 0; level < ErapidControl::kLevels; ++level)
    states.push_back(std::to_string(5 + level) + "gbps");
  return states;
}

std::vector<double> LedgerPowers() {
  std::vector<double> powers = {0};
  powers.insert(powers.end(), ErapidControl::kLaserPowerW.begin(), ErapidControl::kLaserPowerW.end());
  return powers;
}

}  // namespace

// erapid_rc's schedule: C2 + C3 + C5 and the LinkResponse's trip down the chain.
int ErapidControl::MinWindow() {
  const int gap = kB + 2;
  return (kB * kB + kB + 3) + ((kB - 1) * gap + 3 * kB + 2) + ((kB - 1) * gap + 2 * kB + 2) +
         kLinkResponseCycles;
}

ErapidControl::ErapidControl(const ErapidConfig& config, const MechanismContext& context)
    : config_(config),
      shape_(*ErapidShapeOf(context.topology)),
      network_(WormholeOf(context.fabric, "erapid.mode")),
      tracer_(context.tracer),
      ledger_(context.ledger.AddGroup("laser", LedgerStates(), LedgerPowers(), kLasers, kLevels)),
      controllers_(AddControllers<Verapid_board>(context.ledger, kB)),
      context_(std::make_unique<VerilatedContext>()),
      every_edge_(context.every_edge || context.tracer.enabled()),
      gbps_per_flit_(shape_.flit_bits / context.sim.cycle_ns),
      sample_cycles_(context.sim.timeseries) {
  context_->traceEverOn(tracer_.enabled());
  for (int x = 0; x < kB; ++x) {
    for (int y = 0; y < kB; ++y) {
      Wavelength w;
      w.holder = shape_.StaticSource(x, y);
      const Channel* out = network_.routers()[w.holder]->output(Port(x, y));
      for (const auto& c : network_.channels()) {
        if (c.get() == out) w.channel = c.get();
      }
      w.rate_level = -1;  // set when a laser lights: (5 + level) Gb/s
      w.energy = ledger_.Counters(x * kB + y);
      w.channel->set_routable(false);  // every laser dark out of reset
      w.channel->set_tx_enabled(false);
      wavelengths_.push_back(w);
    }
  }
  for (int b = 0; b < kB; ++b) {
    Board board;
    board.model = std::make_unique<Verapid_board>(context_.get(), ("b" + std::to_string(b)).c_str());
    board.router = network_.routers()[b].get();
    Verapid_board& m = *board.model;
    m.board_i = b;
    m.rw_cycles_i = static_cast<uint16_t>(config.rw_cycles);
    m.dbr_i = config.dbr;
    m.dpm_i = config.dpm;
    m.degree_i = config.degree;
    m.capacity_i = config.queue_packets;
    m.l_min_i = Q8(config.l_min);
    m.b_min_i = Q8(config.b_min);
    m.b_max_i = Q8(config.b_max);
    m.b_con_i = Q8(config.b_con);
    m.vdd_cycles_i = static_cast<uint16_t>(config.vdd_cycles);
    m.relock_cycles_i = static_cast<uint16_t>(config.relock_cycles);
    m.now_i = 0;
    m.sent_i = 0;
    m.drained_i = ~uint64_t{0};
    for (int i = 0; i < kLasers / 4; ++i) m.queue_i[i] = 0;
    m.ring_valid_i = 0;
    Reset(m);
    board.registers.Start(m);
    boards_.push_back(std::move(board));
  }
  if (tracer_.enabled()) {
    for (int b = 0; b < kB; ++b) {
      if (tracer_.Matches("b" + std::to_string(b))) boards_[b].model->trace(tracer_.fst(), 99);
    }
  }
}

ErapidControl::~ErapidControl() {
  Verilated::threadContextp(context_.get());  // see EeeLinks::~EeeLinks
  for (Board& board : boards_) board.model->final();
  boards_.clear();
}

void ErapidControl::Step(uint64_t now) {
  // Ring words of the last edge first: board b reads board b - 1's.
  std::array<uint8_t, kB> ring_valid, ring_kind;
  std::array<uint64_t, kB> ring_data;
  for (int b = 0; b < kB; ++b) {
    const Verapid_board& m = *boards_[(b + kB - 1) % kB].model;
    ring_valid[b] = m.ring_valid_o;
    ring_kind[b] = m.ring_kind_o;
    ring_data[b] = m.ring_data_o;
  }
  std::array<bool, kB> skip{};
  for (int b = 0; b < kB; ++b) {
    Board& board = boards_[b];
    // A quiet board with an idle router and no ring word skips its edge until its next step.
    skip[b] = !every_edge_ && board.quiet && !ring_valid[b] && now < board.deadline &&
              !board.router->Busy() && !board.router->Stepped(now);
    if (!skip[b]) Prepare(b, now, ring_valid[b], ring_kind[b], ring_data[b]);
  }
  if (every_edge_) {
    const auto model_of = [](Board& board) -> Verapid_board& { return *board.model; };
    EdgeOfAll(boards_, model_of, tracer_, now);
  } else {
    for (int b = 0; b < kB; ++b) {
      if (!skip[b]) Edge(*boards_[b].model);
    }
  }
  resting_ = !every_edge_;
  resting_until_ = UINT64_MAX;
  for (int b = 0; b < kB; ++b) {
    if (!skip[b]) {  // (a skipped board moved no register)
      controllers_.toggles += boards_[b].registers.Toggles(*boards_[b].model);
      Apply(b, now);
    }
    resting_ = resting_ && boards_[b].quiet;
    resting_until_ = std::min(resting_until_, boards_[b].deadline);
  }
}

// The board's inputs for this cycle's edge.
void ErapidControl::Prepare(int b, uint64_t now, bool ring_valid, uint8_t ring_kind, uint64_t ring_data) {
  Board& board = boards_[b];
  const Router& router = *board.router;
  uint64_t sent = 0, drained = 0;
  std::array<uint32_t, kLasers> queue{};
  std::array<bool, kB> routable_toward{};
  for (int i = 0; i < kLasers; ++i) {
    const Wavelength& w = wavelengths_[i];
    if (w.holder != b) {
      drained |= uint64_t{1} << i;  // nothing of this board's on a channel it does not hold
      continue;
    }
    const int demand = *router.demand(Port(i / kB, i % kB));
    if (w.channel->sent_at(now)) sent |= uint64_t{1} << i;
    if (demand == 0 && network_.Drained(*w.channel)) drained |= uint64_t{1} << i;
    queue[i] = static_cast<uint32_t>(demand);
    routable_toward[i % kB] = routable_toward[i % kB] || w.channel->routable();
  }
  // Packets for a board that no laser lit here can take wait at their input VCs: they count in
  // the queue of the board's static laser toward it, so that its RC asks for a wavelength back.
  if (router.route_stalled()) {
    std::array<uint32_t, kB> waiting{};
    router.ForEachUnroutedHead([&](const Packet& p) {
      const int dst = p.dst / shape_.nodes_per_board;
      if (dst != b) ++waiting[dst];
    });
    for (int y = 0; y < kB; ++y) {
      if (waiting[y] && !routable_toward[y]) queue[shape_.StaticWavelength(b, y) * kB + y] += waiting[y];
    }
  }
  for (int x = 0; x < kB; ++x) queued_into0_[x] += queue[x * kB];
  Verapid_board& m = *board.model;
  m.now_i = static_cast<uint16_t>(now);
  m.sent_i = sent;
  m.drained_i = drained;
  for (int word = 0; word < kLasers / 4; ++word) {
    uint32_t packed = 0;
    for (int k = 0; k < 4; ++k) packed |= std::min<uint32_t>(queue[word * 4 + k], 255) << (8 * k);
    m.queue_i[word] = packed;
  }
  m.ring_valid_i = ring_valid;
  m.ring_kind_i = ring_kind;
  m.ring_data_i = ring_data;
}

// The edge's outputs onto the channels and the ledger.
void ErapidControl::Apply(int b, uint64_t now) {
  Board& board = boards_[b];
  const Verapid_board& io = *board.model;
  // The lasers' outputs change at few edges: only then is there anything to apply.
  const std::array<uint32_t, 18> lasers = LaserOutputs(io);
  const bool changed = lasers != board.lasers;
  board.lasers = lasers;
  for (int i = 0; changed && i < kLasers; ++i) {
    Wavelength& w = wavelengths_[i];
    const bool powered = (io.powered_o >> i) & 1;
    if (powered && w.holder != b) {
      if ((boards_[w.holder].model->powered_o >> i) & 1) {  // two lasers on one wavelength
        if (collisions_++ == 0) {
          problems_.push_back("wavelength " + std::to_string(i / kB) + " into board " +
                              std::to_string(i % kB) + " lit at boards " + std::to_string(w.holder) +
                              " and " + std::to_string(b) + " at cycle " + std::to_string(now));
        }
        continue;
      }
      network_.MoveSource(*w.channel, b, Port(i / kB, i % kB));  // the new owner's laser lights
      w.holder = b;
      ++moves_;
    }
    if (w.holder != b) continue;
    w.channel->set_routable((io.routable_o >> i) & 1);
    w.channel->set_tx_enabled((io.tx_enable_o >> i) & 1);
    const int rate = static_cast<int>(Field(io.rate_level_o, i, 3));
    if (powered && rate != w.rate_level) {
      w.channel->SetRate((5 + rate) / gbps_per_flit_, now);
      w.rate_level = rate;
      ++rate_changes_;
    }
    const int state = powered ? 1 + static_cast<int>(Field(io.power_level_o, i, 3)) : 0;
    if (state != w.state) {  // this cycle is the first in the new state
      w.energy[w.state] += now - w.since;
      lit_ += (state != 0) - (w.state != 0);
      w.state = state;
      w.since = now;
    }
  }
  // The next step's cycle from the RC's 16-bit deadline; a LinkResponse that starts occupies the
  // chain a while.
  const uint64_t next = now + 1;
  board.deadline = next + static_cast<uint16_t>(io.deadline_o - static_cast<uint16_t>(next));
  if (io.step_o == kStepLinkReq && board.step != kStepLinkReq)
    board.chain_busy_until = next + kLinkResponseCycles;
  board.step = io.step_o;
  // Only a board with an idle router can skip an edge, and the run jumps only when every router
  // is: a busy one's board is not looked at (quiet stays false, which only delays a skip).
  board.quiet = !board.router->Busy() && Quiet(board, now);
}

std::array<uint32_t, 18> ErapidControl::LaserOutputs(const Verapid_board& io) {
  std::array<uint32_t, 18> words;
  for (int k = 0; k < 2; ++k) {
    words[k] = static_cast<uint32_t>(io.powered_o >> (32 * k));
    words[2 + k] = static_cast<uint32_t>(io.routable_o >> (32 * k));
    words[4 + k] = static_cast<uint32_t>(io.tx_enable_o >> (32 * k));
  }
  for (int k = 0; k < 6; ++k) {
    words[6 + k] = io.rate_level_o[k];
    words[12 + k] = io.power_level_o[k];
  }
  return words;
}

// At a fixed point for empty inputs until the RC's next step: waiting for the window's end with no
// word on the chain or ring, every laser dark or lit as commanded at its commanded level.
bool ErapidControl::Quiet(const Board& board, uint64_t now) const {
  const Verapid_board& io = *board.model;
  if (io.step_o != kStepLinkReq || io.ring_valid_o || now + 1 < board.chain_busy_until) return false;
  for (int i = 0; i < kLasers; ++i) {
    const uint32_t state = Field(io.laser_state_o, i, 3);
    const bool on = (io.on_o >> i) & 1;
    if (state == kOff ? on : !(state == kOn && on && Field(io.rate_level_o, i, 3) == Field(io.level_o, i, 3)))
      return false;
  }
  return true;
}

uint64_t ErapidControl::RestsUntil(uint64_t now) const {
  return resting_ ? std::max(now, resting_until_) : now;
}

void ErapidControl::Settle(uint64_t end) {
  for (Wavelength& w : wavelengths_) {
    w.energy[w.state] += end - w.since;
    w.since = end;
  }
}

double ErapidControl::MeanLevel() const {
  int sum = 0;
  for (const Wavelength& w : wavelengths_) sum += w.state ? w.state - 1 : 0;
  return lit_ ? static_cast<double>(sum) / lit_ : 0.0;
}

std::vector<std::string> ErapidControl::TimeseriesColumns() const {
  std::vector<std::string> columns = {"erapid.lasers_lit", "erapid.mean_level"};
  for (int x = 0; x < kB; ++x) columns.push_back("erapid.level_w" + std::to_string(x) + "_into0");
  for (int x = 0; x < kB; ++x) columns.push_back("erapid.buffer_util_w" + std::to_string(x) + "_into0");
  return columns;
}

void ErapidControl::SampleTimeseries(std::vector<double>& row) const {
  row.push_back(lit_);
  row.push_back(MeanLevel());
  for (int x = 0; x < kB; ++x) row.push_back(wavelengths_[x * kB].state - 1);  // -1: dark
  // Buffer_util as the paper defines it, over the sample period: packets waiting, over the queue's
  // capacity.
  for (int x = 0; x < kB; ++x) {
    const uint64_t queued = queued_into0_[x] - sampled_into0_[x];
    sampled_into0_[x] = queued_into0_[x];
    row.push_back(static_cast<double>(queued) /
                  (static_cast<double>(sample_cycles_) * config_.queue_packets));
  }
}

std::vector<std::string> ErapidControl::Problems() const { return problems_; }

uint64_t ErapidControl::Digest() const {
  uint64_t digest = 0;
  const auto mix = [&digest](uint64_t w) { digest = (digest ^ w) * 0x100000001b3ULL; };
  for (const Board& board : boards_) {
    const Verapid_board& io = *board.model;
    mix(io.powered_o);
    mix(io.on_o);
    mix(io.owner_o);
    mix(io.class_o);
    mix(io.step_o);
    mix(io.deadline_o);
    for (int i = 0; i < kLasers; ++i) mix(Field(io.laser_state_o, i, 3) | Field(io.level_o, i, 3) << 3);
  }
  return digest;
}

void ErapidControl::Report(nlohmann::json& results) const {
  results["erapid"] = {{"mode", config_.mode},
                       {"dbr", config_.dbr},
                       {"dpm", config_.dpm},
                       {"lasers_lit_final", lit_},
                       {"mean_level_final", MeanLevel()},
                       {"wavelengths_moved", moves_},
                       {"rate_changes", rate_changes_},
                       {"collisions", collisions_}};
}

}  // namespace icn
