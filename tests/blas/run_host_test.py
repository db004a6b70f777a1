#!/usr/bin/env python3
"""Whole PAW BLAS runs through a host process that loads no MPI plugin (paw_host):
files written, JSON events complete and consistent, thread sweep, budget cuts reported, and
bad input rejected with exit status 2 and one clear line.

usage: run_host_test.py BLAS_HOST PARBENCH_BLAS_SO
"""
import os
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from pbtest.expect import expect, finish  # noqa: E402
from pbtest.run import paw_host  # noqa: E402

HOST, PLUGIN = sys.argv[1], sys.argv[2]


def run(options, benchmarks=(), env=None, directory=None):
    """One request through the host; returns (process, events, the directory of its files)."""
    request = {"suite": "paw", "benchmarks": list(benchmarks), "options": options}
    directory = directory or tempfile.mkdtemp(prefix="parbench_blas_")
    proc, events = paw_host(HOST, PLUGIN, request, directory,
                            os.path.join(directory, "events.jsonl"), env=env)
    return proc, events, directory


# 1. All four kernels, small sizes, short budgets.
proc, events, out = run({"max_size": "128", "med_size": "64", "nreps": "3", "time": "2",
                         "threads": "1"}, env={"MIN_BLAS_SIZE": "16"})
expect(proc.returncode == 0, f"full run exit status {proc.returncode}: {proc.stderr.strip()}")
starts = [e for e in events if e["event"] == "run_start"]
results = [e for e in events if e["event"] == "result"]
warnings = [e["message"] for e in events if e["event"] == "warning"]
expect(len(starts) == 1 and starts[0]["layout"] == "paw", "one run_start with layout paw")
expect(events and events[0]["event"] == "run_start", "run_start comes first")
ctx = starts[0]["context"] if starts else {}
expect("corename" in ctx.get("openblas", {}), "context records openblas_get_corename")
expect(ctx.get("openblas", {}).get("version", "").count(".") == 2, "context records the version")
expect(ctx.get("options", {}).get("sources", {}).get("min_size") == "environment MIN_BLAS_SIZE",
       "MIN_BLAS_SIZE from the environment is used and recorded")
expect(ctx.get("processes") == 1, "single process without MPI")
for kernel in ("dgemm", "sgemm", "dgemv", "sgemv"):
    rows = [r for r in results if r["benchmark"] == kernel]
    expect([r["bytes"] for r in rows] == [16, 32, 64, 128], f"{kernel}: sizes 16..128")
    for r in rows:
        n = r["bytes"]
        m = r["metrics"]
        gemm = kernel.endswith("gemm")
        paw = 2 * n * n * (n + 1) if gemm else 2 * n * (n + 1)
        conv = 2 * n ** 3 if gemm else 2 * n ** 2
        expect(m["flops_paw"] == paw and m["flops_conventional"] == conv, f"{kernel} {n}: flops")
        expect(r["t_min_us"] <= r["t_avg_us"] <= r["t_max_us"], f"{kernel} {n}: min<=avg<=max")
        expect(abs(m["gflops_paw"] - paw / (r["t_avg_us"] * 1e-6) / 1e9) < 1e-6 * m["gflops_paw"],
               f"{kernel} {n}: rate from mean time")
        expect(r["distribution_us"]["samples"] == 3, f"{kernel} {n}: NREPS samples")
        expect(r["class"] == "compute" and r["block"]["threads"] == 1, f"{kernel} {n}: block")
        expect(r["iterations"] >= 1, f"{kernel} {n}: NLOOP recorded")
    for kind in ("time", "flops"):
        path = os.path.join(out, f"{kernel}_{kind}-np_1.dat")
        expect(os.path.exists(path), f"{path} written")
        if os.path.exists(path):
            with open(path) as f:
                lines = [l for l in f if not l.startswith("#")]
            expect([int(l.split()[0]) for l in lines] == [16, 32, 64, 128], f"{path}: one line a size")
            expect(lines and all(len(l.split()) == 4 for l in lines), f"{path}: N min max mean")
            # The columns, from PAW's definitions: time per call in seconds (min, max, mean over
            # the repetitions) and GFlop/s from PAW's flop count, the slowest time giving the
            # lowest rate: min = flops / t_max, max = flops / t_min, mean = flops / t_mean.
            by_size = {r["bytes"]: r for r in rows}
            for l in lines:
                n, a, b, c = l.split()
                r = by_size.get(int(n))
                if r is None:
                    expect(False, f"{path}: size {n} has no result")
                    continue
                t = [r["t_min_us"] * 1e-6, r["t_max_us"] * 1e-6, r["t_avg_us"] * 1e-6]
                flops = r["metrics"]["flops_paw"]
                want = t if kind == "time" else [flops / t[1] / 1e9, flops / t[0] / 1e9,
                                                 flops / t[2] / 1e9]
                got = [float(a), float(b), float(c)]
                expect(all(abs(g - w) <= 1e-6 * w for g, w in zip(got, want)),
                       f"{path} N={n}: {got} != {want} ({kind}: "
                       f"{'seconds' if kind == 'time' else 'GFlop/s'})")
