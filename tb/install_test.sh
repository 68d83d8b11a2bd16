#!/usr/bin/env bash
# `cmake --install` gives a tree that stands on its own and may move: installed, then moved to
# another folder, it holds no path of the source or build folder; its icnsim lists and runs the
# bundled scenarios and names its installed view; and a program of one's own (tb/package/) builds
# against it with find_package(icnsim) and runs a network through the harness library.
#   tb/install_test.sh BUILD_DIR
set -euo pipefail
build=$(realpath "$1")
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "install_test: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$tmp/installed" > "$tmp/install.log" || { cat "$tmp/install.log"; fail "cmake --install failed"; }
mv "$tmp/installed" "$tmp/moved"
prefix=$tmp/moved

found=$(grep -rlaF -e "$src" -e "$build" "$prefix" || true)
[ -z "$found" ] || fail "these installed files name the source or build folder: $found"
for file in bin/icnsim lib/libicnsim_harness.a lib/libicnsim_controllers.a include/icnsim/run/simulation.h \
            include/icnsim/models/Veee_port.h share/icnsim/rtl/eee/eee_port.sv share/icnsim/scenarios/default.yaml \
            lib/cmake/icnsim/icnsimConfig.cmake; do
  [ -e "$prefix/$file" ] || fail "$file is not installed"
done
# The views name their filters where they were installed (GTKWave reads them by absolute path).
grep -q "^\^[0-9]* $tmp/installed/share/icnsim/waves/filters/" "$prefix/share/icnsim/waves/eee_port.gtkw" ||
  fail "eee_port.gtkw does not name its filters where it was installed"

cd "$tmp"
"$prefix/bin/icnsim" list | grep -q "^default " || fail "the installed icnsim lists no bundled default scenario"
"$prefix/bin/icnsim" run default --set sim.warmup_cycles=500 --set sim.measure_cycles=2000 --out run \
  --trace run/eee.fst > run.log || { cat run.log; fail "the installed icnsim could not run default"; }
grep -q "gtkwave $tmp/run/eee.fst $prefix/share/icnsim/waves/eee_port.gtkw" run.log ||
  { cat run.log; fail "the installed icnsim does not name its installed view"; }

cmake -S "$src/tb/package" -B user -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON > user.log 2>&1 &&
  cmake --build user -j "$(nproc)" >> user.log 2>&1 || { cat user.log; fail "tb/package does not build against the package"; }
! grep -qF -e "$build" -e "$src/sysc" user/compile_commands.json || fail "tb/package compiled with the build or source tree"
user/run_scenario default sim.warmup_cycles=500 sim.measure_cycles=2000 || fail "tb/package's run failed"
echo "install_test: installed, moved, ran, and built a program against it"
