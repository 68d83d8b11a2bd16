// SPDX-License-Identifier: Apache-2.0
// Runs a bundled scenario of the installed package through the harness library, in the SystemC
// kernel, and prints its verdict; exit 0 if every packet arrived ("ok").
//   run_scenario NAME [KEY=VALUE ...]
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "core/errors.h"
#include "run/run_params.h"
#include "run/sim_top.h"
#include "run/simulation.h"

int sc_main(int argc, char* argv[]) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: run_scenario NAME [KEY=VALUE ...]\n");
    return 2;
  }
  const std::string path = std::string(ICNSIM_DATA_DIR) + "/scenarios/" + argv[1] + ".yaml";
  const std::vector<std::string> sets(argv + 2, argv + argc);
  std::unique_ptr<icn::Scenario> scenario;
  std::unique_ptr<icn::RunParams> params;
  try {
    scenario = std::make_unique<icn::Scenario>(icn::Scenario::Load(icn::AllKeys(), path, sets));
    params = std::make_unique<icn::RunParams>(icn::MakeRunParams(*scenario));
  } catch (const icn::ScenarioError& e) {  // bad input: the harness names the key and what it allows
    std::fprintf(stderr, "run_scenario: %s\n", e.what());
    return 2;
  }
  icn::Simulation sim(*scenario, *params, icn::RunOptions{});
  icn::SimTop top("top", sim, params->sim.cycle_ns);
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);  // (its stop note)
  sc_core::sc_start();
  const nlohmann::json results = sim.Finish(0);
  const std::string verdict = results["verdict"].get<std::string>();
  std::printf("%s: %llu packets delivered, verdict %s\n", argv[1],
              static_cast<unsigned long long>(results["packets"]["delivered"].get<uint64_t>()),
              verdict.c_str());
  return verdict == "ok" ? 0 : 1;
}
