// SPDX-License-Identifier: Apache-2.0
// What synthesis says about each verilated controller model (cost/cost.json, written by
// scripts/cost.sh and compiled in: CMakeLists.txt stops if a model has no current row; a declared
// controller registers its own): the gate equivalents of its logic and its depth in gate levels.
#pragma once
#include <string_view>

namespace icn {

struct ControllerCost {
  const char* model;  // e.g. "Veee_port"
  double ge_logic;    // NAND2 + inverters of the NAND-mapped netlist (flip-flops apart)
  int logic_depth;    // longest path in gate levels between registers and ports
};

// The row of a model; throws std::out_of_range for a model cost.json does not have.
const ControllerCost& CostOf(std::string_view model);
// Adds the row of a model built outside the harness (a controller declared by a manifest, costed
// by scripts/controllers.py); `model` must outlive the program (a literal).
void RegisterCost(const ControllerCost& cost);

// Estimated maximum clock of a logic depth: one gate delay per level, plus clock-to-Q and setup
// (about 3 levels). scripts/cost.py computes the same.
constexpr int kFlopOverheadLevels = 3;
inline double EstimatedFmaxMhz(int logic_depth, double gate_delay_ps) {
  return 1e6 / ((logic_depth + kFlopOverheadLevels) * gate_delay_ps);
}

}  // namespace icn
