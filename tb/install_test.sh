#!/usr/bin/env bash
# `cmake --install` gives a tree that stands on its own and may move: installed (to a relative
# prefix), then moved to another folder, it holds no path of the source or build folder; its icnsim
# lists and runs the bundled scenarios and names its installed view, makes a controller size not
# built in on first use, and without its share/icnsim says so (exit 2); programs of one's own build
# against it with find_package(icnsim): tb/package/ runs a network through the harness library,
# examples/systemc_traffic/ drives one from SystemC models bound to the NICs, with the same results
# on 1 and 2 threads, and examples/sleepy_link/ adds a link-end controller declared by a manifest.
#   tb/install_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
build=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "install_test: $*" >&2; exit 1; }

cd "$tmp"
cmake --install "$build" --prefix installed > install.log || { cat install.log; fail "cmake --install failed"; }
mv installed moved
prefix=$tmp/moved

# Either folder as given and as the file system resolves it.
found=$(grep -rlaF -e "$src" -e "$build" -e "$(realpath "$src")" -e "$(realpath "$build")" "$prefix" || true)
[ -z "$found" ] || fail "these installed files name the source or build folder: $found"
for file in bin/icnsim lib/libicnsim_harness.a lib/libicnsim_controllers.a include/icnsim/run/simulation.h \
            include/icnsim/models/Veee_port.h share/icnsim/rtl/eee/eee_port.sv share/icnsim/scenarios/default.yaml \
            lib/cmake/icnsim/icnsimConfig.cmake; do
  [ -e "$prefix/$file" ] || fail "$file is not installed"
done
# The views name their filters where they were installed (GTKWave reads them by absolute path).
grep -q "^\^[0-9]* $tmp/installed/share/icnsim/waves/filters/" "$prefix/share/icnsim/waves/eee_port.gtkw" ||
  fail "eee_port.gtkw does not name its filters where it was installed"

"$prefix/bin/icnsim" list | grep -q "^default " || fail "the installed icnsim lists no bundled default scenario"
"$prefix/bin/icnsim" run default --set sim.warmup_cycles=500 --set sim.measure_cycles=2000 --out run \
  --trace run/eee.fst > run.log || { cat run.log; fail "the installed icnsim could not run default"; }
grep -q "gtkwave $tmp/run/eee.fst $prefix/share/icnsim/waves/eee_port.gtkw" run.log ||
  { cat run.log; fail "the installed icnsim does not name its installed view"; }

mkdir lone && cp "$prefix/bin/icnsim" lone/
status=0
lone/icnsim run default > lone.log 2>&1 || status=$?
[ $status -eq 2 ] && grep -q "default: no such scenario file, and no bundled scenarios" lone.log ||
  { cat lone.log; fail "icnsim without its share/icnsim did not say so with exit 2 (gave $status)"; }

# A size not built in, made on first use from the installed headers, scripts and toolchain record.
XDG_CACHE_HOME=$tmp/cache "$prefix/bin/icnsim" run erapid_p_b --set topology.erapid.boards=2 --set erapid.degree=2 \
  --set traffic.pattern=uniform --set sim.measure_cycles=5000 --out on_demand --quiet 2> on_demand.log &&
  grep -q "verilating it once" on_demand.log ||
  { cat on_demand.log; fail "the installed icnsim did not make a 2-board E-RAPID controller on first use"; }

cmake -S "$src/tb/package" -B user -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON > user.log 2>&1 &&
  cmake --build user -j "$(nproc)" >> user.log 2>&1 || { cat user.log; fail "tb/package does not build against the package"; }
! grep -qF -e "$build" -e "$src/sysc" user/compile_commands.json || fail "tb/package compiled with the build or source tree"
user/run_scenario default sim.warmup_cycles=500 sim.measure_cycles=2000 || fail "tb/package's run failed"
status=0
user/run_scenario default sim.no_such_key=1 2> bad.log || status=$?
[ $status -eq 2 ] && grep -q "sim.no_such_key" bad.log || { cat bad.log; fail "tb/package took an unknown key ($status)"; }

cmake -S "$src/examples/systemc_traffic" -B example -DCMAKE_PREFIX_PATH="$prefix" > example.log 2>&1 &&
  cmake --build example -j "$(nproc)" >> example.log 2>&1 || { cat example.log; fail "examples/systemc_traffic does not build"; }
for threads in 1 2; do
  example/request_reply sim.threads=$threads sim.measure_cycles=5000 > "example$threads.out" 2> "example$threads.err" ||
    { cat "example$threads.out" "example$threads.err"; fail "examples/systemc_traffic failed on $threads threads"; }
done
cat example1.out
grep -q "replies [1-9][0-9]*," example1.out && grep -q ": balanced$" example1.out &&
  grep -q " 0 packets lost, verdict ok" example1.out || fail "examples/systemc_traffic: no replies, or not ok"
grep -q "request_reply: 2 network threads" example2.err || { cat example2.err; fail "the example ran on one thread"; }
cmp -s example1.out example2.out || { cat example2.out; fail "examples/systemc_traffic: 2 threads differ from 1"; }
# A controller of one's own, declared by a manifest in a folder outside the repository: built against
# the package with no C++ of its own, it runs in a network, loses nothing, and its view's signals
# are in its waveform.
cp -r "$src/examples/sleepy_link" mine
cmake -S mine -B mine-build -DCMAKE_PREFIX_PATH="$prefix" > mine.log 2>&1 &&
  cmake --build mine-build -j "$(nproc)" >> mine.log 2>&1 || { cat mine.log; fail "examples/sleepy_link does not build"; }
mine-build/icnsim_sleepy run mine/sleepy_link.yaml --set sim.measure_cycles=5000 --out mine-run \
  --trace mine-run/sleepy.fst --trace-match nic0,r32_p0 > mine-run.log ||
  { cat mine-run.log; fail "the sleepy_link network did not run ok"; }
grep -q " 0 lost" mine-run.log && grep -q "gtkwave .*/mine-build/share/icnsim/waves/sleepy_link/sleepy_link.gtkw" mine-run.log ||
  { cat mine-run.log; fail "the sleepy_link run lost packets or named no view"; }
python3 - "$src" mine-run/results.json mine-run/sleepy.fst mine-build/share/icnsim/waves/sleepy_link/sleepy_link.gtkw <<'PY' ||
import json, sys
from pathlib import Path
sys.path[:0] = [f"{sys.argv[1]}/tb", f"{sys.argv[1]}/scripts"]
from wave_views_trace_test import traced_names, view_signals
r = json.load(open(sys.argv[2]))
s = r["sleepy_link"]
assert r["check"]["ok"] and s["sleeps"] > 0 and s["wakeups"] > 0 and s["flits_at_sleeping_port"] == 0, s
assert r["energy"]["groups"]["sleepy_link"]["state_cycles"]["asleep"] > 0, r["energy"]
missing = [x for x in view_signals(Path(sys.argv[4])) if x not in traced_names(Path(sys.argv[3]))]
assert not missing, f"not in the waveform: {missing}"
PY
  fail "the sleepy_link run's results or waveform are not what its controllers did"
echo "install_test: installed, moved, ran, built three programs against it (one with a controller of its own)"
