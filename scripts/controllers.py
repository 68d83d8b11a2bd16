#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Controllers declared by a manifest: a folder with the controller's RTL and a controller.yaml that
says which contract it follows (docs/controllers.md), its top and parameters, its keys (with ranges,
units and the strap port each sets), its power states and the keys of their power, and its GTKWave
view. From them the build verilates it, registers it (no C++ of the controller's own), costs it,
lints it and traces it.

  controllers.py --out DIR FOLDER...   checks each folder's manifest against its RTL (Yosys reads
                                       the top's ports) and writes, in DIR, <name>_registration.cpp
                                       and controllers.cmake (what CMake verilates and compiles)

A manifest that breaks a rule stops with exit 2 and a message naming the file and the field."""
import argparse
import json
import re
import sys
from pathlib import Path

import yaml

import cost
import rtl_models
import sim_models

CONTRACTS = ("link_end", "switch", "node")


def contract_ports(contract, ports):
    """The ports a contract needs (port -> (direction, width)) and the straps the harness may set
    (port -> most bits), for a top with these ports. The link-end contract is
    sysc/mech/link_end/link_end_contract.h; the switch and node contracts,
    sysc/mech/port_group/port_group_contract.h, have a vector of P ports (P: tx_en_o's width)."""
    common = {"clk_i": ("input", 1), "rst_ni": ("input", 1), "now_i": ("input", 32),
              "deadline_o": ("output", 32), "deadline_valid_o": ("output", 1)}
    if contract == "link_end":
        return {**common, "tx_queue_i": ("input", 16), "tx_busy_i": ("input", 1), "rx_busy_i": ("input", 1),
                "ctl_rx_i": ("input", 3), "ctl_tx_o": ("output", 3), "tx_en_o": ("output", 1)}, \
            {"master_i": 1, "latency_i": 8}
    p = ports.get("tx_en_o", ("output", 1))[1]
    return {**common, "tx_queue_i": ("input", 16 * p), "tx_busy_i": ("input", p), "rx_busy_i": ("input", p),
            "tx_en_o": ("output", p)}, {"ports_i": p}


def harness_ports(contract):
    """The ports of a contract, which no key may set."""
    needed, straps = contract_ports(contract, {})
    return {"power_o", *needed, *straps}

OPTIONAL_OUTPUTS = {"busy_o": 1}
MOST_PORTS = 64  # of a switch controller (the harness packs its port mask into 64 bits)
FIELDS = {"name", "contract", "description", "top", "rtl", "parameters", "link_wide", "keys", "power_states",
          "counted_messages", "view"}
KEY_FIELDS = {"name", "type", "default", "range", "unit", "strap", "help"}
STATE_FIELDS = {"name", "watts", "asleep"}
# Names taken: the sections of results.json (the bundled mechanisms' and the run's) and the key
# prefixes of the other layers. (Bundled controllers and modules of rtl/ are taken too: load().)
RESERVED = {"eee", "fattree_onoff", "erapid", "torus_swap", "photonic", "sim", "network", "topology", "router",
            "link", "traffic", "workload", "process", "system", "external_traffic", "check", "converged",
            "energy", "latency", "packets", "params", "scenario", "seed", "steady_state", "throughput",
            "verdict", "verdict_reason", "warnings", "git_revision", "provenance"}
# What the link-end adapter reports in every controller's section.
HARNESS_COUNTS = {"sleeps", "wakeups", "flits_at_sleeping_port"}


class ManifestError(Exception):
    pass


def fail(where, message):
    raise ManifestError(f"{where}: {message}")


def check_fields(where, value, allowed, required=()):
    if not isinstance(value, dict):
        fail(where, "expected a mapping")
    unknown = sorted(set(value) - allowed)
    if unknown:
        fail(where, f"unknown field {unknown[0]}; allowed: {', '.join(sorted(allowed))}")
    for field in required:
        if field not in value:
            fail(where, f"missing field {field}")


IDENTIFIER = r"[a-z][a-z0-9_]*"


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def one_line(where, value):
    if not isinstance(value, str) or not value.strip() or "\n" in value.strip():
        fail(where, f"{value!r}: one line of text")
    return value.strip()


def load(folder):
    """The manifest of a controller folder, checked against itself (not yet against the RTL)."""
    folder = Path(folder).resolve()
    path = folder / "controller.yaml"
    if not path.is_file():
        raise ManifestError(f"{folder}: no controller.yaml (a controller folder holds its manifest and RTL)")
    where = str(path)
    try:
        m = yaml.safe_load(path.read_text())
    except yaml.YAMLError as error:
        fail(where, f"not YAML: {error}")
    check_fields(where, m, FIELDS, ("name", "contract", "top", "keys", "power_states"))
    name = m["name"]
    taken = RESERVED | {row["controller"] for row in rtl_models.models()} | set(
        rtl_models.module_files([rtl_models.RTL, rtl_models.ROOT / "tb" / "rtl"]))
    if not isinstance(name, str) or not re.fullmatch(IDENTIFIER, name) or name in taken:
        fail(f"{where}: name", f"{name!r}: a lower-case identifier that names no section of results.json, "
                               "no bundled controller and no module of rtl/")
    if m["contract"] not in CONTRACTS:
        fail(f"{where}: contract", f"{m['contract']!r}: allowed: {', '.join(CONTRACTS)}")
    for field in ("link_wide", "counted_messages"):
        if field in m and m["contract"] != "link_end":
            fail(f"{where}: {field}", f"a field of link-end controllers (messages to the partner end); "
                                      f"this one is a {m['contract']} controller")
    if not isinstance(m["top"], str) or not re.fullmatch(r"[A-Za-z_]\w*", m["top"]):
        fail(f"{where}: top", f"{m['top']!r}: a module name")
    m["folder"] = folder
    rtl = m.get("rtl") or sorted(p.name for p in folder.glob("*.sv"))
    if not isinstance(rtl, list) or not all(isinstance(f, str) for f in rtl):
        fail(f"{where}: rtl", "a list of file names")
    m["rtl"] = [folder / f for f in rtl]
    for f in m["rtl"]:
        if not f.is_file():
            fail(f"{where}: rtl", f"{f} does not exist")
    m.setdefault("parameters", {})
    if not isinstance(m["parameters"], dict) or not all(
            re.fullmatch(r"[A-Za-z_]\w*", str(k)) and is_int(v) for k, v in m["parameters"].items()):
        fail(f"{where}: parameters", "a mapping of the top's parameter names to integers")
    m["description"] = one_line(f"{where}: description", m.get("description", f"the {name} controllers"))
    m.setdefault("link_wide", False)
    if not isinstance(m["link_wide"], bool):
        fail(f"{where}: link_wide", f"{m['link_wide']!r}; allowed: true or false")
    keys = {}
    if not isinstance(m["keys"], list):
        fail(f"{where}: keys", "a list")
    for i, key in enumerate(m["keys"]):
        kw = f"{where}: keys[{i}]"
        check_fields(kw, key, KEY_FIELDS, ("name", "type", "default", "help"))
        if not re.fullmatch(IDENTIFIER, str(key["name"])) or key["name"] == "enabled" or key["name"] in keys:
            fail(kw, f"name {key['name']!r}: a lower-case identifier other than enabled, once")
        key["help"] = one_line(f"{kw}: help", key["help"])
        if key["type"] not in ("real", "int", "bool"):
            fail(kw, f"type {key['type']!r}; allowed: real, int, bool")
        if key["type"] == "bool":
            if not isinstance(key["default"], bool) or "range" in key or "unit" in key:
                fail(kw, "a bool key has a default true or false, and no range or unit")
        else:
            number = is_int if key["type"] == "int" else is_number
            low, high = key.get("range", [0, 1e15])
            if not isinstance(key.get("range", []), list) or not all(number(v) for v in (low, high, key["default"])):
                fail(kw, f"default and range [low, high] are {key['type']} numbers "
                         "(YAML reads 1e7 as text: write 1.0e+7)")
            if not low <= key["default"] <= high:
                fail(kw, f"default {key['default']} outside its range [{low}, {high}]")
            key["range"] = [low, high]
        if "unit" in key and not (isinstance(key["unit"], str) and re.fullmatch(r"[\w/ %]*", key["unit"])):
            fail(kw, f"unit {key['unit']!r}: a short name such as ns, W or cycles")
        if key.get("unit") == "ns" and key["type"] != "real":
            fail(kw, "a time in ns is type real (the harness converts it to cycles)")
        if "strap" in key:
            if key["type"] == "real" and key.get("unit") != "ns":
                fail(kw, "a strap takes an int, a bool or a time in ns (unit: ns, converted to cycles)")
            if key["type"] != "bool" and key["range"][0] < 0:
                fail(kw, "a strap's range starts at 0 or above")
            if key["strap"] in harness_ports(m["contract"]):
                fail(kw, f"strap {key['strap']}: the harness drives it")
            if any(k.get("strap") == key["strap"] for k in keys.values()):
                fail(kw, f"strap {key['strap']}: another key sets it")
        keys[key["name"]] = key
    m["keys"] = keys
    if not isinstance(m["power_states"], list) or not m["power_states"]:
        fail(f"{where}: power_states", "a list of at least one state (state 0: awake)")
    for i, state in enumerate(m["power_states"]):
        sw = f"{where}: power_states[{i}]"
        check_fields(sw, state, STATE_FIELDS, ("name", "watts"))
        if not re.fullmatch(IDENTIFIER, str(state["name"])) or \
                [s["name"] for s in m["power_states"]].count(state["name"]) > 1:
            fail(sw, f"name {state['name']!r}: a lower-case identifier, once")
        if state["watts"] not in keys or keys[state["watts"]]["type"] != "real":
            fail(sw, f"watts names a key of type real of this manifest; {state['watts']!r} is none")
        state.setdefault("asleep", False)
        if not isinstance(state["asleep"], bool) or (i == 0 and state["asleep"]):
            fail(sw, "asleep is true or false, and false for state 0 (awake)")
    m.setdefault("counted_messages", {})
    if not isinstance(m["counted_messages"], dict):
        fail(f"{where}: counted_messages", "a mapping of results.json names to ctl_tx_o values")
    for label, code in m["counted_messages"].items():
        if not re.fullmatch(IDENTIFIER, str(label)) or label in HARNESS_COUNTS:
            fail(f"{where}: counted_messages", f"{label!r}: a lower-case identifier other than "
                                               f"{', '.join(sorted(HARNESS_COUNTS))}")
        if not is_int(code) or not 1 <= code <= 7:
            fail(f"{where}: counted_messages: {label}", f"{code!r}; allowed: a ctl_tx_o value in [1, 7]")
    if "view" in m:
        if not isinstance(m["view"], str):
            fail(f"{where}: view", "a file name")
        m["view"] = folder / m["view"]
        if not m["view"].is_file():
            fail(f"{where}: view", f"{m['view']} does not exist")
    return m


def check_ports(m):
    """The top's ports against the contract and the manifest's straps; returns {port: width}."""
    files = rtl_models.module_files([rtl_models.RTL, m["folder"]])
    if m["top"] not in files:
        fail(f"{m['folder'] / 'controller.yaml'}: top", f"no module {m['top']} in {m['folder']}")
    try:
        module = sim_models.netlist(m["top"], m["parameters"], files)
    except RuntimeError as error:
        fail(f"{m['folder'] / 'controller.yaml'}: top", str(error))
    ports = {n: (p["direction"], len(p["bits"])) for n, p in module["ports"].items()}
    where = f"{m['folder'] / 'controller.yaml'}: top {m['top']}"
    contract = m["contract"].replace("_", "-")
    needed, harness_straps = contract_ports(m["contract"], ports)
    p = needed["tx_en_o"][1]
    if m["contract"] == "node" and p != 1 or not 1 <= p <= MOST_PORTS:
        fail(where, f"tx_en_o has {p} bits: a {contract} controller has "
                    f"{'one port' if m['contract'] == 'node' else f'1 to {MOST_PORTS} ports'}")
    for port, (direction, width) in needed.items():
        if ports.get(port) != (direction, width):
            fail(where, f"the {contract} contract needs {direction} {port} of {width} bit(s); "
                        f"found {ports.get(port, 'none')}")
    states = len(m["power_states"])
    power = ports.get("power_o", ("", 0))
    if power[0] != "output" or power[1] % p or not states <= 2 ** (power[1] // p) <= 256:
        fail(where, f"the {contract} contract needs output power_o of at most 8 bits per port ({p} port(s)), "
                    f"wide enough for its {states} power states")
    straps = {k["strap"]: k for k in m["keys"].values() if "strap" in k}
    for port, key in straps.items():
        if ports.get(port, ("",))[0] != "input":
            fail(f"{m['folder'] / 'controller.yaml'}: keys", f"strap {port} is not an input of {m['top']}")
        if key["type"] == "int" and key["range"][1] > 2 ** ports[port][1] - 1:
            fail(f"{m['folder'] / 'controller.yaml'}: keys: {key['name']}",
                 f"range up to {key['range'][1]} does not fit the {ports[port][1]}-bit strap {port}")
    for port, (direction, width) in ports.items():
        if port in needed or port == "power_o":
            continue
        if direction == "input":
            if port in harness_straps:
                if width > harness_straps[port] or port == "ports_i" and width != p:
                    fail(where, f"{port} is {'' if port == 'ports_i' else 'at most '}{harness_straps[port]} "
                                "bit(s) wide")
            elif port not in straps:
                fail(where, f"input {port} is neither the contract's nor set by a key (a key's strap field)")
            elif width > 64:
                fail(where, f"strap {port} is wider than 64 bits")
        elif port in OPTIONAL_OUTPUTS and width != OPTIONAL_OUTPUTS[port]:
            fail(where, f"{port} is {OPTIONAL_OUTPUTS[port]} bit(s)")
    return {p: w for p, (_, w) in ports.items()}


def cost_row(m, out):
    """Its row as scripts/cost.py reports it (Yosys), kept in OUT/<name>.cost.json."""
    files = rtl_models.module_files([rtl_models.RTL, m["folder"]])
    row = {"controller": m["name"], "top": m["top"], "params": m["parameters"], "scenarios": [],
           "storage_formula": ""}
    result, error = cost.kept_row(row, files, out / f"{m['name']}.cost.json")
    if result is None:
        fail(f"{m['folder'] / 'controller.yaml'}: top", f"Yosys could not synthesise it: {error}")
    return result


def cxx(text):
    """A C++ string literal (JSON's escapes are C++'s)."""
    return json.dumps(str(text))


def number(value):
    return repr(float(value)) if not isinstance(value, bool) else ("1" if value else "0")


def key_spec(name, key):
    full, help_ = cxx(f"{name}.{key['name']}"), cxx(key["help"])
    if key["type"] == "bool":
        return f"BoolKey({full}, {cxx(str(key['default']).lower())}, {help_})"
    low, high = (number(v) for v in key["range"])
    make = "RealKey" if key["type"] == "real" else "IntKey"
    return f"{make}({full}, {cxx(key['default'])}, {low}, {high}, {cxx(key.get('unit', ''))}, {help_})"


def strap_kind(key):
    if key.get("unit") == "ns":
        return "StrapKind::kNsToCycles"
    return "StrapKind::kBool" if key["type"] == "bool" else "StrapKind::kInt"


def registration(m, ports, cost):
    """The registration of a declared controller (C++ the build compiles, written here)."""
    name, model = m["name"], "V" + m["name"]
    keys = m["keys"].values()
    straps = [k for k in keys if "strap" in k]
    types = {1: "bool", 8: "uint8_t", 16: "uint16_t", 32: "uint32_t", 64: "uint64_t"}
    contract = {"link_end": "kLinkEnd", "switch": "kSwitch", "node": "kNode"}[m["contract"]]
    make = f"MakeDeclaredLinkEnd<{model}>(config, context, Strap)" if m["contract"] == "link_end" else \
        f"MakeDeclaredPortGroup<{model}>(PortGroupKind::{contract}, config, context, Strap)"

    def port_type(width):
        return types[next(w for w in sorted(types) if w >= width)]

    lines = [
        f"// Generated by scripts/controllers.py from {m['folder'].name}/controller.yaml: do not edit.",
        f"// Registers the {m['contract'].replace('_', '-')} controller {name} ({model}) as a mechanism.",
        f'#include "{model}.h"', f'#include "{model}_info.h"', '#include "mech/declared/declared_controller.h"',
        '#include "mech/registry.h"', "", "namespace icn {", "namespace {", "",
        "const DeclaredController& Declared() {", "  static const DeclaredController declared = {",
        f"      {cxx(name)}, Contract::{contract},",
        f"      {{{cxx(model)}, {cost['ge_logic']}, {cost['logic_depth']}}},",
        f"      {cxx(f'waves/{name}/' + m['view'].name) if 'view' in m else cxx('')},",
        f"      {'true' if m['link_wide'] else 'false'},",
        f"      {{BoolKey({cxx(name + '.enabled')}, \"false\", {cxx(m['description'])}),",
        *[f"       {key_spec(name, k)}," for k in keys], "      },",
        "      {" + ", ".join(f"{{{cxx(name + '.' + k['name'])}, {strap_kind(k)}, {ports[k['strap']]}}}"
                              for k in straps) + "},",
        "      {" + ", ".join(f"{{{cxx(s['name'])}, {cxx(name + '.' + s['watts'])}, "
                              f"{'true' if s.get('asleep') else 'false'}}}" for s in m["power_states"]) + "},",
        "      {" + ", ".join(f"{{{cxx(label)}, {code}}}" for label, code in m["counted_messages"].items()) + "}};",
        "  return declared;", "}", "",
        f"void Strap({model}& m, const std::vector<uint64_t>& values) {{",
        *[f"  m.{k['strap']} = static_cast<{port_type(ports[k['strap']])}>(values[{i}]);"
          for i, k in enumerate(straps)],
        *(["  (void)m;", "  (void)values;"] if not straps else []), "}", "",
        "std::unique_ptr<MechanismConfig> Parse(const MechanismParseContext& context) {",
        "  return ParseDeclared(Declared(), context);", "}",
        "std::unique_ptr<Mechanism> Make(const MechanismConfig& config, const MechanismContext& context) {",
        f"  return {make};", "}",
        "std::string View(const MechanismConfig&) { return Declared().view; }",
        "MechanismInfo Info() { return DeclaredMechanism(Declared(), Parse, Make, View); }", "",
        "[[maybe_unused]] const bool registered = RegisterMechanism(Info);", "", "}  // namespace", "}  // namespace icn", ""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--prefix", default="DECLARED", help="of the CMake variables written (DECLARED)")
    parser.add_argument("folders", nargs="*", type=Path)
    args = parser.parse_args()
    cmake, names = [], set()
    try:
        for folder in args.folders:
            m = load(folder)
            if m["name"] in names:
                fail(folder, f"a second controller named {m['name']}")
            names.add(m["name"])
            ports = check_ports(m)
            print(f"controllers: {m['name']} ({m['contract']}, top {m['top']}) from {m['folder']}", file=sys.stderr)
            cost = cost_row(m, args.out)
            source = args.out / f"{m['name']}_registration.cpp"
            sim_models.write(source, registration(m, ports, cost))
            spec = ":".join([m["top"], *(f"{k}={v}" for k, v in m["parameters"].items())])
            n = m["name"]
            var = f"{args.prefix}_{n}"
            cmake += [f'list(APPEND {args.prefix}_CONTROLLERS {n})', f'set({var}_SPEC "V{n}={spec}")',
                      f'set({var}_TOP {m["top"]})', f'set({var}_FOLDER "{m["folder"]}")',
                      f'set({var}_SOURCES "{";".join(str(f) for f in m["rtl"])}")',
                      f'set({var}_LINT_PARAMS "{";".join(f"-G{k}={v}" for k, v in m["parameters"].items())}")',
                      f'set({var}_REGISTRATION "{source}")', f'set({var}_VIEW "{m.get("view", "")}")']
    except ManifestError as error:
        print(f"controllers: {error}", file=sys.stderr)
        return 2
    sim_models.write(args.out / "controllers.cmake",
                     "\n".join([f"set({args.prefix}_CONTROLLERS)", *cmake]) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
