// SPDX-License-Identifier: Apache-2.0
// erapid_rc on rings of four and of eight boards (the paper's R(1, 4, 4) and R(1, 8, 8)), each RC
// with its chain of B reference LCs: in lock-step with the reference model on random traffic and
// straps, with the hardware invariants checked every cycle (a wavelength lit at one source at most,
// power levels one step at a time within 0..5); and Table 1 on a directed pattern: every board's
// statistics reach the requester between steps 3 and 5, the classification, and the re-allocation
// that follows.
#include "catch.h"

#include <array>

#include "Verapid_rc.h"
#include "Verapid_rc8.h"
#include "core/rng.h"
#include "mech/signal_bits.h"
#include "ref/erapid_rc_ref.h"
#include "unit/dut.h"

namespace {

constexpr int kLevels = 6;
using Word = ref::ErapidLc::Word;
using RcStraps = ref::ErapidRc::Straps;
using icn::Bits;

// The two sizes, with the random test's windows per run (a window of eight boards costs ~8x).
struct Four {
  using Model = Verapid_rc;
  static constexpr int kBoards = 4, kBoardWidth = 2, kWindows = 40;
};
struct Eight {
  using Model = Verapid_rc8;
  static constexpr int kBoards = 8, kBoardWidth = 3, kWindows = 5;
};

// Traffic of one laser over a stretch of cycles.
enum Regime { kIdle, kLight, kHeavy };

template <typename Size>
struct Board {
  static constexpr int kBoards = Size::kBoards, kSlots = kBoards * kBoards;
  tb::Dut<typename Size::Model> dut;
  ref::ErapidRc model{kBoards, kLevels};
  std::vector<ref::ErapidLc> lcs;
  std::array<Regime, kSlots> regime{};
  Board() {
    for (int x = 0; x < kBoards; ++x) lcs.emplace_back(kBoards, kLevels);
  }
};

uint32_t StaticOn(int x, int board, int boards) {
  uint32_t bits = 0;
  for (int y = 0; y < boards; ++y) bits |= uint32_t{x != 0 && (x + y) % boards == board} << y;
  return bits;
}

// A ring of boards: RTL RCs in lock-step with reference RCs, reference LCs on the chains (fed by
// the reference RCs; equal words as long as the RCs agree, which every cycle checks).
template <typename Size>
class Ring {
 public:
  static constexpr int kBoards = Size::kBoards, kSlots = kBoards * kBoards;

  explicit Ring(const RcStraps& straps) : straps_(straps) {
    for (auto& levels : last_level_) levels.fill(-1);  // dark out of reset
  }

  // One cycle: every RC and LC takes the words its neighbours sent at the last edge.
  void Cycle(icn::Rng& rng, double drained_p = 0.8) {
    std::array<Word, kBoards> chain_in, ring_in;
    std::array<std::array<Word, kBoards>, kBoards> lc_in;
    for (int b = 0; b < kBoards; ++b) {
      Board<Size>& board = boards_[b];
      chain_in[b] = board.lcs[kBoards - 1].out();
      ring_in[b] = boards_[(b + kBoards - 1) % kBoards].model.ring_out();
      lc_in[b][0] = board.model.chain_out();
      for (int x = 1; x < kBoards; ++x) lc_in[b][x] = board.lcs[x - 1].out();
    }
    for (int b = 0; b < kBoards; ++b) {
      Board<Size>& board = boards_[b];
      RcStraps s = straps_;
      s.board = b;
      Drive(board.dut, s, chain_in[b], ring_in[b]);
      board.model.Clock(static_cast<uint16_t>(cycle_), s, chain_in[b], ring_in[b]);
      for (int x = 0; x < kBoards; ++x) {
        std::vector<bool> sent(kBoards), drained(kBoards);
        std::vector<uint32_t> queue(kBoards);
        for (int y = 0; y < kBoards; ++y) {
          const Regime r = board.regime[x * kBoards + y];
          const auto& laser = board.lcs[x].laser(y);
          sent[y] = laser.tx_enable() && (r == kHeavy || (r == kLight && rng.Below(4) == 0));
          queue[y] = r == kHeavy ? 12 + rng.Below(13) : r == kLight ? rng.Below(3) : 0;
          drained[y] = rng.Uniform() < drained_p;
        }
        board.lcs[x].Clock(lc_in[b][x], x, StaticOn(x, b, kBoards), 20, 65, sent, queue, drained);
      }
    }
    ++cycle_;
  }

