// SPDX-License-Identifier: Apache-2.0
// Typed errors that main() turns into a message and an exit code. Library code never exits.
// A run that loses, reorders or corrupts a packet is not an exception: its census goes into
// results.json (check.ok = false) and icnsim exits with kExitConservation.
#pragma once
#include <stdexcept>
#include <string>

namespace icn {

// Bad input: unknown key, wrong type, value out of range, malformed file. Exit code 2.
class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An output the run began could not be written (a full disk, the file size limit). Exit code 6.
class WriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

constexpr int kExitBadInput = 2;
constexpr int kExitConservation = 3;
constexpr int kExitStalled = 4;   // the progress watchdog ended the run: deadlocked or starved
constexpr int kExitInternal = 5;  // an exception that is not the project's own: a bug
constexpr int kExitWrite = 6;     // an output could not be written: what was, is kept, no temporary file

}  // namespace icn
