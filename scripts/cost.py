#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Hardware cost of every controller as the network simulates it: Yosys synthesises the top and
parameters of each model in rtl/models.txt (the verilated ones: one source of truth) and reports
cells, flip-flops, memory bits, gate equivalents (NAND2 netlist + weighted flip-flops), logic depth
(gate levels), an estimated maximum clock against the clock of the bundled scenarios that run it, a
CMOS transistor estimate and iCE40 LUT4s. Writes cost.json (with Yosys 0.23, Debian 12's: the rows
the simulator compiles in, so that every Debian gives the same results) or cost.yosys-<X.Y>.json
(any other Yosys), and cost.md with the rows of every version side by side (--out, default cost/).
--check only verifies that every model synthesises without a latch (exit 1 otherwise)."""
import argparse
import concurrent.futures
import fnmatch
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import rtl_models
from rtl_models import ROOT, models, yosys

# Process assumptions (docs/hardware-cost.md): a 45 nm standard-cell library.
# A D flip-flop with reset is about 6 NAND2 of area (NanGate FreePDK45: DFFR_X1 5.32 um^2,
# NAND2_X1 0.798 um^2 -> 6.7; DFF_X1 -> 5.7).
FLIP_FLOP_GE = 6
# One gate level ~ one FO4 delay; FO4 ~ 0.5 ns per um of drawn gate length (Ho, Mai, Horowitz, "The
# future of wires", 2001, worst case) -> 22.5 ps at 45 nm. The simulator's controller.gate_delay_ps
# has the same default (tb/cost_test.py checks).
GATE_DELAY_PS = 22.5
# A register stage adds clock-to-Q and setup time: about 3 FO4.
FLOP_OVERHEAD_LEVELS = 3
# The Yosys whose rows are cost.json, which the simulator compiles in (CMakeLists.txt): the oldest
# supported (Debian 12). Other versions' rows go beside it, for the report only.
REFERENCE_YOSYS = "0.23"
# After mapping, every cell must be a NAND2, a NOT or a flip-flop; any other is an error naming it,
# unless Yosys documents it as carrying no logic. Such cells, with the version that introduced them:
NON_LOGIC_CELLS = {
    "$scopeinfo": "Yosys 0.39 (flatten keeps the attributes of the instances it removes)",
}


def fmax_mhz(depth, gate_delay_ps):
    return 1e6 / ((depth + FLOP_OVERHEAD_LEVELS) * gate_delay_ps)


def debug_outputs(path, top):
    """Outputs declared after a "// Debug" line of the top's port list (other comments dropped
    first: a ");" in one does not end the list)."""
    text = re.sub(r"//(?! Debug).*", "", path.read_text())
    ports = re.search(rf"^module\s+{top}\b.*?\)\s*;", text, re.S | re.M).group(0)
    _, found, rest = ports.partition("// Debug")
    return re.findall(r"output\s+logic\s*(?:\[[^\]]*\])?\s*(\w+)", rest) if found else []


def read_script(row, files):
    """Reads the model's hierarchy (files: module_files()) without the outputs after the top's
    "// Debug" line."""
    top = row["top"]
    lines = [rtl_models.read_script(top, row["params"], files)]
    debug = debug_outputs(files[top], top)
    if debug:
        lines.append("delete -output " + " ".join(f"{top}/{port}" for port in debug))
    return "\n".join(lines)


def scenario_clock_mhz(name):
    scenarios = ROOT / "sim" / "scenarios"
    if not scenarios.is_dir():  # installed: share/icnsim/scenarios
        scenarios = ROOT / "scenarios"
    text = (scenarios / f"{name}.yaml").read_text()
    cycle = re.search(r"cycle_ns:\s*([0-9.eE+-]+)", text)
    return 1e3 / float(cycle.group(1)) if cycle else 1e3  # sim.cycle_ns defaults to 1


def check_of(row, files):
    """Elaboration only: every process becomes logic without a latch (proc is where latches come
    from), the design is flattened and passes Yosys's netlist checks (no driver conflict, no
    combinational loop). About 20 x faster than the full synthesis, which cost_of runs."""
    run = yosys(f"""{read_script(row, files)}
