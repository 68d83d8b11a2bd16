#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `cmake --install` gives a tree that stands on its own and may move: installed (to a relative
# prefix), then moved to another folder, it holds no path of the source or build folder; its icnsim
# lists and runs the bundled scenarios and names its installed view; with the source and build
# folders out of reach, its icnsim runs and its scripts sweep, plot and recompute the claims; makes a controller size not
# built in on first use, and without its share/icnsim says so (exit 2); programs of one's own build
# against it with find_package(icnsim): tb/package/ runs a network through the harness library,
# examples/systemc_traffic/ drives one from SystemC models bound to the NICs, with the same results
# on 1 and 2 threads, examples/sleepy_link/ adds a link-end controller declared by a manifest, and
# examples/drowsy_switch/ and examples/paced_node/ a switch and a node controller, built together.
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

# Out of reach of the source and build folders (a tmpfs over each, in a mount namespace of its
# own), from another folder: the installed icnsim runs a bundled scenario, and the installed
# scripts sweep a grid with it, plot the sweep, recompute the bundled claims and cost a controller.
mkdir away
(cd away && unshare --mount $([ "$(id -u)" -eq 0 ] || echo --map-root-user) bash -c '
  set -e
  mount -t tmpfs none "$2" 2>/dev/null || true   # (the build folder may lie inside the source folder)
  mount -t tmpfs none "$1"
  [ ! -e "$1/CMakeLists.txt" ] && [ ! -e "$2/icnsim" ]
  "$3/bin/icnsim" run default --set sim.measure_cycles=2000 --quiet --out run
  python3 "$3/share/icnsim/scripts/sweep.py" --scenario default --grid traffic.load=0.02,0.05 \
    --set sim.measure_cycles=1000 --jobs 2 > sweep.log
  /usr/bin/python3 "$3/share/icnsim/scripts/plot.py" --out out/sweeps/grid --x traffic.load --y latency_avg > plot.log
  python3 "$3/share/icnsim/scripts/claims.py" > claims.log
  "$3/share/icnsim/scripts/cost.sh" --only eee_port --out cost > cost.log
  status=0; "$3/share/icnsim/scripts/wave.sh" run/none.fst 2> wave.log || status=$?
  [ $status -eq 2 ] && grep -q "run/none.fst not found" wave.log
' away "$src" "$build" "$prefix") > away.log 2>&1 || { cat away.log; fail "the installation does not work with the source and build folders out of reach"; }
[ -f away/run/results.json ] && [ "$(wc -l < away/out/sweeps/grid/summary.csv)" -eq 3 ] &&
  ls away/out/sweeps/grid/*.png > /dev/null && grep -q "| eee_port |" away/cost/cost.md ||
  fail "the installed scripts left no sweep, plot or cost row under away/"
for file in share/icnsim/sim/experiments/erapid/erapid_load.yaml share/icnsim/sim/results/erapid/erapid_load_summary.csv \
            share/icnsim/scripts/sweep.py share/icnsim/scripts/plot.py share/icnsim/scripts/wave.sh; do
  [ -e "$prefix/$file" ] || fail "$file is not installed"
done

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
# A switch and a node controller of one's own, from folders outside the repository, built into one
# program: each runs in a network and loses nothing; the switch's ports sleep and wake, none sends
# asleep, and its view's signals are in its waveform; the paced nodes raise the mean latency by at
# least the pacing of a packet's flits.
mkdir ours && cp -r "$src/examples/drowsy_switch" "$src/examples/paced_node" ours/
cat > ours/CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.19)
project(ours C CXX)
set(CMAKE_BUILD_TYPE Release)
find_package(icnsim REQUIRED)
icnsim_add_controllers(icnsim_ours FOLDERS ${CMAKE_CURRENT_SOURCE_DIR}/drowsy_switch ${CMAKE_CURRENT_SOURCE_DIR}/paced_node)
CMAKE
cmake -S ours -B ours-build -DCMAKE_PREFIX_PATH="$prefix" > ours.log 2>&1 &&
  cmake --build ours-build -j "$(nproc)" >> ours.log 2>&1 || { cat ours.log; fail "the switch and node examples do not build"; }
ours-build/icnsim_ours run ours/drowsy_switch/drowsy_switch.yaml --set sim.measure_cycles=5000 --out drowsy-run \
  --trace drowsy-run/drowsy.fst --trace-match r32 > drowsy-run.log || { cat drowsy-run.log; fail "the drowsy_switch network failed"; }
grep -q "gtkwave .*/ours-build/share/icnsim/waves/drowsy_switch/drowsy_switch.gtkw" drowsy-run.log ||
  { cat drowsy-run.log; fail "the drowsy_switch run named no view"; }
for paced in true false; do
  ours-build/icnsim_ours run ours/paced_node/paced_node.yaml --set paced_node.enabled=$paced --out "paced-$paced" \
    --quiet || fail "the paced_node network (paced_node.enabled=$paced) failed"
done
python3 - "$src" drowsy-run paced-true paced-false ours-build/share/icnsim/waves/drowsy_switch/drowsy_switch.gtkw <<'PY' ||
import json, sys
from pathlib import Path
sys.path[:0] = [f"{sys.argv[1]}/tb", f"{sys.argv[1]}/scripts"]
from wave_views_trace_test import traced_names, view_signals
r = json.load(open(f"{sys.argv[2]}/results.json"))
s = r["drowsy_switch"]
assert r["check"]["ok"] and s["sleeps"] > 0 and s["wakeups"] > 0 and s["flits_from_sleeping_port"] == 0, s
assert r["energy"]["groups"]["drowsy_switch"]["state_cycles"]["asleep"] > 0, r["energy"]
missing = [x for x in view_signals(Path(sys.argv[5])) if x not in traced_names(Path(sys.argv[2]) / "drowsy.fst")]
assert not missing, f"not in the waveform: {missing}"
paced, free = (json.load(open(f"{d}/results.json")) for d in sys.argv[3:5])
assert paced["check"]["ok"] and free["check"]["ok"], (paced["check"], free["check"])
assert "paced_node" in paced and "paced_node" not in free
# A packet of F flits leaves a node paced by a gap of G cycles at least (F - 1) G cycles later than
# it would unpaced with no other packet in its way.
F, G = paced["params"]["traffic"]["packet_flits"], paced["params"]["paced_node"]["gap_cycles"]
assert paced["latency"]["avg"] >= free["latency"]["avg"] + (F - 1) * G, (paced["latency"], free["latency"])
PY
  fail "the switch and node runs' results or waveform are not what their controllers did"
echo "install_test: installed, moved, ran, built four programs against it (two with controllers of their own)"