if ctx.get("openblas", {}).get("fallback_core"):
    expect(sum("OPENBLAS_CORETYPE=" in w for w in warnings) == 1,
           "the fallback core is warned about once, with the remedy")
expect("# dgemm, 1 thread" in proc.stdout, "console summary per call")

# 2. Thread sweep: one pair of files per thread count.
proc, events, out = run({"sizes": "32,64", "nreps": "2", "threads": "1,2", "time": "1"}, ["DGEMM"])
expect(proc.returncode == 0, f"thread sweep exit status {proc.returncode}: {proc.stderr.strip()}")
for t in (1, 2):
    expect(os.path.exists(os.path.join(out, f"dgemm_time-np_{t}.dat")), f"dgemm np_{t} file")
threads = sorted({e["block"]["threads"] for e in events if e["event"] == "result"})
expect(threads == [1, 2], f"results for threads 1 and 2, got {threads}")

# 3. The per-size budget cuts the large sizes and says which.
proc, events, out = run({"sizes": "64,128,1024,2048", "time": "0.02", "nreps": "3"}, ["dgemm"])
expect(proc.returncode == 0, f"budget run exit status {proc.returncode}")
sizes = [e["bytes"] for e in events if e["event"] == "result"]
cut = [e["message"] for e in events if e["event"] == "warning" and "cut short" in e["message"]]
expect(2048 not in sizes and len(cut) == 1 and "2048" in cut[0],
       f"budget: 2048 skipped and reported once (ran {sizes}, warnings {cut})")

# 4. Bad input: exit status 2, one clear line, no result.
bad = [
    ({"min_size": "abc"}, {}, "--min_size 'abc'"),
    ({"max_size": "-5"}, {}, "--max_size '-5'"),
    ({}, {"MIN_BLAS_SIZE": "512", "MAX_BLAS_SIZE": "256"}, "minimum size 512"),
    ({"threads": "0"}, {}, "--threads '0'"),
    ({}, {"NLOOP_MAX": "lots"}, "NLOOP_MAX 'lots'"),
]
for options, env, expected in bad:
    proc, events, _ = run(options, ["dgemm"], env=env)
    lines = proc.stderr.strip().splitlines()
    expect(proc.returncode == 2, f"bad input {options or env}: exit status {proc.returncode}")
    expect(len(lines) == 1 and expected in lines[0], f"bad input {options or env}: message {lines}")
    expect(not any(e["event"] == "result" for e in events), f"bad input {options or env}: no result")
proc, _, _ = run({}, ["zgemm"])
expect(proc.returncode == 2 and "unknown benchmark 'zgemm'" in proc.stderr, "unknown benchmark")

sys.exit(finish())
