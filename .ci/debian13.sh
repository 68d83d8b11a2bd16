#!/usr/bin/env bash
# CI's Debian 13 pass: the README's two commands (scripts/run.sh, scripts/test.sh) on a clone of this
# checkout inside a fresh Debian 13 ("trixie") minbase root made with debootstrap from Debian's
# archive: Verilator 5.032, Catch2 3, SystemC 3, Yosys 0.52, g++ 14. The golden cases compare its
# results with the same stored ones Debian 12 passes.
#
# The minbase root is kept outside the clone (ICNSIM_DEBIAN13_CACHE, default /var/cache/icnsim-ci)
# and reused when complete (debootstrap finished: the marker below); each run copies it, so the
# README's commands always start from a fresh root. Needs root. Every mount it makes is undone on
# exit, whatever happens. --root-only: only make sure the cached minbase root is there (CI runs
# that beside the Debian 12 builds: it mostly waits for the archive).
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

"$repo/scripts/setup.sh" --debootstrap
mkdir -p "$cache"
if [ ! -f "$minbase/.icnsim-complete" ]; then
  step "debootstrap --variant=minbase trixie (a partial root from an interrupted run is rebuilt)"
  remove_root "$minbase"
  debootstrap --variant=minbase trixie "$minbase" "$mirror" > "$cache/debootstrap.log" 2>&1 ||
    { tail -20 "$cache/debootstrap.log"; exit 1; }
  touch "$minbase/.icnsim-complete"
fi
[ "${1:-}" = "--root-only" ] && exit 0

mounted=()
cleanup() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM
step "a fresh root from the cached minbase"
remove_root "$work"
cp -a "$minbase" "$work"
cp /etc/resolv.conf "$work/etc/resolv.conf"
mounted+=("$work/proc"); mount -t proc proc "$work/proc"
mounted+=("$work/sys"); mount -t sysfs sysfs "$work/sys"
mounted+=("$work/dev"); mount --bind /dev "$work/dev"
git clone -q --no-local "$repo" "$work/root/icnsim"

step "scripts/run.sh, then scripts/test.sh, in the root"
chroot "$work" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
  bash -c 'cd /root/icnsim && scripts/run.sh && scripts/test.sh'
step "passed"
cleanup
mounted=()
remove_root "$work"