proc
select -assert-none t:$dlatch
flatten
opt_clean
check -assert
""")
    return ({"controller": row["controller"]}, None) if run.returncode == 0 else (None, run.stderr.strip() or run.stdout.strip())


def unmapped(cell_types):
    """Cells of the NAND mapping that are neither its gates, flip-flops nor documented non-logic."""
    return sorted(t for t in cell_types if t not in ("$_NAND_", "$_NOT_", *NON_LOGIC_CELLS) and "DFF" not in t)


def cost_of(row, files, gate_delay_ps, ice40=True):
    """One row; without ice40, no LUT count (its synthesis takes twice the rest: icnsim's sizes
    made on first use need only the gate equivalents and the depth)."""
    read = read_script(row, files)
    top = row["top"]
    with tempfile.TemporaryDirectory() as tmp:
        out = {n: Path(tmp) / n for n in ("stat.json", "cmos.txt", "ice.json", "mem.json", "nand.json", "ltp.txt")}
        # Memories are counted as inferred, before the generic synthesis maps them to flip-flops. Gate
        # equivalents: enables and synchronous resets become logic (dffunmap), then ABC maps all logic
        # to NAND2 (and NOT, which ABC always adds); the depth is the longest path of those gates.
        script = f"""{read}
proc
flatten
opt -fast
memory -nomap
write_json {out['mem.json']}
synth -flatten -top {top}
select -assert-none t:$dlatch t:$_DLATCH_*
tee -q -o {out['stat.json']} stat -json
design -save generic
async2sync
dffunmap
tee -q -o {out['cmos.txt']} stat -tech cmos
design -load generic
dffunmap
abc -g NAND
opt_clean
tee -q -o {out['nand.json']} stat -json
tee -q -o {out['ltp.txt']} ltp -noff
"""
        generic = yosys(script)
        if generic.returncode != 0:
            return None, generic.stderr.strip() or generic.stdout.strip()
        if ice40:
            ice = yosys(f"{read}\nsynth_ice40 -top {top}\ntee -q -o {out['ice.json']} stat -json\n")
            if ice.returncode != 0:
                return None, ice.stderr.strip()
        design = json.loads(out["stat.json"].read_text())["design"]
        memory_bits = sum(int(c["parameters"]["WIDTH"], 2) * int(c["parameters"]["SIZE"], 2)
                          for m in json.loads(out["mem.json"].read_text())["modules"].values()
                          for c in m["cells"].values() if c["type"] == "$mem_v2")
        transistors = int(re.search(r"Estimated number of transistors:\s+(\d+)", out["cmos.txt"].read_text()).group(1))
        luts = json.loads(out["ice.json"].read_text())["design"]["num_cells_by_type"].get("SB_LUT4", 0) if ice40 else None
        gates = json.loads(out["nand.json"].read_text())["design"]["num_cells_by_type"]
        depth = int(re.search(r"\(length=(\d+)\)", out["ltp.txt"].read_text()).group(1))
    flip_flops = sum(n for t, n in design["num_cells_by_type"].items() if "DFF" in t)
    cells = sum(n for t, n in design["num_cells_by_type"].items() if t not in NON_LOGIC_CELLS)
    nand, inv = gates.get("$_NAND_", 0), gates.get("$_NOT_", 0)
    if unmapped(gates):
        return None, f"the NAND mapping left {unmapped(gates)}"
    fmax = fmax_mhz(depth, gate_delay_ps)
    return {
        "controller": row["controller"],
        "top": top,
        "params": row["params"],
        "cells": cells,
        "flip_flops": flip_flops,
        "memory_bits": memory_bits,
        "nand2": nand,
        "inverters": inv,
        "ge_logic": nand + inv,
        "ge": nand + inv + FLIP_FLOP_GE * flip_flops,
        "logic_depth": depth,
        "fmax_mhz": round(fmax, 1),
        "scenarios": [{"name": s, "clock_mhz": round(clock, 2), "meets_clock": fmax >= clock}
                      for s in row["scenarios"] for clock in [scenario_clock_mhz(s)]],
        "cmos_transistors": transistors,
        "ice40_lut4": luts,
        "storage_formula": row["storage_formula"],
        "rtl_sha256": rtl_models.digest(top, row["params"], files),
    }, None


def kept_row(row, files, keep, ice40=True):
    """cost_of's row of a model outside rtl/models.txt (a declared controller, a size made on first
    use), kept in the file `keep` while its RTL and parameters, Yosys and this script are the same:
    (row, None) or (None, error)."""
    version = subprocess.run(["yosys", "-V"], capture_output=True, text=True).stdout
    key = hashlib.sha256(json.dumps([rtl_models.digest(row["top"], row["params"], files), version, ice40]).encode()
                         + Path(__file__).read_bytes()).hexdigest()
    if keep.is_file():
        kept = json.loads(keep.read_text())
        if kept.get("key") == key:
            return kept["row"], None
    result, error = cost_of(row, files, GATE_DELAY_PS, ice40)
    if result is not None:
        keep.parent.mkdir(parents=True, exist_ok=True)
        keep.write_text(json.dumps({"key": key, "row": result}, indent=2) + "\n")
    return result, error


def markdown(doc, others):
    a = doc["assumptions"]
    lines = [f"Synthesised with {doc['tool']} from the models in `rtl/models.txt` (`scripts/cost.sh`).", "",
             f"GE: NAND2 gates + inverters (1 GE each: the netlist is ABC's `-g NAND` mapping) + "
             f"{a['flip_flop_ge']} GE per flip-flop. Depth: the longest path in gate levels between registers "
             f"and ports (`ltp -noff`). Est. fmax = 1 / ((depth + {a['flop_overhead_levels']}) x "
             f"{a['gate_delay_ps']} ps). Clock: the bundled scenarios that run the model; ✗ = fmax below it.", ""]
    return "\n".join(lines + table(doc) + versions(doc, others)) + "\n"


def table(doc, wanted=None):
    """The Markdown table of the controllers of a cost report (those named in `wanted`, or all)."""
    lines = ["| controller | parameters | cells | flip-flops | memory bits | kGE | depth | est. fmax MHz | "
             "scenario clock MHz | CMOS transistors | iCE40 LUT4 | storage (paper formula) |",
             "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---|"]
    for r in doc["controllers"]:
        if wanted is not None and r["controller"] not in wanted:
            continue
        params = " ".join(f"{k}={v}" for k, v in r["params"].items()) or "defaults"
        clocks = ", ".join(f"{s['clock_mhz']:g} {'✓' if s['meets_clock'] else '✗'} ({s['name']})"
                           for s in r["scenarios"]) or "-"
        lines.append(f"| {r['controller']} | {params} | {r['cells']} | {r['flip_flops']} | {r['memory_bits']} | "
                     f"{r['ge'] / 1000:.1f} | {r['logic_depth']} | {r['fmax_mhz']:g} | {clocks} | "
                     f"{r['cmos_transistors']} | {r['ice40_lut4']} | {r['storage_formula']} |")
    return lines


def versions(reference, others):
    """The same models synthesised by other Yosys versions, beside the reference's rows: where ABC or
    the passes before it changed, the numbers differ (docs/hardware-cost.md says why)."""
    if not others:
        return []
    names = [reference["tool"].split()[1]] + [o["tool"].split()[1] for o in others]
    fields = (("cells", "cells"), ("flip_flops", "flip-flops"), ("ge", "GE"), ("logic_depth", "depth"),
              ("fmax_mhz", "est. fmax MHz"))
    lines = ["", "Other Yosys versions (rows not compiled into the simulator): "
             + "; ".join(o["tool"] for o in others) + ". Each cell: " + " / ".join(names) + ".", "",
             "| controller | " + " | ".join(label for _, label in fields) + " | GE change |",
             "|---|" + "---:|" * (len(fields) + 1)]
    rows = [{r["controller"]: r for r in o["controllers"]} for o in others]
    for r in reference["controllers"]:
        found = [o.get(r["controller"]) for o in rows]
        cells = [" / ".join(f"{x[key]:g}" if x else "-" for x in [r] + found) for key, _ in fields]
        change = ", ".join(f"{(x['ge'] / r['ge'] - 1) * 100:+.1f} %" if x else "-" for x in found)
        lines.append(f"| {r['controller']} | " + " | ".join(cells) + f" | {change} |")
    return lines


def report_name(version):
    """cost.json for the reference Yosys, cost.yosys-<X.Y>.json for any other."""
    number = version.split()[1]
    return "cost.json" if number == REFERENCE_YOSYS else f"cost.yosys-{number}.json"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="only check that everything synthesises latch-free")
    parser.add_argument("--only", action="append", metavar="NAME",
                        help="only these controllers (a name as in cost.md, or a glob); repeatable. The other "
                             "rows of an existing cost.json are kept")
    checkout = (ROOT / "CMakeLists.txt").is_file()  # installed, the default is cost/ of the working folder
    parser.add_argument("--out", type=Path, default=ROOT / "cost" if checkout else Path("cost"),
                        help="where cost.json and cost.md go (default: the checkout's cost/)")
    parser.add_argument("--controllers", action="append", type=Path, metavar="FOLDER",
                        help="cost the controller declared in FOLDER (its controller.yaml) instead of the "
                             "bundled ones; repeatable; needs --out")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="models synthesised at once")
    parser.add_argument("--gate-delay-ps", type=float, default=GATE_DELAY_PS,
                        help=f"delay of one gate level (default {GATE_DELAY_PS}: FO4 at 45 nm)")
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error(f"--jobs must be >= 1 (got {args.jobs})")
    if args.gate_delay_ps <= 0:
        parser.error(f"--gate-delay-ps must be > 0 (got {args.gate_delay_ps})")
    rows = models()
    folders = []
    if args.controllers:
        import controllers  # (it imports this module: only here, and PyYAML only for it)
        if args.out.resolve() == (ROOT / "cost").resolve():
            parser.error("--controllers needs --out (cost/ holds the bundled controllers' rows)")
        try:
            declared = [controllers.load(folder) for folder in args.controllers]
        except controllers.ManifestError as error:
            parser.error(str(error))
        rows = [{"controller": m["name"], "model": "V" + m["name"], "top": m["top"], "params": m["parameters"],
                 "scenarios": [], "storage_formula": ""} for m in declared]
        folders = [m["folder"] for m in declared]
    if args.only:
        unknown = [p for p in args.only if not any(fnmatch.fnmatch(r["controller"], p) for r in rows)]
        if unknown:
            parser.error(f"--only {', '.join(unknown)}: no such controller; known: "
                         + ", ".join(r["controller"] for r in rows))
        rows = [r for r in rows if any(fnmatch.fnmatch(r["controller"], p) for p in args.only)]
    results, failures = [], []
    # One Yosys per model at a time on each of --jobs cores; rows come back in the table's order.
    files = rtl_models.module_files([rtl_models.RTL, *folders])
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        done = pool.map(lambda row: check_of(row, files) if args.check else cost_of(row, files, args.gate_delay_ps),
                        rows)
    for row, (result, error) in zip(rows, done):
        if result is None:
            failures.append(f"{row['controller']}: {error}")
            continue
        results.append(result)
        if args.check:
            print(f"{row['controller']:<24} synthesised without a latch", file=sys.stderr)
        else:
            print(f"{result['controller']:<24} {result['cells']:>6} cells {result['flip_flops']:>5} FFs "
                  f"{result['ge']:>7} GE depth {result['logic_depth']:>3} {result['fmax_mhz']:>7g} MHz",
                  file=sys.stderr)
    for f in failures:
        print("cost: synthesis failed or inferred a latch: " + f, file=sys.stderr)
    if failures or not results:
        return 1
    if args.check:
        return 0
    version = subprocess.run(["yosys", "-V"], capture_output=True, text=True).stdout.strip()
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / report_name(version)
    if args.only and path.exists():
        kept = {r["controller"]: r for r in json.loads(path.read_text())["controllers"]}
        kept.update({r["controller"]: r for r in results})
        order = [r["controller"] for r in models()]
        results = sorted(kept.values(), key=lambda r: order.index(r["controller"]) if r["controller"] in order else 0)
    doc = {"tool": version,
           "assumptions": {"flip_flop_ge": FLIP_FLOP_GE, "gate_delay_ps": args.gate_delay_ps,
                           "flop_overhead_levels": FLOP_OVERHEAD_LEVELS, "process": "45 nm"},
           "controllers": results}
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    write_markdown(args.out)
    print((args.out / "cost.md").read_text())
    return 0


def write_markdown(out):
    """cost.md from the reference rows and those of other versions found beside them."""
    reports = {p.name: json.loads(p.read_text()) for p in sorted(out.glob("cost*.json"))}
    reference = reports.pop("cost.json", None)
    if reference is None:  # only another version's rows here: the report is theirs
        reference = reports.pop(next(iter(reports)))
    (out / "cost.md").write_text(markdown(reference, list(reports.values())))


if __name__ == "__main__":
    sys.exit(main())
