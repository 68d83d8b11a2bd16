#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Set-up, build, then every test through CTest (unit, network, CLI, golden results, RTL lint,
# synthesis check, proofs, C++ style, fuzzing). Exits non-zero on any failure.
#   scripts/test.sh [CTEST ARGS]    the release build in build/
#   scripts/test.sh --sanitize      an AddressSanitizer + UBSan build in build-sanitize/ (with the
#                                   release build's verilated controllers) and the tests that run
#                                   C++ (not lint, synthesis, proofs, style or fuzzing)
#   scripts/test.sh --short         the release build and every test but the long ones below, fuzzing,
#                                   the golden cases' reruns with an option that changes no result
#                                   (threads, clock jumps off, ...), the proofs' planted bugs, the
#                                   figures and the installed package: CI's Debian 13 pass
#   scripts/test.sh --slurm         Slurm and munge installed, a one-host cluster started, a sweep
#                                   run on it and compared with a local one (needs root)
set -euo pipefail
cd "$(dirname "$0")/.."
# The long tests: the fat-tree lock-up grid (45 runs) and three long fat-tree paper runs (settling,
# the ramp, the low-penalty scenario), 110 of the release tests' 325 CPU seconds. Their code paths
# are the shorter fat-tree tests'.
long="no lock-up with the paper|at constant load the links settle|the paper's ramp|the low-penalty scenario"
if [ "${1:-}" = "--slurm" ]; then
  shift
  scripts/setup.sh --slurm
  scripts/build.sh
  cd build
  exec ctest --no-tests=error --output-on-failure -L slurm "$@"
fi
scripts/setup.sh
if [ "${1:-}" = "--sanitize" ]; then
  shift
  # -O1 without debug info keeps the build of the verilated models short; findings stop the test
  # (halt_on_error), and only recoverable UBSan checks can be suppressed, so none is made fatal here.
  flags="-O1 -fsanitize=address,undefined -fno-omit-frame-pointer"
  # The sanitizers check the C++ we write: the harness, its adapters and the controllers' C++.
  # Verilator's generated code and runtime are not ours: the release build's are linked
  # (ICNSIM_MODELS_FROM; compiled again here, without the sanitizers, they took ~520 CPU seconds),
  # and Catch2's runner is unsanitised. The test files unsanitised too (they drive the harness and
  # the models): 290 -> 115 CPU seconds; an inline function of sysc/'s headers they also compile
  # may run as their unchecked copy.
  # The fuzz targets are left out (they are sanitised anyway, with clang, in the release build).
  # E-RAPID's 16-board controllers are left out (their adapter is the template the 4- and 8-board
  # runs instantiate).
  scripts/build.sh
  scripts/build.sh build-sanitize -DCMAKE_BUILD_TYPE=None "-DCMAKE_CXX_FLAGS=$flags" "-DICNSIM_MODELS_FROM=$PWD/build" \
    "-DICNSIM_TEST_MAIN_FLAGS=-O0;-fno-sanitize=all" \
    "-DICNSIM_TEST_FLAGS=-O1;-fno-sanitize=all;-DICNSIM_SANITIZED_BUILD" \
    "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" -DICNSIM_ERAPID_16_BOARDS=OFF \
    -DICNSIM_FUZZ=OFF
  # Findings in Verilator's bundled FST writer are suppressed by file (tb/sanitize.supp), nothing else.
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
  export LSAN_OPTIONS="suppressions=$PWD/tb/sanitize.supp"
  export UBSAN_OPTIONS="suppressions=$PWD/tb/sanitize.supp:print_stacktrace=1:halt_on_error=1"
  cd build-sanitize
  # The long tests (4 sanitised CPU minutes) run in the release pass only, and so do the golden
  # cases (52 sanitised CPU seconds; "clock jumps change no result" runs every bundled scenario
  # sanitised, and the per-cycle path of the rerun with clock jumps off is the clock-jump tests'),
  # and so do the checks that run no compiled code or only print (claims, generated docs, the HTML
  # docs, the key reference, the README's example, citation and licence, figures), the
  # installation's (it checks the package, which the release pass installs) and the sizes made on
  # first use (their library is compiled unsanitised, as the toolchain the build records says).
  exec ctest --no-tests=error --output-on-failure -j "$(nproc)" \
    -E "^(lint|synthesis|formal|format|fuzz|sweep|claims|docs_|keys_reference|readme_example|citation_and_licence|figures|md1_estimate|sim_models|controller_manifests|sizes_on_demand|golden|install|$long)" -LE slurm "$@"
fi
skip=()
if [ "${1:-}" = "--short" ]; then
  shift
  # On Debian 12 only, to keep CI within its 40 minutes: fuzzing (three tests, 38 s), the golden
  # reruns (30 CPU seconds; an option leaving results unchanged is the harness's business, not the
  # compiler's), the proofs' planted bugs (85 CPU seconds; the proofs run here, with Yosys 0.52 and
  # z3 4.13) and the E-RAPID system proof (about 60 CPU seconds; the RC's own proof runs here), the
  # figures made again from stored results (Python only), and the installed package (the last 7
  # minutes of CI's Debian 13 pass: it builds four projects against the package).
  skip=(-E "^($long|fuzz|golden_on_|golden_without_|formal_finds_bug|formal:erapid_across_boards|figures_regenerate|install_package)")
fi
scripts/build.sh
cd build
ctest --no-tests=error --output-on-failure -j "$(nproc)" -LE slurm "${skip[@]}" "$@"
