// SPDX-License-Identifier: Apache-2.0
// The waveform files a run writes besides the tracer's FST, made from it once it is closed, with
// GTKWave's FST reader (the one fst2vcd uses): a VCD of the same signals, and a SAIF 2.0 file of
// every signal bit's switching activity (time at 0 and at 1, toggles) for power tools.
#pragma once
#include <cstdint>
#include <string>

namespace icn {

enum class WaveFormat { kFst, kVcd };

// The format `path` asks for by its extension (.fst or .vcd); a ScenarioError naming `option`
// and both otherwise.
WaveFormat WaveFormatOf(const std::string& option, const std::string& path);

// Writes `vcd` with every signal and value change of `fst`. Throws WriteError.
void WriteVcd(const std::string& fst, const std::string& vcd);

struct SaifSpan {
  uint64_t from_ps = 0;  // the traced window: its first cycle's start
  uint64_t to_ps = 0;    // and its last cycle's end
};

// Writes `saif` (SAIF 2.0, times in ps) with, for each bit of each signal of `fst`, how long it
// was 0, 1 and unknown within `span`, and how often it changed between 0 and 1. A bit holds its
// last value to the span's end. Throws WriteError.
void WriteSaif(const std::string& fst, const std::string& saif, const SaifSpan& span,
               const std::string& version);

}  // namespace icn
