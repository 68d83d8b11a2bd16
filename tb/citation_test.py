#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What a user who cites or reuses icnsim relies on (CTest `citation_and_licence`):
- CITATION.cff holds the fields Citation File Format 1.2.0 requires, with their types, and each
  reference is a complete entry (type, title, authors, year);
- LICENSE is the Apache License 2.0, and every source file carries its SPDX identifier (RTL on
  its last line, so that no source position moves and Yosys's cost rows stay what they were);
- user-facing text and code comments name papers by authors and title: no paper file numbers,
  no labels of the project's internal digest, no issue numbers;
- CHANGELOG.md's table lists every commit that changed a golden result (with the git history).
Each check is also run on a planted defect, so none can pass by reading nothing.

Usage: citation_test.py"""
import datetime
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SPDX = "SPDX-License-Identifier: Apache-2.0"
SOURCE = re.compile(r"(\.(cpp|h|sv|svh|v|py|sh|cmake)|CMakeLists\.txt|\.cmake\.in|^\.ci/run)$")
# What an internal reference looks like: a paper's file number ("paper 002", "002_508bc6d4"),
# a label of the digest the mechanisms were specified from ("SPEC M3"), an issue number.
INTERNAL = re.compile(r"\bpaper `?0\d\d\b|\b00\d_[0-9a-f]{8}|\bSPEC(\.md| M\d)|\bissues? #?\d+", re.I)
ENTRY_TYPES = {"article", "conference-paper", "software", "book", "report", "thesis", "generic"}


def person_problems(person, where):
    if not isinstance(person, dict):
        return [f"{where}: an author is a mapping, not {type(person).__name__}"]
    if "family-names" in person or "given-names" in person:
        return [f"{where}: {key} is not a non-empty string" for key in ("family-names", "given-names")
                if not isinstance(person.get(key), str) or not person[key].strip()]
    if isinstance(person.get("name"), str) and person["name"].strip():
        return []  # an entity
    return [f"{where}: an author has neither family-names/given-names nor a name"]


def authors_problems(authors, where):
    if not isinstance(authors, list) or not authors:
        return [f"{where}: authors is not a non-empty list"]
    return [p for i, a in enumerate(authors) for p in person_problems(a, f"{where} author {i + 1}")]


def citation_problems(cff):
    problems = []
    for key in ("cff-version", "message", "title"):
        if not isinstance(cff.get(key), str) or not cff[key].strip():
            problems.append(f"CITATION.cff: {key} is required and must be a non-empty string")
    if cff.get("cff-version") != "1.2.0":
        problems.append(f"CITATION.cff: cff-version is {cff.get('cff-version')!r}, expected '1.2.0'")
    problems += authors_problems(cff.get("authors"), "CITATION.cff")
    for key, kind in (("version", (str, int, float)), ("license", str), ("abstract", str), ("keywords", list)):
        if key in cff and not isinstance(cff[key], kind):
            problems.append(f"CITATION.cff: {key} has the wrong type ({type(cff[key]).__name__})")
    if "date-released" in cff and not isinstance(cff["date-released"], datetime.date):
        problems.append("CITATION.cff: date-released is not a date (YYYY-MM-DD)")
    if cff.get("license") != "Apache-2.0":
        problems.append(f"CITATION.cff: license is {cff.get('license')!r}, expected 'Apache-2.0' (LICENSE)")
    references = cff.get("references", [])
    if not isinstance(references, list) or not references:
        problems.append("CITATION.cff: references (the papers modelled, the reference simulator) are missing")
        references = []
    for i, ref in enumerate(references):
        where = f"CITATION.cff reference {i + 1}"
        if not isinstance(ref, dict):
            problems.append(f"{where}: not a mapping")
            continue
        if ref.get("type") not in ENTRY_TYPES:
            problems.append(f"{where}: type {ref.get('type')!r} is none of {sorted(ENTRY_TYPES)}")
        if not isinstance(ref.get("title"), str) or not ref["title"].strip():
            problems.append(f"{where}: title is required")
        if not isinstance(ref.get("year"), int) or not 1950 <= ref["year"] <= 2100:
            problems.append(f"{where}: year is not a year ({ref.get('year')!r})")
        problems += authors_problems(ref.get("authors"), where)
    return problems


def tracked_files():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / f for f in out.split()]


def spdx_problems(paths):
    """Sources without the identifier in their first lines, or for RTL in its last line: Yosys's
    results depend on source line numbers, so a header line would move every cost row."""
    problems = []
    for p in paths:
        if not SOURCE.search(str(os.path.relpath(p, ROOT))):
            continue
        lines = p.read_text().splitlines(True)
        rtl = p.suffix in {".sv", ".svh", ".v"}
        where = lines[-1:] if rtl else lines[:3]
        if SPDX not in "".join(where):
            problems.append(f"{os.path.relpath(p, ROOT)}: no '{SPDX}' in its {'last line' if rtl else 'first lines'}")
    return problems


def internal_reference_problems(paths):
    problems = []
    for p in paths:
        if p.suffix not in {".md", ".cpp", ".h", ".sv", ".svh", ".v", ".py", ".sh", ".cmake", ".txt", ".yaml", ".cff"}:
            continue
        for number, line in enumerate(p.read_text().splitlines(), 1):
            found = INTERNAL.search(line)
            if found and p.name != Path(__file__).name:
                problems.append(f"{os.path.relpath(p, ROOT)}:{number}: names '{found.group(0)}' instead of the work itself")
    return problems


def golden_table_problems(changelog, commits):
    """Commits that changed a golden result (their short hashes, newest first) missing from the
    CHANGELOG's table. The newest may be the one that makes the change: it is listed by the next."""
    return [f"CHANGELOG.md: no row for {c}, which changed golden results" for c in commits[1:]
            if f"| {c} |" not in changelog]


def golden_commits():
    """Short hashes of the commits that changed a golden result file, newest first; None without
    the history (a shallow clone or an unpacked archive)."""
    log = subprocess.run(["git", "log", "--format=%h", "--abbrev=7", "--", "tb/golden/*.json", "tb/golden/*.csv",
                          "tb/golden/sweeps"], cwd=ROOT, capture_output=True, text=True)
    shallow = (ROOT / ".git" / "shallow").exists()
    return None if log.returncode != 0 or shallow else log.stdout.split()


def licence_problems(text):
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if lines[:2] != ["Apache License", "Version 2.0, January 2004"] or "END OF TERMS AND CONDITIONS" not in text:
        return ["LICENSE is not the Apache License 2.0 text"]
    return []


def planted(tmp):
    """Each check on a defect it must find."""
    bad_cff = {"cff-version": "1.2.0", "message": "m", "title": "t", "authors": [{"given-names": "A"}],
               "license": "Apache-2.0", "references": [{"type": "article", "title": "x", "year": "2001",
                                                         "authors": [{"name": "N"}]}]}
    header_less = tmp / "no_header.cpp"
    header_less.write_text("int x;\n")
    rtl_header = tmp / "header_first.sv"  # RTL carries it last
    rtl_header.write_text(f"// {SPDX}\nmodule m; endmodule\n")
    numbered = {}
    for text in ("As paper 002 shows.", "See 002_508bc6d4.", "As SPEC M3 says.", "Fixed in issue 12."):
        numbered[text] = tmp / f"numbered{len(numbered)}.md"
        numbered[text].write_text(text + "\n")
    return {"an author without a family name": bool(citation_problems(bad_cff)),
            "a year written as a string": any("year" in p for p in citation_problems(bad_cff)),
            "a source file without SPDX": bool(spdx_problems([header_less])),
            "RTL with SPDX on its first line": bool(spdx_problems([rtl_header])),
            **{f"'{text}'": bool(internal_reference_problems([path])) for text, path in numbered.items()},
            "another licence": bool(licence_problems("MIT License\n")),
            "a golden change the CHANGELOG lacks": bool(golden_table_problems("| abc1234 |", ["0000000", "1234567"]))}


def main():
    problems = citation_problems(yaml.safe_load((ROOT / "CITATION.cff").read_text()))
    problems += licence_problems((ROOT / "LICENSE").read_text())
    files = [p for p in tracked_files() if p.is_file()]
    problems += spdx_problems(files)
    problems += internal_reference_problems(files)
    commits = golden_commits()
    if commits is not None:
        problems += golden_table_problems((ROOT / "CHANGELOG.md").read_text(), commits)
    with tempfile.TemporaryDirectory() as tmp:
        missed = [name for name, found in planted(Path(tmp)).items() if not found]
    problems += [f"the check missed a planted defect: {name}" for name in missed]
    for p in problems:
        print(p)
    print(f"citation_test: {len(files)} files read, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
