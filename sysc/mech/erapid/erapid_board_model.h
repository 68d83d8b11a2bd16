// SPDX-License-Identifier: Apache-2.0
// The E-RAPID adapter's board (ErapidControl::Board) for one verilated erapid_board: a template over
// the model, whose board count B comes from its ModelInfo. Built-in models instantiate it in the
// build (generated/built_models.cpp), others in the library scripts/model_build.py makes on first
// use (mech/model_catalogue.h).
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mech/clocking.h"
#include "mech/erapid/erapid_control.h"
#include "mech/model_info.h"
#include "mech/signal_bits.h"

namespace icn {

namespace erapid {

// Words of 32 bits that hold `bits`.
inline int Words(int bits) { return (bits + 31) / 32; }

// Copies `bits` bits of `words` into a verilated signal, and back out at bit `at` of `words`.
template <typename Signal>
void SetWords(Signal& signal, int bits, const std::vector<uint32_t>& words) {
  for (int k = 0; 32 * k < bits; ++k) SetBits(signal, 32 * k, std::min(32, bits - 32 * k), words[k]);
}
template <typename Signal>
void GetWords(const Signal& signal, int bits, std::vector<uint32_t>& words, int at) {
  for (int k = 0; 32 * k < bits; ++k) {
    const int width = std::min(32, bits - 32 * k);
    SetBits(words, at + 32 * k, width, Bits(signal, 32 * k, width));
  }
}

constexpr int kOff = 0, kOn = 2;  // erapid_laser_seq's laser_state_e

}  // namespace erapid

// One board's controllers for kB boards (the model's Boards).
template <typename Model>
class BoardModel : public VerilatedUnitOf<ErapidControl::Board, Model> {
 public:
  static constexpr int kB = ModelInfo<Model>::Params::Boards;
  static constexpr int kSlots = kB * kB;
  static constexpr int kBoardWidth = ModelInfo<Model>::PortBits::owner_o / kB;  // $clog2(Boards)
  static_assert(kB >= ErapidControl::kFewestBoards && kB <= ErapidControl::kMostBoards,
                "a board count the adapter takes");

  BoardModel(VerilatedContext* context, int board, const ErapidConfig& config)
      : VerilatedUnitOf<ErapidControl::Board, Model>(context, "b" + std::to_string(board)) {
    Model& m = *model_;
    m.board_i = static_cast<uint8_t>(board);
    m.rw_cycles_i = static_cast<uint16_t>(config.rw_cycles);
    m.dbr_i = config.dbr;
    m.dpm_i = config.dpm;
    m.degree_i = static_cast<uint8_t>(config.degree);
    m.capacity_i = static_cast<uint8_t>(config.queue_packets);
    m.l_min_i = Q8(config.l_min);
    m.b_min_i = Q8(config.b_min);
    m.b_max_i = Q8(config.b_max);
    m.b_con_i = Q8(config.b_con);
    m.vdd_cycles_i = static_cast<uint16_t>(config.vdd_cycles);
    m.relock_cycles_i = static_cast<uint16_t>(config.relock_cycles);
    Prepare(0, std::vector<uint32_t>(erapid::Words(kSlots), 0),
            std::vector<uint32_t>(erapid::Words(kSlots), ~0u),
            std::vector<uint32_t>(erapid::Words(8 * kSlots), 0), {});
    Reset(m);
    this->StartCounting();
  }

  void Prepare(uint16_t now, const std::vector<uint32_t>& sent, const std::vector<uint32_t>& drained,
               const std::vector<uint32_t>& queue, const ErapidControl::RingWord& ring) override {
    Model& m = *model_;
    m.now_i = now;
    erapid::SetWords(m.sent_i, kSlots, sent);
    erapid::SetWords(m.drained_i, kSlots, drained);
    erapid::SetWords(m.queue_i, 8 * kSlots, queue);
    m.ring_valid_i = ring.valid;
    m.ring_kind_i = ring.kind;
    m.ring_data_i = ring.data;
  }
  void Lasers(std::vector<uint32_t>& words) const override {
    const Model& m = *model_;
    words.assign(erapid::Words(9 * kSlots), 0);
    erapid::GetWords(m.powered_o, kSlots, words, 0);
    erapid::GetWords(m.routable_o, kSlots, words, kSlots);
    erapid::GetWords(m.tx_enable_o, kSlots, words, 2 * kSlots);
    erapid::GetWords(m.rate_level_o, 3 * kSlots, words, 3 * kSlots);
    erapid::GetWords(m.power_level_o, 3 * kSlots, words, 6 * kSlots);
  }
  ErapidControl::RingWord RingOut() const override {
    return {model_->ring_valid_o != 0, model_->ring_kind_o, model_->ring_data_o};
  }
  uint16_t Deadline() const override { return model_->deadline_o; }
  int RcStep() const override { return model_->step_o; }
  bool AsCommanded() const override {
    const Model& m = *model_;
    for (int i = 0; i < kSlots; ++i) {
      const uint64_t state = Bits(m.laser_state_o, 3 * i, 3);
      const bool on = Bits(m.on_o, i, 1);
      if (state == erapid::kOff
              ? on
              : !(state == erapid::kOn && on && Bits(m.rate_level_o, 3 * i, 3) == Bits(m.level_o, 3 * i, 3)))
        return false;
    }
    return true;
  }
  uint64_t Digest() const override {
    const Model& m = *model_;
    uint64_t digest = 0;
    const auto mix = [&digest](uint64_t w) { digest = (digest ^ w) * 0x100000001b3ULL; };
    for (int i = 0; i < kSlots; ++i) {
      mix(Bits(m.powered_o, i, 1) | Bits(m.on_o, i, 1) << 1 | Bits(m.laser_state_o, 3 * i, 3) << 2 |
          Bits(m.level_o, 3 * i, 3) << 5);
    }
    for (int y = 0; y < kB; ++y)
      mix(Bits(m.owner_o, y * kBoardWidth, kBoardWidth) | Bits(m.class_o, 2 * y, 2) << 8);
    mix(m.step_o);
    mix(m.deadline_o);
    return digest;
  }

 private:
  using VerilatedUnitOf<ErapidControl::Board, Model>::model_;
};

// The adapter's factory of boards of the model (an ErapidControl::MakeBoard).
template <typename Model>
std::unique_ptr<ErapidControl::Board> MakeBoardOf(VerilatedContext* context, int board,
                                                  const ErapidConfig& config) {
  return std::make_unique<BoardModel<Model>>(context, board, config);
}

}  // namespace icn
