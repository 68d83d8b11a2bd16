// SPDX-License-Identifier: Apache-2.0
// One verilated controller model behind an interface that does not depend on its parameters (a
// torus ring of P nodes, a photonic switch of some radix): the clocking, tracing and register
// activity every such adapter needs, written once. An adapter's interface derives from
// VerilatedUnit and adds its own outputs; its models derive from VerilatedUnitOf<Interface, V>.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include <verilated.h>
#include <verilated_fst_c.h>

#include "core/energy_ledger.h"
#include "core/tracer.h"
#include "mech/clocking.h"
#include "mech/register_activity.h"

namespace icn {

class VerilatedUnit {
 public:
  virtual ~VerilatedUnit() = default;
  virtual void Edge() = 0;    // one clock edge
  virtual void Settle() = 0;  // the outputs for the inputs held, no edge
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
  void Edge() override { icn::Edge(*model_); }
  void Settle() override { model_->eval(); }
  void Trace(Tracer& tracer) override { model_->trace(tracer.fst(), 99); }
  void Final() override { model_->final(); }
  EnergyLedger::Controllers& AddControllers(EnergyLedger& ledger, int models) const override {
    return icn::AddControllers<V>(ledger, models);
  }
  uint64_t Toggles() override { return registers_.Toggles(*model_); }

 protected:
  VerilatedUnitOf(VerilatedContext* context, const std::string& name)
      : model_(std::make_unique<V>(context, name.c_str())) {}
  // Once the model is reset: its registers' activity counts from here.
  void StartCounting() { registers_.Start(*model_); }

  std::unique_ptr<V> model_;

 private:
  RegisterActivity registers_;
};

// (for EdgeOfAll)
inline void Edge(VerilatedUnit& unit) { unit.Edge(); }
inline void Settle(VerilatedUnit& unit) { unit.Settle(); }

}  // namespace icn
