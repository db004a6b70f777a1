#!/usr/bin/env bash
# Builds and runs every test: a release build with warnings as errors, and an AddressSanitizer +
# UndefinedBehaviorSanitizer build compiled meanwhile on the idle CPU; each test runs in one of
# them (the lists below say which): the release build's first, then the sanitizer build's.
# Installs missing packages first.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

export OMPI_MCA_rmaps_base_oversubscribe=1   # harmless for MPICH; lets Open MPI run -n 4 on 2 cores
jobs=$(nproc)

# The plugins under test are forced on: a missing MPI, OpenBLAS, OpenMP-offload compiler or
# OpenCoarrays (all Debian packages that setup.sh installs) is a setup failure here, not a suite
# that silently vanishes from the run. The CUDA plugin needs NVIDIA's toolkit, which Debian does
# not ship: it is built and tested when /usr/local/cuda has one, and the line below says which. The
# fault-injection benchmarks that the MPI tests run (Test_Corrupt, Test_Deadlock) exist only with
# -Dtest_kernels.
forced=(-Dmpi=enabled -Dblas=enabled -Doffload=enabled -Dcaf=enabled -Dtest_kernels=true)
# Compile time is most of this script's time (two full C++20 builds on two cores): the release
# build compiles the product at -O3 and the test programs and examples at -O0
# (-Dtest_optimization=0; they check behaviour, not speed, and the examples are whole driver
# front ends: 20 s of CPU each at -O1, 15 s at -O0). Each test runs in one build (see "What runs
# under the sanitizers"), and each build compiles the product and only the test programs of its
# own tests (build_targets): the Catch2 unit tests of the headers' and plugins' logic
# (-Dunit_tests) in the sanitizer build, where ASan and UBSan watch them; the examples and the
# overhead benches in the release build.
# The Open MPI plugin compiles at -O0 (-Dopenmpi_optimization): its tests check the library
# underneath, and the MPICH plugin compiles the same sources at -O3 (-O0 takes 40 % less compile
# time than -O1 here and 65 % less than -O3: about 95 s of CPU saved against -O3).
release_only=(-Dunit_tests=false -Dopenmpi=enabled -Dopenmpi_optimization=0
              -Dtest_optimization=0 -Dmpi_unoptimized_unity_size=64)

# Each phase's heading says how long the script has run, so that a CI log shows where its time
# goes (builds against tests; the budget is 15 minutes on two cores).
phase() { echo "== [${SECONDS} s] $*"; }

# Meson's summary counts skipped tests; this names each one with the reason it printed, so that
# a skip is never silent.
report_skips() {
    python3 - "$1/meson-logs/testlog.json" <<'PY'
import json, sys
skipped = []
for line in open(sys.argv[1]):
    t = json.loads(line)
    if t.get("result") == "SKIP":
        why = [l for l in (t.get("stdout") or "").splitlines() if l.strip()]
        skipped.append(f"  {t['name']}: {why[-1] if why else '(no reason printed)'}")
print(f"== {len(skipped)} test(s) skipped" + (":" if skipped else ""))
print("\n".join(skipped)) if skipped else None
PY
}

# The release build: -O3, as users build it.
if [[ -f build-test/build.ninja ]]; then
    meson setup --reconfigure build-test "${forced[@]}" "${release_only[@]}" >/dev/null  # also learns new options
    # A project default_options entry reaches only new directories; tests/install needs this one.
    meson configure build-test -Dpkgconfig.relocatable=true >/dev/null
else
    meson setup build-test --buildtype=release --werror "${forced[@]}" "${release_only[@]}" >/dev/null
fi

# The sanitizer build (ASan + UBSan), configured now so that the release build's tests can leave
# out what it runs.
# GCC 12 reports false 'maybe-uninitialized' inside libstdc++'s <regex> when sanitizers are on
# (GCC PR 105562); the release build keeps that warning as an error for our code.
# The CUDA and offload plugins are compiled by nvcc and clang, whose code the sanitizers do not
# instrument here; their tests run in the release build.
# The overhead benches judge timing and are compiled in the release build only; so are the
# examples, user programs of the same headers and runner that the plugins' tests cover here (the
# release build runs them and builds them as an installed user would). Test programs take this
# build's -O0 (-Dtest_optimization=inherit).
# The coarray plugin (Fortran glue over OpenCoarrays, whose MPI calls the sanitizers cannot see
# into) is built and tested in the release build only: its C++ part is the console and options
# code that the approval and unit tests exercise here through report/, and the logic of its
# MPI-free headers (sync images lists, point-to-point geometry, -check's known answer), which the
# unit-test program compiles without the plugin (tests/unit/caf/); leaving the plugin out saves
# about 20 s of this build's compile time, which the 15-minute budget needs.
# The second MPI plugin (Open MPI, -Dopenmpi) is built and tested in the release build only: it is
# the MPICH plugin's sources compiled against another mpi.h (about 60 s of compile per build),
# whose code the sanitizers already watch here under MPICH; its tests (openmpi-n2, -n4) check
# what differs, the library underneath.
asan_only=(-Dcuda=disabled -Doffload=disabled -Dcaf=disabled -Dbench=false -Dexamples=false
           -Dtest_optimization=inherit -Dunit_tests=true -Dopenmpi=disabled
           -Dmpi_unoptimized_unity_size=64)
