// libFuzzer target: any bytes as a scenario file, with keys of every type. A ScenarioError is the
// expected answer to bad input; any other exception, a crash or a sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/errors.h"
#include "core/scenario.h"

namespace {

const icn::KeyTable& Keys() {
  static const icn::KeyTable keys({
      icn::BoolKey("a.flag", "false", "a bool"),
      icn::IntKey("a.count", "4", 1, 64, "", "an integer"),
      icn::IntKey("sim.seed", "1", 0, 9007199254740991.0, "", "a large integer"),
      icn::RealKey("a.load", "0.1", 0, 1, "", "a number"),
      icn::RealKey("a.time_ns", "1000", 0, icn::kUnbounded, "ns", "an unbounded number"),
      icn::ChoiceKey("a.kind", "one", {"one", "two"}, "a choice"),
      icn::TextKey("a.path", "", "text"),
      icn::IntListKey("a.dims", "[]", 2, 64, "", "a list"),
      icn::PointListKey("a.ramp", "[]", 0, 1, "points"),
  });
  return keys;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const icn::Scenario s = icn::Scenario::Parse(Keys(), text, "fuzz.yaml", {});
    (void)s.ToJson();
  } catch (const icn::ScenarioError&) {
  }
  return 0;
}
