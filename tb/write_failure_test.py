#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CTest write_failures: outputs that cannot be written. A file size limit (ulimit -f) that
results.json, a workload trace or a waveform runs into; as root also a full disk (a small tmpfs under
the waveform, and one over /tmp, where the FST writer's memory-mapped temporary files then fault with
SIGBUS). Each time icnsim says which file failed and why, exits 6, keeps what it could write (the
results, or at least their summary on stdout), and leaves no temporary file and no broken waveform.

Usage: write_failure_test.py ICNSIM SCRATCH (not under /tmp, which one case hides)"""
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


# A waveform given up after a SIGBUS leaves the FST writer's buffers behind on purpose (freeing them
# would make it write again): in a sanitised build, no leak check for these runs.
NO_LEAK_CHECK = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")


def icnsim(icnsim_path, args, limit_bytes=None):
    def limit():
        if limit_bytes is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, resource.RLIM_INFINITY))
    return subprocess.run([str(icnsim_path)] + args, cwd=ROOT, capture_output=True, text=True, preexec_fn=limit,
                          timeout=600, env=NO_LEAK_CHECK)


def expect(done, what, message):
    assert done.returncode == 6, f"{what}: exit {done.returncode}\n{done.stderr}"
    assert message in done.stderr, f"{what}: {message!r} not in\n{done.stderr}"


def leftovers(folder):
    return [p.name for p in folder.rglob("*") if p.suffix in (".tmp", ".hier", ".fst")]


def waveform_lost(done, folder, what, message):
    """The run went on: results.json holds the failure among its warnings; no FST is left."""
    expect(done, what, message)
    results = json.loads((folder / "o" / "results.json").read_text())
    assert results["verdict"] == "ok" and results["check"]["ok"], what
    assert any(message in w for w in results["warnings"]), results["warnings"]
    assert results["trace"]["written"] is False, results["trace"]
    assert not leftovers(folder), f"{what}: left {leftovers(folder)}"


def file_size_limit(binary, scratch):
    short = ["--set", "sim.measure_cycles=2000"]
    # results.json (7 KB) over a 2 KB limit: the summary on stdout instead, no temporary file.
    folder = scratch / "results"
    done = icnsim(binary, ["run", "default", "--out", str(folder)] + short, 2048)
    expect(done, "results.json", f"cannot write {folder / 'results.json'}: File too large")
    assert "verdict                    ok" in done.stdout, done.stdout
    assert not list(folder.iterdir()), list(folder.iterdir())
    # A workload trace over the limit.
    trace = scratch / "workload.trace"
    done = icnsim(binary, ["workload", "perfbound_megafly", "--out", str(trace)], 2048)
    expect(done, "workload --out", "File too large")
    assert not trace.exists() and not Path(str(trace) + ".tmp").exists()
    # A waveform of every controller: the writer's mapped files fault (SIGBUS) at once.
    folder = scratch / "sigbus"
    done = icnsim(binary, ["run", "default", "--quiet", "--out", str(folder / "o"), "--trace",
                           str(folder / "t.fst")] + short, 100 * 1024)
    waveform_lost(done, folder, "all controllers", "SIGBUS")
    # A waveform of one port grows past the limit in the FST itself (~900 KB; Verilator 5.032's writer
    # maps some 300 KB of temporary files even for one port).
    folder = scratch / "fst_limit"
    done = icnsim(binary, ["run", "default", "--quiet", "--out", str(folder / "o"), "--trace",
                           str(folder / "t.fst"), "--trace-match", "r0_p0", "--set",
                           "sim.measure_cycles=40000"], 512 * 1024)
    waveform_lost(done, folder, "one port", "the file size limit (ulimit -f) was reached")


def traced_run_over_tmpfs(binary, folder, mount_point, size, cycles):
    """A traced run into `folder` with a tmpfs of `size` mounted on `mount_point`, in a mount
    namespace of its own."""
    folder.mkdir()
    run = (f"{binary} run default --quiet --out {folder}/o --trace {folder}/t.fst "
           f"--set sim.measure_cycles={cycles}")
    return subprocess.run(["unshare", "-m", "sh", "-c", f"mount -t tmpfs -o size={size} tmpfs {mount_point} && {run}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600, env=NO_LEAK_CHECK)


def full_disks(binary, scratch):
    """As root: a 2 MB tmpfs under the waveform, then a 64 KB one over /tmp."""
    if os.geteuid() != 0 or subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode != 0:
        print("write_failure_test: not root (or no unshare): the full-disk cases are left out")
        return
    folder = scratch / "full_disk"
    expect(traced_run_over_tmpfs(binary, folder, folder, "2m", 8000), "a full tmpfs", "the disk is full")
    # (the results were on the tmpfs, gone with its namespace: the message and the exit code tell)
    if Path("/tmp") in scratch.parents:
        print("write_failure_test: the scratch folder is under /tmp: the full /tmp case is left out")
        return
    folder = scratch / "full_tmp"
    waveform_lost(traced_run_over_tmpfs(binary, folder, "/tmp", "64k", 2000), folder, "a full /tmp", "SIGBUS")


def main():
    if len(sys.argv) != 3 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    binary, scratch = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve() / "write_failures"
    subprocess.run(["rm", "-rf", str(scratch)], check=True)
    scratch.mkdir(parents=True)
    file_size_limit(binary, scratch)
    full_disks(binary, scratch)
    print("write_failure_test: ok")


if __name__ == "__main__":
    main()
