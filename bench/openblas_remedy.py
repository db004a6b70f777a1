#!/usr/bin/env python3
"""The OpenBLAS fallback warning's remedy raises DGEMM: `parbench run paw dgemm` at N = 384 on
one thread under OPENBLAS_CORETYPE=Prescott (the SSE3 fallback) and under the remedy the warning
names (SkylakeX with AVX-512, Haswell with AVX2 and FMA), alternating five times; fails when the
median rate ratio remedy / Prescott is not above 1.3 (about 5x on the build machines' Zen 4).
A speed ratio, so a benchmark() and not a test (issue 27): tests/blas/run_driver_test.py checks
the warning and that the remedy's core takes effect.

usage: openblas_remedy.py PARBENCH     (exit 77, skipped, without AVX2 and FMA)
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

PARBENCH = os.path.abspath(sys.argv[1])


def cpu_flags():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def rate(coretype):
    env = {k: v for k, v in os.environ.items()
           if k not in ("MIN_BLAS_SIZE", "MED_BLAS_SIZE", "MAX_BLAS_SIZE", "NLOOP_MAX",
                        "NLOOP_MIN", "NREPS")}
    env["OPENBLAS_CORETYPE"] = coretype
    with tempfile.TemporaryDirectory(prefix="parbench_remedy_") as d:
        p = subprocess.run([PARBENCH, "run", "paw", "dgemm", "--sizes", "384", "--nreps", "5",
                            "--threads", "1", "--json", "r.json", "--dat-dir", d, "--quiet"],
                           cwd=d, env=env, capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            sys.exit(f"OPENBLAS_CORETYPE={coretype}: exit {p.returncode}: {p.stderr[-300:]}")
        with open(os.path.join(d, "r.json")) as f:
            rows = [b for b in json.load(f)["benchmarks"] if b.get("benchmark") == "dgemm"]
        return max(r["metrics"]["gflops_conventional"] for r in rows)


flags = cpu_flags()
if not {"avx2", "fma"} <= flags:
    print("SKIP: no AVX2 and FMA: no remedy to measure")
    sys.exit(77)
remedy = "SkylakeX" if "avx512f" in flags else "Haswell"
ratios = []
for _ in range(5):
    slow, fast = rate("Prescott"), rate(remedy)
    ratios.append(fast / slow)
    print(f"DGEMM N=384, 1 thread: Prescott {slow:.1f}, {remedy} {fast:.1f} GFlop/s "
          f"(x{fast / slow:.2f})")
median = statistics.median(ratios)
print(f"median ratio {median:.2f}: {'ok' if median > 1.3 else 'NOT ABOVE 1.3'}")
sys.exit(0 if median > 1.3 else 1)
