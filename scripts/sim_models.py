#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the top the simulator verilates around each controller model, from the controller's RTL
as Yosys elaborates it (same top, same parameters). The controller's RTL is not touched: what only
the simulator needs lives in this generated top, module `icnsim`, and it reaches the verilated model
through ports only, Verilator's public interface:

  - One eval() per clock edge. Every change of the top's clk_i is one rising edge of the
    controller's clock: a pulse, clk_i xor the value clk_i had at the last edge, which the edge
    itself clears within the same eval. (A plain model needs two evals, clk_i low then high.)
  - regs_o: every flip-flop of the controller, reached by a hierarchical reference and packed 31
    bits to a 32-bit word; memory<k>_o: each memory (or register array) whole. The simulator counts
    the bits that toggle (the controller's switching energy; none toggling is a fixed point).
    Nothing can be left out: the list is the RTL's, and no C++ reads Verilator's private layout.

The other ports are the controller's, with the same names and widths. The controller is instance
<top> of icnsim, so a waveform shows <model>.icnsim.<top>.<signals>; icnsim's own signals and regs_o
are not traced.

Writes, in OUT_DIR: <MODEL>/icnsim.sv, <MODEL>_info.h (ModelInfo<MODEL>: its name, register bits, its
top's parameters and port widths) and models.cmake (MODEL_SOURCES_<MODEL>: the RTL files of its hierarchy).
Files are rewritten only when they change. A SPEC is MODEL=TOP[:NAME=VALUE...]; the RTL is searched
in rtl/ and in each --rtl folder.

Usage: sim_models.py --out OUT_DIR [--rtl DIR ...] [--jobs N] SPEC..."""
import argparse
import concurrent.futures
import json
import os
import re
import sys
import tempfile
from pathlib import Path

import rtl_models

WORD = 32
# Bits a word of regs_o carries: the top bit stays 0. Verilator 5.006 shifts a register narrower than
# 17 bits as a C++ int, so one that reached bit 31 would overflow a signed int (UBSan reports it).
WORD_BITS = WORD - 1


def netlist(top, params, files):
    """The top's flattened design after proc (memories collected, case tables left as logic). Then
    Yosys's netlist checks on it (no conflicting drivers, no combinational loop): with the latch
    check of check_clocking, what scripts/cost.sh --check asks of the controllers not simulated."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "netlist.json"
        run = rtl_models.yosys(rtl_models.read_script(top, params, files) +
                               f"\nproc -norom\nflatten\nmemory_collect\nwrite_json {out}\n"
                               "opt_clean\ncheck -assert\n")
        if run.returncode != 0:
            raise RuntimeError(f"Yosys failed on {top} (elaboration, or its netlist check):\n"
                               f"{run.stderr.strip() or run.stdout.strip()}")
        return json.loads(out.read_text())["modules"][top]


def check_clocking(module, top):
    """The one-eval edge is exact when every register takes clk_i's rising edge and nothing else sees
    clk_i: inside icnsim the controller's clk_i is a pulse, low again whenever eval() returns."""
    clk = module["ports"]["clk_i"]["bits"]
    problems = []
    for name, cell in module["cells"].items():
        kind, params, pins = cell["type"], cell["parameters"], cell["connections"]
        where = f"{kind} at {cell.get('attributes', {}).get('src', name)}"
        if "latch" in kind:
            problems.append(f"{where}: a latch")
        clocks = {"CLK": "CLK_POLARITY"} if "CLK" in pins else {}
        if kind == "$mem_v2":
            clocks = {port: port + "_POLARITY" for port in ("RD_CLK", "WR_CLK")}
        for pin, polarity in clocks.items():
            enabled = "1" in params.get(pin + "_ENABLE", "1")
            if enabled and (set(pins[pin]) != set(clk) or "0" in params.get(polarity, "1")):
                problems.append(f"{where}: clocked by something other than clk_i's rising edge")
        if any(bit in clk for pin, bits in pins.items() if pin not in clocks for bit in bits):
            problems.append(f"{where}: clk_i used as data")
    if problems:
        raise RuntimeError(f"{top}: the simulator clocks a controller by one rising edge of clk_i per "
                           "eval; " + "; ".join(problems[:5]))


def registers(module):
    """Every register of the design: (flip-flops as (reference from the top, width) pieces in netlist
    order, memories as (name, word width, words, first index)). A flip-flop goes by the name the RTL
    gives it (a register's own `_q` name before an alias such as the output it drives); one without
    an RTL name is an error unless it is proc's bookkeeping (a memory write port's, a loop
    variable's). An array Yosys turned into registers (count_q[0] ..) is a memory again when every
    word of it is a whole register."""
    def rank(item):
        name, net = item
        register = re.sub(r"\[\d+\]$", "", name).endswith("_q")
        return net.get("hide_name", 0), not register, len(name), name

    named = {}  # net bit -> (name, index in it, whether a 1-bit scalar)
    for name, net in sorted(module["netnames"].items(), key=rank):
        if net.get("hide_name", 0):
            continue
        offset, upto, width = net.get("offset", 0), net.get("upto", 0), len(net["bits"])
        for i, bit in enumerate(net["bits"]):
            if isinstance(bit, int) and bit not in named:
                named[bit] = (name, offset + (width - 1 - i if upto else i), width == 1 and offset == 0)
    hidden = {bit: name for name, net in module["netnames"].items() if net.get("hide_name", 0)
              for bit in net["bits"] if isinstance(bit, int)}
    pieces, memories = [], []
    for cell in module["cells"].values():
        if "dff" in cell["type"] and "Q" in cell["connections"]:
            run = None  # consecutive bits of one name: one slice
            for bit in cell["connections"]["Q"]:
                if bit not in named:
                    if not re.search(r"\$memwr\$|\$fordecl_block\$", hidden.get(bit, "")):
                        raise RuntimeError(f"a flip-flop without a name in the RTL ({hidden.get(bit)}): "
                                           "the simulator could not count it")
                    continue
                name, index, scalar = named[bit]
                if run and run[0] == name and index == run[2] + 1:
                    run[2] = index
                    continue
                if run:
                    pieces.append(run)
                run = [name, index, index, scalar]
            if run:
                pieces.append(run)
        elif cell["type"] == "$mem_v2":
            p = {k: int(cell["parameters"][k], 2) for k in ("SIZE", "WIDTH", "OFFSET")}
            memories.append((cell["parameters"]["MEMID"].lstrip("\\"), p["WIDTH"], p["SIZE"], p["OFFSET"]))
    # Arrays made registers: every word base[i], whole, for consecutive i.
    words_of, declared = {}, {}
    for name in module["netnames"]:
        if m := re.fullmatch(r"(.*)\[(\d+)\]", name):
            declared.setdefault(m.group(1), set()).add(int(m.group(2)))
    for name, low, high, scalar in pieces:
        m = re.fullmatch(r"(.*)\[(\d+)\]", name)
        if m and low == 0 and high == len(module["netnames"][name]["bits"]) - 1:
            words_of.setdefault(m.group(1), {})[int(m.group(2))] = high + 1
    arrays = {base: found for base, found in words_of.items()  # every word, whole, one width
              if len(set(found.values())) == 1 and set(found) == declared[base]
              and sorted(found) == list(range(min(found), min(found) + len(found)))}
    memories += [(base, next(iter(found.values())), len(found), min(found)) for base, found in arrays.items()]
    flops = [(name, high - low + 1) if scalar else (f"{name}[{high}:{low}]", high - low + 1)
             for name, low, high, scalar in pieces if re.sub(r"\[\d+\]$", "", name) not in arrays]
    return flops, memories


def words(refs, top):
    """regs_o's 32-bit words: concatenations of the references (prefixed with the instance, top),
    low bits first, WORD_BITS of them; each word padded with zeros."""
    out, word, used = [], [], 0
    for ref, width in refs:
        name, low_index = ref, 0
        if m := re.fullmatch(r"(.*)\[(\d+):(\d+)\]", ref):
            name, low_index = m.group(1), int(m.group(3))
        low = 0
        while low < width:
            take = min(width - low, WORD_BITS - used)
            whole = take == width
            word.append(f"{top}.{ref}" if whole else f"{top}.{name}[{low_index + low + take - 1}:{low_index + low}]")
            used, low = used + take, low + take
            if used == WORD_BITS:
                out.append(word + [f"{WORD - used}'d0"])
                word, used = [], 0
    if used:
        out.append(word + [f"{WORD - used}'d0"])
    return out


def port_declarations(module, regs_words, memories):
    """icnsim's ports: the controller's, then regs_o and a port per memory (not traced)."""
    lines = []
    for name, port in module["ports"].items():
        net = module["netnames"][name]
        width, offset, upto = len(port["bits"]), net.get("offset", 0), net.get("upto", 0)
        bits = "" if width == 1 and offset == 0 else (
            f"[{offset}:{offset + width - 1}]" if upto else f"[{offset + width - 1}:{offset}]")
        kind = "logic signed" if net.get("signed") else "logic"
        lines.append(f"  {port['direction']:<6} {kind} {bits:<12} {name},")
    lines += ["  /*verilator tracing_off*/"]
    lines += [f"  output logic [{width - 1}:0] memory{k}_o [{first}:{first + size - 1}],  // {name}"
              for k, (name, width, size, first) in enumerate(memories)]
    lines += [f"  output logic [31:0]  regs_o [{regs_words}]", "  /*verilator tracing_on*/"]
    return lines


def generate(spec):
    """(spec, register bits, words, the wrapper's text, the top's integer parameters)."""
    top = spec["top"]
    module = netlist(top, spec["params"], spec["files"])
    for port, use in (("clk_i", "clocks"), ("rst_ni", "resets")):
        if port not in module["ports"]:
            raise RuntimeError(f"{top} has no {port}: the simulator {use} a controller through it")
    check_clocking(module, top)
    try:
        refs, memories = registers(module)
    except RuntimeError as error:
        raise RuntimeError(f"{top}: {error}") from None
    if not refs:
        raise RuntimeError(f"{top} has no flip-flop: the simulator has nothing to clock")
    packed = words(refs, top)
    bits = sum(w for _, w in refs) + sum(width * size for _, width, size, _ in memories)
    overrides = ", ".join(f".{k}({v})" for k, v in spec["params"].items())
    connections = ", ".join(f".{name}({'clk' if name == 'clk_i' else name})" for name in module["ports"])
    text = "\n".join([
        f"// Generated by scripts/sim_models.py from the RTL of {spec['model']}: do not edit. The simulator's top of",
        f"// {top}: every change of clk_i is one rising edge of the controller's clock; regs_o holds the",
        f"// flip-flops of its hierarchy and memory<k>_o each memory ({bits} register bits in all).",
        "`default_nettype none", "module icnsim (", *port_declarations(module, len(packed), memories), ");",
        "  /*verilator tracing_off*/",
        "  logic clk, last_q;  // the controller's clock: high from a change of clk_i until the edge it makes",
        "  /*verilator tracing_on*/",
        "  assign clk = clk_i ^ last_q;",
        "  always_ff @(posedge clk or negedge rst_ni) last_q <= clk_i;  // reset: clk low, whatever last_q began as",
        f"  {top} {'#(' + overrides + ') ' if overrides else ''}{top} ({connections});",
        *[f"  assign regs_o[{k}] = {{{', '.join(reversed(word))}}};" for k, word in enumerate(packed)],
        *[f"  assign memory{k}_o = {top}.{name};" for k, (name, _, _, _) in enumerate(memories)],
        "endmodule", "`default_nettype wire", ""])
    parameters = {k: int(v, 2) for k, v in module.get("parameter_default_values", {}).items()
                  if isinstance(v, str) and v and set(v) <= {"0", "1"}}
    ports = {name: len(port["bits"]) for name, port in module["ports"].items()}
    return spec, bits, len(packed), len(memories), text, parameters, ports


def plural(count, one, many=None):
    return f"{count} {one if count == 1 else many or one + 's'}"


def info_header(model, bits, words, memories, parameters, port_bits):
    ports = ["m.regs_o"] + [f"m.memory{k}_o" for k in range(memories)]
    return "\n".join([
        f"// Generated by scripts/sim_models.py from the RTL of {model}: do not edit.", "#pragma once",
        "#include <cstdint>", "", f'#include "{model}.h"', '#include "mech/model_info.h"', "", "namespace icn {", "",
        "template <>", f"struct ModelInfo<{model}> {{", f'  static constexpr const char* kModel = "{model}";',
        f"  static constexpr int kRegisterBits = {bits};  // regs_o ({plural(words, 'word')}) and {plural(memories, 'memory', 'memories')}",
        "  // visit(port) for every port that holds registers: regs_o, then each memory's.",
        "  template <typename Visit>", f"  static void ForEachRegisterPort(const {model}& m, Visit&& visit) {{",
        f"    {'; '.join(f'visit({port})' for port in ports)};", "  }",
        "  struct Params {  // the top's parameters as verilated",
        *[f"    static constexpr uint64_t {k} = {v};" for k, v in sorted(parameters.items())],
        "  };",
        "  struct PortBits {  // the width of each of the controller's ports",
        *[f"    static constexpr int {k} = {v};" for k, v in port_bits.items()],
        "  };", "};", "", "}  // namespace icn", ""])


def write(path, text):
    if not path.exists() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--rtl", type=Path, action="append", default=[], help="another folder of RTL")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("specs", nargs="+", metavar="MODEL=TOP[:NAME=VALUE...]")
    args = parser.parse_args()
    files = rtl_models.module_files([rtl_models.RTL, *args.rtl])
    specs = []
    for text in args.specs:
        model, _, rest = text.partition("=")
        top, *params = rest.split(":")
        if not model or top not in files:
            sys.exit(f"sim_models: {text}: expected MODEL=TOP[:NAME=VALUE...] with a module TOP in the RTL")
        if not all(re.fullmatch(r"[A-Za-z_]\w*=\S+", p) for p in params):
            sys.exit(f"sim_models: {text}: a parameter is NAME=VALUE")
        specs.append({"model": model, "top": top, "params": dict(p.split("=", 1) for p in params), "files": files})
    print(f"sim_models: the tops of {len(specs)} models (Yosys)", file=sys.stderr)
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(generate, specs))
    except RuntimeError as error:
        sys.exit(f"sim_models: {error}")
    cmake = []
    for spec, bits, count, memories, text, parameters, ports in results:
        model = spec["model"]
        write(args.out / model / "icnsim.sv", text)
        write(args.out / f"{model}_info.h", info_header(model, bits, count, memories, parameters, ports))
        hierarchy = ";".join(rtl_models.sources(spec["top"], files))
        cmake.append(f'set(MODEL_SOURCES_{model} "{args.out / model / "icnsim.sv"};{hierarchy}")')
    write(args.out / "models.cmake", "\n".join(cmake) + "\n")


if __name__ == "__main__":
    main()
