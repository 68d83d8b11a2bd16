// SPDX-License-Identifier: Apache-2.0
// erapid_lc in lock-step with its reference model on random traffic and well-formed chain packets,
// and a chain of four LCs as a board has them: a LinkRequest comes back with every laser's window
// statistics in its slot, a LinkResponse lights, darkens and re-levels the lasers it names.
#include "catch.h"

#include <array>

#include "Verapid_lc.h"
#include "core/rng.h"
#include "ref/erapid_lc_ref.h"
#include "unit/dut.h"

namespace {

constexpr int kLasers = 4, kLcs = 4, kSlots = kLasers * kLcs;
using Word = ref::ErapidLc::Word;
using State = ref::ErapidLaserSeq::State;

// Drives one LC with the word from the previous hop and per-laser traffic.
void Drive(tb::Dut<Verapid_lc>& dut, const Word& in, int lc_index, uint32_t static_on,
           const std::vector<bool>& sent, const std::vector<uint32_t>& queue,
           const std::vector<bool>& drained) {
  dut->chain_valid_i = in.valid;
  dut->chain_kind_i = in.kind;
  dut->chain_data_i = in.data;
  dut->lc_index_i = lc_index;
  dut->static_on_i = static_on;
  dut->vdd_cycles_i = 20;
  dut->relock_cycles_i = 65;
  uint32_t sent_bits = 0, drained_bits = 0, queue_bits = 0;
  for (int l = 0; l < kLasers; ++l) {
    sent_bits |= uint32_t{sent[l]} << l;
    drained_bits |= uint32_t{drained[l]} << l;
    queue_bits |= queue[l] << (8 * l);
  }
  dut->sent_i = sent_bits;
  dut->drained_i = drained_bits;
  dut->queue_i = queue_bits;
  dut.Clock();
}

Word Out(tb::Dut<Verapid_lc>& dut) { return {dut->chain_valid_o != 0, dut->chain_kind_o, dut->chain_data_o}; }

uint32_t Field(uint32_t bits, int l, int width) { return (bits >> (l * width)) & ((1u << width) - 1); }

// A well-formed packet: a head, then one slot per laser of the chain, with gaps of idle cycles.
std::vector<Word> Packet(icn::Rng& rng, bool request) {
  std::vector<Word> words = {{true, request ? ref::ErapidLc::kReqHead : ref::ErapidLc::kRespHead, 0}};
  for (int s = 0; s < kSlots; ++s) {
    const uint64_t data =
        request ? rng.Next() & ((uint64_t{1} << 57) - 1) : (rng.Below(2) << 3) | rng.Below(6);
    words.push_back({true, request ? ref::ErapidLc::kReqSlot : ref::ErapidLc::kRespSlot, data});
  }
  return words;
}

}  // namespace

TEST_CASE("erapid_lc matches its reference model on random traffic and chain packets", "[unit][erapid]") {
  const uint64_t seed = tb::TestSeed();
  INFO("seed " << seed << " (rerun with --rng-seed " << seed << ")");
  icn::Rng rng(seed);
  for (int lc_index = 0; lc_index < kLcs; ++lc_index) {
    tb::Dut<Verapid_lc> dut;
    ref::ErapidLc model(kLasers, 6);
    const uint32_t static_on = 1u << ((lc_index + 1) % kLasers);  // one static laser per transmitter
    std::vector<Word> pending;
    int packets = 0;
    for (int cycle = 0; cycle < 60000; ++cycle) {
      if (pending.empty() && rng.Below(300) == 0) {
        pending = Packet(rng, rng.Below(2) == 0);
        ++packets;
      }
      Word in;
      if (!pending.empty() && rng.Below(8) != 0) {  // words of a packet may be spaced out
        in = pending.front();
        pending.erase(pending.begin());
      }
      std::vector<bool> sent(kLasers), drained(kLasers);
      std::vector<uint32_t> queue(kLasers);
      for (int l = 0; l < kLasers; ++l) {
        sent[l] = rng.Below(3) == 0;
        queue[l] = rng.Below(4) == 0 ? 0 : rng.Below(32);
        drained[l] = rng.Below(5) == 0;
      }
      Drive(dut, in, lc_index, static_on, sent, queue, drained);
      model.Clock(in, lc_index, static_on, 20, 65, sent, queue, drained);
      INFO("LC " << lc_index << ", cycle " << cycle);
      const Word out = Out(dut);
      REQUIRE(out.valid == model.out().valid);
      if (out.valid) {
        REQUIRE(out.kind == model.out().kind);
        REQUIRE(out.data == model.out().data);
      }
      for (int l = 0; l < kLasers; ++l) {
        INFO("laser " << l);
        REQUIRE(Field(dut->laser_state_o, l, 3) == model.laser(l).state());
        REQUIRE(Field(dut->rate_level_o, l, 3) == model.laser(l).rate_level());
        REQUIRE(Field(dut->power_level_o, l, 3) == model.laser(l).power_level());
        REQUIRE(((dut->routable_o >> l) & 1) == model.laser(l).routable());
        REQUIRE(((dut->tx_enable_o >> l) & 1) == model.laser(l).tx_enable());
        REQUIRE(((dut->powered_o >> l) & 1) == model.laser(l).powered());
      }
    }
    CHECK(packets > 100);
  }
}

