// SPDX-License-Identifier: Apache-2.0
#include "mech/model_catalogue.h"

#include <dlfcn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>

#include "core/controller_cost.h"
#include "core/data_dir.h"
#include "core/errors.h"

namespace icn {
namespace {

// What scripts/model_build.py's exit code says.
constexpr int kBuildMissingTools = 3;  // the toolchain is not there (stdout says what is missing)
constexpr int kShellNotFound = 127;    // no python3

// "Ports=5:Channels=8" -> "Channels=8:Ports=5": sizes are named with their parameters in the order
// of their names (as scripts/model_build.py names them).
std::string Sorted(const std::string& params) {
  std::vector<std::string> parts;
  std::istringstream in(params);
  for (std::string part; std::getline(in, part, ':');) parts.push_back(part);
  const auto name = [](const std::string& part) { return part.substr(0, part.find('=')); };
  std::sort(parts.begin(), parts.end(), [&](const auto& a, const auto& b) { return name(a) < name(b); });
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : ":") + part;
  return out;
}

std::string Quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// ICNSIM_ON_DEMAND: "off" loads sizes made before but never compiles one (a cluster job), "always"
// makes built-in sizes on demand too (the test that a library made on first use equals the build);
// unset or empty, the default.
std::string OnDemand() {
  const char* value = std::getenv("ICNSIM_ON_DEMAND");
  const std::string policy = value ? value : "";
  if (policy != "" && policy != "off" && policy != "always")
    throw ScenarioError("ICNSIM_ON_DEMAND: '" + policy + "'; allowed: off, always, or unset");
  return policy;
}

std::string BuiltSizes(const std::string& top) {
  std::string sizes;
  for (const BuiltModel& m : BuiltModels())
    if (top == m.top) sizes += (sizes.empty() ? "" : ", ") + std::string(m.params);
  return sizes.empty() ? "no size" : sizes;
}

ScenarioError Refused(const std::string& top, const std::string& params, const std::string& key,
                      const std::string& why) {
  return ScenarioError(key + ": " + top + " is built into this program for " + BuiltSizes(top) + ", not " +
                       params + ", and " + why + "; configure with -DICNSIM_EXTRA_MODELS=" + top + ":" +
                       params + " to build it in (docs/controllers.md, \"Sizes on demand\")");
}

// Runs scripts/model_build.py for the size: the path of its library (made now, or before; with
// `cached_only`, only before).
std::string BuildLibrary(const std::string& top, const std::string& params, const std::string& key,
                         bool cached_only) {
  const std::filesystem::path data = DataDir();
  if (data.empty()) {
    throw Refused(
        top, params, key,
        "it cannot be verilated here: this program has no share/icnsim beside it (" + NoDataDir() + ")");
  }
  const std::string command = "python3 " + Quoted((data / "scripts" / "model_build.py").string()) +
                              " build --data " + Quoted(data.string()) + " --top " + Quoted(top) +
                              " --params " + Quoted(params) + (cached_only ? " --cached-only" : "");
  std::fflush(stderr);
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) throw Refused(top, params, key, "it cannot be verilated here: no shell to run python3");
  std::string out;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  const int status = pclose(pipe);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  if (code == kBuildMissingTools) throw Refused(top, params, key, "it cannot be verilated here: " + out);
  if (code == kShellNotFound) throw Refused(top, params, key, "it cannot be verilated here: no python3");
  if (code != 0) {
    throw ScenarioError(key + ": " + top + " " + params +
                        " is not built in, and verilating it failed (scripts/model_build.py, above)");
  }
  return out.substr(out.rfind('\n') + 1);
}

// Loads a library scripts/model_build.py made: its factory, and its cost registered.
AnyFactory LoadLibrary(const std::string& path, const ScenarioError& refused) {
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);  // (never closed: its code is in use)
  if (!library) throw ScenarioError(refused.what() + std::string(" (") + dlerror() + ")");
  using FactoryOf = AnyFactory (*)();
  using CostOf = const ControllerCost* (*)();
  const auto factory = reinterpret_cast<FactoryOf>(dlsym(library, "icnsim_model_factory"));
  const auto cost = reinterpret_cast<CostOf>(dlsym(library, "icnsim_model_cost"));
  if (!factory || !cost) throw ScenarioError(refused.what() + (" (" + path + " is not a model library)"));
  RegisterCost(*cost());
  return factory();
}

}  // namespace

AnyFactory FindModel(const std::string& top, const std::string& params, const std::string& key) {
  const std::string sorted = Sorted(params);
  const std::string policy = OnDemand();
  if (policy != "always") {
    for (const BuiltModel& m : BuiltModels())
      if (top == m.top && sorted == m.params) return m.factory;
  }
  static std::mutex mutex;
  static std::map<std::string, AnyFactory> loaded;  // (a size is loaded once per process)
  std::lock_guard<std::mutex> lock(mutex);
  AnyFactory& factory = loaded[top + ":" + sorted];
  if (!factory) {
    const std::string library = BuildLibrary(top, sorted, key, policy == "off");
    factory = LoadLibrary(library, Refused(top, sorted, key, "its library " + library + " does not load"));
  }
  return factory;
}

}  // namespace icn