# -g1 (line tables) gives the sanitizers' reports their function names and lines at half the
# compile time of full debug information (-g), which the sanitizer build does not need.
# UBSan's null and alignment checks guard every pointer use and together cost a further quarter
# of the compile time: a null dereference still stops the run under ASan (SEGV with its stack),
# and x86-64 loads and stores need no alignment. Its vptr check (the dynamic type behind every
# member access through a polymorphic class) costs another 12 % of the MPI plugin's compile time
# and 25 % of the host tests' (measured per translation unit): parbench's polymorphism is a few
# interfaces (reporters, sinks, resources) whose objects ASan already watches for use after free
# or scope. Its pointer-overflow check (every pointer addition, for a result that wraps around
# the address space) costs 15 % of the MPI plugin's unit and 6 % of the driver's: a pointer
# that leaves its buffer that way is caught by ASan where it is used. Every other UBSan check
# stays on. Both builds compile their unoptimised MPI plugins (here, and the release build's -O0
# Open MPI plugin) as one unity unit (-Dmpi_unoptimized_unity_size, plugins/mpi/meson.build):
# 21 % less CPU than three.
asan_cpp_args="-Wno-maybe-uninitialized -g1 -fno-sanitize=null,alignment,vptr,pointer-overflow"
if [[ -f build-asan/build.ninja ]]; then
    meson setup --reconfigure build-asan "${forced[@]}" "${asan_only[@]}" >/dev/null
    # Meson 1.0 (bookworm) keeps a directory's old cpp_args on --reconfigure; configure sets them.
    meson configure build-asan -Dcpp_args="$asan_cpp_args" >/dev/null
else
    meson setup build-asan --buildtype=debug --werror "${forced[@]}" "${asan_only[@]}" \
        -Db_sanitize=address,undefined -Db_lundef=false -Dcpp_args="$asan_cpp_args" >/dev/null
fi

# What runs under the sanitizers, by test name. Everything that starts no MPI process, but the
# short overhead benches (they judge timing) and the compile-failure tests (they only ask the
# compiler, -fsyntax-only). Of what launches MPI, each suite at -n 2 and every bad-input and
# signal test; its -n 1, -n 3 and -n 4 runs, the PMPI oracle's timing tables and the install test
# (which rebuilds the examples with the system's compilers) run in the release build only. The
# third hardening sweep's rows under mpiexec (-n 3/-n 4 runs, osu's refusals, error text and .dat
# paths, signals to each rank) run in the release build only too: they exercise the same parsers
# and output paths as the rows without MPI that run here, and together cost minutes under ASan.
# So does the hostile row that runs an example program (env_async_progress_mpi_main): only the
# release build has the examples.
# Tests that interpose on MPI with LD_PRELOAD (the PMPI oracle, pairs', links', osu-variants',
# osu-options', imb-p2p's, imb-mpi4's and imb-mt's known answers, imb2021-options' send counter)
# cannot run under ASan, whose runtime must come
# first in the library list. The test Slurm's srun runs (slurm-srun) start daemons of their own,
# and the report's browser test (cli_report_browser) judges the page in Chromium, not parbench's
# memory: both run in the release build only. So do the placement runs on simulated nodes
# (placement-nodes), the IMB readers' run (imb-readers: console text, which the approval tests
# cover here) and the MPI cases of the trust tests (trust_mpi_*): every -n 2 run here
# gathers the placement, and the trust cases without MPI exercise the same host paths here. The Catch2 host test runs at every count here:
# this build alone has it (-Dunit_tests).
list_tests() { meson test -C "$1" --list --no-rebuild "${@:2}" 2>/dev/null | sed 's/.* \/ //'; }
# What a build compiles: everything but the programs of tests/ and bench/, and the programs of the
# tests it runs (each test's command and `depends:`, which Meson records). A test program is so
# compiled in the build that runs its tests, with that build's -Werror, not in both.
build_targets() {
    python3 - "$1" "${@:2}" <<'PY'
import json, os, subprocess, sys
build, source = os.path.abspath(sys.argv[1]), os.path.abspath(".")
def introspect(what):
    return json.loads(subprocess.run(["meson", "introspect", build, what], check=True,
                                     capture_output=True, text=True).stdout)
targets = {t["id"]: t for t in introspect("--targets")}
wanted = {i for i, t in targets.items() if t["build_by_default"] and
          os.path.relpath(t["defined_in"], source).split(os.sep)[0] not in ("tests", "bench")}
names = set(sys.argv[2:])
for test in introspect("--tests"):
    if test["name"] in names:
        wanted.update(d for d in test["depends"] if d in targets)
for i in sorted(wanted):
    for f in targets[i]["filename"]:
        print(os.path.relpath(f, build))
PY
}
mapfile -t asan_plain < <(list_tests build-asan --no-suite launches-mpi --no-suite bench-short \
    --no-suite compile)
