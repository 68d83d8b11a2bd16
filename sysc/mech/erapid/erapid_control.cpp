// SPDX-License-Identifier: Apache-2.0
#include "mech/erapid/erapid_control.h"

#include <algorithm>

#include <verilated.h>
#include <verilated_fst_c.h>

#include "mech/clocking.h"
#include "mech/erapid/erapid_board_model.h"
#include "mech/model_catalogue.h"
#include "mech/signal_bits.h"
#include "net/wormhole_network.h"

namespace icn {
namespace {

using erapid::Words;
constexpr int kStepLinkReq = 0;  // erapid_rc's rc_step_e: waiting for the window's end

// The LinkResponse's words through a chain of B link controllers.
int LinkResponseCycles(int boards) { return boards * boards + boards + 2; }

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
int ErapidControl::MinWindow(int b) {
  const int gap = b + 2;
  return (b * b + b + 3) + ((b - 1) * gap + 3 * b + 2) + ((b - 1) * gap + 2 * b + 2) + LinkResponseCycles(b);
}

ErapidControl::ErapidControl(const ErapidConfig& config, const MechanismContext& context)
    : config_(config),
      shape_(*ErapidShapeOf(context.topology)),
      b_(shape_.boards),
      lasers_(b_ * b_),
      network_(WormholeOf(context.fabric, "erapid.mode")),
      tracer_(context.tracer),
      ledger_(context.ledger.AddGroup("laser", LedgerStates(), LedgerPowers(), lasers_, kLevels)),
      context_(std::make_unique<VerilatedContext>()),
      every_edge_(context.every_edge || context.tracer.enabled()),
      gbps_per_flit_(shape_.flit_bits / context.sim.cycle_ns),
      sent_(Words(lasers_)),
      drained_(Words(lasers_)),
      queue_words_(Words(8 * lasers_)),
      queue_(lasers_),
      queued_into0_(b_),
      sampled_into0_(b_),
      sample_cycles_(context.sim.timeseries) {
  context_->traceEverOn(tracer_.enabled());
  for (int x = 0; x < b_; ++x) {
    for (int y = 0; y < b_; ++y) {
      Wavelength w;
      w.holder = shape_.StaticSource(x, y);
      const Channel* out = network_.routers()[w.holder]->output(Port(x, y));
      for (const auto& c : network_.channels()) {
        if (c.get() == out) w.channel = c.get();
      }
      w.rate_level = -1;  // set when a laser lights: (5 + level) Gb/s
      w.energy = ledger_.Counters(x * b_ + y);
      w.channel->set_routable(false);  // every laser dark out of reset
      w.channel->set_tx_enabled(false);
      wavelengths_.push_back(w);
    }
  }
  const MakeBoard make =
      ModelFactory<MakeBoard>("erapid_board", "Boards=" + std::to_string(b_), "topology.erapid.boards");
  for (int b = 0; b < b_; ++b) {
    BoardState board;
    board.unit = make(context_.get(), b, config);
    board.router = network_.routers()[b].get();
    boards_.push_back(std::move(board));
  }
  controllers_ = &boards_.front().unit->AddControllers(context.ledger, b_);
  for (BoardState& board : boards_) board.lasers = board.fresh = std::vector<uint32_t>(Words(9 * lasers_), 0);
  if (tracer_.enabled()) {
    for (int b = 0; b < b_; ++b) {
      if (tracer_.Matches("b" + std::to_string(b))) boards_[b].unit->Trace(tracer_);
    }
  }
}

ErapidControl::~ErapidControl() {
  Verilated::threadContextp(context_.get());  // see LinkEndControllers::~LinkEndControllers
  for (BoardState& board : boards_) board.unit->Final();
  boards_.clear();
}

void ErapidControl::Step(uint64_t now) {
  // Ring words of the last edge first: board b reads board b - 1's.
  std::array<RingWord, kMostBoards> ring;
  for (int b = 0; b < b_; ++b) ring[b] = boards_[(b + b_ - 1) % b_].unit->RingOut();
  std::array<bool, kMostBoards> skip{};
  for (int b = 0; b < b_; ++b) {
    BoardState& board = boards_[b];
    // A quiet board with an idle router and no ring word skips its edge until its next step.
    skip[b] = !every_edge_ && board.quiet && !ring[b].valid && now < board.deadline &&
              !board.router->Busy() && !board.router->Stepped(now);
    if (!skip[b]) Prepare(b, now, ring[b]);
  }
  if (every_edge_) {
    const auto unit_of = [](BoardState& board) -> VerilatedUnit& { return *board.unit; };
    EdgeOfAll(boards_, unit_of, tracer_, now);
  } else {
    for (int b = 0; b < b_; ++b) {
      if (!skip[b]) boards_[b].unit->Edge();
    }
  }
  // Every edge's outputs before any is applied: a laser lighting at one board is checked against
  // its wavelength's holder as of this edge.
  for (int b = 0; b < b_; ++b) {
    if (!skip[b]) boards_[b].unit->Lasers(boards_[b].fresh);
  }
  resting_ = !every_edge_;
  resting_until_ = UINT64_MAX;
  for (int b = 0; b < b_; ++b) {
    if (!skip[b]) {  // (a skipped board moved no register)
      controllers_->toggles += boards_[b].unit->Toggles();
      Apply(b, now);
    }
    resting_ = resting_ && boards_[b].quiet;
    resting_until_ = std::min(resting_until_, boards_[b].deadline);
  }
}

// The board's inputs for this cycle's edge.
void ErapidControl::Prepare(int b, uint64_t now, const RingWord& ring) {
  BoardState& board = boards_[b];
  const Router& router = *board.router;
  std::fill(sent_.begin(), sent_.end(), 0);
  std::fill(drained_.begin(), drained_.end(), 0);
  std::fill(queue_.begin(), queue_.end(), 0);
  std::array<bool, kMostBoards> routable_toward{};
  for (int x = 0, i = 0; x < b_; ++x) {  // (no division by B per laser: this runs every cycle)
    for (int y = 0; y < b_; ++y, ++i) {
      const Wavelength& w = wavelengths_[i];
      const uint32_t bit = 1u << (i % 32);
      if (w.holder != b) {
        drained_[i / 32] |= bit;  // nothing of this board's on a channel it does not hold
        continue;
      }
      const int demand = *router.demand(Port(x, y));
      if (w.channel->sent_at(now)) sent_[i / 32] |= bit;
      if (demand == 0 && network_.Drained(*w.channel)) drained_[i / 32] |= bit;
      queue_[i] = static_cast<uint32_t>(demand);
      routable_toward[y] = routable_toward[y] || w.channel->routable();
    }
  }
  // Packets for a board that no laser lit here can take wait at their input VCs: they count in
  // the queue of the board's static laser toward it, so that its RC asks for a wavelength back.
  if (router.route_stalled()) {
    std::array<uint32_t, kMostBoards> waiting{};
    router.ForEachUnroutedHead([&](const Packet& p) {
      const int dst = p.dst / shape_.nodes_per_board;
      if (dst != b) ++waiting[dst];
    });
    for (int y = 0; y < b_; ++y) {
      if (waiting[y] && !routable_toward[y]) queue_[shape_.StaticWavelength(b, y) * b_ + y] += waiting[y];
    }
  }
  if (sample_cycles_ > 0) {  // (only a time series reads them)
    for (int x = 0; x < b_; ++x) queued_into0_[x] += queue_[x * b_];
  }
  std::fill(queue_words_.begin(), queue_words_.end(), 0);
  for (int i = 0; i < lasers_; ++i)
    queue_words_[i / 4] |= std::min<uint32_t>(queue_[i], 255) << (8 * (i % 4));
  board.unit->Prepare(static_cast<uint16_t>(now), sent_, drained_, queue_words_, ring);
}

bool ErapidControl::Powered(int board, int laser) const { return Bits(boards_[board].fresh, laser, 1); }

// The edge's outputs onto the channels and the ledger.
void ErapidControl::Apply(int b, uint64_t now) {
  BoardState& board = boards_[b];
  const std::vector<uint32_t>& io = board.fresh;
  // The lasers' outputs change at few edges: only then is there anything to apply.
  const bool changed = io != board.lasers;
  if (changed) board.lasers = io;
  for (int i = 0; changed && i < lasers_; ++i) {
    Wavelength& w = wavelengths_[i];
    const bool powered = Powered(b, i);
    if (powered && w.holder != b) {
      if (Powered(w.holder, i)) {  // two lasers on one wavelength
        if (collisions_++ == 0) {
          problems_.push_back("wavelength " + std::to_string(i / b_) + " into board " +
                              std::to_string(i % b_) + " lit at boards " + std::to_string(w.holder) +
                              " and " + std::to_string(b) + " at cycle " + std::to_string(now));
        }
        continue;
      }
      network_.MoveSource(*w.channel, b, Port(i / b_, i % b_));  // the new owner's laser lights
      w.holder = b;
      ++moves_;
    }
    if (w.holder != b) continue;
    w.channel->set_routable(Bits(io, lasers_ + i, 1));
    w.channel->set_tx_enabled(Bits(io, 2 * lasers_ + i, 1));
    const int rate = static_cast<int>(Bits(io, 3 * lasers_ + 3 * i, 3));
    if (powered && rate != w.rate_level) {
      w.channel->SetRate((5 + rate) / gbps_per_flit_, now);
      w.rate_level = rate;
      ++rate_changes_;
    }
    const int state = powered ? 1 + static_cast<int>(Bits(io, 6 * lasers_ + 3 * i, 3)) : 0;
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
  const Board& unit = *board.unit;
  board.deadline = next + static_cast<uint16_t>(unit.Deadline() - static_cast<uint16_t>(next));
  const int step = unit.RcStep();
  if (step == kStepLinkReq && board.step != kStepLinkReq)
    board.chain_busy_until = next + LinkResponseCycles(b_);
  board.step = step;
  // Only a board with an idle router can skip an edge, and the run jumps only when every router
  // is: a busy one's board is not looked at (quiet stays false, which only delays a skip).
  board.quiet = !board.router->Busy() && Quiet(board, now);
}

// At a fixed point for empty inputs until the RC's next step: waiting for the window's end with no
// word on the chain or ring, every laser dark or lit as commanded at its commanded level.
bool ErapidControl::Quiet(const BoardState& board, uint64_t now) const {
  const Board& unit = *board.unit;
  if (unit.RcStep() != kStepLinkReq || unit.RingOut().valid || now + 1 < board.chain_busy_until) return false;
  return unit.AsCommanded();
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
  for (int x = 0; x < b_; ++x) columns.push_back("erapid.level_w" + std::to_string(x) + "_into0");
  for (int x = 0; x < b_; ++x) columns.push_back("erapid.buffer_util_w" + std::to_string(x) + "_into0");
  return columns;
}

void ErapidControl::SampleTimeseries(std::vector<double>& row) const {
  row.push_back(lit_);
  row.push_back(MeanLevel());
  for (int x = 0; x < b_; ++x) row.push_back(wavelengths_[x * b_].state - 1);  // -1: dark
  // Buffer_util as the paper defines it, over the sample period: packets waiting, over the queue's
  // capacity.
  for (int x = 0; x < b_; ++x) {
    const uint64_t queued = queued_into0_[x] - sampled_into0_[x];
    sampled_into0_[x] = queued_into0_[x];
    row.push_back(static_cast<double>(queued) /
                  (static_cast<double>(sample_cycles_) * config_.queue_packets));
  }
}

std::vector<std::string> ErapidControl::Problems() const { return problems_; }

uint64_t ErapidControl::Digest() const {
  uint64_t digest = 0;
  for (const BoardState& board : boards_) digest = (digest ^ board.unit->Digest()) * 0x100000001b3ULL;
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
