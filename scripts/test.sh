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
# GCC 12 reports false 'maybe-uninitialized' inside libstdc++'s <regex> when sanitizers are on
# (GCC PR 105562); the release build above keeps that warning as an error for our code.
[[ -f build-asan/build.ninja ]] || meson setup build-asan --buildtype=debug --werror \
    -Db_sanitize=address,undefined -Db_lundef=false -Dcpp_args=-Wno-maybe-uninitialized >/dev/null
ninja -C build-asan -j "$jobs"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export ASAN_OPTIONS="detect_odr_violation=0"
# Leak checking on for everything that does not start MPI processes...
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"
meson test -C build-asan --print-errorlogs --num-processes 1 --no-suite launches-mpi \
    --timeout-multiplier 3
# ...and off for what does: MPICH and UCX keep allocations until exit through frames built
# without frame pointers, which LeakSanitizer can neither symbolise nor suppress by library.
ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
    meson test -C build-asan --print-errorlogs --num-processes 1 --suite launches-mpi \
    --no-rebuild --timeout-multiplier 3
