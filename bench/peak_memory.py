#!/usr/bin/env python3
"""Peak resident memory per rank of the default `parbench run imb-mpi1` at -n 2 beside the plain
MPI reference (imb_memory_reference.cpp: IMB-MPI1's buffers and its heaviest calls at 4 MiB),
alternating, in one run. Each rank runs under a small wrapper that reports its child's peak
(getrusage RUSAGE_CHILDREN: the rank and everything it forked, parbench's plugin probe included).
Prints the median of each rank's figures and the ratio parbench / reference; fails when a rank's
ratio exceeds 1.10 (the issue's "within 10 %" of a program doing IMB's work).

usage: peak_memory.py MPIEXEC PARBENCH REFERENCE [ROUNDS]
"""
import glob
import os
import statistics
import subprocess
import sys
import tempfile

MPIEXEC, PARBENCH, REFERENCE = sys.argv[1:4]
ROUNDS = int(sys.argv[4]) if len(sys.argv) > 4 else 3
LIMIT = 1.10
# Runs the rank's command and writes its peak to DIRECTORY/<rank>. It keeps its file descriptors
# open for the rank: MPICH reaches its launcher through one.
WRAPPER = ("import os, resource, subprocess, sys\n"
           "rc = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, close_fds=False).returncode\n"
           "with open(os.path.join(sys.argv[1], os.environ['PMI_RANK']), 'w') as f:\n"
           "    f.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
           "sys.exit(rc)\n")


def peaks(command):
    """{rank: peak KiB} of one `mpiexec -n 2` run of `command`."""
    with tempfile.TemporaryDirectory() as out:
        p = subprocess.run([MPIEXEC, "-n", "2", sys.executable, "-c", WRAPPER, out] + command,
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            sys.exit(f"FAILED: {' '.join(command)}: exit status {p.returncode}\n{p.stderr[-2000:]}")
        found = {int(os.path.basename(f)): int(open(f).read()) for f in glob.glob(out + "/*")}
    if sorted(found) != [0, 1]:
        sys.exit(f"FAILED: no peak for every rank ({found})")
    return found


runs = {"parbench": [], "reference": []}
for _ in range(ROUNDS):
    runs["parbench"].append(peaks([PARBENCH, "run", "imb-mpi1", "--quiet"]))
    runs["reference"].append(peaks([REFERENCE]))

load = os.getloadavg()[0]
print(f"peak resident memory per rank, mpiexec -n 2, median of {ROUNDS} alternating runs "
      f"(load average {load:.2f})")
print(f"{'rank':>4}  {'parbench MiB':>12}  {'reference MiB':>13}  {'ratio':>6}")
worst = 0.0
for rank in (0, 1):
    ours = statistics.median(r[rank] for r in runs["parbench"]) / 1024
    theirs = statistics.median(r[rank] for r in runs["reference"]) / 1024
    worst = max(worst, ours / theirs)
    print(f"{rank:>4}  {ours:>12.1f}  {theirs:>13.1f}  {ours / theirs:>6.3f}")
if worst > LIMIT:
    sys.exit(f"FAILED: a rank's peak is {worst:.3f}x the reference's (limit {LIMIT})")
print(f"ok: every rank within {LIMIT}x of the reference")
