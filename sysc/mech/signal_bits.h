// SPDX-License-Identifier: Apache-2.0
// Bit fields of verilated signals, narrow (integral) or wide (VlWide, 32-bit words), for adapters
// and tests that pack one field per node or per laser into one port.
#pragma once
#include <cstdint>
#include <type_traits>

namespace icn {

// Bits [lsb, lsb + width) of a signal (width <= 32 for wide signals, <= 64 for narrow ones).
template <typename Signal>
uint64_t Bits(const Signal& signal, int lsb, int width) {
  const uint64_t mask = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  if constexpr (std::is_integral_v<Signal>) {
    return (static_cast<uint64_t>(signal) >> lsb) & mask;
  } else {
    const int word = lsb / 32, shift = lsb % 32;
    uint64_t value = signal[word] >> shift;
    if (shift + width > 32) value |= static_cast<uint64_t>(signal[word + 1]) << (32 - shift);
    return value & mask;
  }
}

// Sets bits [lsb, lsb + width) of a signal to `value` (same widths as Bits).
template <typename Signal>
void SetBits(Signal& signal, int lsb, int width, uint64_t value) {
  const uint64_t mask = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  value &= mask;
  if constexpr (std::is_integral_v<Signal>) {
    signal = static_cast<Signal>((static_cast<uint64_t>(signal) & ~(mask << lsb)) | value << lsb);
  } else {
    const int word = lsb / 32, shift = lsb % 32;
    signal[word] = static_cast<uint32_t>((signal[word] & ~(mask << shift)) | value << shift);
    if (shift + width > 32) {
      const int rest = 32 - shift;
      signal[word + 1] = static_cast<uint32_t>((signal[word + 1] & ~(mask >> rest)) | value >> rest);
    }
  }
}

}  // namespace icn
