#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Sizes of the controllers whose adapters take any size (mech/model_catalogue.h), built in or made
on first use.

  extras (the build, at configure time): checks the sizes of ICNSIM_EXTRA_MODELS (TOP:NAME=VALUE..)
         and writes extra_models.cmake, their specs (MODEL=TOP:NAME=VALUE..) as the build names them.
  table  (the build, at configure time): writes built_models.cpp, the table of the sizes built into
         the program (each adapter's factory template instantiated for each), and the cost rows of
         the extra sizes (Yosys, kept while their RTL is the same).
  build  (icnsim, on first use of a size not built in): verilates the size into the user cache
         ($XDG_CACHE_HOME/icnsim, else ~/.cache/icnsim) as a library icnsim loads, and prints its
         path. Kept while the RTL, the scripts and the program (its headers and toolchain) are the
         same; a size in the cache needs no tool. Making one needs Yosys (the simulator's top and
         the cost), the Verilator icnsim was built with and a C++ compiler: without them, or with
         --cached-only, it prints why it cannot and exits 3.

Usage: model_build.py extras --out FILE [TOP:NAME=VALUE[:NAME=VALUE...]...]
       model_build.py table --out DIR [--extra MODEL=TOP:NAME=VALUE...] MODEL=TOP[:NAME=VALUE...]...
       model_build.py build --data SHARE_ICNSIM --top TOP --params NAME=VALUE[:...] [--cached-only]"""
import argparse
import concurrent.futures
import fcntl
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import cost
import rtl_models
import sim_models

# The tops whose adapter takes any size: the header of its factory template, the template, and the
# parameters a size sets with the ranges the adapter takes (TorusSwapControl::kFewestNodes, ...).
ADAPTERS = {
    "torus_swap_ring": ("mech/torus/torus_ring_model.h", "icn::MakeRingOf", {"Nodes": (4, 16)}),
    "photonic_switch_ctrl": ("mech/photonic/photonic_switch_model.h", "icn::MakeSwitchOf",
                             {"Ports": (2, 32), "Channels": (8, 8)}),
    "erapid_board": ("mech/erapid/erapid_board_model.h", "icn::MakeBoardOf", {"Boards": (2, 16)}),
}
MISSING_TOOLS = 3  # (mech/model_catalogue.cpp reads it)
# Verilator's configuration of the verilated code, as the build's verilate() sets it.
VERILATED_DEFINES = ["VM_COVERAGE=0", "VM_SC=0", "VM_TRACE=1", "VM_TRACE_FST=1", "VM_TRACE_VCD=0"]


def model_name(top, params):
    """The class of a size made here: Vtorus_swap_ring_Nodes12 (parameters by name)."""
    return "V" + top + "".join(f"_{k}{v}" for k, v in sorted(params.items()))


def parse_spec(text):
    model, _, rest = text.partition("=")
    top, *params = rest.split(":")
    return model, top, dict(p.split("=", 1) for p in params)


def params_text(params):
    return ":".join(f"{k}={v}" for k, v in sorted(params.items()))


def checked_size(top, texts):
    """{name: value} of a size of `top` given as NAME=VALUE texts; SystemExit naming what is wrong."""
    if top not in ADAPTERS:
        sys.exit(f"{top}: not a top whose adapter takes any size; allowed: {', '.join(sorted(ADAPTERS))}")
    ranges = ADAPTERS[top][2]
    params = dict(t.partition("=")[::2] for t in texts)
    if sorted(params) != sorted(ranges) or len(params) != len(texts):
        sys.exit(f"{top}:{':'.join(texts)}: a size of {top} sets {', '.join(sorted(ranges))}, each once")
    for name, (low, high) in ranges.items():
        if not re.fullmatch(r"[1-9][0-9]*", params[name]) or not low <= int(params[name]) <= high:
            sys.exit(f"{top}:{':'.join(texts)}: {name} = {params[name]}; allowed: {low} .. {high}")
    return params


def say(text):
    print(f"model_build: {text}", file=sys.stderr, flush=True)


def cost_row(name, top, params, files, keep):
    """scripts/cost.sh's row of the size (no LUT count: the energy needs the gate equivalents and
    the depth), kept in the file `keep` while its RTL is the same."""
    row = {"controller": name, "top": top, "params": params, "scenarios": [], "storage_formula": ""}
    result, error = cost.kept_row(row, files, keep, ice40=False)
    if result is None:
        raise RuntimeError(f"Yosys could not synthesise {top} {params_text(params)}: {error}")
    return result


def cost_literal(model, row):
    return f'{{"{model}", {float(row["ge_logic"])!r}, {int(row["logic_depth"])}}}'


def table(args):
    entries, includes = [], set()
    for text in args.specs:
        model, top, params = parse_spec(text)
        if top not in ADAPTERS:
            continue
        header, factory, _ = ADAPTERS[top]
        includes |= {f'#include "{model}.h"', f'#include "{model}_info.h"', f'#include "{header}"'}
        entries.append(f'      {{"{top}", "{params_text(params)}", AsAnyFactory(&{factory}<{model}>)}},')
    files = rtl_models.module_files()
    costs = []
    for text in args.extra:
        model, top, params = parse_spec(text)
        say(f"the cost of {top} {params_text(params)} (Yosys; kept for the next configure)")
        try:
            row = cost_row(model.removeprefix("V"), top, params, files, args.out / "costs" / f"{model}.json")
        except RuntimeError as error:
            sys.exit(f"ICNSIM_EXTRA_MODELS: {error}")
        costs.append(f"    {cost_literal(model, row)},")
    sim_models.write(args.out / "built_models.cpp", "\n".join([
        "// Generated by scripts/model_build.py table: do not edit. The sizes built into the program.",
        '#include "mech/model_catalogue.h"', "", *sorted(includes), "", "namespace icn {", "",
        "const std::vector<BuiltModel>& BuiltModels() {", "  static const std::vector<BuiltModel> models = {",
        *entries, "  };", "  return models;", "}", "", "}  // namespace icn", ""]))
    sim_models.write(args.out / "extra_costs.inc", "".join(c + "\n" for c in costs))


def extras(args):
    built = {(r["top"], params_text(r["params"])) for r in rtl_models.models()}
    specs = []
    for text in args.sizes:
        top, *texts = text.split(":")
        try:
            params = checked_size(top, texts)
        except SystemExit as error:
            sys.exit(f"ICNSIM_EXTRA_MODELS: {error}")
        if (top, params_text(params)) in built:
            sys.exit(f"ICNSIM_EXTRA_MODELS: {text} is built in already (rtl/models.txt)")
        specs.append(f"{model_name(top, params)}={top}:{params_text(params)}")
    if len(set(specs)) != len(specs):
        sys.exit("ICNSIM_EXTRA_MODELS: a size is named twice")
    sim_models.write(args.out, f'set(EXTRA_MODEL_SPECS "{";".join(specs)}")\n')


# ---- build -------------------------------------------------------------------------------------

def missing(text):
    print(text)
    sys.exit(MISSING_TOOLS)


def version_of(command):
    try:
        return subprocess.run([command, "--version"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""


def headers_digest(include):
    """SHA-256 of the harness's headers (sysc/'s; an installation's models/ apart), as
    cmake/build_info.cmake computes it when icnsim is built: over "relative path:SHA-256 of the
    file" lines, in path order."""
    names = sorted(str(p.relative_to(include)) for p in include.rglob("*.h"))
    lines = "".join(f"{name}:{hashlib.sha256((include / name).read_bytes()).hexdigest()}\n"
                    for name in names if not name.startswith("models/"))
    return hashlib.sha256(lines.encode()).hexdigest()


