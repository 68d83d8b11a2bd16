#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what the project needs from Debian's packages (Debian 12 "bookworm" and 13 "trixie").
# Skips what is present; safe to re-run.
#   scripts/setup.sh                the toolchain, simulator, tests and plots
#   scripts/setup.sh --slurm        also Slurm and munge, for the one-host test cluster (scripts/slurm/)
#   scripts/setup.sh --debootstrap  also debootstrap, for CI's Debian 13 root (.ci/debian13.sh)
set -euo pipefail

# Names that both releases have. Where they differ, each entry lists its choices, newest first
# ("a|b"): the first the release offers is installed, and any one already installed will do.
packages=(
  build-essential cmake ninja-build git pkg-config zlib1g-dev  # toolchain
  verilator                                        # RTL -> C++ models
  libsystemc-dev                                   # SystemC kernel of the harness
  "libcatch2-dev|catch2" clang-format              # tests (Catch2 3 | 2), the C++ style check
  clang libclang-rt-dev                            # libFuzzer targets (cmake/icnsimFuzz.cmake)
  yosys z3                                         # hardware cost, completeness of regs_o; proofs
  gtkwave                                          # waveform viewer for the FST dumps
  libcli11-dev libyaml-cpp-dev nlohmann-json3-dev  # command line, scenarios, results
  libssl-dev                                       # SHA-256 of the scenario in results.json
  python3 python3-matplotlib python3-yaml          # experiments, sweeps and plots (/usr/bin/python3)
  python3-sphinx python3-myst-parser               # the HTML documentation (docs/)
)
for option in "$@"; do
  case "$option" in
    --slurm) packages+=(slurm-wlm munge) ;;  # sweeps on Slurm: the test cluster
    --debootstrap) packages+=(debootstrap) ;;
    *) echo "setup: unknown option $option; allowed: --slurm, --debootstrap" >&2; exit 2 ;;
  esac
done

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

missing=()
for entry in "${packages[@]}"; do
  present=false
  for p in ${entry//|/ }; do installed "$p" && present=true; done
  $present || missing+=("$entry")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
chosen=()
for entry in "${missing[@]}"; do
  for p in ${entry//|/ }; do
    if apt-cache show "$p" >/dev/null 2>&1; then
      chosen+=("$p")
      continue 2
    fi
  done
  echo "setup: this release has none of: ${entry//|/, }" >&2
  exit 1
done
echo "setup: installing ${chosen[*]}"
$sudo apt-get install -y -q --no-install-recommends "${chosen[@]}"
