#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Switching activity of every net of the traced controllers (a run with --trace), and the
controllers' energy with it: results.json's energy.controllers_j takes the logic's activity equal
to its registers'; here the logic's share comes from the nets the waveform holds instead.

For each traced controller (a top scope of the FST: one verilated model) it counts, over the trace
window, the bits that toggled of its registers (nets named *_q) and of all its nets (each distinct
signal once: Verilator dumps a port and the net it drives as one), then estimates

  E_registers = register toggles x process.ff_toggle_fj
  E_logic     = net toggles / net bits x GE_logic x process.ge_toggle_fj

with GE_logic of the model from results.json (energy.controllers). Writes net_activity.json next to
results.json and prints a table. Needs fst2vcd (GTKWave).
Usage: net_activity.py RUN_DIR"""
import json
import sys
from pathlib import Path

from vcd import declarations, fst_to_vcd_lines


ZERO_XZ = str.maketrans("xzXZ", "0000")  # unknown and floating bits count as 0


def parse(vcd_lines):
    """(scopes, first time, last time): top scope -> register and net bits, register and net bits
    toggled. A signal counts once per scope (a register and the output it drives are one id), as a
    register if any of its names there ends in _q."""
    signals = {}  # code -> {top scope: [width, is_register]}
    lines = iter(vcd_lines)
    for path, code, width, name in declarations(lines):
        if path:
            entry = signals.setdefault(code, {}).setdefault(path[0], [width, False])
            entry[1] = entry[1] or name.endswith("_q")
    scopes = {}
    for owners in signals.values():
        for scope, (width, is_register) in owners.items():
            s = scopes.setdefault(scope, {"register_bits": 0, "net_bits": 0, "register_toggles": 0, "net_toggles": 0})
            s["net_bits"] += width
            s["register_bits"] += width if is_register else 0
    value, first, last = {}, None, None
    for line in lines:
        if not line or line[0] == "$":
            continue
        if line[0] == "#":
            last = int(line[1:])
            first = last if first is None else first
            continue
        bits, code = line[1:].split() if line[0] in "bB" else (line[0], line[1:].strip())
        new = int(bits.translate(ZERO_XZ), 2)
        old = value.get(code)
        value[code] = new
        if old is None:  # (the dump's first values)
            continue
        toggled = bin(old ^ new).count("1")
        for scope, (_, is_register) in signals.get(code, {}).items():
            scopes[scope]["net_toggles"] += toggled
            scopes[scope]["register_toggles"] += toggled if is_register else 0
    return scopes, first, last


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    run = Path(sys.argv[1])
    results = json.loads((run / "results.json").read_text())
    trace = results.get("trace", {})
    if not trace.get("written"):
        sys.exit(f"net_activity: {run}/results.json has no waveform: run icnsim with --trace")
    process = results["params"]["process"]
    kinds = results["energy"]["controllers"]
    if len(kinds) != 1:
        sys.exit(f"net_activity: the run has {len(kinds)} kinds of controllers ({', '.join(kinds)}); one is needed "
                 "to give each traced scope its logic GE")
    model, kind = next(iter(kinds.items()))
    scopes, first, last = parse(fst_to_vcd_lines(trace["path"]))
    cycle_ps = results["params"]["sim"]["cycle_ns"] * 1000
    cycles = round((last - first) / cycle_ps) if first is not None else 0
    per_toggle_ge = process["ge_toggle_fj"] * 1e-15
    rows = []
    for name, s in sorted(scopes.items()):
        e_registers = s["register_toggles"] * process["ff_toggle_fj"] * 1e-15
        e_logic_nets = s["net_toggles"] / s["net_bits"] * kind["ge_logic"] * per_toggle_ge if s["net_bits"] else 0.0
        e_logic_registers = (s["register_toggles"] / s["register_bits"] * kind["ge_logic"] * per_toggle_ge
                             if s["register_bits"] else 0.0)
        rows.append({"scope": name, "model": model, **s, "registers_j": e_registers,
                     "logic_j_from_nets": e_logic_nets, "logic_j_from_registers": e_logic_registers})
    total = {k: sum(r[k] for r in rows) for k in ("register_toggles", "net_toggles", "registers_j",
                                                  "logic_j_from_nets", "logic_j_from_registers")}
    out = {"seed": results["seed"], "params": results["params"], "trace": trace, "cycles": cycles,
           "controllers": rows, "total": total}
    (run / "net_activity.json").write_text(json.dumps(out, indent=2) + "\n")
    print(f"{len(rows)} traced {model} over {cycles} cycles: register toggles {total['register_toggles']}, "
          f"net toggles {total['net_toggles']}")
    print(f"energy: registers {total['registers_j']:.3e} J, logic from nets {total['logic_j_from_nets']:.3e} J "
          f"(from registers' activity {total['logic_j_from_registers']:.3e} J)")
    print(f"written: {run / 'net_activity.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
