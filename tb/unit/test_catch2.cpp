// SPDX-License-Identifier: Apache-2.0
// The tests build against whichever Catch2 the machine has (tb/catch.h): the one that ran is the one
// CMake found (Debian 12 ships 2.13, Debian 13 3.7). CTest's catch2_<version> test prints it too.
#include <string>

#include "catch.h"

TEST_CASE("the tests run on the Catch2 that CMake found", "[unit]") {
  const std::string compiled = std::to_string(CATCH_VERSION_MAJOR) + "." +
                               std::to_string(CATCH_VERSION_MINOR) + "." +
                               std::to_string(CATCH_VERSION_PATCH);
  CHECK(compiled == ICNSIM_CATCH2_VERSION);
  CHECK(CATCH_VERSION_MAJOR == ICNSIM_CATCH2_MAJOR);
}