TEST_CASE("a board's chain of LCs answers a LinkRequest and obeys a LinkResponse", "[unit][erapid]") {
  std::array<tb::Dut<Verapid_lc>, kLcs> chain;
  std::array<Word, kLcs> hop_out{};  // what each LC sent last cycle
  std::vector<Word> from_rc, to_rc;
  // LC x sends on laser l in one cycle of (x + l + 2) and holds l flits in its queue.
  const auto cycle_all = [&](const Word& from_rc_word, int cycle) {
    std::array<Word, kLcs> in{};
    in[0] = from_rc_word;
    for (int x = 1; x < kLcs; ++x) in[x] = hop_out[x - 1];
    for (int x = 0; x < kLcs; ++x) {
      std::vector<bool> sent(kLasers), drained(kLasers, true);
      std::vector<uint32_t> queue(kLasers);
      for (int l = 0; l < kLasers; ++l) {
        sent[l] = cycle % (x + l + 2) == 0;
        queue[l] = static_cast<uint32_t>(l);
      }
      Drive(chain[x], in[x], x, 0xf, sent, queue, drained);
    }
    for (int x = 0; x < kLcs; ++x) hop_out[x] = Out(chain[x]);
    if (hop_out[kLcs - 1].valid) to_rc.push_back(hop_out[kLcs - 1]);
  };
  // The head reaches LC x x cycles after LC 0, so every LC's window is 1001 cycles long: cycles
  // x + 1 .. x + 1001 of the loop below.
  int cycle = 0;
  cycle_all({true, ref::ErapidLc::kReqHead, 0}, cycle++);
  while (cycle < 1001) cycle_all({}, cycle++);
  to_rc.clear();
  cycle_all({true, ref::ErapidLc::kReqHead, 0}, cycle++);
  for (int s = 0; s < kSlots; ++s) cycle_all({true, ref::ErapidLc::kReqSlot, 0}, cycle++);
  for (int i = 0; i < kLcs; ++i) cycle_all({}, cycle++);
  REQUIRE(to_rc.size() == kSlots + 1);
  for (int s = 0; s < kSlots; ++s) {
    const int x = s / kLasers, l = s % kLasers;
    uint64_t busy = 0;
    for (int c = x + 1; c <= x + 1001; ++c) busy += c % (x + l + 2) == 0;
    const uint64_t data = to_rc[s + 1].data;
    INFO("slot " << s << ": LC " << x << " laser " << l);
    CHECK((data >> 56) == 1);                                     // powered
    CHECK(((data >> 40) & 0xffff) == 1001);                       // window
    CHECK(((data >> 24) & 0xffff) == busy);                       // Link_util = busy / 1001
    CHECK((data & 0xffffff) == static_cast<uint64_t>(1001 * l));  // Buffer_util x capacity
  }
  // LinkResponse: LC 2 darkens laser 1 and moves laser 3 to level 4; everything else full power.
  cycle_all({true, ref::ErapidLc::kRespHead, 0}, cycle++);
  for (int s = 0; s < kSlots; ++s) {
    const bool dark = s == 2 * kLasers + 1;
    const uint64_t level = s == 2 * kLasers + 3 ? 4 : 5;
    cycle_all({true, ref::ErapidLc::kRespSlot, (uint64_t{!dark} << 3) | level}, cycle++);
  }
  for (int i = 0; i < kLcs + 2; ++i) cycle_all({}, cycle++);
  CHECK(Field(chain[2]->laser_state_o, 1, 3) == State::kOff);  // drained at once
  CHECK(Field(chain[2]->laser_state_o, 3, 3) == State::kRateDown);
  CHECK(Field(chain[2]->rate_level_o, 3, 3) == 4);
  for (int x = 0; x < kLcs; ++x) {
    for (int l = 0; l < kLasers; ++l) {
      if (x == 2 && (l == 1 || l == 3)) continue;
      CHECK(Field(chain[x]->laser_state_o, l, 3) == State::kOn);
    }
  }
}
