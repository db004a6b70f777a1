#!/usr/bin/env python3
"""Runs the ssend_pingpong example under mpiexec -n 2 and checks its table."""
import subprocess
import sys

example, max_log = sys.argv[1], 10
out = subprocess.run(["mpiexec", "-n", "2", example, str(max_log)], capture_output=True,
                     text=True, timeout=120)
lines = out.stdout.splitlines()
rows = [l.split() for l in lines if l.strip() and not l.startswith("#") and "#bytes" not in l]
errors = []
if out.returncode != 0:
    errors.append(f"exit status {out.returncode}: {out.stderr[-300:]}")
if "# Benchmarking SsendPingPong" not in lines:
    errors.append("no heading")
sizes = [int(r[0]) for r in rows]
if sizes != [0] + [2 ** k for k in range(max_log + 1)]:
    errors.append(f"sizes {sizes}")
for r in rows:
    x, reps, t, mbs, median = int(r[0]), int(r[1]), float(r[2]), float(r[3]), float(r[4])
    if reps < 1 or reps > 1000 or t <= 0 or median <= 0:
        errors.append(f"implausible row {r}")
    # t is printed with two decimals: allow for its rounding.
    low, high = x / 1.048576 / (t + 0.006), x / 1.048576 / max(t - 0.006, 1e-9)
    if x > 0 and not low - 0.01 <= mbs <= high + 0.01:
        errors.append(f"Mbytes/sec {mbs} != X/1.048576/t in {r}")
print(out.stdout)
for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
