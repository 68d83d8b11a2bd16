// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: any bytes as a scenario file, read against every key icnsim accepts and
// checked as `icnsim check` checks it (ranges, the rules between keys, the topology it builds). A
// ScenarioError is the expected answer to bad input; any other exception, a crash or a sanitizer
// report is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/errors.h"
#include "run/run_params.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const icn::Scenario scenario = icn::Scenario::Parse(icn::AllKeys(), text, "fuzz.yaml", {});
    (void)icn::MakeRunParams(scenario);
    (void)scenario.ToJson();
  } catch (const icn::ScenarioError&) {
  }
  return 0;
}
