// SPDX-License-Identifier: Apache-2.0
#include "core/data_dir.h"

#include <system_error>
#include <vector>

namespace icn {

namespace fs = std::filesystem;

namespace {

// The folder of the running program (empty if the system does not say).
fs::path ProgramDir() {
  std::error_code error;
  const fs::path program = fs::read_symlink("/proc/self/exe", error);
  return error ? fs::path() : program.parent_path();
}

std::vector<fs::path> DataDirCandidates() {
  const fs::path program = ProgramDir();
  if (program.empty()) return {};
  return {program / "share" / "icnsim", program.parent_path() / "share" / "icnsim"};
}

}  // namespace

fs::path DataDir() {
  static const fs::path dir = [] {
    for (const fs::path& candidate : DataDirCandidates()) {
      if (fs::is_directory(candidate / "scenarios")) return fs::canonical(candidate);
    }
    return fs::path();
  }();
  return dir;
}

std::string NoDataDir() {
  std::string looked;
  for (const fs::path& candidate : DataDirCandidates())
    looked += (looked.empty() ? "" : ", ") + candidate.string();
  return "no bundled scenarios (share/icnsim/scenarios: " +
         (looked.empty() ? "the program's path is unknown" : "looked in " + looked) + ")";
}

}  // namespace icn
