// SPDX-License-Identifier: Apache-2.0
// The progress line's figures: the time left from the share of a workload's messages done, or
// from the cycles left to the window's end at the recent pace; durations at a readable scale.
#include "catch.h"

#include <cstdio>
#include <string>

#include "run/progress.h"

using icn::ProgressLine;

TEST_CASE("a progress line says where the run is, how fast it goes and about how long is left",
          "[progress]") {
  const ProgressLine line(2.0, 0.5);
  ProgressLine::Status workload;
  workload.cycle = 2000000;
  workload.done = 250;
  workload.total = 1000;
  const std::string w = line.Format(workload, 600.0, 12345.6);
  INFO(w);
  CHECK(w.find("cycle 2,000,000, 1.000 ms simulated, 12,345 cycles/s") != std::string::npos);
  CHECK(w.find("250 of 1,000 messages delivered (25.0 %)") != std::string::npos);
  CHECK(w.find("10 min 0 s so far, about 30 min 0 s left") != std::string::npos);  // 3 times as long again

  ProgressLine::Status window;
  window.cycle = 1000;
  window.phase = "measure";
  window.unit = "labelled packets delivered";
  window.end_cycle = 5000;
  const std::string s = line.Format(window, 1.0, 100.0);
  INFO(s);
  CHECK(s.find("cycle 1,000 (measure), 0.500 us simulated") != std::string::npos);
  CHECK(s.find("about 40 s left") != std::string::npos);  // 4,000 cycles at 100 a second

  window.end_cycle = 0;  // the window's end not decided yet (a steady-state warm-up): no estimate
  CHECK(line.Format(window, 1.0, 100.0).find("left") == std::string::npos);
  workload.done = 0;  // nothing done: no share to extrapolate from
  CHECK(line.Format(workload, 1.0, 100.0).find("left") == std::string::npos);
}

TEST_CASE("durations read in seconds, minutes or hours", "[progress]") {
  CHECK(ProgressLine::Duration(0.4) == "0 s");
  CHECK(ProgressLine::Duration(59.4) == "59 s");
  CHECK(ProgressLine::Duration(61) == "1 min 1 s");
  CHECK(ProgressLine::Duration(7380) == "2 h 03 min");
}

TEST_CASE("a line is written once the interval has passed, never before", "[progress]") {
  FILE* sink = std::tmpfile();
  REQUIRE(sink);
  ProgressLine hourly(3600.0, 1.0, sink);
  hourly.Offer({});
  CHECK(std::ftell(sink) == 0);
  ProgressLine always(0.0, 1.0, sink);
  always.Offer({});
  CHECK(std::ftell(sink) > 0);
  std::fclose(sink);
}
