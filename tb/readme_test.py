#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The README's example output is what `scripts/run.sh` prints (CTest `readme_example`): the block
between "<!-- readme-example -->" and "<!-- /readme-example -->" against a real run of the same
command, line by line. Only what depends on the machine or the folder may differ: the run's
time and speed (the simulated cycles must match), the output folder, the waveform's size and the
absolute path of the view. The command is scripts/run.sh's. The numbers the tour states for its
first run are checked the same way, running the command the README shows.

Usage: readme_test.py ICNSIM"""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"<!-- readme-example -->\n```\n(.*?)```\n<!-- /readme-example -->", re.S)


def comparable(line, out):
    """The part of a summary line that must not differ between machines."""
    line = line.replace(str(out), "out/default")
    if line.startswith("simulation"):
        return re.sub(r" in .*", "", line)  # "simulation  N cycles"
    if line.startswith("waveform:"):
        return re.sub(r" \(\d+ bytes\)", "", line)
    if line.lstrip().startswith("gtkwave "):
        return re.sub(r" \S*/waves/", " .../waves/", line)
    return line


def problems(readme_text, printed, out):
    found = BLOCK.search(readme_text)
    if not found:
        return ["README.md has no readme-example block"]
    shown = [comparable(line, out) for line in found.group(1).splitlines()]
    ran = [comparable(line, out) for line in printed.splitlines()]
    return [f"README shows {a!r}, the run prints {b!r}" for a, b in zip(shown, ran) if a != b] + (
        [f"README shows {len(shown)} lines, the run prints {len(ran)}"] if len(shown) != len(ran) else [])


def tour_problems(icnsim, readme, example, tmp):
    """The tour's first run, as the README writes it: the energy and latency it states, against the
    example's."""
    command = re.search(r"^build/icnsim run (default --set \S+) --out \S+$", readme, re.M)
    if not command:
        return ["README's tour has no `build/icnsim run default --set ... --out DIR` line"]
    run = subprocess.run([icnsim, "run", *command.group(1).split(), "--out", str(tmp / "tour")],
                         capture_output=True, text=True)
    energy = lambda text: re.search(r"link energy \(window\) .*, ([0-9.]+) of always-awake", text).group(1)
    latency = lambda text: round(float(re.search(r"latency \(cycles\) +avg ([0-9.]+)", text).group(1)))
    stated = (f"falls to {energy(run.stdout)} of always-awake (from {energy(example)})",
              f"rises to {latency(run.stdout)} cycles (from {latency(example)})")
    flat = " ".join(readme.split())
    return [f"the tour's run gives: {s!r}; README says otherwise" for s in stated if s not in flat]


def main():
    icnsim = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "default"
        out.mkdir()
        # scripts/run.sh's command (its exec line), in a folder of its own
        line = re.search(r"^exec build/icnsim (run .*) \"\$@\"$", (ROOT / "scripts" / "run.sh").read_text(), re.M)
        args = line.group(1).replace("out/default", str(out)).split()
        run = subprocess.run([icnsim, *args], capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stdout, run.stderr)
            return 1
        readme = (ROOT / "README.md").read_text()
        found = problems(readme, run.stdout, out)
        found += tour_problems(icnsim, readme, run.stdout, Path(tmp))
        # the comparisons find a planted difference
        planted = problems(readme.replace("0 lost", "1 lost", 1), run.stdout, out) and \
            tour_problems(icnsim, re.sub(r"falls to [0-9.]+ of", "falls to 9.999 of", readme), run.stdout,
                          Path(tmp))
    for p in found:
        print(p)
    if not planted:
        print("the comparison missed a planted difference")
        return 1
    print(f"readme_test: {len(found)} differences")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
