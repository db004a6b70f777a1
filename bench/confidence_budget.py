#!/usr/bin/env python3
"""Does -confidence pay? The default imb-mpi1 run at -n 2 under IMB's rule and under
`-confidence TARGET`, beside IMB-MPI1 itself when given, alternating, in one run (issue 25 item 6).

For each run it reports the wall time and the median over rows of the 95 % CI half-width of the
row's median (the JSON's stability.ci_half_width_percent). The target defaults to the median
half-width of the first IMB-rule run: "IMB's CI width", since IMB's rule is what the default run
times and IMB itself reports no interval. It also reports the timed time of each run (the sum over
rows of iterations x mean time per iteration) and the bound no stopping rule can beat: with
samples that behave as independent draws, a row's half-width falls as 1/sqrt(iterations), so
reaching the target w costs a row with IMB-rule half-width c at least min(1, (c/w)^2) of its
IMB-rule timed time (the rule never takes more than IMB's count). Rows whose half-width IMB's rule
already leaves wider than w keep it, and the median half-width is then w.

usage: confidence_budget.py MPIEXEC PARBENCH [IMB_MPI1] [--rounds N] [--target PERCENT]
       [--futile stop|continue]
Prints one line per run and a verdict; fails (status 1) when -confidence takes more than half of
the reference's wall time (IMB-MPI1's when given, else the IMB-rule run's) or misses the target's
median width by more than 10 %.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run(command):
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 5):  # 5: defects, not a failed launch
        sys.exit(f"confidence_budget: {' '.join(command)} exited {done.returncode}: "
                 f"{done.stderr.strip()[:400]}")
    return wall


def rows_of(path):
    with open(path) as f:
        records = json.load(f)["benchmarks"]
    rows = []
    for r in records:
        if r.get("run_type") != "iteration" or not r.get("samples_us"):
            continue
        half = r.get("stability", {}).get("ci_half_width_percent")
        mean_us = statistics.fmean(r["samples_us"])
        rows.append({"name": r["name"], "half": half if half is not None else float("inf"),
                     "timed_s": r["iterations"] * mean_us * 1e-6,
                     "iterations": r["iterations"],
                     "met": r.get("metrics", {}).get("ci_target_met"),
                     "futile": r.get("metrics", {}).get("ci_futile")})
    if not rows:
        sys.exit(f"confidence_budget: {path} has no rows with samples")
    return rows


def median_half(rows):
    return statistics.median(r["half"] for r in rows)


def upper_half(rows):
    """The 90th percentile of the rows' half-widths: what the median leaves out."""
    halves = sorted(r["half"] for r in rows)
    return halves[min(len(halves) - 1, (9 * len(halves)) // 10)]


def bound(rows, target):
    """The least share of the IMB-rule timed time that reaches `target` on every row that can."""
    total = sum(r["timed_s"] for r in rows)
    need = sum(r["timed_s"] * min(1.0, (r["half"] / target) ** 2) for r in rows)
    return need / total if total > 0 else float("nan")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mpiexec")
    parser.add_argument("parbench")
    parser.add_argument("imb", nargs="?")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--target", type=float, help="percent; default: the IMB-rule run's median")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--futile", choices=("stop", "continue"), default="stop",
                        help="-confidence_futile of the -confidence run")
    args = parser.parse_args()
    launch = [args.mpiexec, "-n", str(args.processes)]
    if os.path.basename(args.mpiexec).startswith("mpiexec.mpich") or os.environ.get("BIND"):
        launch += ["-bind-to", "core"]
    scratch = tempfile.mkdtemp(prefix="confidence_budget.")
    walls = {"imb-rule": [], "confidence": [], "IMB-MPI1": []}
    halves = {"imb-rule": [], "confidence": []}
    uppers = {"imb-rule": [], "confidence": []}
    verdicts = []
    timed = {"imb-rule": [], "confidence": []}
    bounds = []
    target = args.target
    for k in range(args.rounds):
        rule_json = os.path.join(scratch, f"rule{k}.json")
        walls["imb-rule"].append(run(launch + [args.parbench, "run", "imb-mpi1", "--quiet",
                                               "--json", rule_json]))
        rule_rows = rows_of(rule_json)
        if target is None:
            target = median_half(rule_rows)
        halves["imb-rule"].append(median_half(rule_rows))
        uppers["imb-rule"].append(upper_half(rule_rows))
        timed["imb-rule"].append(sum(r["timed_s"] for r in rule_rows))
        bounds.append(bound(rule_rows, target))
        conf_json = os.path.join(scratch, f"conf{k}.json")
        walls["confidence"].append(run(launch + [args.parbench, "run", "imb-mpi1", "--quiet",
                                                 "-confidence", f"{target:.3f}%",
                                                 "-confidence_futile", args.futile,
                                                 "--json", conf_json]))
        conf_rows = rows_of(conf_json)
        halves["confidence"].append(median_half(conf_rows))
        uppers["confidence"].append(upper_half(conf_rows))
        verdicts.append((len(conf_rows), sum(r["met"] == 1.0 for r in conf_rows),
                         sum(r["futile"] == 1.0 for r in conf_rows)))
        timed["confidence"].append(sum(r["timed_s"] for r in conf_rows))
        if args.imb:
            walls["IMB-MPI1"].append(run(launch + [args.imb]))
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    med = {k: statistics.median(v) for k, v in walls.items() if v}
    print(f"# target {target:.3f} % (median CI half-width of the first IMB-rule run); "
          f"{args.rounds} alternating rounds, -n {args.processes}; load average {load:.2f}")
    print(f"{'run':<12} {'wall s':>8} {'timed s':>8} {'median half-width %':>20} "
          f"{'p90 half-width %':>17}")
    for name in ("IMB-MPI1", "imb-rule", "confidence"):
        if name not in med:
            continue
        t = f"{statistics.median(timed[name]):8.3f}" if name in timed else f"{'-':>8}"
        h = f"{statistics.median(halves[name]):20.3f}" if name in halves else f"{'-':>20}"
        u = f"{statistics.median(uppers[name]):17.3f}" if name in uppers else f"{'-':>17}"
        print(f"{name:<12} {med[name]:8.3f} {t} {h} {u}")
    rows_n, met_n, futile_n = verdicts[-1]
    print(f"-confidence rows (last round): {rows_n}, target met {met_n}, stopped as futile "
          f"{futile_n}")
    reference = "IMB-MPI1" if "IMB-MPI1" in med else "imb-rule"
    wall_ratio = med["confidence"] / med[reference]
    width_ratio = statistics.median(halves["confidence"]) / target
    timed_ratio = statistics.median(timed["confidence"]) / statistics.median(timed["imb-rule"])
    print(f"confidence / {reference} wall time: {wall_ratio:.3f}; confidence / imb-rule wall "
          f"time: {med['confidence'] / med['imb-rule']:.3f}; timed time: {timed_ratio:.3f}")
    print(f"confidence median half-width / target: {width_ratio:.3f}")
    print(f"bound: any stopping rule needs at least {statistics.median(bounds):.3f} of the "
          f"IMB-rule timed time to reach the target on every row that can")
    pays = wall_ratio <= 0.5 and width_ratio <= 1.10
    print("verdict:", "pays" if pays else "does not pay (see docs/methodology.md §11a)")
    return 0 if pays else 1


if __name__ == "__main__":
    sys.exit(main())
