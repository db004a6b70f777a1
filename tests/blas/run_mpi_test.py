#!/usr/bin/env python3
"""PAW DGEMM under MPI through the driver (mpiexec -n 2): one row per size for the whole job,
every rank's repetitions in its distribution, and the rank spread and aggregate rate as defined
(docs/methodology.md): with p ranks of equal repetitions,
  t_avg          = the mean of the rank means (for 2 ranks: (fastest + slowest) / 2)
  rank spread    = 100 (slowest mean - fastest mean) / fastest mean  [%]
  aggregate rate = p x flops / slowest rank mean                     [GFlop/s]
  rate           = flops / t_avg; flops = PAW's 2 N^2 (N + 1)

usage: run_mpi_test.py PARBENCH MPIEXEC
"""
import json
import os
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from pbtest.expect import expect, finish  # noqa: E402
from pbtest.run import PAW_BLAS, PLUGIN_PATH, process  # noqa: E402

PARBENCH, MPIEXEC = os.path.abspath(sys.argv[1]), sys.argv[2]


def near(a, b, rel=1e-9):
    return a is not None and b is not None and abs(a - b) <= rel * max(abs(a), abs(b))


with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "r.json")
    nreps = 4
    p = process([MPIEXEC, "-n", "2", PARBENCH, "run", "paw", "dgemm", "--sizes", "64,128",
                 "--nreps", str(nreps), "--threads", "1", "--time", "2", "--json", out,
                 "--dat-dir", tmp, "--quiet"],
                timeout=240, cwd=tmp, drop=PAW_BLAS + PLUGIN_PATH)
    expect(p.returncode == 0, f"exit status {p.returncode}: {p.stderr[-500:]}")
    rows = ([b for b in json.load(open(out))["benchmarks"] if b["run_type"] == "iteration"]
            if os.path.exists(out) else [])
    expect([r["bytes"] for r in rows] == [64, 128], f"one row per size for the job: "
                                                  f"{[r.get('bytes') for r in rows]}")
    for r in rows:
        n, m = r["bytes"], r["metrics"]
        label = f"dgemm N={n} -n 2"
        flops = 2 * n * n * (n + 1)
        lo, hi = m.get("rank_mean_min_us"), m.get("rank_mean_max_us")
        expect(r["processes"] == 2 and r["samples"] == 2 * nreps,
               f"{label}: 2 processes, every rank's {nreps} repetitions: {r['processes']}, "
               f"{r['samples']}")
        expect(lo is not None and hi is not None and r["t_min_us"] <= lo <= hi <= r["t_max_us"],
               f"{label}: t_min <= fastest rank mean <= slowest <= t_max: {r['t_min_us']}, {lo}, "
               f"{hi}, {r['t_max_us']}")
        if lo is None or hi is None:
            continue
        expect(near(r["t_avg_us"], (lo + hi) / 2), f"{label}: t_avg {r['t_avg_us']} is the mean "
                                                  f"of the rank means {(lo + hi) / 2}")
        expect(near(m.get("rank_spread_percent"), 100 * (hi - lo) / lo),
               f"{label}: spread {m.get('rank_spread_percent')} != {100 * (hi - lo) / lo}")
        expect(m.get("flops_paw") == flops, f"{label}: PAW flops {m.get('flops_paw')} != {flops}")
        expect(near(m.get("aggregate_gflops_paw"), 2 * flops / (hi * 1e-6) / 1e9),
               f"{label}: aggregate {m.get('aggregate_gflops_paw')} != 2 x flops / slowest mean "
               f"= {2 * flops / (hi * 1e-6) / 1e9}")
        expect(near(m.get("gflops_paw"), flops / (r["t_avg_us"] * 1e-6) / 1e9),
               f"{label}: rate {m.get('gflops_paw')} != flops / t_avg")
        print(f"{label}: rank means {lo:.2f} / {hi:.2f} us (spread "
              f"{m['rank_spread_percent']:.1f} %), aggregate {m['aggregate_gflops_paw']:.2f} "
              f"GFlop/s")

sys.exit(finish())