def recorded(data):
    """What the build recorded of itself in share/icnsim: toolchain.json (compiler, flags, Verilator,
    where the headers are) and headers.sha256 (the headers it was compiled with)."""
    record = json.loads((data / "toolchain.json").read_text())
    record["headers_sha256"] = (data / "headers.sha256").read_text().strip()
    record["include"] = (data / record["include"]).resolve()
    return record


def toolchain(record):
    """The recorded tools found on this machine (Verilator of the recorded version, the compiler,
    Yosys) and the headers unchanged; else what is missing, exit 3."""
    absent = []
    verilator = record["verilator"]
    if not Path(verilator).is_file():
        root = os.environ.get("VERILATOR_ROOT")
        verilator = shutil.which("verilator", path=f"{root}/bin" if root else None) or shutil.which("verilator")
    found = re.search(r"Verilator (\S+)", version_of(verilator)) if verilator else None
    if not found or found.group(1) != record["verilator_version"]:
        absent.append(f"Verilator {record['verilator_version']} (the version icnsim was built with; "
                      + (f"found {found.group(1)})" if found else "none found)"))
    cxx = record["cxx"] if Path(record["cxx"]).is_file() else shutil.which(os.environ.get("CXX", "c++"))
    if not cxx:
        absent.append(f"a C++ compiler ({record['cxx']}, or c++ on the PATH)")
    if not shutil.which("yosys"):
        absent.append("Yosys")
    include = record["include"]
    if not (include / "mech" / "model_catalogue.h").is_file():
        absent.append(f"icnsim's headers (looked in {include})")
    elif headers_digest(include) != record["headers_sha256"]:
        absent.append(f"the headers icnsim was built with ({include} changed since: rebuild icnsim)")
    if absent:
        missing("missing " + ", ".join(absent))
    root = subprocess.run([verilator, "--getenv", "VERILATOR_ROOT"], capture_output=True, text=True).stdout.strip()
    return {**record, "verilator": verilator, "cxx": cxx, "verilator_root": Path(root)}


