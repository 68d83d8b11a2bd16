// SPDX-License-Identifier: Apache-2.0
// The test binary's entry point, with Catch2 2 or 3 (tb/catch.h). Random tests take their seed from
// --rng-seed, 0 (the tests' seed 1: tb::TestSeed) unless given: Catch2 3 would draw one at random.
#if ICNSIM_CATCH2_MAJOR >= 3
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

int main(int argc, char* argv[]) {
  Catch::Session session;
  session.configData().rngSeed = 0;
  const int error = session.applyCommandLine(argc, argv);
  return error != 0 ? error : session.run();
}

// SystemC's library (the harness links it for run/nic_ports.h) has a main that calls sc_main; the
// tests have their own main and never call this one.
extern "C" int sc_main(int, char*[]) { return 1; }
