#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Opens a controller waveform in GTKWave with its saved view.
#   scripts/wave.sh [FST] [GTKW]                      (defaults: out/default/eee.fst, build/waves/eee_port.gtkw)
#   scripts/wave.sh FST GTKW --png OUT.png FROM TO        renders the view headless (Xvfb) to a PNG
# FROM and TO as icnsim's --trace-window takes them: cycles (2000), or ns with the suffix (2000ns).
# Cycles are converted with the run's sim.cycle_ns, read from the results.json beside the waveform.
# Works from any folder, in a checkout or installed (share/icnsim/scripts/).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"  # a checkout, or an installation's share/icnsim
views="$root/build/waves"                 # the build's copies name encoded values (scripts/wave_views.py)
[ -d "$views" ] || views="$root/waves"    # (installed: made for where they were installed)
fst=${1:-$root/out/default/eee.fst}
view=${2:-$views/eee_port.gtkw}
[ -f "$fst" ] || { echo "wave: $fst not found (scripts/run.sh writes out/default/eee.fst)" >&2; exit 2; }
[ -f "$view" ] || { echo "wave: $view not found (the build writes build/waves/)" >&2; exit 2; }
if [ "${3:-}" != "--png" ]; then
  exec gtkwave "$fst" "$view"
fi
png=$4
# FROM and TO in ps (the waveform's time unit): ns with the suffix, or cycles of the run's
# sim.cycle_ns from the results.json beside the waveform (icnsim run --out DIR --trace DIR/x.fst).
picoseconds() {
  python3 - "$1" "$(dirname "$fst")/results.json" <<'PY'
import json, math, re, sys
from pathlib import Path
text, results = sys.argv[1], Path(sys.argv[2])
if re.fullmatch(r"\d+(\.\d+)?ns", text):
    print(round(float(text[:-2]) * 1000))
elif re.fullmatch(r"\d+", text):
    if not results.is_file():
        sys.exit(f"wave: {text} is in cycles, and no results.json beside the waveform gives their length "
                 f"(run icnsim with --out DIR --trace DIR/FILE.fst), or give ns with the suffix ({text}ns)")
    cycle_ps = max(2, round(json.loads(results.read_text())["params"]["sim"]["cycle_ns"] * 1000))
    print(int(text) * cycle_ps)
else:
    sys.exit(f"wave: '{text}' is neither cycles (2000) nor ns with the suffix (2000ns)")
PY
}
from=$(picoseconds "${5:-}") || exit 2
to=$(picoseconds "${6:-}") || exit 2
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
