#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A one-host Slurm cluster for tests: a private munged, slurmctld and slurmd, everything under DIR.
#   scripts/slurm/cluster.sh start DIR   start the daemons, wait until the node takes jobs, and
#                                        print the SLURM_CONF to export for sbatch/squeue
#   scripts/slurm/cluster.sh stop DIR    stop the daemons this script started (by their pid files)
# Needs Debian's slurm-wlm and munge (scripts/setup.sh --slurm) and root (slurmd runs as root).
set -euo pipefail
action=${1:-}
dir=${2:-}
[ -n "$action" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)

stop() {
  for daemon in slurmd slurmctld munge/munged; do
    pid_file="$dir/$daemon.pid"
    if [ -f "$pid_file" ]; then
      pid=$(cat "$pid_file")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
      rm -f "$pid_file"
    fi
  done
}

if [ "$action" = stop ]; then
  stop
  exit 0
fi
[ "$action" = start ] || { echo "$0: unknown action '$action'; allowed: start, stop" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "$0: needs root (slurmd runs as root)" >&2; exit 2; }
for tool in munged slurmctld slurmd sinfo; do
  command -v "$tool" >/dev/null || { echo "$0: $tool not found: run scripts/setup.sh --slurm" >&2; exit 2; }
done

mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
chmod 700 "$dir" "$dir/munge"
dir=$(cd "$dir" && pwd)
trap 'stop' ERR

# munged with its own key, socket and files (any running system munged is left alone).
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1 count=1024 status=none
chmod 600 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed"

# Ports from the directory's name, so two clusters on one machine do not collide.
port=$((20000 + $(printf '%s' "$dir" | cksum | cut -d' ' -f1) % 20000))
memory=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
sed -e "s|@DIR@|$dir|g" -e "s|@HOST@|$(hostname -s)|g" -e "s|@CPUS@|$(nproc)|g" \
  -e "s|@MEMORY@|$memory|g" -e "s|@PORT@|$port|g" -e "s|@PORT1@|$((port + 1))|g" -e "s|@USER@|root|g" \
  "$here/slurm.conf.in" > "$dir/slurm.conf"
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 100); do
  state=$(sinfo --noheader --format=%T 2>/dev/null | head -1 || true)
  case "$state" in idle | mixed | allocated) echo "SLURM_CONF=$SLURM_CONF"; exit 0 ;; esac
  sleep 0.3
done
echo "$0: the node did not come up (state '${state:-none}'); logs in $dir" >&2
tail -5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
stop
exit 1
