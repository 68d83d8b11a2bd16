// Register activity of verilated controllers: how many flip-flop bits toggle on their clock edges,
// which with the energy per toggled bit and per toggled gate (process.*) is the controllers' own
// switching energy. The registers of a model come from its register map, generated from the
// verilated headers (scripts/register_map.py): RegisterMap<Root>::Sum(root, visit) adds
// visit(register, width) over them, and kBits is their total.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include <verilated.h>

#include "core/energy_ledger.h"

namespace icn {

template <typename Root>
struct RegisterMap;
// A register's width, known when compiling: the masks cost nothing.
template <int N>
using Width = std::integral_constant<int, N>;

// The bits of one model's registers that changed since the previous call (or construction). Runs
// after every edge of every controller: loads, xor and a popcount only where something changed.
template <typename Root>
class RegisterActivity {
 public:
  explicit RegisterActivity(const Root& root) {
    RegisterMap<Root>::Sum(root, [&](const auto& reg, auto width) {
      Keep(reg, width);
      return uint64_t{0};
    });
  }

  uint64_t Toggles(const Root& root) {
    uint64_t* last = last_.data();
    unsigned char* copy = copies_.data();
    return RegisterMap<Root>::Sum(
        root, [&](const auto& reg, auto width) { return Compare(reg, width, last, copy); });
  }

 private:
  template <int N>
  static constexpr uint64_t Mask(Width<N>) {
    return N >= 64 ? ~uint64_t{0} : (uint64_t{1} << N) - 1;
  }
  static uint64_t Take(uint64_t value, uint64_t*& last) {
    const uint64_t diff = value ^ *last;
    *last++ = value;
    return diff ? static_cast<uint64_t>(__builtin_popcountll(diff)) : 0;
  }

  // Registers are kept as 64-bit words (a VlWide as its 32-bit words, a memory element by element,
  // and each memory also as a byte copy: most edges write no memory word, one memcmp tells).
  template <typename T, typename W>
  void Keep(const T& reg, W width) {
    if constexpr (std::is_integral_v<T>) {
      last_.push_back(static_cast<uint64_t>(reg) & Mask(width));
    } else if constexpr (IsMemory<T>::value) {
      const auto* bytes = reinterpret_cast<const unsigned char*>(&reg);
      copies_.insert(copies_.end(), bytes, bytes + sizeof reg);
      for (std::size_t i = 0; i < IsMemory<T>::kDepth; ++i) Keep(reg[i], width);
    } else {  // VlWide
      for (std::size_t i = 0; i < sizeof reg / sizeof(uint32_t); ++i)
        last_.push_back(WideWord(reg, i, width));
    }
  }

  template <typename T, typename W>
  static uint64_t Compare(const T& reg, W width, uint64_t*& last, unsigned char*& copy) {
    if constexpr (std::is_integral_v<T>) {
      return Take(static_cast<uint64_t>(reg) & Mask(width), last);
    } else if constexpr (IsMemory<T>::value) {
      if (std::memcmp(copy, &reg, sizeof reg) == 0) {
        copy += sizeof reg;
        last += IsMemory<T>::kWords;
        return 0;
      }
      std::memcpy(copy, &reg, sizeof reg);
      copy += sizeof reg;
      uint64_t toggled = 0;
      for (std::size_t i = 0; i < IsMemory<T>::kDepth; ++i) toggled += Compare(reg[i], width, last, copy);
      return toggled;
    } else {  // VlWide
      uint64_t toggled = 0;
      for (std::size_t i = 0; i < sizeof reg / sizeof(uint32_t); ++i)
        toggled += Take(WideWord(reg, i, width), last);
      return toggled;
    }
  }

  // 32-bit word i of a VlWide, without the bits above its width.
  template <typename T, int N>
  static uint64_t WideWord(const T& reg, std::size_t i, Width<N>) {
    const int bits = N - static_cast<int>(32 * i);
    return bits >= 32 ? reg[i] : reg[i] & ((uint32_t{1} << bits) - 1);
  }

  template <typename T>
  struct IsMemory : std::false_type {};
  template <typename T, std::size_t N>
  struct IsMemory<VlUnpacked<T, N>> : std::true_type {
    static constexpr std::size_t kDepth = N;
    static constexpr std::size_t kWords = N * (std::is_integral_v<T> ? 1 : sizeof(T) / sizeof(uint32_t));
  };

  std::vector<uint64_t> last_;         // every register word as of the last call
  std::vector<unsigned char> copies_;  // every memory as of the last call
};

// The ledger entry of the models of type Root (one per kind of controller in a mechanism).
template <typename Root>
EnergyLedger::Controllers& AddControllers(EnergyLedger& ledger, int models) {
  return ledger.AddControllers(RegisterMap<Root>::kModel, RegisterMap<Root>::kBits, models);
}

}  // namespace icn
