#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs an experiment (a file of sim/experiments/, by name, or your own .yaml: scripts/experiment.py
and docs/experiments.md), or any grid (--scenario NAME --grid key=v1,v2 ...), as icnsim runs
(scenario + --set overrides), in a local process pool by default, or as a Slurm job array with
--slurm (submitted with sbatch, waited for, then gathered; the sweep folder and the build must be on
a file system the compute nodes share). Each run writes its own results.json; the sweep merges them
into <out>/summary.csv (one row per run: the point's labels, the seed, the fields the experiment
names) and <out>/points.csv (one row per point: each numeric field's mean, standard deviation and
95 % confidence half-width over the seeds). A second call resumes: runs whose results are there from
the same command and the same build are not run again (--fresh runs everything). Ctrl-C (SIGINT) or
SIGTERM stops a local sweep: the runs under way end after their cycle with their results so far
(verdict interrupted, not counted as done; a second Ctrl-C kills them) and it exits 130 or 143; if
the sweep is killed, its runs are stopped the same way. (With --slurm, cancel the job: scancel.) Each run gets
sim.threads = --threads (default: this machine's cores divided among the runs at once; with
--slurm, 1), unless the experiment's settings or --set name it; with --slurm, each task asks for
that many CPUs (--cpus-per-task). Results do not depend on it, and a resumed sweep ignores it.
Needs PyYAML (python3-yaml)."""
import argparse
import csv
import ctypes
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
from functools import partial
from pathlib import Path

from experiment import ICNSIM, OUT, Experiment, ExperimentError, bundled, point_name
from seed_stats import points


def command(scenario, sets, seed, out):
    cmd = [str(ICNSIM), "run", scenario, "--quiet", "--seed", str(seed), "--out", str(out)]
    for s in sets:
        cmd += ["--set", s]
    return cmd


def grid_experiment(scenario, axes, fields):
    """An experiment of the product of --grid key=v1,v2 axes over a bundled scenario."""
    spec = {"labels": [key for key, _ in axes], "scenario": scenario, "seeds": 1,
            "axes": [{"label": key, "key": key, "values": values} for key, values in axes],
            "fields": [f if f.endswith(".*") else dict([f.split("=", 1)]) for f in fields]}
    return Experiment(spec, "--grid")


def grid_axis(text):
    key, eq, values = text.partition("=")
    if not eq or not key or not values or "" in values.split(","):
        raise argparse.ArgumentTypeError(f"'{text}': expected key=value1,value2,...")
    return key, values.split(",")


def at_least_one(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: must be at least 1")
    return value


def with_threads(cmd, threads):
    """The command that runs `cmd` on `threads` threads (cmd itself if it names sim.threads)."""
    return cmd if any(arg.startswith("sim.threads=") for arg in cmd) else cmd + ["--set", f"sim.threads={threads}"]


class Interrupted(Exception):
    """SIGINT or SIGTERM asked the sweep to stop; `signum` says which."""

    def __init__(self, signum):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


STOPS = {signal.SIGINT, signal.SIGTERM}


def start_run(sweep_pid):
    """In a run's process, before icnsim starts: the stop signals the sweep blocks are let through, and
    SIGTERM comes when the sweep's process ends, even by SIGKILL (icnsim then stops after its cycle,
    as on Ctrl-C)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
    ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    if os.getppid() != sweep_pid:  # the sweep died before the line above
        os._exit(1)


def run_locally(pending, jobs, threads):
    """Runs `jobs` runs at a time; returns a line per failed run. Each run is a session of its own, so a
    terminal's Ctrl-C reaches only the sweep, which passes it on once (a second one would kill icnsim
    before it writes its results); then it waits for the runs under way and raises Interrupted. A
    second signal meanwhile kills them. The stop signals are let through only while the sweep waits,
    so none comes between starting a run and recording it."""
    failed, running, queue, done = [], {}, list(pending), 0

    def stop(signum, _frame):
        raise Interrupted(signum)

    def hurry(_signum, _frame):
        for child, *_ in running.values():
            child.kill()

    handlers = {sig: signal.signal(sig, stop) for sig in STOPS}
    signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        while queue or running:
            while queue and len(running) < jobs:
                _, folder, cmd = queue.pop(0)
                err = tempfile.TemporaryFile()
                child = subprocess.Popen(with_threads(cmd, threads), stdout=subprocess.DEVNULL, stderr=err,
                                         start_new_session=True, preexec_fn=partial(start_run, os.getpid()))
                running[child.pid] = (child, folder, cmd, err)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
            try:
                pid, status = os.wait()
            finally:
                signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
            if pid not in running:
                continue
            child, folder, cmd, err = running.pop(pid)
            child.returncode = code = os.waitstatus_to_exitcode(status)
            done += 1
            if code == 0:
                (folder / "command.txt").write_text(shlex.join(cmd) + "\n")  # marks the run complete
            print(f"[sweep] {done}/{len(pending)} {folder.name}" + (f" failed ({code})" if code else ""),
                  file=sys.stderr)
            if code:
                err.seek(0)
                failed.append(f"{folder.name}: exit {code}: {err.read().decode(errors='replace').strip()[-300:]}")
            err.close()
    except Interrupted as interrupted:
        for sig in STOPS:
            signal.signal(sig, hurry)
        for child, *_ in running.values():
            child.send_signal(interrupted.signum)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
        for child, *_ in running.values():
            child.wait()
        raise
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    return failed


