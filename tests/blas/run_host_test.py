#!/usr/bin/env python3
"""Whole PAW BLAS runs through a host process that loads no MPI plugin (paw_host):
files written, JSON events complete and consistent, thread sweep, budget cuts reported, and
bad input rejected with exit status 2 and one clear line.

usage: run_host_test.py BLAS_HOST PARBENCH_BLAS_SO
"""
import json
import os
import subprocess
import sys
import tempfile

HOST, PLUGIN = sys.argv[1], sys.argv[2]
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def run(options, benchmarks=(), env=None, directory=None):
    request = {"suite": "paw", "benchmarks": list(benchmarks), "options": options}
    directory = directory or tempfile.mkdtemp(prefix="parbench_blas_")
    events_file = os.path.join(directory, "events.jsonl")
    full_env = dict(os.environ)
    for var in ("MIN_BLAS_SIZE", "MED_BLAS_SIZE", "MAX_BLAS_SIZE", "NLOOP_MAX", "NLOOP_MIN",
                "NREPS"):
        full_env.pop(var, None)
    full_env.update(env or {})
    proc = subprocess.run([HOST, PLUGIN, json.dumps(request), directory, events_file],
                          capture_output=True, text=True, env=full_env, timeout=240)
    events = []
    if os.path.exists(events_file):
        with open(events_file) as f:
            events = [json.loads(line) for line in f if line.strip()]
    return proc, events, directory


# 1. All four kernels, small sizes, short budgets.
proc, events, out = run({"max_size": "128", "med_size": "64", "nreps": "3", "time": "2",
                         "threads": "1"}, env={"MIN_BLAS_SIZE": "16"})
check(proc.returncode == 0, f"full run exit status {proc.returncode}: {proc.stderr.strip()}")
starts = [e for e in events if e["event"] == "run_start"]
results = [e for e in events if e["event"] == "result"]
warnings = [e["message"] for e in events if e["event"] == "warning"]
check(len(starts) == 1 and starts[0]["layout"] == "paw", "one run_start with layout paw")
check(events and events[0]["event"] == "run_start", "run_start comes first")
ctx = starts[0]["context"] if starts else {}
check("corename" in ctx.get("openblas", {}), "context records openblas_get_corename")
check(ctx.get("openblas", {}).get("version", "").count(".") == 2, "context records the version")
check(ctx.get("options", {}).get("sources", {}).get("min_size") == "environment MIN_BLAS_SIZE",
      "MIN_BLAS_SIZE from the environment is used and recorded")
check(ctx.get("processes") == 1, "single process without MPI")
for kernel in ("dgemm", "sgemm", "dgemv", "sgemv"):
    rows = [r for r in results if r["benchmark"] == kernel]
    check([r["bytes"] for r in rows] == [16, 32, 64, 128], f"{kernel}: sizes 16..128")
    for r in rows:
        n = r["bytes"]
        m = r["metrics"]
        gemm = kernel.endswith("gemm")
        paw = 2 * n * n * (n + 1) if gemm else 2 * n * (n + 1)
        conv = 2 * n ** 3 if gemm else 2 * n ** 2
        check(m["flops_paw"] == paw and m["flops_conventional"] == conv, f"{kernel} {n}: flops")
        check(r["t_min_us"] <= r["t_avg_us"] <= r["t_max_us"], f"{kernel} {n}: min<=avg<=max")
        check(abs(m["gflops_paw"] - paw / (r["t_avg_us"] * 1e-6) / 1e9) < 1e-6 * m["gflops_paw"],
              f"{kernel} {n}: rate from mean time")
        check(r["distribution_us"]["samples"] == 3, f"{kernel} {n}: NREPS samples")
        check(r["class"] == "compute" and r["block"]["threads"] == 1, f"{kernel} {n}: block")
        check(r["iterations"] >= 1, f"{kernel} {n}: NLOOP recorded")
    for kind in ("time", "flops"):
        path = os.path.join(out, f"{kernel}_{kind}-np_1.dat")
        check(os.path.exists(path), f"{path} written")
        if os.path.exists(path):
            with open(path) as f:
                lines = [l for l in f if not l.startswith("#")]
            check([int(l.split()[0]) for l in lines] == [16, 32, 64, 128], f"{path}: one line a size")
            check(lines and all(len(l.split()) == 4 for l in lines), f"{path}: N min max mean")
            # The columns, from PAW's definitions: time per call in seconds (min, max, mean over
            # the repetitions) and GFlop/s from PAW's flop count, the slowest time giving the
            # lowest rate: min = flops / t_max, max = flops / t_min, mean = flops / t_mean.
            by_size = {r["bytes"]: r for r in rows}
            for l in lines:
                n, a, b, c = l.split()
                r = by_size.get(int(n))
                if r is None:
                    check(False, f"{path}: size {n} has no result")
                    continue
                t = [r["t_min_us"] * 1e-6, r["t_max_us"] * 1e-6, r["t_avg_us"] * 1e-6]
                flops = r["metrics"]["flops_paw"]
                want = t if kind == "time" else [flops / t[1] / 1e9, flops / t[0] / 1e9,
                                                 flops / t[2] / 1e9]
                got = [float(a), float(b), float(c)]
                check(all(abs(g - w) <= 1e-6 * w for g, w in zip(got, want)),
                      f"{path} N={n}: {got} != {want} ({kind}: "
                      f"{'seconds' if kind == 'time' else 'GFlop/s'})")
if ctx.get("openblas", {}).get("fallback_core"):
    check(sum("OPENBLAS_CORETYPE=" in w for w in warnings) == 1,
          "the fallback core is warned about once, with the remedy")
check("# dgemm, 1 thread" in proc.stdout, "console summary per call")

# 2. Thread sweep: one pair of files per thread count.
proc, events, out = run({"sizes": "32,64", "nreps": "2", "threads": "1,2", "time": "1"}, ["DGEMM"])
check(proc.returncode == 0, f"thread sweep exit status {proc.returncode}: {proc.stderr.strip()}")
for t in (1, 2):
    check(os.path.exists(os.path.join(out, f"dgemm_time-np_{t}.dat")), f"dgemm np_{t} file")
threads = sorted({e["block"]["threads"] for e in events if e["event"] == "result"})
check(threads == [1, 2], f"results for threads 1 and 2, got {threads}")

# 3. The per-size budget cuts the large sizes and says which.
proc, events, out = run({"sizes": "64,128,1024,2048", "time": "0.02", "nreps": "3"}, ["dgemm"])
check(proc.returncode == 0, f"budget run exit status {proc.returncode}")
sizes = [e["bytes"] for e in events if e["event"] == "result"]
cut = [e["message"] for e in events if e["event"] == "warning" and "cut short" in e["message"]]
check(2048 not in sizes and len(cut) == 1 and "2048" in cut[0],
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
    check(proc.returncode == 2, f"bad input {options or env}: exit status {proc.returncode}")
    check(len(lines) == 1 and expected in lines[0], f"bad input {options or env}: message {lines}")
    check(not any(e["event"] == "result" for e in events), f"bad input {options or env}: no result")
proc, _, _ = run({}, ["zgemm"])
check(proc.returncode == 2 and "unknown benchmark 'zgemm'" in proc.stderr, "unknown benchmark")

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
