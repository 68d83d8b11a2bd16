#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Opens a controller waveform in GTKWave with its saved view.
#   scripts/wave.sh [FST] [GTKW]                      (defaults: out/default/eee.fst, build/waves/eee_port.gtkw)
#   scripts/wave.sh FST GTKW --png OUT.png FROM TO        renders the view headless (Xvfb) to a PNG
# FROM and TO as icnsim's --trace-window takes them: cycles (2000), or ns with the suffix (2000ns).
# Cycles are converted with the run's sim.cycle_ns, read from the results.json beside the waveform.
set -euo pipefail
cd "$(dirname "$0")/.."
fst=${1:-out/default/eee.fst}
view=${2:-build/waves/eee_port.gtkw}  # the build's copy names encoded values (scripts/wave_views.py)
[ -f "$fst" ] || { echo "wave: $fst not found (scripts/run.sh writes out/default/eee.fst)" >&2; exit 2; }
[ -f "$view" ] || { echo "wave: $view not found (the build writes build/waves/)" >&2; exit 2; }
if [ "${3:-}" != "--png" ]; then
  exec gtkwave "$fst" "$view"
fi
png=$4
# A time in ps from cycles or ns (the waveform's time unit is 1 ps).
picoseconds() {
  case "$1" in
    *ns) awk -v t="${1%ns}" 'BEGIN { if (t !~ /^[0-9]+(\.[0-9]+)?$/) exit 1; printf "%.0f", t * 1000 }' ;;
    *[!0-9]*|"") return 1 ;;
    *) local results; results="$(dirname "$fst")/results.json"
       [ -f "$results" ] || { echo "wave: $1 is in cycles, but no results.json beside $fst gives the cycle length; give ns with the suffix (${1}ns is $1 ns)" >&2; exit 2; }
       python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(round(int(sys.argv[2]) * r["params"]["sim"]["cycle_ns"] * 1000))' "$results" "$1" ;;
  esac
}
from=$(picoseconds "${5:-}") || { echo "wave: FROM '${5:-}' is neither cycles (2000) nor ns with the suffix (2000ns)" >&2; exit 2; }
to=$(picoseconds "${6:-}") || { echo "wave: TO '${6:-}' is neither cycles (2000) nor ns with the suffix (2000ns)" >&2; exit 2; }
for tool in Xvfb import; do
  command -v $tool >/dev/null || { sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo; $sudo apt-get install -y -q xvfb imagemagick >/dev/null; }
done
tcl=$(mktemp --suffix=.tcl)
echo "gtkwave::setZoomRangeTimes $from $to" > "$tcl"
display=:$((90 + RANDOM % 9))
Xvfb $display -screen 0 1500x900x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -f "$tcl"' EXIT
sleep 1
DISPLAY=$display gtkwave --rcvar 'initial_window_x 1500' --rcvar 'initial_window_y 900' \
  --rcvar 'splash_disable on' -S "$tcl" "$fst" "$view" >/dev/null 2>&1 &
gtk=$!
sleep 5
DISPLAY=$display import -window root -crop 1500x900+0+0 "$png"
kill $gtk 2>/dev/null || true
echo "wave: wrote $png"
