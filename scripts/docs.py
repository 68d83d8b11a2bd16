#!/usr/bin/env python3
"""The generated parts of the docs: every block between "<!-- KIND: ARGUMENT -->" and
"<!-- /KIND -->" in docs/*.md and README.md is made from data, never typed:
  claims: NAME          the fidelity table of sim/experiments/NAME/claims.yaml (scripts/claims.py)
  cost: CONTROLLER ...  those controllers' rows of cost/cost.json (scripts/cost.py)

  scripts/docs.py          rewrite the blocks
  scripts/docs.py --check  exit 1 if a block is not what its data makes (CTest docs_generated)
  scripts/docs.py PAGE...  only these pages (any path: a test works on a copy)"""
import argparse
import json
import re
import sys
from pathlib import Path

import claims
import cost

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"(<!-- (claims|cost): ([^>]*?) -->\n)(.*?\n)??(<!-- /\2 -->)", re.S)


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
        names = argument.split()
        unknown = set(names) - {r["controller"] for r in self.cost["controllers"]}
        if unknown:
            raise claims.ClaimError(f"{page}: cost: no controller {', '.join(sorted(unknown))} in cost/cost.json")
        return "\n".join(cost.table(self.cost, names))


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
