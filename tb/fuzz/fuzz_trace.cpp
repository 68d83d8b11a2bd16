// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: any bytes as a workload trace for a network of 64 nodes, read by the reader
// `workload.kind: trace` uses. A ScenarioError (naming the line and what is wrong) is the
// expected answer to a malformed trace; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "core/errors.h"
#include "traffic/workload.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    (void)icn::ReadTrace(in, "fuzz.trace", 64);
  } catch (const icn::ScenarioError&) {
  }
  return 0;
}
