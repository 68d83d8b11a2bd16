#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""docs/keys.md is what the binary says of its keys (CTest `keys_reference`): scripts/keys_doc.py
--check passes on the page, and fails on a copy with one default changed.

Usage: keys_reference_test.py ICNSIM"""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def check(icnsim, page):
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "keys_doc.py"), "--icnsim", icnsim, "--check",
                           "--out", str(page)], capture_output=True, text=True)


def main():
    icnsim = sys.argv[1]
    page = ROOT / "docs" / "keys.md"
    done = check(icnsim, page)
    if done.returncode != 0:
        print(done.stdout + done.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "keys.md"
        copy.write_text(re.sub(r"(\| `topology\.k` \| )`4`", r"\1`5`", page.read_text(), count=1))
        planted = check(icnsim, copy)
    if planted.returncode != 1:
        print("keys_reference_test: a page with topology.k's default changed passed the check")
        return 1
    print(done.stdout.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
