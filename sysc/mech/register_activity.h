// Register activity of verilated controllers: how many flip-flop bits toggle on their clock edges,
// which with the energy per toggled bit and per toggled gate (process.*) is the controllers' own
// switching energy, and which tells when a controller has reached a fixed point (nothing toggled).
// The top the simulator verilates around every controller has a port regs_o: every register bit of
// the controller's RTL, packed into 32-bit words (scripts/sim_models.py); the harness reads nothing
// but that port, through Verilator's public interface. ModelInfo<Model>::kRegisterBits says how
// many bits it holds.
#pragma once
#include <cstdint>
#include <iterator>
#include <vector>

#include <verilated.h>

#include "core/energy_ledger.h"
#include "mech/model_info.h"

namespace icn {

// The bits of one model's registers that changed since the previous call (or Start()). Runs after
// every edge of every controller: an xor per word of regs_o, and a popcount where one differs.
class RegisterActivity {
 public:
  // Counts from the model's registers as they are now (after its reset).
  template <typename Model>
  void Start(const Model& model) {
    words_.assign(std::begin(model.regs_o), std::end(model.regs_o));
  }

  template <typename Model>
  uint64_t Toggles(const Model& model) {
    const auto& regs = model.regs_o;
    uint32_t* last = words_.data();
    uint64_t toggled = 0;
    for (std::size_t i = 0; i < std::size(regs); ++i) {
      const uint32_t diff = regs[i] ^ last[i];
      if (diff) {
        toggled += static_cast<uint64_t>(__builtin_popcount(diff));
        last[i] = regs[i];
      }
    }
    return toggled;
  }

 private:
  std::vector<uint32_t> words_;  // regs_o as of the last call
};

// The ledger entry of the models of type Model (one per kind of controller in a mechanism).
template <typename Model>
EnergyLedger::Controllers& AddControllers(EnergyLedger& ledger, int models) {
  return ledger.AddControllers(ModelInfo<Model>::kModel, ModelInfo<Model>::kRegisterBits, models);
}

}  // namespace icn
