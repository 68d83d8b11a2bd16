# SPDX-License-Identifier: Apache-2.0
"""Reading a VCD (fst2vcd's output): the signals its header declares."""
import subprocess


def fst_to_vcd_lines(fst):
    """The VCD text of an FST waveform (fst2vcd, GTKWave's), as lines."""
    return subprocess.run(["fst2vcd", str(fst)], capture_output=True, text=True, check=True).stdout.splitlines()


def declarations(lines):
    """Each signal the header declares, as (scopes from the top, id code, width, name). Stops after
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
            yield scopes, words[3], int(words[2]), words[4]
        elif words[0] == "$enddefinitions":
            return
