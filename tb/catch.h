// SPDX-License-Identifier: Apache-2.0
// Catch2 2 (Debian 12: one header) or 3 (Debian 13: headers and a library), whichever CMake found
// (ICNSIM_CATCH2_MAJOR): the tests include this and keep to what both versions share, plus the
// names below where the two differ.
#pragma once
#include <cstdint>
#include <string>

#if ICNSIM_CATCH2_MAJOR >= 3
#include <catch2/catch_approx.hpp>
#include <catch2/catch_get_random_seed.hpp>
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/catch_version_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
using Catch::Approx;
#else
#include <catch2/catch.hpp>
#endif

namespace tb {

// A matcher: the string contains `part`.
inline auto Contains(const std::string& part) {
#if ICNSIM_CATCH2_MAJOR >= 3
  return Catch::Matchers::ContainsSubstring(part);
#else
  return Catch::Contains(part);
#endif
}

// A matcher: the string starts with `start`.
inline auto StartsWith(const std::string& start) {
#if ICNSIM_CATCH2_MAJOR >= 3
  return Catch::Matchers::StartsWith(start);
#else
  return Catch::StartsWith(start);
#endif
}

// The run's random seed (--rng-seed).
inline uint32_t CatchSeed() {
#if ICNSIM_CATCH2_MAJOR >= 3
  return Catch::getSeed();
#else
  return Catch::rngSeed();
#endif
}

}  // namespace tb
