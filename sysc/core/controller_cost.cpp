// SPDX-License-Identifier: Apache-2.0
#include "core/controller_cost.h"

#include <deque>
#include <stdexcept>
#include <string>

namespace icn {

namespace {
constexpr ControllerCost kCosts[] = {
#include "controller_costs.inc"
};

std::deque<ControllerCost>& Registered() {  // (a deque: CostOf's references stay valid)
  static std::deque<ControllerCost> registered;
  return registered;
}
}  // namespace

const ControllerCost& CostOf(std::string_view model) {
  for (const ControllerCost& c : kCosts) {
    if (model == c.model) return c;
  }
  for (const ControllerCost& c : Registered()) {
    if (model == c.model) return c;
  }
  throw std::out_of_range("no hardware cost for controller model " + std::string(model) +
                          ": add it to rtl/models.txt and run scripts/cost.sh");
}

void RegisterCost(const ControllerCost& cost) { Registered().push_back(cost); }

}  // namespace icn