def cache_dir():
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not base.startswith("/"):
        home = os.environ.get("HOME")
        if not home:
            missing("no user cache folder (set XDG_CACHE_HOME or HOME)")
        base = f"{home}/.cache"
    return Path(base) / "icnsim"


def build_key(record, top, params, files):
    """What the library depends on: the size and its RTL, the program (its toolchain and the headers
    it was built with) and the scripts that make the library. Found without any tool."""
    program = {k: str(v) for k, v in record.items()}
    digest = hashlib.sha256(json.dumps([rtl_models.digest(top, params, files), program], sort_keys=True).encode())
    here = Path(__file__).resolve().parent
    for name in ("model_build", "sim_models", "rtl_models", "cost"):
        digest.update((here / f"{name}.py").read_bytes())
    return digest.hexdigest()[:16]


def compile_all(tools, sources, out, includes):
    """Compiles the sources in parallel into `out`: the objects."""
    flags = [*tools["flags"], "-fPIC", "-w", *[f"-D{d}" for d in VERILATED_DEFINES],
             *[f"-I{d}" for d in includes]]

    def one(source):
        obj = out / (source.name + ".o")
        slow = source.name.endswith("__slow_unit.cpp")  # run-once code at -O1, as the build does
        command = [tools["cxx"], *flags, *(["-O1"] if slow else []), "-c", str(source), "-o", str(obj)]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"{' '.join(command)}\n{run.stderr}")
        return obj

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        return list(pool.map(one, sources))


def write_top(top, params, model, files, work):
    """The simulator's top around the size and its ModelInfo (scripts/sim_models.py)."""
    spec = {"model": model, "top": top, "params": params, "files": files}
    _, bits, words, memories, text, parameters, ports = sim_models.generate(spec)
    sim_models.write(work / "icnsim.sv", text)
    sim_models.write(work / f"{model}_info.h", sim_models.info_header(model, bits, words, memories, parameters, ports))


def verilate(tools, top, model, files, work):
    """Verilator on the top, as the build runs it (from the RTL's folder, paths relative to it)."""
    hierarchy = [os.path.relpath(p, rtl_models.ROOT) for p in rtl_models.sources(top, files)]
    includes = [f"-I{os.path.relpath(d, rtl_models.ROOT)}" for d in rtl_models.include_dirs()]
    run = subprocess.run([tools["verilator"], "--cc", "--trace-fst", "--prefix", model, "--top-module", "icnsim",
                          "--Mdir", str(work / "verilated"), *tools["verilator_flags"], *includes,
                          str(work / "icnsim.sv"), *hierarchy], cwd=rtl_models.ROOT, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"Verilator failed:\n{run.stderr}")


def write_units(model, work):
    """The verilated files as the build compiles them (icnsim_verilate): in two units, the code run on
    every cycle and the run-once code, from Verilator's lists of them. Returns the units."""
    lists = (work / "verilated" / f"{model}_classes.mk").read_text()
    units, listed = [], []
    for part in ("fast", "slow"):
        names = []
        for kind in ("CLASSES", "SUPPORT"):
            block = re.search(rf"^VM_{kind}_{part.upper()} \+= \\\n((?:\t\S+ \\\n)*)", lists, re.M)
            if not block:
                raise RuntimeError(f"Verilator's {model}_classes.mk lists no VM_{kind}_{part.upper()}")
            names += re.findall(r"\t(\S+) \\", block.group(1))
        units.append(work / "verilated" / f"{model}__{part}_unit.cpp")
        write_generated(units[-1], f"{model}'s {part} code.", [f'#include "{name}.cpp"' for name in names])
        listed += names
    listed, generated = sorted(listed), sorted(p.stem for p in (work / "verilated").glob(f"{model}*.cpp")
                                               if not p.stem.endswith("_unit"))
    if listed != generated:  # (a list format this script misreads would leave code out)
        raise RuntimeError(f"Verilator's {model}_classes.mk lists {listed}, not the files it wrote: {generated}")
    return units


def write_generated(path, what, lines):
    path.write_text("\n".join([f"// Generated by scripts/model_build.py build: do not edit. {what}", *lines, ""]))


