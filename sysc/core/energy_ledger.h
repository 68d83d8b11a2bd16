// Cycles each component spends in each of its power states, and the energy they add up to.
// Components come in groups that share a power table: any number of named states with a power
// each, one of them nominal (full power). An EEE port has wake, transition, fast LPI and deep LPI;
// an on/off link powered and off; an optical transmitter laser off and six bit-rate levels.
// Energy is summed per group and state from whole cycle counts, so it does not depend on the order
// in which components are charged; nominal energy is the same cycles spent in the nominal state.
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

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

  explicit EnergyLedger(double cycle_ns) : cycle_s_(cycle_ns * 1e-9) {}

  // The reference stays valid for the ledger's life.
  Group& AddGroup(std::string name, std::vector<std::string> states, std::vector<double> power_w,
                  int components, int nominal_state = 0) {
    return groups_.emplace_back(std::move(name), std::move(states), std::move(power_w), components,
                                nominal_state);
  }

  double EnergyJ() const;
  double NominalJ() const;
  int components() const;
  const std::deque<Group>& groups() const { return groups_; }

 private:
  double cycle_s_;
  std::deque<Group> groups_;
};

}  // namespace icn
