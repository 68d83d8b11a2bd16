// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: any bytes as --set options, one per line ("key=value"), over an empty scenario,
// checked as `icnsim check` checks them. A ScenarioError is the expected answer to bad input;
// anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.h"
#include "run/run_params.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
  std::vector<std::string> sets;
  for (std::string line; std::getline(lines, line);) sets.push_back(line);
  try {
    const icn::Scenario scenario = icn::Scenario::Parse(icn::AllKeys(), "{}", "--set", sets);
    (void)icn::MakeRunParams(scenario);
  } catch (const icn::ScenarioError&) {
  }
  return 0;
}
