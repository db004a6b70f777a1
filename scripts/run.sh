#!/usr/bin/env bash
# The main job: installs what is missing, builds parbench, and runs the default IMB-MPI1 suite on
# two processes, printing IMB-style tables and writing results.json (Google Benchmark layout).
#   bash scripts/run.sh                 # default suite
#   bash scripts/run.sh PingPong -msglog 0:16   # any extra 'parbench run imb-mpi1' arguments
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
[[ -f build/build.ninja ]] || meson setup build --buildtype=release >/dev/null
ninja -C build >/dev/null

# MPICH's launcher by its own name: setup.sh installs Open MPI too (its second MPI plugin), and
# Debian then points the plain `mpiexec` at Open MPI's. parbench would run under either (it loads
# the plugin of the launcher's MPI); MPICH's is the default MPI and runs as root as it is.
mpiexec=mpiexec.mpich
command -v "$mpiexec" >/dev/null || mpiexec=mpiexec
exec "$mpiexec" -n 2 build/apps/parbench/parbench run imb-mpi1 --json results.json "$@"
