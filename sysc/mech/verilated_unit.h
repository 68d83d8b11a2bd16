// One verilated controller model behind an interface that does not depend on its parameters (a
// torus ring of P nodes, a photonic switch of some radix): the clocking, tracing and register
// activity every such adapter needs, written once. An adapter's interface derives from
// VerilatedUnit and adds its own outputs; its models derive from VerilatedUnitOf<Interface, V>.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include <verilated.h>
#include <verilated_fst_c.h>

#include "core/energy_ledger.h"
#include "core/tracer.h"
#include "mech/register_activity.h"
#include "mech/rising_edge.h"

namespace icn {

class VerilatedUnit {
 public:
  virtual ~VerilatedUnit() = default;
  virtual void Edge() = 0;               // one rising edge (a single eval)
  virtual void SetClock(bool high) = 0;  // the two-eval reference clocking
  virtual void Eval() = 0;
  virtual void Trace(Tracer& tracer) = 0;
  virtual void Final() = 0;
  // The ledger entry of models of this kind, and the register bits the edges since the last call
  // toggled.
  virtual EnergyLedger::Controllers& AddControllers(EnergyLedger& ledger, int models) const = 0;
  virtual uint64_t Toggles() = 0;
};

template <typename Interface, typename V>
class VerilatedUnitOf : public Interface {
 public:
  void Edge() override { RisingEdge(*model_, *model_->rootp); }
  void SetClock(bool high) override { model_->clk_i = high; }
  void Eval() override { model_->eval(); }
  void Trace(Tracer& tracer) override { model_->trace(tracer.fst(), 99); }
  void Final() override { model_->final(); }
  EnergyLedger::Controllers& AddControllers(EnergyLedger& ledger, int models) const override {
    return icn::AddControllers<Root>(ledger, models);
  }
  uint64_t Toggles() override { return registers_->Toggles(*model_->rootp); }

 protected:
  VerilatedUnitOf(VerilatedContext* context, const std::string& name)
      : model_(std::make_unique<V>(context, name.c_str())) {}
  // Once the model is reset: its registers' activity counts from here.
  void StartCounting() { registers_.emplace(*model_->rootp); }

  std::unique_ptr<V> model_;

 private:
  using Root = std::remove_pointer_t<decltype(V::rootp)>;
  std::optional<RegisterActivity<Root>> registers_;
};

}  // namespace icn