def run_on_slurm(pending, out, name, jobs, threads, sbatch_args):
    """One array task per pending run: the task runs the command and, if it succeeds, leaves the
    same completion marker as a local run. sbatch --wait returns when every task has ended.
    Returns a line per failed run (its task's log is in <out>/slurm/)."""
    if not pending:
        return []
    if not shutil.which("sbatch"):
        sys.exit("sweep: --slurm needs sbatch (Debian: slurm-client; scripts/setup.sh --slurm installs a test cluster's)")
    logs = out / "slurm"
    logs.mkdir(parents=True, exist_ok=True)
    folders, commands = logs / "folders.txt", logs / "commands.txt"  # line i: task i's
    folders.write_text("".join(f"{folder}\n" for _, folder, _ in pending))
    commands.write_text("".join(shlex.join(cmd) + "\n" for _, _, cmd in pending))
    script = logs / "task.sh"
    script.write_text(
        "#!/bin/bash\n"
        "# One run of the sweep: line SLURM_ARRAY_TASK_ID of folders.txt and commands.txt.\n"
        f'folder=$(sed -n "${{SLURM_ARRAY_TASK_ID}}p" {shlex.quote(str(folders))})\n'
        f'command=$(sed -n "${{SLURM_ARRAY_TASK_ID}}p" {shlex.quote(str(commands))})\n'
        'eval "set -- $command"\n'
        '# The task\'s CPUs as threads, unless the run names its own.\n'
        '[[ "$command" == *sim.threads=* ]] || set -- "$@" --set "sim.threads=${SLURM_CPUS_PER_TASK:-1}"\n'
        'mkdir -p "$folder"\n'
        '"$@" || exit $?\n'
        'printf \'%s\\n\' "$command" > "$folder/command.txt"  # the completion marker of a local run\n')
    array = f"1-{len(pending)}" + (f"%{jobs}" if jobs else "")
    cmd = ["sbatch", "--wait", "--parsable", f"--job-name=icnsim-{name}", f"--array={array}", f"--cpus-per-task={threads}",
           f"--output={logs}/%A_%a.out", *sbatch_args, str(script)]
    print(f"sweep: submitting {len(pending)} runs: {shlex.join(cmd)}", file=sys.stderr)
    done = subprocess.run(cmd, capture_output=True, text=True)
    job = done.stdout.strip().split(";")[0]
    if not job:
        sys.exit(f"sweep: sbatch failed ({done.returncode}): {done.stderr.strip()}")
    print(f"sweep: job {job} ended (sbatch exit {done.returncode})", file=sys.stderr)
    return [f"{folder.name}: no results from Slurm job {job} (log {logs}/{job}_{i}.out)"
            for i, (_, folder, cmd) in enumerate(pending, 1) if not finished(cmd, folder)]


def finished(cmd, folder):
    """Whether this exact command already ran to completion into `folder` with the icnsim it names
    (results older than that binary, from an earlier build, do not count)."""
    marker, results, binary = folder / "command.txt", folder / "results.json", Path(cmd[0])
    return results.exists() and marker.exists() and marker.read_text() == shlex.join(cmd) + "\n" and \
        binary.exists() and results.stat().st_mtime >= binary.stat().st_mtime


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(dict.fromkeys(k for row in rows for k in row)))
        writer.writeheader()
        writer.writerows(rows)


