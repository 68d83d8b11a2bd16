// SPDX-License-Identifier: Apache-2.0
// What the build knows of each verilated model from its RTL: scripts/sim_models.py writes
// <Model>_info.h with ModelInfo<Model>: kModel (its name), kRegisterBits (the register bits of its
// regs_o and memory<k>_o ports), ForEachRegisterPort (those ports), Params (its top's parameters
// as verilated) and PortBits (the width of each of its ports).
#pragma once

namespace icn {

template <typename Model>
struct ModelInfo;

}  // namespace icn