  // The RTL RC of every board equals its reference model.
  void RequireLockStep() {
    for (int b = 0; b < kBoards; ++b) {
      Board<Size>& board = boards_[b];
      const ref::ErapidRc& m = board.model;
      INFO("board " << b << ", cycle " << cycle_);
      REQUIRE((board.dut->chain_valid_o != 0) == m.chain_out().valid);
      if (m.chain_out().valid) {
        REQUIRE(board.dut->chain_kind_o == m.chain_out().kind);
        REQUIRE(board.dut->chain_data_o == m.chain_out().data);
      }
      REQUIRE((board.dut->ring_valid_o != 0) == m.ring_out().valid);
      if (m.ring_out().valid) {
        REQUIRE(board.dut->ring_kind_o == m.ring_out().kind);
        REQUIRE(board.dut->ring_data_o == m.ring_out().data);
      }
      REQUIRE(board.dut->step_o == m.step());
      REQUIRE(board.dut->deadline_o == m.deadline());
      const std::vector<bool> on = m.OnNow(b);
      for (int i = 0; i < kSlots; ++i) {
        REQUIRE(Bits(board.dut->on_o, i, 1) == on[i]);
        REQUIRE(Bits(board.dut->level_o, 3 * i, 3) == static_cast<uint64_t>(m.level(i)));
      }
      for (int x = 0; x < kBoards; ++x) {
        REQUIRE(static_cast<int>(Bits(board.dut->owner_o, Size::kBoardWidth * x, Size::kBoardWidth)) ==
                m.owner(x, b));
        REQUIRE(static_cast<int>(Bits(board.dut->class_o, 2 * x, 2)) == m.source_class(x));
      }
    }
  }

  // No wavelength lit at two sources toward one board; a lit laser's level moves one step at a
  // time within 0..5.
  void RequireInvariants() {
    for (int x = 0; x < kBoards; ++x) {
      for (int y = 0; y < kBoards; ++y) {
        int lit = 0;
        for (int b = 0; b < kBoards; ++b) {
          const auto& laser = boards_[b].lcs[x].laser(y);
          lit += laser.powered();
          // A lit laser's level moves one step at a time (a laser lights at its commanded level).
          const int level = laser.powered() ? laser.power_level() : -1;
          int& last = last_level_[b][x * kBoards + y];
          INFO("board " << b << " laser (" << x << ", " << y << "), cycle " << cycle_);
          REQUIRE(level < kLevels);
          if (level >= 0 && last >= 0) REQUIRE(std::abs(level - last) <= 1);
          last = level;
        }
        INFO("wavelength " << x << " into board " << y << ", cycle " << cycle_);
        REQUIRE(lit <= 1);
      }
    }
  }

  Board<Size>& board(int b) { return boards_[b]; }
  uint64_t cycle() const { return cycle_; }

 private:
  static void Drive(tb::Dut<typename Size::Model>& dut, const RcStraps& s, const Word& chain_in,
                    const Word& ring_in) {
    dut->board_i = s.board;
    dut->rw_cycles_i = s.rw;
    dut->dbr_i = s.dbr;
    dut->dpm_i = s.dpm;
    dut->degree_i = s.degree;
    dut->capacity_i = s.capacity;
    dut->l_min_i = s.l_min;
    dut->b_min_i = s.b_min;
    dut->b_max_i = s.b_max;
    dut->b_con_i = s.b_con;
    dut->chain_valid_i = chain_in.valid;
    dut->chain_kind_i = chain_in.kind;
    dut->chain_data_i = chain_in.data;
    dut->ring_valid_i = ring_in.valid;
    dut->ring_kind_i = ring_in.kind;
    dut->ring_data_i = ring_in.data;
    dut.Clock();
  }

  RcStraps straps_;
  std::array<Board<Size>, kBoards> boards_;
  std::array<std::array<int, kSlots>, kBoards> last_level_{};
  uint64_t cycle_ = 0;
};

}  // namespace

TEMPLATE_TEST_CASE("erapid_rc matches its reference model on a ring of boards with random traffic",
                   "[unit][erapid]", Four, Eight) {
  constexpr int kBoards = TestType::kBoards, kSlots = kBoards * kBoards;
  const uint64_t seed = tb::TestSeed();
  INFO("seed " << seed << " (rerun with --rng-seed " << seed << ")");
  icn::Rng rng(seed);
  int grants = 0, level_changes = 0;
  for (int run = 0; run < 4; ++run) {
    RcStraps s;
    s.dbr = run != 1;
    s.dpm = run != 2;
    s.degree = 1 + static_cast<int>(rng.Below(kBoards));
    s.rw = ref::ErapidRc(kBoards, kLevels).MinWindow() + static_cast<uint32_t>(rng.Below(400));
    s.l_min = static_cast<uint32_t>(rng.Below(20));
    s.b_min = 10 + static_cast<uint32_t>(rng.Below(40));
    s.b_max = s.b_min + static_cast<uint32_t>(rng.Below(100));
    s.b_con = 60 + static_cast<uint32_t>(rng.Below(120));
    INFO("run " << run << ": dbr " << s.dbr << ", dpm " << s.dpm << ", N " << s.degree << ", Rw " << s.rw);
    Ring<TestType> ring(s);
    for (int window = 0; window < TestType::kWindows; ++window) {
      // Each laser's traffic changes now and then, some lasers in every regime.
      for (int b = 0; b < kBoards; ++b) {
        for (Regime& r : ring.board(b).regime) {
          if (rng.Below(3) == 0) r = static_cast<Regime>(rng.Below(3));
        }
      }
      std::array<std::array<int, kBoards>, kBoards> owners{};
      for (int b = 0; b < kBoards; ++b) {
        for (int x = 0; x < kBoards; ++x) owners[b][x] = ring.board(b).model.owner(x, b);
      }
      for (uint32_t c = 0; c < s.rw; ++c) {
        ring.Cycle(rng);
        ring.RequireLockStep();
        ring.RequireInvariants();
      }
      for (int b = 0; b < kBoards; ++b) {
        for (int x = 0; x < kBoards; ++x) grants += ring.board(b).model.owner(x, b) != owners[b][x];
        for (int i = 0; i < kSlots; ++i) level_changes += ring.board(b).model.level(i) != kLevels - 1;
      }
    }
  }
  CHECK(grants > 50);
  CHECK(level_changes > 20);
}