def field_option(text):
    if not text.endswith(".*") and "=" not in text:
        raise argparse.ArgumentTypeError(f"'{text}': expected OBJECT.* or COLUMN=EXPRESSION")
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("experiment", nargs="?",
                        help=f"a bundled experiment ({', '.join(bundled())}) or an experiment file; "
                             "leave out with --scenario and --grid")
    parser.add_argument("--scenario", help="bundled scenario of a --grid sweep")
    parser.add_argument("--grid", type=grid_axis, action="append", default=[],
                        help="key=value1,value2,... (repeatable: the runs are every combination)")
    parser.add_argument("--field", type=field_option, action="append", default=[],
                        help="a --grid sweep's summary column: OBJECT.* (e.g. erapid.*) or COLUMN=EXPRESSION "
                             "(e.g. hops=latency.hops_avg; repeatable)")
    parser.add_argument("--seeds", type=at_least_one, help="seeds per point (default: the experiment's; a grid: 1)")
    parser.add_argument("--set", dest="sets", action="append", default=[], metavar="KEY=VALUE",
                        help="added to every run of the sweep, after the experiment's own (repeatable)")
    parser.add_argument("--jobs", type=at_least_one,
                        help="runs at once (default: this machine's cores; with --slurm: no limit)")
    parser.add_argument("--threads", type=at_least_one,
                        help="sim.threads of each run (default: the cores divided among the runs at once; with "
                             "--slurm: 1, and each task asks for this many CPUs)")
    parser.add_argument("--out", type=Path, help="sweep folder (default out/sweeps/<experiment or grid>)")
    parser.add_argument("--fresh", action="store_true", help="run everything again instead of resuming")
    parser.add_argument("--slurm", action="store_true",
                        help="run the pending runs as a Slurm job array (sbatch --wait), then merge")
    parser.add_argument("--sbatch-arg", action="append", default=[], metavar="ARG",
                        help="passed to sbatch with --slurm, e.g. --sbatch-arg=--partition=long (repeatable)")
    args = parser.parse_args()
    if bool(args.experiment) == bool(args.grid or args.scenario):
        parser.error("give an experiment, or --scenario with at least one --grid")
    if args.grid and not args.scenario or args.scenario and not args.grid:
        parser.error("--scenario and --grid go together")
    if args.field and not args.grid:
        parser.error("--field goes with --grid (an experiment file names its fields)")
    try:
        experiment = Experiment.load(args.experiment) if args.experiment else \
            grid_experiment(args.scenario, args.grid, args.field)
    except ExperimentError as e:
        print(f"sweep: {e}", file=sys.stderr)
        return 2
    if not ICNSIM.exists():
        parser.error(f"{ICNSIM} not found: run scripts/build.sh first")

    name = Path(args.experiment).stem if args.experiment else "grid"
    out = (args.out or OUT / "sweeps" / name).resolve()
    runs = []
    for labels, scenario, sets in experiment.plan:
        for seed in range(1, (args.seeds or experiment.seeds) + 1):
            folder = out / "runs" / f"{point_name(labels)}_s{seed}"
            runs.append((labels, folder, command(scenario, sets + args.sets, seed, folder)))

    pending = [(labels, folder, cmd) for labels, folder, cmd in runs if args.fresh or not finished(cmd, folder)]
    if len(pending) < len(runs):
        print(f"sweep: resuming, {len(runs) - len(pending)} of {len(runs)} runs already done", file=sys.stderr)
    if args.slurm:
        failed = run_on_slurm(pending, out, name, args.jobs, args.threads or 1, args.sbatch_arg)
    else:
        jobs = args.jobs or os.cpu_count()
        at_once = max(1, min(jobs, len(pending)))
        try:
            failed = run_locally(pending, jobs, args.threads or max(1, os.cpu_count() // at_once))
        except Interrupted as interrupted:
            left = sum(not finished(cmd, folder) for _, folder, cmd in runs)
            print(f"sweep: stopped by {interrupted}: {len(runs) - left} of {len(runs)} runs done, the runs under "
                  f"way stopped; the same command resumes", file=sys.stderr)
            return 128 + interrupted.signum
    rows = [experiment.row(labels, json.loads((folder / "results.json").read_text()), os.path.relpath(folder, OUT.parent))
            for labels, folder, _ in runs if (folder / "results.json").exists()]
    out.mkdir(parents=True, exist_ok=True)
    write_csv(out / "summary.csv", rows)
    write_csv(out / "points.csv", points(rows, experiment.labels))
    print(f"sweep: {len(rows)} runs merged into {out / 'summary.csv'} and {out / 'points.csv'}")
    for f in failed:
        print("sweep: " + f, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
