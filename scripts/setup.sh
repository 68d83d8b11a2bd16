#!/usr/bin/env bash
# Installs what the project needs from Debian's packages. Skips what is present; safe to re-run.
#   scripts/setup.sh           the toolchain, simulator, tests and plots
#   scripts/setup.sh --slurm   also Slurm and munge, for the one-host test cluster (scripts/slurm/)
set -euo pipefail

packages=(
  build-essential cmake git pkg-config zlib1g-dev  # toolchain
  verilator                                        # RTL -> C++ models
  libsystemc-dev                                   # SystemC kernel of the harness
  catch2 clang-format                              # tests, the C++ style check
  clang libclang-rt-14-dev                         # libFuzzer targets (scripts/fuzz.sh)
  yosys                                            # hardware cost
  gtkwave                                          # waveform viewer for the FST dumps
  libcli11-dev libyaml-cpp-dev nlohmann-json3-dev  # command line, scenarios, results
  libssl-dev                                       # SHA-256 of the scenario in results.json
  python3 python3-matplotlib                       # sweeps and plots (/usr/bin/python3)
)
[ "${1:-}" = "--slurm" ] && packages+=(slurm-wlm munge)  # sweeps on Slurm: the test cluster

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
