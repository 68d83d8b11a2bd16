// SPDX-License-Identifier: Apache-2.0
// Register activity of verilated controllers: how many flip-flop bits toggle on their clock edges,
// which with the energy per toggled bit and per toggled gate (process.*) is the controllers' own
// switching energy, and which tells when a controller has reached a fixed point (nothing toggled).
// The top the simulator verilates around every controller (scripts/sim_models.py) has ports that
// hold every register bit of the controller's RTL: regs_o, its flip-flops 31 bits to a 32-bit word,
// and memory<k>_o, each memory. The harness reads nothing but those ports, through Verilator's
// public interface; ModelInfo<Model> lists them and says how many bits they hold.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include <verilated.h>

#include "core/energy_ledger.h"
#include "mech/model_info.h"

namespace icn {

// The bits of one model's registers that changed since the previous call (or Start()). Runs after
// every edge of every controller: one memcmp per port, and a popcount where one differs.
class RegisterActivity {
 public:
  // Counts from the model's registers as they are now (after its reset).
  template <typename Model>
  void Start(const Model& model) {
    last_.clear();
    ModelInfo<Model>::ForEachRegisterPort(model, [&](const auto& port) {
      const auto* bytes = reinterpret_cast<const unsigned char*>(&port);
      last_.insert(last_.end(), bytes, bytes + sizeof port);
    });
  }

  template <typename Model>
  uint64_t Toggles(const Model& model) {
    uint64_t toggled = 0;
    unsigned char* last = last_.data();
    ModelInfo<Model>::ForEachRegisterPort(model, [&](const auto& port) {
      const auto* now = reinterpret_cast<const unsigned char*>(&port);
      if (std::memcmp(now, last, sizeof port) != 0) {
        toggled += Differing(now, last, sizeof port);
        std::memcpy(last, now, sizeof port);
      }
      last += sizeof port;
    });
    return toggled;
  }

 private:
  // Bits that differ between two byte ranges (Verilator keeps the bits above a port's width 0).
  static uint64_t Differing(const unsigned char* a, const unsigned char* b, std::size_t bytes) {
    uint64_t bits = 0;
    std::size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
      uint64_t x, y;
      std::memcpy(&x, a + i, 8);
      std::memcpy(&y, b + i, 8);
      if (x != y) bits += PopCount(x ^ y);
    }
    for (; i < bytes; ++i) bits += PopCount(a[i] ^ b[i]);
    return bits;
  }
  // Set bits, in line: the builtin is a library call on the x86-64 baseline (no POPCNT).
  static uint64_t PopCount(uint64_t x) {
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (x * 0x0101010101010101ULL) >> 56;
  }

  std::vector<unsigned char> last_;  // the register ports as of the last call
};

// `digest` folded with every register bit of the model (FNV-1a over its register ports, 8 bytes at
// a time): equal digests, equal registers.
template <typename Model>
uint64_t RegisterDigest(const Model& model, uint64_t digest) {
  ModelInfo<Model>::ForEachRegisterPort(model, [&](const auto& port) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(&port);
    std::size_t i = 0;
    for (; i + 8 <= sizeof port; i += 8) {
      uint64_t word;
      std::memcpy(&word, bytes + i, 8);
      digest = (digest ^ word) * 0x100000001b3ULL;
    }
    for (; i < sizeof port; ++i) digest = (digest ^ bytes[i]) * 0x100000001b3ULL;
  });
  return digest;
}

// The ledger entry of the models of type Model (one per kind of controller in a mechanism).
template <typename Model>
EnergyLedger::Controllers& AddControllers(EnergyLedger& ledger, int models) {
  return ledger.AddControllers(ModelInfo<Model>::kModel, ModelInfo<Model>::kRegisterBits, models);
}

}  // namespace icn