def make_library(tools, top, params, model, files, work):
    """Verilates and compiles the size into work/model.so, its cost (Yosys) synthesised meanwhile."""
    say("[1/3] the simulator's top (Yosys)")
    write_top(top, params, model, files, work)
    header, factory, _ = ADAPTERS[top]
    root = tools["verilator_root"]
    includes = [work / "verilated", work, tools["include"], root / "include", root / "include" / "vltstd"]
    with concurrent.futures.ThreadPoolExecutor(1) as synthesis:
        costing = synthesis.submit(cost_row, model.removeprefix("V"), top, params, files, work / "cost.json")
        say("[2/3] verilating, and the cost synthesised meanwhile (Yosys)")
        verilate(tools, top, model, files, work)
        write_generated(work / "factory.cpp", "The factory of one size.", [
            f'#include "{model}.h"', f'#include "{model}_info.h"', f'#include "{header}"',
            '#include "mech/model_catalogue.h"', "",
            f'extern "C" icn::AnyFactory icnsim_model_factory() {{ return icn::AsAnyFactory(&{factory}<{model}>); }}'])
        sources = write_units(model, work) + [work / "factory.cpp"]
        say(f"[3/3] compiling {len(sources)} files")
        objects = compile_all(tools, sources, work, includes)
        row = costing.result()
    write_generated(work / "cost.cpp", "The size's cost (scripts/cost.sh).", [
        '#include "core/controller_cost.h"', "", 'extern "C" const icn::ControllerCost* icnsim_model_cost() {',
        f"  static const icn::ControllerCost cost = {cost_literal(model, row)};", "  return &cost;", "}"])
    objects += compile_all(tools, [work / "cost.cpp"], work, includes)
    run = subprocess.run([tools["cxx"], "-shared", "-o", str(work / "model.so"), *map(str, objects)],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"linking failed:\n{run.stderr}")


def remove_abandoned(cache, model):
    """Work folders of builds whose process is gone (killed): .<model>-<key>.<pid>."""
    for work in cache.glob(f".{model}-*.*"):
        try:
            os.kill(int(work.suffix[1:]), 0)
        except ProcessLookupError:
            shutil.rmtree(work, ignore_errors=True)
        except (ValueError, PermissionError):
            pass


def make_once(record, top, params, model, files, done):
    """Makes the library in `done` unless another process has (waits for one making it now)."""
    tools = toolchain(record)
    cache = done.parent
    try:
        cache.mkdir(parents=True, exist_ok=True)
        lock = open(cache / f"{model}.lock", "w")
    except OSError as error:
        missing(f"cannot write the cache folder {cache} ({error.strerror})")
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # (another icnsim making the same size: wait for it)
        if (done / "model.so").is_file():
            return
        remove_abandoned(cache, model)
        say(f"{top} {params_text(params)} is not built into icnsim: verilating it once into {done}")
        work = cache / f".{done.name}.{os.getpid()}"  # (renamed when whole)
        work.mkdir()
        try:
            make_library(tools, top, params, model, files, work)
            shutil.rmtree(work / "verilated")
            for obj in work.glob("*.o"):
                obj.unlink()
            work.rename(done)
        except RuntimeError as error:
            sys.exit(f"model_build: {top} {params_text(params)}: {error}")
        finally:
            shutil.rmtree(work, ignore_errors=True)  # (a failure, or an interrupt)
    say(f"{model} ready")


def build(args):
    params = checked_size(args.top, args.params.split(":"))
    record = recorded(args.data)
    model = model_name(args.top, params)
    files = rtl_models.module_files()
    done = cache_dir() / f"{model}-{build_key(record, args.top, params, files)}"
    if not (done / "model.so").is_file():
        if args.cached_only:
            missing("ICNSIM_ON_DEMAND=off, and it is not in the cache "
                    f"({done.parent})")
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))  # (cleans up as on ^C)
        make_once(record, args.top, params, model, files, done)
    print(done / "model.so")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    t = commands.add_parser("table")
    t.add_argument("--out", type=Path, required=True)
    t.add_argument("--extra", action="append", default=[])
    t.add_argument("specs", nargs="*")
    b = commands.add_parser("build")
    b.add_argument("--data", type=Path, required=True)
    b.add_argument("--top", required=True)
    b.add_argument("--params", required=True)
    b.add_argument("--cached-only", action="store_true", help="load a size made before; never compile")
    e = commands.add_parser("extras")
    e.add_argument("--out", type=Path, required=True)
    e.add_argument("sizes", nargs="*")
    args = parser.parse_args()
    {"table": table, "build": build, "extras": extras}[args.command](args)


if __name__ == "__main__":
    main()
