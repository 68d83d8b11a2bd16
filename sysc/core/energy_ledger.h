// Cycles spent by each component in each power state, and the energy they add up to.
// Nominal energy is the same components always in state 0 (full power) over the same cycles.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace icn {

class EnergyLedger {
 public:
  static constexpr int kStates = 4;

  EnergyLedger(int components, std::array<double, kStates> power_w, double cycle_ns)
      : cycles_(components), power_w_(power_w), cycle_s_(cycle_ns * 1e-9) {}

  void Charge(int component, int state) { ++cycles_[component][state]; }
  // Every component in state 0 for `cycles` (a network without a power mechanism).
  void ChargeAllAwake(uint64_t cycles) { all_awake_ += cycles; }

  uint64_t StateCycles(int state) const {
    uint64_t total = state == 0 ? all_awake_ * cycles_.size() : 0;
    for (const auto& c : cycles_) total += c[state];
    return total;
  }
  double EnergyJ() const {
    double joules = 0;
    for (int s = 0; s < kStates; ++s) joules += static_cast<double>(StateCycles(s)) * power_w_[s] * cycle_s_;
    return joules;
  }
  double NominalJ() const {
    uint64_t total = 0;
    for (int s = 0; s < kStates; ++s) total += StateCycles(s);
    return static_cast<double>(total) * power_w_[0] * cycle_s_;
  }
  double Relative() const {
    const double nominal = NominalJ();
    return nominal > 0 ? EnergyJ() / nominal : 1.0;
  }
  int components() const { return static_cast<int>(cycles_.size()); }

 private:
  std::vector<std::array<uint64_t, kStates>> cycles_;
  std::array<double, kStates> power_w_;
  double cycle_s_;
  uint64_t all_awake_ = 0;
};

}  // namespace icn
