#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Makes the GTKWave views show encoded signals by name.

Reads the RTL's `typedef enum` blocks and writes one translate filter file per enum
(OUT/filters/<enum>.gtkwf: "<hex value> <name>" lines). Then copies each view template
(VIEWS/*.gtkw, valid GTKWave save files on their own) to OUT/, putting the filter in front of
every trace that carries an enum: a signal declared with the enum type, or a port whose
declaration comment says `enum: <type>`; a `#{alias} (i)vec (j)vec` slice of such a vector
gets the filter when it is one element wide. A signal declared `signed` is shown as a signed
decimal. Filter paths are absolute (GTKWave resolves them
from its working folder): OUT/filters, or --filters-at where the files will be read from (an
installation staged under DESTDIR). A view signal the RTL does not declare is an error: views
cannot go stale.

Usage: wave_views.py --rtl RTL_DIR --views VIEWS_DIR --out OUT_DIR [--filters-at DIR]
       (run by the build and by its installation)
"""
import argparse
import glob
import os
import re
import sys

ENUM_RE = re.compile(r"typedef\s+enum\s+logic\s*\[(\d+):0\]\s*\{(.*?)\}\s*(\w+)\s*;", re.S)
LITERAL_RE = re.compile(r"(\w+)\s*=\s*\d*'([dhb])([0-9a-fA-F_]+)")
TAG_RE = re.compile(r"\b(\w+)\s*,?\s*//.*\benum:\s*(\w+)")
MODULE_RE = re.compile(r"^module\s+(\w+)(.*?)^endmodule", re.S | re.M)
BASES = {"d": 10, "h": 16, "b": 2}
# GTKWave trace flags (save-file "@" lines): display bases, and "translated by a filter file".
BASE_FLAGS, HEX, DEC, TRANSLATED, SIGNED = 0x2 | 0x4 | 0x8 | 0x10, 0x2, 0x4, 0x2000, 0x400


def fail(message):
    sys.exit(f"wave_views: {message}")


class Rtl:
    def __init__(self, rtl_dir):
        self.enums = {}    # enum type -> (width, [(value, name)], file)
        self.modules = {}  # module -> source text
        # Include files (*.svh) hold the enums that several modules share.
        for path in sorted(glob.glob(f"{rtl_dir}/**/*.sv", recursive=True) +
                           glob.glob(f"{rtl_dir}/**/*.svh", recursive=True)):
            if "/synth/" in path:
                continue
            with open(path) as f:
                text = f.read()
            for msb, body, name in ENUM_RE.findall(text):
                if name in self.enums:
                    fail(f"enum {name} defined twice ({self.enums[name][2]}, {path})")
                values = [(int(v.replace("_", ""), BASES[b]), n) for n, b, v in LITERAL_RE.findall(body)]
                self.enums[name] = (int(msb) + 1, values, os.path.relpath(path, os.path.dirname(rtl_dir)))
            for module, body in MODULE_RE.findall(text):
                self.modules[module] = body
        self.signal_enums = {m: self._signal_enums(body) for m, body in self.modules.items()}
        self.signed = {m: self._signed(body) for m, body in self.modules.items()}
        self.instances = {m: self._instances(body) for m, body in self.modules.items()}

    def _signal_enums(self, body):
        """Signals of a module that carry an enum -> (enum, variable): tagged `enum: type` (ports,
        wires in the dump) or declared with the enum type (variables)."""
        found = {}
        for name, enum in TAG_RE.findall(body):
            found[name] = (enum, False)
        for enum in self.enums:
            for decl in re.findall(rf"^\s*{enum}\s+([\w\s,]+);", body, re.M):
                for name in decl.split(","):
                    found[name.strip()] = (enum, True)
        for name, (enum, _) in found.items():
            if enum not in self.enums:
                fail(f"signal {name} is tagged with enum {enum}, which no RTL file defines")
        return found

    @staticmethod
    def _signed(body):
        """Signals of a module declared `signed` (ports and variables)."""
        found = set()
        for line in body.splitlines():
            decl = re.search(r"\b(?:logic|wire|reg|bit)\s+signed\b\s*(?:\[[^\]]*\]\s*)?(.*)", line.split("//")[0])
            if decl:
                found |= set(re.findall(r"\b([A-Za-z_]\w*)\b", re.split(r"[;=)]", decl.group(1))[0]))
        return found

    def _instances(self, body):
        """Instance name -> module, for instances of the project's modules."""
        found = {}
        for module in self.modules:
            for m in re.finditer(rf"^\s*{module}\b", body, re.M):
                rest = body[m.end():]
                if rest.lstrip().startswith("#"):  # skip the balanced #( ... ) parameter list
                    depth, i = 0, rest.index("(")
                    while True:
                        depth += {"(": 1, ")": -1}.get(rest[i], 0)
                        i += 1
                        if depth == 0:
                            break
                    rest = rest[i:]
                name = re.match(r"\s*(\w+)\s*\(", rest)
                if name:
                    found[name.group(1)] = module
        return found

    def owners(self, path, view):
        """The modules that may declare a traced signal (path: scopes.signal, no range): the one its
        scopes name, or every module with a port of that name when it is seen at the harness's
        instance scope."""
        *scopes, signal = path.split(".")
        module = None
        for scope in scopes:
            if scope in self.modules:
                module = scope
            elif module and scope in self.instances[module]:
                module = self.instances[module][scope]
        if module is None:  # a port of the traced model, seen at the harness's instance scope
            owners = [m for m, body in self.modules.items() if re.search(rf"\b(input|output)\b[^;\n]*\b{signal}\b", body)]
            if not owners:
                fail(f"{view}: {path}: no RTL module has a port {signal}")
            return owners
        if not re.search(rf"\b{signal}\b", self.modules[module]):
            fail(f"{view}: {path}: module {module} declares no {signal}")
        return [module]

    def enum_of(self, path, view):
        """(enum, variable) of a traced signal, (None, False) if plain. path: scopes.signal, no range."""
        signal = path.split(".")[-1]
        enums = {self.signal_enums[m].get(signal, (None, False)) for m in self.owners(path, view)}
        if len(enums) > 1:
            fail(f"{view}: {path}: ports named {signal} carry different encodings {sorted(map(str, enums))}")
        return enums.pop()

    def signed_of(self, path, view):
        """Whether a traced signal is declared signed (ports of one name must agree)."""
        signal = path.split(".")[-1]
        signed = {signal in self.signed[m] for m in self.owners(path, view)}
        if len(signed) > 1:
            fail(f"{view}: {path}: ports named {signal} are signed in some modules and not in others")
        return signed.pop()


def write_filters(rtl, out, filters_at):
    os.makedirs(f"{out}/filters", exist_ok=True)
    paths = {}
    for enum, (width, values, source) in sorted(rtl.enums.items()):
        path = os.path.abspath(f"{out}/filters/{enum}.gtkwf")
        lines = [f"# {enum} of {source} ({width} bits), generated by scripts/wave_views.py"]
        lines += [f"{value:X} {name}" for value, name in values]
        with open(path + ".tmp", "w") as f:
            f.write("\n".join(lines) + "\n")
        os.replace(path + ".tmp", path)
        paths[enum] = f"{filters_at}/{enum}.gtkwf" if filters_at else path
    return paths


def plain(line):
    """A trace line's signal path without its bit range."""
    range_ = re.search(r"\[(\d+):(\d+)\]$", line)
    return line[: range_.start()] if range_ else line


def traced_enum(rtl, line, view):
    """The enum of a trace line of a view and the line to write (None and the line if plain).

    GTKWave translates wires and bit composites but not SystemVerilog variables, so a variable is
    written as the composite of its bits. In a composite `(n)` counts from the vector's MSB."""
    if line.startswith("#{"):
        bits = re.findall(r"\((\d+)\)(\S+?)\[(\d+):(\d+)\](?=\s|$)", line.split("}", 1)[1])
        if len({b[1] for b in bits}) != 1:
            return None, line
        enum, _ = rtl.enum_of(bits[0][1], view)
        if enum is None:
            return None, line
        width, msb = rtl.enums[enum][0], int(bits[0][2])
        positions = [int(b[0]) for b in bits]
        aligned = (msb - positions[-1]) % width == 0
        if len(bits) != width or positions != list(range(positions[0], positions[0] + width)) or not aligned:
            fail(f"{view}: {line}: a slice of a {enum} vector must be one {width}-bit element, MSB first")
        return enum, line
    range_ = re.search(r"\[(\d+):(\d+)\]$", line)
    signal = line[: range_.start()] if range_ else line
    enum, variable = rtl.enum_of(signal, view)
    if enum is None:
        return None, line
    width = int(range_.group(1)) - int(range_.group(2)) + 1 if range_ else 1
    if width != rtl.enums[enum][0]:
        return None, line  # a whole packed vector: its slices carry the names
    if variable:
        line = f"#{{{signal}}} " + " ".join(f"({i}){line}" for i in range(width))
    return enum, line


def write_view(rtl, filters, template, out):
    view = os.path.basename(template)
    lines, flags, used = [], 0, {}
    with open(template) as f:
        for line in f.read().splitlines():
            if line.startswith("@"):
                flags = int(line[1:], 16)
            is_trace = line and line[0] not in "[@-*^" or line.startswith("#{")
            enum, line = traced_enum(rtl, line, view) if is_trace else (None, line)
            if enum is None and is_trace and not line.startswith("#{") and rtl.signed_of(plain(line), view):
                lines += [f"@{flags & ~BASE_FLAGS | DEC | SIGNED:x}", line, f"@{flags:x}"]
                continue
            if enum is None:
                lines.append(line)
                continue
            number = used.setdefault(enum, len(used) + 1)
            lines += [f"@{flags & ~BASE_FLAGS | HEX | TRANSLATED:x}", f"^{number} {filters[enum]}", line,
                      f"@{flags:x}"]
    if not used:
        fail(f"{view}: no trace carries an enum: nothing for a filter to name")
    with open(f"{out}/{view}.tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(f"{out}/{view}.tmp", f"{out}/{view}")
    return used


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rtl", required=True)
    parser.add_argument("--views", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--filters-at", help="the folder the views name for their filters (default: OUT/filters)")
    args = parser.parse_args()
    rtl = Rtl(os.path.abspath(args.rtl))
    filters = write_filters(rtl, args.out, args.filters_at)
    templates = sorted(glob.glob(f"{args.views}/*.gtkw"))
    if not templates:
        fail(f"no views in {args.views}")
    for template in templates:
        used = write_view(rtl, filters, template, args.out)
        print(f"wave_views: {os.path.basename(template)}: {', '.join(sorted(used))}")


if __name__ == "__main__":
    main()
