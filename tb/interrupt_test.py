#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CTest interrupts: SIGINT and SIGTERM stop `icnsim run` after the current cycle with verdict
interrupted, exit 130 / 143, the results so far written and a traced run's FST closed (GTKWave's
fst2vcd reads it); scripts/sweep.py passes Ctrl-C on to its runs, leaves no process behind (also when
it is killed with SIGKILL) and resumes afterwards.

Usage: interrupt_test.py BUILD_DIR"""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def catches_stops(pid):
    """Whether the process has its SIGINT and SIGTERM handlers (icnsim sets them as Run() starts:
    a signal before that kills it without results, as documented)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), 16)
    return all(caught >> (sig - 1) & 1 for sig in (signal.SIGINT, signal.SIGTERM))


def processes_of(folder):
    """Pids of the icnsim processes whose command line names `folder`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if words and words[0].endswith(b"icnsim") and any(str(folder).encode() in w for w in words):
            found.append(int(entry.name))
    return found


def wait_for(condition, seconds, what):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"waited {seconds} s for {what}")


def verdict(folder):
    return json.loads((folder / "results.json").read_text())["verdict"]


def icnsim_stops(build, scratch):
    """A traced run stopped by SIGINT after its first progress line; an untraced one by SIGTERM."""
    for signum, traced in ((signal.SIGINT, True), (signal.SIGTERM, False)):
        out, fst = scratch / f"run_{signum.name}", scratch / f"run_{signum.name}.fst"
        cmd = [str(build / "icnsim"), "run", "default", "--out", str(out), "--progress", "0.2",
               "--set", "sim.measure_cycles=100000000", "--set", "sim.threads=1"]
        if traced:
            cmd += ["--trace", str(fst), "--trace-match", "r0_*"]
        run = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for line in run.stderr:  # the first progress line: the run is under way
            if "cycle" in line:
                break
        assert catches_stops(run.pid)
        run.send_signal(signum)
        _, err = run.communicate(timeout=60)
        assert run.returncode == 128 + signum, f"{signum.name}: exit {run.returncode}: {err}"
        assert verdict(out) == "interrupted", verdict(out)
        results = json.loads((out / "results.json").read_text())
        assert results["sim"]["cycles"] > 0 and results["check"]["ok"], results["check"]
        assert f"interrupted: {signum.name} at cycle" in err, err
        assert not list(out.glob("*.tmp")), list(out.glob("*"))
        if traced:
            vcd = subprocess.run(["fst2vcd", str(fst)], capture_output=True, text=True, timeout=120)
            assert vcd.returncode == 0 and "$enddefinitions" in vcd.stdout, vcd.stderr
            times = [int(line[1:]) for line in vcd.stdout.splitlines() if line.startswith("#")]
            assert times and max(times) > 0, "no value change after time 0"


def sweep(out, grid, jobs):
    cmd = [sys.executable, str(ROOT / "scripts" / "sweep.py"), "--scenario", "default", "--grid", grid,
           "--jobs", str(jobs), "--threads", "1", "--out", str(out)]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def sweep_stops_and_resumes(scratch):
    # Three runs one at a time: the first done, the second stopped by Ctrl-C, the third never begun.
    out = scratch / "sweep_interrupted"
    grid = "sim.measure_cycles=1000,2000000,1001"
    first = sweep(out, grid, 1)
    wait_for(lambda: (out / "runs" / "1000_s1" / "command.txt").exists()
             and any(catches_stops(pid) for pid in processes_of(out)), 120, "the second run")
    first.send_signal(signal.SIGINT)
    _, err = first.communicate(timeout=60)
    assert first.returncode == 130, f"exit {first.returncode}: {err}"
    assert "stopped by SIGINT: 1 of 3 runs done, the runs under way stopped" in err, err
    assert not processes_of(out), "a run outlived the sweep"
    stopped = out / "runs" / "2000000_s1"
    assert verdict(stopped) == "interrupted" and not (stopped / "command.txt").exists()
    assert not (out / "runs" / "1001_s1").exists()
    again = sweep(out, grid, 1)
    _, err = again.communicate(timeout=300)
    assert again.returncode == 0, err
    assert "resuming, 1 of 3 runs already done" in err, err
    assert verdict(stopped) == "ok"
    assert len((out / "summary.csv").read_text().splitlines()) == 4
    # Killed outright: its runs get SIGTERM and end with their results so far.
    out = scratch / "sweep_killed"
    killed = sweep(out, "sim.measure_cycles=100000000,100000001", 2)
    wait_for(lambda: len([pid for pid in processes_of(out) if catches_stops(pid)]) == 2, 120, "two runs")
    killed.kill()
    killed.communicate(timeout=60)
    wait_for(lambda: not processes_of(out), 60, "the runs to end after the sweep was killed")
    for name in ("100000000_s1", "100000001_s1"):
        assert verdict(out / "runs" / name) == "interrupted", name


def main():
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    scratch = Path(sys.argv[1]).resolve() / "interrupt_test"
    subprocess.run(["rm", "-rf", str(scratch)], check=True)
    scratch.mkdir(parents=True)
    icnsim_stops(Path(sys.argv[1]).resolve(), scratch)
    sweep_stops_and_resumes(scratch)
    print("interrupt_test: ok")


if __name__ == "__main__":
    main()
