#!/usr/bin/env python3
"""Hardware cost of every controller: Yosys synthesises each wrapper in rtl/synth/ (fixed
parameters, so the numbers are reproducible) and reports cells, flip-flops, memory bits, a CMOS
transistor estimate and iCE40 LUT4s. Writes cost/cost.json and cost/cost.md.
--check only verifies that every wrapper synthesises without a latch (exit 1 otherwise)."""
import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def sources(wrapper):
    """The files of the wrapper's hierarchy only: reading unrelated modules changes how Yosys and
    ABC number and order the design, and with it the last few cells of the result."""
    files = {m.group(1): p for p in (ROOT / "rtl").rglob("*.sv")
             for m in [re.search(r"^module\s+(\w+)", p.read_text(), re.M)] if m}
    needed, pending = [], [wrapper]
    while pending:
        path = pending.pop()
        if path in needed:
            continue
        needed.append(path)
        for name in re.findall(r"^\s*(\w+)\s*(?:#\s*\(|u_\w+\s*\()", path.read_text(), re.M):
            if name in files:
                pending.append(files[name])
    return sorted(str(p) for p in needed)


def yosys(script):
    with tempfile.NamedTemporaryFile("w", suffix=".ys", delete=False) as f:
        f.write(script)
    run = subprocess.run(["yosys", "-q", "-s", f.name], capture_output=True, text=True)
    Path(f.name).unlink()
    return run


def variants(wrapper):
    """(row name, chparam arguments, storage formula) for each configuration of a wrapper: one, or
    one per line "/// Variant NAME: Param=Value ... | storage formula" in the wrapper."""
    text = wrapper.read_text()
    found = re.findall(r"^/// Variant (\w+):([^|\n]*)\|\s*(.+)$", text, re.M)
    if found:
        return [(f"{wrapper.stem.removesuffix('_synth')}_{name}",
                 " ".join(f"-set {k} {v}" for k, v in (a.split("=") for a in params.split())), storage.strip())
                for name, params, storage in found]
    storage = re.search(r"Storage \(paper 3\.[34]\):\s*(.+)", text)
    return [(wrapper.stem.removesuffix("_synth"), "", storage.group(1).strip() if storage else "")]


def cost_of(wrapper, name, chparam, storage, check=False):
    """One row; with check, the generic synthesis and its latch check only (no iCE40 mapping)."""
    top = wrapper.stem
    includes = " ".join(f"-I{d}" for d in sorted((ROOT / "rtl").iterdir()) if d.is_dir())
    read = f"read_verilog -sv -DSYNTHESIS {includes} " + " ".join(sources(wrapper))
    if chparam:
        read += f"\nchparam {chparam} {top}"
    with tempfile.TemporaryDirectory() as tmp:
        stat_json, cmos_txt, ice_json, mem_json = (Path(tmp) / n for n in ("stat.json", "cmos.txt", "ice.json",
                                                                            "mem.json"))
        # Memories are counted as inferred, before the generic synthesis maps them to flip-flops.
        generic = yosys(f"""{read}
hierarchy -check -top {top}
proc
flatten
opt -fast
memory -nomap
write_json {mem_json}
synth -flatten -top {top}
select -assert-none t:$dlatch t:$_DLATCH_*
tee -q -o {stat_json} stat -json
async2sync
dffunmap
tee -q -o {cmos_txt} stat -tech cmos
""")
        if generic.returncode != 0:
            return None, generic.stderr.strip() or generic.stdout.strip()
        if check:
            return {"controller": name}, None
        ice = yosys(f"{read}\nsynth_ice40 -top {top}\ntee -q -o {ice_json} stat -json\n")
        if ice.returncode != 0:
            return None, ice.stderr.strip()
        design = json.loads(stat_json.read_text())["design"]
        memory_bits = sum(int(c["parameters"]["WIDTH"], 2) * int(c["parameters"]["SIZE"], 2)
                          for m in json.loads(mem_json.read_text())["modules"].values()
                          for c in m["cells"].values() if c["type"] == "$mem_v2")
        cells = design["num_cells_by_type"]
        transistors = int(re.search(r"Estimated number of transistors:\s+(\d+)", cmos_txt.read_text()).group(1))
        luts = json.loads(ice_json.read_text())["design"]["num_cells_by_type"].get("SB_LUT4", 0)
    return {
        "controller": name,
        "cells": design["num_cells"],
        "flip_flops": sum(n for t, n in cells.items() if "DFF" in t),
        "memory_bits": memory_bits,
        "cmos_transistors": transistors,
        "ice40_lut4": luts,
        "storage_formula": storage,
    }, None


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="only check that everything synthesises latch-free")
    args = parser.parse_args()
    wrappers = sorted((ROOT / "rtl" / "synth").glob("*_synth.sv"))
    rows, failures = [], []
    for wrapper, (name, chparam, storage) in ((w, v) for w in wrappers for v in variants(w)):
        row, error = cost_of(wrapper, name, chparam, storage, args.check)
        if row is None:
            failures.append(f"{name}: {error}")
            continue
        rows.append(row)
        if args.check:
            print(f"{name:<20} synthesised without a latch", file=sys.stderr)
        else:
            print(f"{row['controller']:<20} {row['cells']:>6} cells {row['flip_flops']:>5} FFs "
                  f"{row['cmos_transistors']:>7} transistors {row['ice40_lut4']:>5} LUT4", file=sys.stderr)
    for f in failures:
        print("cost: synthesis failed or inferred a latch: " + f, file=sys.stderr)
    if failures or not rows:
        return 1
    if args.check:
        return 0
    version = subprocess.run(["yosys", "-V"], capture_output=True, text=True).stdout.strip()
    out = ROOT / "cost"
    out.mkdir(exist_ok=True)
    (out / "cost.json").write_text(json.dumps({"tool": version, "controllers": rows}, indent=2) + "\n")
    lines = [f"Synthesised with {version} from the wrappers in `rtl/synth/` (`scripts/cost.sh`).", "",
             "| controller | cells | flip-flops | memory bits | CMOS transistors | iCE40 LUT4 | storage (paper formula) |",
             "|---|---:|---:|---:|---:|---:|---|"]
    lines += [f"| {r['controller']} | {r['cells']} | {r['flip_flops']} | {r['memory_bits']} | "
              f"{r['cmos_transistors']} | {r['ice40_lut4']} | {r['storage_formula']} |" for r in rows]
    (out / "cost.md").write_text("\n".join(lines) + "\n")
    print((out / "cost.md").read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
