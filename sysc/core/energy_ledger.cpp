// SPDX-License-Identifier: Apache-2.0
#include "core/energy_ledger.h"

#include <stdexcept>

namespace icn {

EnergyLedger::Group::Group(std::string name, std::vector<std::string> states, std::vector<double> power_w,
                           int components, int nominal_state)
    : name_(std::move(name)),
      state_names_(std::move(states)),
      power_w_(std::move(power_w)),
      states_(static_cast<int>(power_w_.size())),
      components_(components),
      nominal_(nominal_state),
      cycles_(static_cast<size_t>(components) * power_w_.size(), 0) {
  if (state_names_.size() != power_w_.size() || nominal_ < 0 || nominal_ >= states_) {
    throw std::logic_error("energy group " + name_ + ": one power per state and a nominal state among them");
  }
}

uint64_t EnergyLedger::Group::StateCycles(int state) const {
  uint64_t total = state == nominal_ ? all_nominal_ * static_cast<uint64_t>(components_) : 0;
  for (int c = 0; c < components_; ++c) total += cycles_[static_cast<size_t>(c) * states_ + state];
  return total;
}

double EnergyLedger::Group::EnergyJ(double cycle_s) const {
  double joules = 0;
  for (int s = 0; s < states_; ++s) joules += static_cast<double>(StateCycles(s)) * power_w_[s] * cycle_s;
  return joules;
}

double EnergyLedger::Group::NominalJ(double cycle_s) const {
  uint64_t total = 0;
  for (int s = 0; s < states_; ++s) total += StateCycles(s);
  return static_cast<double>(total) * power_w_[nominal_] * cycle_s;
}

double EnergyLedger::EnergyJ() const {
  double joules = 0;
  for (const Group& g : groups_) joules += g.EnergyJ(cycle_s_);
  return joules;
}

double EnergyLedger::NominalJ() const {
  double joules = 0;
  for (const Group& g : groups_) joules += g.NominalJ(cycle_s_);
  return joules;
}

EnergyLedger::Controllers& EnergyLedger::AddControllers(const std::string& model, int register_bits,
                                                        int models) {
  const ControllerCost& cost = CostOf(model);
  const double per_toggle =
      process_.ff_toggle_j + (register_bits > 0 ? cost.ge_logic / register_bits : 0.0) * process_.ge_toggle_j;
  controllers_.push_back({model, models, register_bits, &cost, per_toggle});
  return controllers_.back();
}

double EnergyLedger::ControllersJ() const {
  double joules = 0;
  for (const Controllers& c : controllers_) joules += static_cast<double>(c.toggles) * c.joules_per_toggle;
  return joules;
}

int EnergyLedger::components() const {
  int total = 0;
  for (const Group& g : groups_) total += g.components();
  return total;
}

}  // namespace icn
