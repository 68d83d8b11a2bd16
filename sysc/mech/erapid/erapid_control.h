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
#include "mech/register_activity.h"
#include "net/router.h"
#include "net/topologies/erapid.h"

class VerilatedContext;
class Verapid_board;

namespace icn {

class WormholeNetwork;

class ErapidControl : public Mechanism {
 public:
  static constexpr int kBoards = 8;  // the verilated erapid_board's B
  static constexpr int kLasers = kBoards * kBoards;
  static constexpr int kLevels = 6;
  // Laser power at levels 0..5 (5..10 Gb/s, Vdd 0.9..1.8 V; the paper's Section 4.1).
  static constexpr std::array<double, kLevels> kLaserPowerW = {0.1088, 0.1637, 0.2325, 0.316, 0.417, 0.535};
  // The shortest window the Lock-Step's steps fit in (erapid_rc's schedule).
  static int MinWindow();

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
  int holder(int x, int y) const { return wavelengths_[x * kBoards + y].holder; }

 private:
  struct Wavelength {
    Channel* channel = nullptr;
    int holder = 0;              // board whose router the channel sends from
    int state = 0;               // ledger state: 0 dark, 1 + power level
    int rate_level = -1;         // level of the rate the channel runs at
    uint64_t since = 0;          // charged to the ledger up to here
    uint64_t* energy = nullptr;  // its ledger counters
  };
  struct Board {
    std::unique_ptr<Verapid_board> model;
    Router* router = nullptr;
    bool quiet = false;                 // at a fixed point while nothing moves (see Quiet())
    uint64_t deadline = 0;              // the RC's next step
    uint64_t chain_busy_until = 0;      // a LinkResponse's words are on the chain until then
    int step = -1;                      // the RC's step after the last edge
    std::array<uint32_t, 18> lasers{};  // the lasers' outputs Apply() last acted on (LaserOutputs())
    RegisterActivity registers;
  };
  void Prepare(int b, uint64_t now, bool ring_valid, uint8_t ring_kind, uint64_t ring_data);
  void Apply(int b, uint64_t now);
  bool Quiet(const Board& board, uint64_t now) const;
  static std::array<uint32_t, 18> LaserOutputs(const Verapid_board& io);
  int Port(int x, int y) const { return shape_.LaserPort(x, y); }

  ErapidConfig config_;
  ErapidShape shape_;
  WormholeNetwork& network_;
  Tracer& tracer_;
  EnergyLedger::Group& ledger_;
  EnergyLedger::Controllers& controllers_;
  std::unique_ptr<VerilatedContext> context_;
  std::vector<Board> boards_;
  std::vector<Wavelength> wavelengths_;  // x * B + y
  bool every_edge_;
  double gbps_per_flit_;  // a flit per cycle in Gb/s
  int lit_ = 0;
  uint64_t moves_ = 0, rate_changes_ = 0, collisions_ = 0;
  std::vector<std::string> problems_;
  bool resting_ = false;
  uint64_t resting_until_ = 0;
  // Packet-cycles waiting for each wavelength x into board 0, for the time series' Buffer_util (a
  // skipped board's router is idle: nothing waits). The sampled totals are the last sample's.
  std::array<uint64_t, kBoards> queued_into0_{};
  mutable std::array<uint64_t, kBoards> sampled_into0_{};
  int64_t sample_cycles_;
};

}  // namespace icn
