#!/usr/bin/env bash
# Installs parbench's build and test dependencies from Debian's packages (bookworm), only when
# something is missing. Needs root (or sudo). Nothing is downloaded from anywhere else.
set -euo pipefail

packages=(
  meson ninja-build pkg-config g++ python3         # build
  nlohmann-json3-dev libcli11-dev libfmt-dev       # header-only libraries the core uses
  mpich libmpich-dev libhwloc-dev                  # MPI plugin (IMB-MPI1 ...; hwloc: placement)
  openmpi-bin libopenmpi-dev                       # the second MPI plugin, for Open MPI
  gfortran libcoarrays-mpich-dev                   # coarray plugin (EPCC CAF_BENCH, suite caf)
  libopenblas-dev                                  # BLAS plugin (PAW)
  clang-14 libomp-14-dev                           # offload plugin (OpenMP offload, libomptarget)
  catch2                                           # unit tests
  libbenchmark-tools python3-numpy python3-scipy   # Google Benchmark's compare.py
  python3-matplotlib                               # parbench plot, parbench report
  chromium                                         # tests: reports opened in headless Chromium
  cmake                                            # tests/install: find_package(parbench)
  slurmctld slurmd slurm-client munge              # tests: srun on a one-node test Slurm
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "setup: error: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
