// Bit fields of verilated signals, narrow (integral) or wide (VlWide, 32-bit words), for adapters
// and tests that pack one field per node or per laser into one port.
#pragma once
#include <cstdint>
#include <type_traits>

namespace icn {

// Bits [lsb, lsb + width) of a signal (width <= 64).
template <typename Signal>
uint64_t Bits(const Signal& signal, int lsb, int width) {
  uint64_t value = 0;
  for (int i = 0; i < width; ++i) {
    const int bit = lsb + i;
    uint64_t b;
    if constexpr (std::is_integral_v<Signal>) {
      b = (static_cast<uint64_t>(signal) >> bit) & 1;
    } else {
      b = (signal[bit / 32] >> (bit % 32)) & 1;
    }
    value |= b << i;
  }
  return value;
}

template <typename Signal>
void SetBits(Signal& signal, int lsb, int width, uint64_t value) {
  for (int i = 0; i < width; ++i) {
    const int bit = lsb + i;
    const uint64_t b = (value >> i) & 1;
    if constexpr (std::is_integral_v<Signal>) {
      signal = static_cast<Signal>((signal & ~(Signal{1} << bit)) | (static_cast<Signal>(b) << bit));
    } else {
      signal[bit / 32] = (signal[bit / 32] & ~(1u << (bit % 32))) | (static_cast<uint32_t>(b) << (bit % 32));
    }
  }
}

}  // namespace icn