mapfile -t asan_mpi < <(list_tests build-asan --suite launches-mpi --no-suite bench-short |
    awk '/^host-n[0-9]$/ || !/-n[134]$|_n4$|^oracle-|^install-|^imb2021-options$|^pairs-|^links$|^imb-readers$|^osu-variants-|^osu-options-|^imb-p2p-|^imb-mpi4-|^imb-mt-|^slurm-|^cli_report_browser$|^placement-|^trust_mpi_/' |
    grep -Ev '^hostile_(mpi[0-9]_|mpi_osu_|mpi_err_|mpi_dat_|sig_|limit_rank0|env_async_progress_mpi_main$)')
# The release build runs the rest: each test in one build. The product at -O3 is exercised there
# by every suite's -n 1, -n 3 and -n 4 runs (the same code paths as the -n 2 runs), the oracle's
# known answers, the examples and the install; under the sanitizers by the -n 2 runs and every
# bad-input, hostile and CLI test.
mapfile -t release_tests < <(list_tests build-test |
    grep -vxF -f <(printf '%s\n' "${asan_plain[@]}" "${asan_mpi[@]}"))

# The report's browser test starts Chromium (348 MB) once; read it into the page cache now, while
# the compiler is busy with the CPU, so that the test times the page and not a cold disk.
if [[ -d /usr/lib/chromium ]]; then (cat /usr/lib/chromium/* >/dev/null 2>&1 &); fi

# The sanitizer build compiles in the background from here on, on the CPU time that the release
# build and its tests leave idle: the release build's last units compile alone, and its tests are
# one at a time (is_parallel: false), often waiting (the launcher, signal and time-limit cases,
# a test's Python between runs); 19 % of both cores' time was idle during them. It runs at the
# scheduler's idle priority (SCHED_IDLE), in a session of its own whose autogroup is at nice 19:
# with the kernel's autogroups on (Debian's default), CFS shares the CPU between sessions first,
# and an idle-priority task in one session would still take its session's share from a test in
# another. So the foreground work has the CPU whenever it wants it.
mapfile -t asan_targets < <(build_targets build-asan "${asan_plain[@]}" "${asan_mpi[@]}")
asan_build_log=build-asan/background-build.log
setsid bash -c 'echo 19 > /proc/self/autogroup 2>/dev/null; exec chrt --idle 0 "$@"' _ \
    ninja -C build-asan -j "$jobs" "${asan_targets[@]}" >"$asan_build_log" 2>&1 &
asan_build=$!
# Whatever ends this script ends the background build too (its whole session).
trap 'kill -- -"$asan_build" 2>/dev/null || true' EXIT

phase "release build (-Werror); the sanitizer build in the background at idle priority"
mapfile -t targets < <(build_targets build-test "${release_tests[@]}")
ninja -C build-test -j "$jobs" "${targets[@]}"
phase "release build done"
if [[ -f build-test/plugins/cuda/parbench_cuda.so ]]; then
    echo "== CUDA plugin built (toolkit found); its tests run without a GPU on the no-device path"
else
    echo "== CUDA plugin not built: no CUDA toolkit at /usr/local/cuda (NVIDIA's, not in Debian)"
fi
phase "release build: ${#release_tests[@]} tests (the sanitizer build runs the others)"
# Two at a time: tests that launch MPI processes or time something are marked is_parallel: false
# and run alone; the rest share the two cores.
meson test -C build-test --print-errorlogs --num-processes 2 --no-rebuild "${release_tests[@]}"
report_skips build-test

phase "sanitizer build (ASan + UBSan): the background build's rest, at full priority"
# Waits for the background build, which has the CPU to itself now (its idle priority yields to
# nothing else). Its log is shown whole when it failed, its last line otherwise.
if ! wait "$asan_build"; then
    cat "$asan_build_log"
    echo "== the sanitizer build failed (log above: $asan_build_log)"
    exit 1
fi
tail -n 1 "$asan_build_log"
phase "sanitizer build done"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export ASAN_OPTIONS="detect_odr_violation=0"
# Leak checking on for everything that does not start MPI processes...
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"
phase "sanitizer build: ${#asan_plain[@]} tests without MPI"
meson test -C build-asan --print-errorlogs --num-processes 2 --no-rebuild \
    --timeout-multiplier 3 "${asan_plain[@]}"
report_skips build-asan
# ...and off for what does: MPICH and UCX keep allocations until exit through frames built
# without frame pointers, which LeakSanitizer can neither symbolise nor suppress by library.
phase "sanitizer build: ${#asan_mpi[@]} tests that launch MPI"
# Two at a time, as in the release build: what measures under MPI is is_parallel: false and runs
# alone; the bad-input rows that only start MPI and exit share the cores.
ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
    meson test -C build-asan --print-errorlogs --num-processes 2 --no-rebuild \
    --timeout-multiplier 3 "${asan_mpi[@]}"
report_skips build-asan
phase "all tests done"