TEMPLATE_TEST_CASE("Lock-Step on the ring: statistics reach the requester in step 4, then re-allocation",
                   "[unit][erapid]", Four, Eight) {
  constexpr int kBoards = TestType::kBoards;
  // A ReqSlot's {lit mask, busy, occupancy}: widths grow with the board index's.
  constexpr int kOccWidth = 24 + TestType::kBoardWidth, kBusyWidth = 16 + TestType::kBoardWidth;
  // Complement traffic: board s sends on its lasers toward board B - 1 - s only, with full queues.
  RcStraps s;
  s.degree = kBoards;
  s.dpm = false;
  s.rw = 600;
  Ring<TestType> ring(s);
  icn::Rng rng(1);
  for (int b = 0; b < kBoards; ++b) {
    for (int x = 0; x < kBoards; ++x) ring.board(b).regime[x * kBoards + (kBoards - 1 - b)] = kHeavy;
  }
  // Watch every board's own BoardRequest slots as they come home.
  std::array<int, kBoards> slots_home{}, requester{};
  for (int window = 0; window < 6; ++window) {
    slots_home.fill(0);
    for (uint32_t c = 0; c < s.rw; ++c) {
      std::array<Word, kBoards> ring_in;
      for (int d = 0; d < kBoards; ++d) ring_in[d] = ring.board((d + kBoards - 1) % kBoards).model.ring_out();
      ring.Cycle(rng, 1.0);
      for (int d = 0; d < kBoards; ++d) {
        const Word& w = ring_in[d];
        if (w.valid && w.kind == ref::ErapidLc::kReqHead) requester[d] = static_cast<int>(w.data);
        if (!w.valid || w.kind != ref::ErapidLc::kReqSlot || requester[d] != d) continue;
        // Slots of d's own request arrive at d while it waits to start step 5: steps 3 and 4.
        CHECK(ring.board(d).dut->step_o == ref::ErapidRc::kBoardResp);
        const int source = slots_home[d]++;
        if (source == d) continue;
        // The slot holds the source's lasers toward d as its LCs counted them in the last window.
        uint64_t busy = 0, occupancy = 0, lit = 0;
        for (int x = 0; x < kBoards; ++x) {
          const uint64_t stats = ring.board(source).lcs[x].Stats(d);
          busy += (stats >> 24) & 0xffff;
          occupancy += stats & 0xffffff;
          lit |= ((stats >> 56) & 1) << x;
        }
        INFO("window " << window << ", requester " << d << ", source " << source);
        CHECK(w.data == ((lit << (kBusyWidth + kOccWidth)) | (busy << kOccWidth) | occupancy));
      }
      ring.RequireLockStep();
      ring.RequireInvariants();
    }
    // One request per board and window (the first window ends in the second loop).
    for (int d = 0; d < kBoards; ++d) CHECK(slots_home[d] == (window == 0 ? 0 : kBoards));
    if (window == 1) {
      // The first classification: the one sending source is over-utilised, the others sent nothing.
      for (int d = 0; d < kBoards; ++d) {
        for (int r = 1; r < kBoards; ++r) {
          const int source = (d + r) % kBoards;
          INFO("requester " << d << ", source " << source);
          CHECK(static_cast<int>(Bits(ring.board(d).dut->class_o, 2 * r, 2)) ==
                (source == kBoards - 1 - d ? ref::ErapidRc::kOver : ref::ErapidRc::kUnder));
        }
      }
    }
  }
  // Freed in the first window, dark by the second, granted: every wavelength into d is lit at its
  // one sender (N = B), and nowhere else.
  for (int d = 0; d < kBoards; ++d) {
    for (int x = 0; x < kBoards; ++x) {
      INFO("wavelength " << x << " into board " << d);
      CHECK(ring.board(d).model.owner(x, d) == kBoards - 1 - d);
      CHECK(ring.board(kBoards - 1 - d).lcs[x].laser(d).powered());
    }
  }
}
