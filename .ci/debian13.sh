#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CI's Debian 13 pass: the README's two commands (scripts/run.sh, scripts/test.sh) on a clone of this
# checkout inside a fresh Debian 13 ("trixie") minbase root made with debootstrap from Debian's
# archive: Verilator 5.032, Catch2 3, SystemC 3, Yosys 0.52, g++ 14. The golden cases compare its
# results with the same stored ones Debian 12 passes. scripts/test.sh runs --short here (what it
# leaves to Debian 12 is listed there), and the build leaves out the 16-board E-RAPID controllers
# (below), to keep CI within its 40 minutes.
#
# The minbase root is kept outside the clone (ICNSIM_DEBIAN13_CACHE, default /var/cache/icnsim-ci)
# and reused when complete (debootstrap finished: the marker below); each run copies it, so the
# README's commands always start from a fresh root. Needs root. Every mount it makes is undone on
# exit, whatever happens.
#   .ci/debian13.sh            a fresh root, scripts/setup.sh in it, then the two commands
#   .ci/debian13.sh --prepare  only the fresh root and scripts/setup.sh in it (CI runs this beside
#                              the Debian 12 passes: it mostly waits for the archive)
#   .ci/debian13.sh --prepared the two commands in the root --prepare made
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cache="${ICNSIM_DEBIAN13_CACHE:-/var/cache/icnsim-ci}"
minbase="$cache/trixie-minbase"
work="$cache/trixie-run"
mirror="${ICNSIM_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
step() { echo "debian13: $* ($(date +%T))" >&2; }

# Removes a root, first undoing whatever is still mounted inside it (deepest first): a killed
# debootstrap or run leaves /proc, /sys or /dev mounted there, which rm must not enter.
remove_root() {
  findmnt -rn -o TARGET | awk -v root="$1/" 'index($0, root) == 1' | sort -r | xargs -r -n1 umount -l || true
  rm -rf --one-file-system "$1"
}

mode="${1:-}"
case "$mode" in
  "" | --prepare | --prepared) ;;
  *) echo "debian13: unknown option $mode; allowed: --prepare, --prepared" >&2; exit 2 ;;
esac

mounted=()
cleanup() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
  mounted=()
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mount_root() {
  mounted+=("$work/proc"); mount -t proc proc "$work/proc"
  mounted+=("$work/sys"); mount -t sysfs sysfs "$work/sys"
  mounted+=("$work/dev"); mount --bind /dev "$work/dev"
}
in_root() {
  chroot "$work" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    bash -c "cd /root/icnsim && $1"
}

if [ "$mode" != --prepared ]; then
  "$repo/scripts/setup.sh" --debootstrap
  mkdir -p "$cache"
  if [ ! -f "$minbase/.icnsim-complete" ]; then
    step "debootstrap --variant=minbase trixie (a partial root from an interrupted run is rebuilt)"
    remove_root "$minbase"
    debootstrap --variant=minbase trixie "$minbase" "$mirror" > "$cache/debootstrap.log" 2>&1 ||
      { tail -20 "$cache/debootstrap.log"; exit 1; }
    touch "$minbase/.icnsim-complete"
  fi
  step "a fresh root from the cached minbase, a clone of this checkout, scripts/setup.sh in it"
  remove_root "$work"
  cp -a "$minbase" "$work"
  cp /etc/resolv.conf "$work/etc/resolv.conf"
  git clone -q --no-local "$repo" "$work/root/icnsim"
  mount_root
  in_root scripts/setup.sh
  cleanup
  [ "$mode" = --prepare ] && exit 0
fi

[ -d "$work/root/icnsim" ] || { echo "debian13: no prepared root at $work: run --prepare first" >&2; exit 1; }
step "scripts/run.sh, then scripts/test.sh --short, in the root"
mount_root
# The build leaves out E-RAPID's 16-board controllers (scripts/build.sh keeps a configured option),
# 125 CPU seconds with Debian 12's g++, more with 14's: Verilator 5.032 lints them and Yosys 0.52
# synthesises them in the tests, and the Debian 12 pass builds and runs them. It leaves out the
# fuzz targets too (clang, about 70 CPU seconds): --short does not run them.
in_root "cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DICNSIM_ERAPID_16_BOARDS=OFF -DICNSIM_FUZZ=OFF > build.log 2>&1 || { cat build.log; exit 1; }"
in_root "scripts/run.sh && scripts/test.sh --short"
step "passed"
cleanup
remove_root "$work"
