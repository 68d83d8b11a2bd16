#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""docs/keys.md, the scenario key reference, made from what the binary says (`icnsim keys --json`:
each key's default, unit, allowed values, meaning and the rules between keys), never typed.

  scripts/keys_doc.py --icnsim build/icnsim           rewrite docs/keys.md
  scripts/keys_doc.py --icnsim build/icnsim --check   exit 1 if docs/keys.md is not what the binary
                                                      makes (CTest keys_reference)
  --out FILE                                          another page (a test works on a copy)"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "keys.md"

INTRO = """# Scenario keys

Every key a scenario may set, in a YAML file (nested or dotted names) or with `--set key=value`.
This page is made by `scripts/keys_doc.py` from `icnsim keys --json`, and CTest `keys_reference`
fails when the two differ: the binary is the reference. A value outside its range, an unknown key
or values that break a rule between keys are refused before the first cycle with exit 2, naming
the key and what it allows. Units: cycles are network cycles of `sim.cycle_ns`; a time in ns is
converted once, rounding up. A controller built in from a manifest (`docs/controllers.md`) adds
its own keys to the program it is built into: `icnsim keys` of that program lists them.
"""


def cell(text):
    """Text safe inside a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def code(text):
    return f"`{cell(text)}`" if str(text) != "" else "''"


def group_of(name):
    return name.split(".", 1)[0]


def page(keys):
    lines = [INTRO]
    groups = []
    for key in keys:
        if group_of(key["name"]) not in groups:
            groups.append(group_of(key["name"]))
    for group in groups:
        lines += [f"## `{group}`", "", "| key | default | unit | allowed | meaning |", "|---|---|---|---|---|"]
        for key in (k for k in keys if group_of(k["name"]) == group):
            lines.append(f"| {code(key['name'])} | {code(key['default'])} | {cell(key['unit']) or '-'} | "
                         f"{cell(key['allowed'])} | {cell(key['help'])} |")
        lines.append("")
    rules = []
    for key in keys:
        for rule in key["rules"]:
            entry = (tuple(rule["keys"]), rule["allows"])
            if entry not in rules:
                rules.append(entry)
    lines += ["## Rules between keys", "",
              "Values each key allows alone may still be refused together: a run is refused (exit 2, naming "
              "the keys) unless every rule below holds.", "", "| keys | what is allowed |", "|---|---|"]
    lines += [f"| {', '.join(code(k) for k in names)} | {cell(allows)} |" for names, allows in rules]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--icnsim", required=True, help="the icnsim binary whose keys are documented")
    parser.add_argument("--check", action="store_true", help="exit 1 if the page differs from the binary's keys")
    parser.add_argument("--out", type=Path, default=PAGE, help="the page (default docs/keys.md)")
    args = parser.parse_args()
    run = subprocess.run([args.icnsim, "keys", "--json"], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"keys_doc: {args.icnsim} keys --json failed (exit {run.returncode}): {run.stderr.strip()}")
    made = page(json.loads(run.stdout))
    if args.check:
        current = args.out.read_text() if args.out.is_file() else ""
        if current != made:
            print(f"keys_doc: {args.out} differs from `icnsim keys --json`; run scripts/keys_doc.py --icnsim "
                  f"{args.icnsim} and commit the page", file=sys.stderr)
            return 1
        print(f"keys_doc: {args.out} matches the binary's {made.count(chr(10))} lines")
        return 0
    args.out.write_text(made)
    print(f"keys_doc: wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
