#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CTest: a size not built into icnsim is verilated on first use into the user cache, loaded, and
runs as the built-in sizes do (mech/model_catalogue.h, scripts/model_build.py):
  - without the toolchain, or with ICNSIM_ON_DEMAND=off, it is refused (exit 2) naming what is
    missing and the configure option, before the first cycle; another value of ICNSIM_ON_DEMAND is
    refused naming the allowed ones;
  - a built-in size made on demand (ICNSIM_ON_DEMAND=always) gives the built-in size's results, field
    for field, and opens in a waveform;
  - a new size (torus rings of 5 nodes), asked by two runs at once, is made once; both runs lose
    nothing and agree; later runs take it from the cache, with ICNSIM_ON_DEMAND=off too.
Usage: sizes_on_demand_test.py ICNSIM"""
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ICNSIM = sys.argv[1]
MADE = "verilating it once"
MACHINE_FIELDS = (("sim", "wall_s"), ("sim", "cycles_per_s"), ("provenance",))
# The golden torus_swap cases' settings: one pass of the kernels, swaps every few periods.
SHORT = ["workload.iterations=1", "workload.livermore.k21_extent=5", "torus_swap.threshold=10",
         "torus_swap.period_cycles=64", "torus_swap.cost_hops=8"]
failures = []
# The Yosys cost/cost.json was made with: a size made here costs the same only with it.
REFERENCE_YOSYS = json.loads((Path(__file__).resolve().parent.parent / "cost" / "cost.json").read_text())["tool"] == \
    subprocess.run(["yosys", "-V"], capture_output=True, text=True).stdout.strip()


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}", file=sys.stderr)


def start(dims, out, env, *extra):
    """An icnsim run of the node-swap torus with rings of `dims` nodes, short, started."""
    sets = [f"topology.dims={dims}", *SHORT]
    command = [ICNSIM, "run", "torus_swap_livermore", *[a for s in sets for a in ("--set", s)], "--quiet", "--out",
               str(out), *extra]
    return subprocess.Popen(command, env={**os.environ, **env}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def run(dims, out, env, *extra):
    process = start(dims, out, env, *extra)
    _, stderr = process.communicate()
    return process.returncode, stderr


def results(out, rename=("", "")):
    """results.json without the machine's fields, one model's name replaced by another's."""
    r = json.loads((Path(out) / "results.json").read_text().replace(*rename))
    for path in MACHINE_FIELDS:
        parent = r
        for key in path[:-1]:
            parent = parent.get(key, {})
        parent.pop(path[-1], None)
    return r


with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    cache = {"XDG_CACHE_HOME": str(tmp / "cache")}

    # Refused: no Yosys on the PATH (only python3), and sizes on demand switched off.
    tools = tmp / "bin"
    tools.mkdir()
    (tools / "python3").symlink_to(sys.executable)
    code, stderr = run("[5,5]", tmp / "refused", {**cache, "PATH": str(tools)})
    check(code == 2, f"without Yosys: exit {code}, not 2: {stderr}")
    check("missing Yosys" in stderr and "-DICNSIM_EXTRA_MODELS=torus_swap_ring:Nodes=5" in stderr,
          f"without Yosys: the message names neither what is missing nor the option: {stderr}")
    check(not (tmp / "refused" / "results.json").exists(), "without Yosys: a results.json was written")
    code, stderr = run("[5,5]", tmp / "off", {**cache, "ICNSIM_ON_DEMAND": "off"})
    check(code == 2 and "ICNSIM_ON_DEMAND=off" in stderr, f"ICNSIM_ON_DEMAND=off: exit {code}: {stderr}")

    # A built-in size made on demand: the same results as the built-in one.
    code, stderr = run("[4,4]", tmp / "built_in", {})
    check(code == 0, f"the built-in size: exit {code}: {stderr}")
    code, stderr = run("[4,4]", tmp / "made", {**cache, "ICNSIM_ON_DEMAND": "always"}, "--trace",
                       str(tmp / "made.fst"))
    check(code == 0 and MADE in stderr, f"the built-in size made on demand: exit {code}: {stderr}")
    if code == 0:
        made = results(tmp / "made", ("Vtorus_swap_ring_Nodes4", "Vtorus_swap_ring4"))
        built_in = results(tmp / "built_in")
        check(made.pop("trace", {}).get("written"), "no waveform written of the size made on demand")
        if not REFERENCE_YOSYS:  # (its logic's energy and depth are this Yosys's, not cost.json's)
            for r in (made, built_in):
                ring = r["energy"]["controllers"]["Vtorus_swap_ring4"]
                for field in ("ge_logic", "j"):
                    ring.pop(field)
                for field in ("controllers_j", "net_saving_j"):
                    r["energy"].pop(field)
                r.pop("warnings", None)
        differing = sorted(k for k in set(made) | set(built_in) if made.get(k) != built_in.get(k))
        check(made == built_in, f"a size made on demand gives other results than the built-in one in {differing}: "
              f"{[(made.get(k), built_in.get(k)) for k in differing][:2]}")
        check((tmp / "made.fst").stat().st_size > 1000, "no waveform of the size made on demand")

    # A new size, asked by two runs at once: made once, then taken from the cache.
    first, second = (start("[5,5]", tmp / f"new{k}", cache) for k in (1, 2))
    errors = [p.communicate()[1] for p in (first, second)]
    check(first.returncode == 0 and second.returncode == 0, f"rings of 5: exits {first.returncode}, "
          f"{second.returncode}: {errors}")
    check(sum(MADE in e for e in errors) == 1, f"rings of 5 made {sum(MADE in e for e in errors)} times")
    if first.returncode == 0 and second.returncode == 0:
        r = results(tmp / "new1")
        check(r["check"]["ok"] and r["torus_swap"]["swaps"] > 0, f"rings of 5: {r['check']}, "
              f"{r['torus_swap']['swaps']} swaps")
        check(r == results(tmp / "new2"), "two runs of rings of 5 disagree")
    began = time.monotonic()
    code, stderr = run("[5,5]", tmp / "new3", cache)
    check(code == 0 and MADE not in stderr, f"rings of 5 from the cache: exit {code}: {stderr}")
    print(f"rings of 5 from the cache: {time.monotonic() - began:.1f} s", file=sys.stderr)
    code, stderr = run("[5,5]", tmp / "new4", {**cache, "ICNSIM_ON_DEMAND": "off"})
    check(code == 0, f"ICNSIM_ON_DEMAND=off does not load a size from the cache: exit {code}: {stderr}")
    code, stderr = run("[5,5]", tmp / "bad", {**cache, "ICNSIM_ON_DEMAND": "no"})
    check(code == 2 and "ICNSIM_ON_DEMAND: 'no'; allowed: off, always, or unset" in stderr,
          f"ICNSIM_ON_DEMAND=no: exit {code}: {stderr}")
    made = tmp / "cache" / "icnsim"  # (none when every build was refused: failed above)
    leftovers = [p.name for p in made.iterdir() if p.name.startswith(".")] if made.is_dir() else []
    check(not leftovers, f"work folders left in the cache: {leftovers}")

sys.exit(1 if failures else 0)
