// SPDX-License-Identifier: Apache-2.0
// Cycles each component spends in each of its power states, and the energy they add up to.
// Components come in groups that share a power table: any number of named states with a power
// each, one of them nominal (full power). An EEE port has wake, transition, fast LPI and deep LPI;
// an on/off link powered and off; an optical transmitter laser off and six bit-rate levels.
// Energy is summed per group and state from whole cycle counts, so it does not depend on the order
// in which components are charged; nominal energy is the same cycles spent in the nominal state.
// The controllers' own energy is apart: the register bits they toggled, each with the energy of
// the flip-flop and of the share of the model's logic one toggle stands for (activity factor of the
// logic = that of its registers: ge_logic / register bits gates per toggled bit).
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "core/controller_cost.h"
#include "core/process_params.h"

namespace icn {

class EnergyLedger {
 public:
  class Group {
   public:
    Group(std::string name, std::vector<std::string> states, std::vector<double> power_w, int components,
          int nominal_state);

    // One component's cycle counters, indexed by state: a controller adds one to its state's
    // counter each cycle (the pointer stays valid for the ledger's life).
    uint64_t* Counters(int component) { return &cycles_[static_cast<size_t>(component) * states_]; }
    // Every component in the nominal state for `cycles` (hardware no controller drives).
    void ChargeAllNominal(uint64_t cycles) { all_nominal_ += cycles; }

    uint64_t StateCycles(int state) const;
    double EnergyJ(double cycle_s) const;
    double NominalJ(double cycle_s) const;
    const std::string& name() const { return name_; }
    const std::vector<std::string>& state_names() const { return state_names_; }
    int components() const { return components_; }
    double power_w(int state) const { return power_w_[static_cast<size_t>(state)]; }
    int nominal_state() const { return nominal_; }

   private:
    std::string name_;
    std::vector<std::string> state_names_;
    std::vector<double> power_w_;
    int states_;
    int components_;
    int nominal_;
    std::vector<uint64_t> cycles_;  // [component][state]
    uint64_t all_nominal_ = 0;
  };

  // The models of one kind of controller: their register toggles so far.
  struct Controllers {
    std::string model;           // e.g. "Veee_port"
    int models;                  // how many the mechanism runs
    int register_bits;           // of one model
    const ControllerCost* cost;  // its row of cost/cost.json
    double joules_per_toggle;    // flip-flop + its share of the logic
    uint64_t toggles = 0;        // the adapter adds each edge's toggled bits
  };

  explicit EnergyLedger(double cycle_ns, const ProcessParams& process = {})
      : cycle_s_(cycle_ns * 1e-9), process_(process) {}

  // The reference stays valid for the ledger's life.
  Group& AddGroup(std::string name, std::vector<std::string> states, std::vector<double> power_w,
                  int components, int nominal_state = 0) {
    return groups_.emplace_back(std::move(name), std::move(states), std::move(power_w), components,
                                nominal_state);
  }

  // The reference stays valid for the ledger's life. Throws for a model without a cost row.
  Controllers& AddControllers(const std::string& model, int register_bits, int models);

  double EnergyJ() const;
  double NominalJ() const;
  double ControllersJ() const;
  int components() const;
  const std::deque<Group>& groups() const { return groups_; }
  const std::deque<Controllers>& controllers() const { return controllers_; }

 private:
  double cycle_s_;
  ProcessParams process_;
  std::deque<Group> groups_;
  std::deque<Controllers> controllers_;
};

}  // namespace icn
