#!/usr/bin/env bash
# Builds and runs every test: a release build with warnings as errors, then an AddressSanitizer +
# UndefinedBehaviorSanitizer build of the same tests. Installs missing packages first.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

export OMPI_MCA_rmaps_base_oversubscribe=1   # harmless for MPICH; lets Open MPI run -n 4 on 2 cores
jobs=$(nproc)

echo "== release build (-Werror) =="
[[ -f build-test/build.ninja ]] || meson setup build-test --buildtype=release --werror >/dev/null
ninja -C build-test -j "$jobs"
meson test -C build-test --print-errorlogs --num-processes 1

echo "== sanitizer build (ASan + UBSan) =="
[[ -f build-asan/build.ninja ]] || meson setup build-asan --buildtype=debugoptimized --werror \
    -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
ninja -C build-asan -j "$jobs"
# MPICH, UCX and hwloc keep allocations alive until exit by design; suppress only those leaks.
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export ASAN_OPTIONS="detect_odr_violation=0"
meson test -C build-asan --print-errorlogs --num-processes 1 --no-suite bench --timeout-multiplier 3
