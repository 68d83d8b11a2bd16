#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Opens a controller waveform in GTKWave with its saved view.
#   scripts/wave.sh [FST] [GTKW]                      (defaults: out/default/eee.fst, build/waves/eee_port.gtkw)
#   scripts/wave.sh FST GTKW --png OUT.png FROM_NS TO_NS   renders the view headless (Xvfb) to a PNG
set -euo pipefail
cd "$(dirname "$0")/.."
fst=${1:-out/default/eee.fst}
view=${2:-build/waves/eee_port.gtkw}  # the build's copy names encoded values (scripts/wave_views.py)
[ -f "$fst" ] || { echo "wave: $fst not found (scripts/run.sh writes out/default/eee.fst)" >&2; exit 2; }
[ -f "$view" ] || { echo "wave: $view not found (the build writes build/waves/)" >&2; exit 2; }
if [ "${3:-}" != "--png" ]; then
  exec gtkwave "$fst" "$view"
fi
png=$4 from=$5 to=$6
for tool in Xvfb import; do
  command -v $tool >/dev/null || { sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo; $sudo apt-get install -y -q xvfb imagemagick >/dev/null; }
done
tcl=$(mktemp --suffix=.tcl)
echo "gtkwave::setZoomRangeTimes $((from * 1000)) $((to * 1000))" > "$tcl"
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
