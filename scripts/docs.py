#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The generated parts of the docs: every block between "<!-- KIND: ARGUMENT -->" and
"<!-- /KIND -->" in docs/*.md and README.md is made from data, never typed:
  claims: NAME          the fidelity table of sim/experiments/NAME/claims.yaml (scripts/claims.py)
  cost: CONTROLLER ...  those controllers' rows of cost/cost.json (scripts/cost.py)
  formal: proofs        what scripts/formal.py proves, at which parameters and under which assumptions
  figure: DIR/NAME      the points of a figure, sim/results/DIR/NAME_figure.csv (scripts/plot.py):
                        one row per quantity and series, one column per x, mean ± 95 % half-width
  table: DIR/NAME       sim/results/DIR/NAME.csv as it is (a script such as scripts/workloads.py
                        writes it)

  scripts/docs.py          rewrite the blocks
  scripts/docs.py --check  exit 1 if a block is not what its data makes (CTest docs_generated)
  scripts/docs.py PAGE...  only these pages (any path: a test works on a copy)"""
import argparse
import csv
import json
import re
import sys
from pathlib import Path

import claims
import cost
import formal

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"(<!-- (claims|cost|figure|formal|table): ([^>]*?) -->\n)(.*?\n)??(<!-- /\2 -->)", re.S)


def pages():
    return sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]


class Sources:
    """The data blocks are made from, read once."""

    def __init__(self):
        self.files = {f.name: f for f in map(claims.ClaimsFile, claims.all_files())}
        self.results, problems = claims.recompute(self.files.values())
        if problems:  # (a table shows what the files record, so they must hold first)
            raise claims.ClaimError("claims no longer hold (scripts/claims.py says which): " + "; ".join(problems))
        self.cost = json.loads((ROOT / "cost" / "cost.json").read_text())

    def block(self, kind, argument, page):
        if kind == "claims":
            f = self.files.get(argument)
            if f is None:
                raise claims.ClaimError(f"{page}: no claims file named '{argument}' (sim/experiments/{argument}/claims.yaml)")
            return f.table(self.results[f.path])
        if kind == "figure":
            return figure_table(argument, page)
        if kind == "table":
            return csv_table(argument, page)
        if kind == "formal":
            return formal.markdown()
        names = argument.split()
        unknown = set(names) - {r["controller"] for r in self.cost["controllers"]}
        if unknown:
            raise claims.ClaimError(f"{page}: cost: no controller {', '.join(sorted(unknown))} in cost/cost.json")
        return "\n".join(cost.table(self.cost, names))


def mean_and_interval(mean, half, seeds):
    """"mean ± half-width" to the mean's digits (3 decimals below 10, 1 below 100, else none); a
    point of one seed has no interval."""
    digits = 3 if abs(mean) < 10 else 1 if abs(mean) < 100 else 0
    return f"{mean:,.{digits}f}" + (f" ± {half:,.{digits}f}" if seeds > 1 else "")


def csv_table(argument, page, results=ROOT / "sim" / "results"):
    """<results>/<argument>.csv as a markdown table."""
    path = results / f"{argument}.csv"
    if not path.is_file():
        raise claims.ClaimError(f"{page}: table: no {path.relative_to(ROOT)}")
    rows = list(csv.reader(path.read_text().splitlines()))
    cells = [[c.replace("|", "\\|") for c in row] for row in rows]
    lines = ["| " + " | ".join(cells[0]) + " |", "|" + "---|" * len(cells[0])]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in cells[1:]])


def figure_table(argument, page, results=ROOT / "sim" / "results"):
    """The points of <results>/<argument>_figure.csv as a markdown table."""
    path = results / f"{argument}_figure.csv"
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    if not path.is_file():
        raise claims.ClaimError(f"{page}: figure: no {shown} (scripts/plot.py writes it)")
    lines = path.read_text().splitlines()
    title = lines[0].lstrip("# ").split(": each point")[0] if lines and lines[0].startswith("#") else argument
    points = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    xs = list(dict.fromkeys(p["x"] for p in points))
    try:  # numbers in numeric order, whatever point a series misses
        xs.sort(key=float)
    except ValueError:
        pass
    series = {}  # (panel, row, quantity, hue) -> {x: cell}, in the file's order
    for p in points:
        key = (p["panel"], p["row"], p["as"] or p["y"], p["hue"])
        if p["x"] in series.setdefault(key, {}):
            raise claims.ClaimError(f"{page}: figure: {path.name} has two points at {key[1:]} x = {p['x']}")
        series[key][p["x"]] = mean_and_interval(float(p["mean"]), float(p["ci95"] or 0), int(p["seeds"] or 0)) \
            if p["mean"] else ""
    seeds = sorted({int(p["seeds"]) for p in points if p["seeds"]})
    seed_range = "-".join(str(n) for n in dict.fromkeys([seeds[0], seeds[-1]])) if seeds else "?"
    has_rows = any(row for _, row, _, _ in series)
    head = (["row"] if has_rows else []) + ["quantity", "series"] + xs
    out = [f"{title}: mean ± 95 % half-width over {seed_range} seeds, one column per point of the x axis "
           f"(`{shown}`)", "",
           "| " + " | ".join(head) + " |", "|" + "---|" * (len(head) - len(xs)) + "---:|" * len(xs)]
    for (_, row, quantity, hue), cells in series.items():
        first = ([row] if has_rows else []) + [quantity, hue]
        out.append("| " + " | ".join(first + [cells.get(x, "") for x in xs]) + " |")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a block is stale")
    parser.add_argument("pages", nargs="*", type=Path, help="pages to fill (default: docs/*.md and README.md)")
    args = parser.parse_args()
    try:
        sources = Sources()
        stale = []
        for page in args.pages or pages():
            text = page.read_text()
            shown = page.resolve().relative_to(ROOT) if page.resolve().is_relative_to(ROOT) else page
            new = BLOCK.sub(lambda m: m.group(1) + sources.block(m.group(2), m.group(3).strip(), shown) + "\n" + m.group(5), text)
            if new != text:
                stale.append(shown)
                if not args.check:
                    page.write_text(new)
        for f in sources.files.values():
            if f"<!-- claims: {f.name} -->" not in (f.doc.read_text() if f.doc.is_file() else ""):
                raise claims.ClaimError(f"{f.shown}: its page {f.doc.relative_to(ROOT)} has no '<!-- claims: {f.name} -->' block")
    except claims.ClaimError as e:
        print(f"docs: {e}", file=sys.stderr)
        return 2
    for page in stale:
        print(f"docs: {page}: " + ("generated blocks differ from their data (scripts/docs.py rewrites them)"
                                   if args.check else "generated blocks rewritten"), file=sys.stderr)
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
