// SPDX-License-Identifier: Apache-2.0
// Where the program finds what it ships beside it: the bundled scenarios, views, RTL and scripts
// (share/icnsim). Found from the program's own path, so neither the source nor the build folder is
// compiled in and an installed tree may move.
#pragma once
#include <filesystem>
#include <string>

namespace icn {

// share/icnsim in the build folder (links to the sources), or beside the program's bin/ once
// installed: the first that holds scenarios/; empty if neither does.
std::filesystem::path DataDir();
// What is missing when DataDir() is empty, for an error message.
std::string NoDataDir();

}  // namespace icn
