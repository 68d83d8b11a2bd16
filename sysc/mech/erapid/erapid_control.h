// SPDX-License-Identifier: Apache-2.0
// Adapter of the E-RAPID controllers: one verilated erapid_board (the board's reconfiguration
// controller and its chain of link controllers) per board, their RCs joined in a ring. Maps each
// laser's observables (a flit sent on it, the packets waiting for it, nothing of it in flight) onto
// the RTL and its outputs onto the optical channels: a wavelength's channel sends from the board
// whose laser is lit (moved there when a re-allocated laser lights), at the rate of its power level
// ((5 + level) Gb/s), and is routable and enabled as the laser's sequencer says. Energy: one ledger
// component per wavelength, dark or at one of the six power levels of the laser lighting it.
#pragma once
#include <array>
#include <memory>
#include <vector>

#include "mech/erapid/erapid_config.h"
#include "mech/mechanism.h"
#include "mech/verilated_unit.h"
#include "net/router.h"
#include "net/topologies/erapid.h"

class VerilatedContext;

namespace icn {

class WormholeNetwork;

class ErapidControl : public Mechanism {
 public:
  // The board counts the adapter takes (its per-board arrays; a ring word of 64 bits). Each is
  // verilated on first use if not built in (mech/model_catalogue.h).
  static constexpr int kFewestBoards = 2, kMostBoards = 16;
  static constexpr int kLevels = 6;
  // Laser power at levels 0..5 (5..10 Gb/s, Vdd 0.9..1.8 V; the paper's Section 4.1).
  static constexpr std::array<double, kLevels> kLaserPowerW = {0.1088, 0.1637, 0.2325, 0.316, 0.417, 0.535};
  // The shortest window the Lock-Step's steps fit in with B boards (erapid_rc's schedule).
  static int MinWindow(int boards);

  // A ring word between neighbouring RCs.
  struct RingWord {
    bool valid = false;
    uint8_t kind = 0;
    uint64_t data = 0;
  };
  // One board's verilated erapid_board, whatever its B. Per-laser signals (laser i = x * B + y)
  // travel packed in 32-bit words, bit i (queues: byte i).
  class Board : public VerilatedUnit {
   public:
    // The inputs of the edge closing `now`.
    virtual void Prepare(uint16_t now, const std::vector<uint32_t>& sent,
                         const std::vector<uint32_t>& drained, const std::vector<uint32_t>& queue,
                         const RingWord& ring) = 0;
    // The lasers' commands: powered, routable, tx_enable (a bit per laser), then rate_level and
    // power_level (3 bits per laser), from bit 0 on.
    virtual void Lasers(std::vector<uint32_t>& words) const = 0;
    virtual RingWord RingOut() const = 0;
    virtual uint16_t Deadline() const = 0;
    virtual int RcStep() const = 0;
    // Every laser dark or lit as its RC commands, at the commanded level.
    virtual bool AsCommanded() const = 0;
    virtual uint64_t Digest() const = 0;
  };
  // Makes the model of one board (MakeBoardOf<V>, mech/erapid/erapid_board_model.h).
  using MakeBoard = std::unique_ptr<Board> (*)(VerilatedContext* context, int board,
                                               const ErapidConfig& config);

  ErapidControl(const ErapidConfig& config, const MechanismContext& context);
  ~ErapidControl() override;

  void Step(uint64_t now) override;
  uint64_t RestsUntil(uint64_t now) const override;
  void Settle(uint64_t end) override;
  // Ten windows: a re-allocation takes two (measure, then Lock-Step), and a bit rate moves one
  // level per window, so from the static start the allocation and the levels need several.
  uint64_t SettleCycles() const override { return 10 * static_cast<uint64_t>(config_.rw_cycles); }
  void Report(nlohmann::json& results) const override;
  std::vector<std::string> Problems() const override;
  uint64_t Digest() const override;
  std::vector<std::string> TimeseriesColumns() const override;
  void SampleTimeseries(std::vector<double>& row) const override;

  // Wavelengths lit now, and their mean power level (tests, time series).
  int lit() const { return lit_; }
  double MeanLevel() const;
  // Board holding wavelength x into board y (whose router sends on its channel).
  int holder(int x, int y) const { return wavelengths_[x * b_ + y].holder; }

 private:
  struct Wavelength {
    Channel* channel = nullptr;
    int holder = 0;              // board whose router the channel sends from
    int state = 0;               // ledger state: 0 dark, 1 + power level
    int rate_level = -1;         // level of the rate the channel runs at
    uint64_t since = 0;          // charged to the ledger up to here
    uint64_t* energy = nullptr;  // its ledger counters
  };
  struct BoardState {
    std::unique_ptr<Board> unit;
    Router* router = nullptr;
    bool quiet = false;             // at a fixed point while nothing moves (see Quiet())
    uint64_t deadline = 0;          // the RC's next step
    uint64_t chain_busy_until = 0;  // a LinkResponse's words are on the chain until then
    int step = -1;                  // the RC's step after the last edge
    std::vector<uint32_t> lasers;   // the lasers' commands Apply() last acted on
    std::vector<uint32_t> fresh;    // and after the board's last edge
  };
  void Prepare(int b, uint64_t now, const RingWord& ring);
  void Apply(int b, uint64_t now);
  bool Quiet(const BoardState& board, uint64_t now) const;
  bool Powered(int board, int laser) const;
  int Port(int x, int y) const { return shape_.LaserPort(x, y); }

  ErapidConfig config_;
  ErapidShape shape_;
  int b_;       // boards B
  int lasers_;  // B * B
  WormholeNetwork& network_;
  Tracer& tracer_;
  EnergyLedger::Group& ledger_;
  std::unique_ptr<VerilatedContext> context_;
  std::vector<BoardState> boards_;
  EnergyLedger::Controllers* controllers_ = nullptr;
  std::vector<Wavelength> wavelengths_;  // x * B + y
  bool every_edge_;
  double gbps_per_flit_;  // a flit per cycle in Gb/s
  int lit_ = 0;
  uint64_t moves_ = 0, rate_changes_ = 0, collisions_ = 0;
  std::vector<std::string> problems_;
  bool resting_ = false;
  uint64_t resting_until_ = 0;
  // Prepare()'s per-laser inputs, kept to spare allocations.
  std::vector<uint32_t> sent_, drained_, queue_words_;
  std::vector<uint32_t> queue_;
  // Packet-cycles waiting for each wavelength x into board 0, for the time series' Buffer_util (a
  // skipped board's router is idle: nothing waits). The sampled totals are the last sample's.
  std::vector<uint64_t> queued_into0_;
  mutable std::vector<uint64_t> sampled_into0_;
  int64_t sample_cycles_;
};

}  // namespace icn
