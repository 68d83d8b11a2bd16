// SPDX-License-Identifier: Apache-2.0
// The sizes of the controllers whose adapters take any size (a torus ring of P nodes, a photonic
// switch of some radix, an E-RAPID board for B boards). The sizes of rtl/models.txt (and of the
// configure option ICNSIM_EXTRA_MODELS) are built into the program; any other is verilated on first
// use into the user cache ($XDG_CACHE_HOME/icnsim, else ~/.cache/icnsim) by scripts/model_build.py,
// which needs Python 3, Yosys, the Verilator the program was built with and a C++ compiler, and
// loaded from there (dlopen: the program exports the symbols the library needs). Without them the
// size is refused, naming the configure option that builds it in.
//
// A model is reached through its adapter's factory: a function template over the verilated class
// (MakeRingOf<V>, ...), instantiated for every built-in size in generated/built_models.cpp and
// for a size made on first use in its library.
#pragma once
#include <string>
#include <vector>

namespace icn {

using AnyFactory = void (*)();  // a factory, whatever its signature (cast back by ModelFactory)

struct BuiltModel {
  const char* top;     // e.g. "torus_swap_ring"
  const char* params;  // its parameters, by name: "Nodes=4", "Channels=8:Ports=5"
  AnyFactory factory;
};
// Every built-in size (generated/built_models.cpp).
const std::vector<BuiltModel>& BuiltModels();

// The factory of `top` verilated with `params` ("Name=Value" joined by ':'). A size that is not built
// in is verilated on first use (progress on stderr); one that cannot be throws ScenarioError naming
// `key`, the sizes built in, what is missing and the configure option.
AnyFactory FindModel(const std::string& top, const std::string& params, const std::string& key);

template <typename Factory>
Factory ModelFactory(const std::string& top, const std::string& params, const std::string& key) {
  return reinterpret_cast<Factory>(FindModel(top, params, key));
}

// A factory as the table and the libraries hold it.
template <typename Factory>
AnyFactory AsAnyFactory(Factory factory) {
  return reinterpret_cast<AnyFactory>(factory);
}

}  // namespace icn
