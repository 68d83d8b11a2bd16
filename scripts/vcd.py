# SPDX-License-Identifier: Apache-2.0
"""Reading a VCD (fst2vcd's output): the signals its header declares."""
import re
import subprocess


def fst_to_vcd_lines(fst):
    """The VCD text of an FST waveform (fst2vcd, GTKWave's), as lines."""
    return subprocess.run(["fst2vcd", str(fst)], capture_output=True, text=True, check=True).stdout.splitlines()


def variables(lines):
    """Each $var line of the header as (scopes from the top, its words). Stops after
    $enddefinitions, so an iterator passed in goes on with the value changes."""
    scopes = []
    for line in lines:
        words = line.split()
        if not words:
            continue
        if words[0] == "$scope":
            scopes.append(words[2])
        elif words[0] == "$upscope":
            scopes.pop()
        elif words[0] == "$var":
            yield list(scopes), words
        elif words[0] == "$enddefinitions":
            return


def declarations(lines):
    """Each signal the header declares, as (scopes from the top, id code, width, name)."""
    for scopes, words in variables(lines):
        yield scopes, words[3], int(words[2]), words[4]


def declared_bits(lines):
    """Each signal the header declares, as (scopes from the top, id code, its bits' names MSB first:
    `name[i]` for a vector declared with a range, `name` for one bit)."""
    for scopes, words in variables(lines):
        size, name = int(words[2]), words[4]
        ranged = re.fullmatch(r"\[(-?\d+):(-?\d+)\]", words[5]) if len(words) > 6 else None
        msb, lsb = (int(ranged.group(1)), int(ranged.group(2))) if ranged else (0, 0)
        step = -1 if msb >= lsb else 1
        yield scopes, words[3], [f"{name}[{msb + step * i}]" if ranged else name for i in range(size)]
