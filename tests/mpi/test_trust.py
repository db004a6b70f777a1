#!/usr/bin/env python3
"""Window synchronisation (-start_sync window) and confidence stopping (-confidence) through the
driver under mpiexec (issue 13 §2, §3).

-n 2 and -n 4: the testing module's Test_Late_Allreduce (the last process sleeps 200 ms before
call 1 of every 4) under -start_sync window with a fixed 50 ms window: calls 2 and 3 start after their
windows on that process, so each row must report them dropped (valid + invalid = the 4 calls,
invalid >= 2), the samples are the valid calls, the record names the method and the console
warns once. The same kernel under IMB's barrier sync reports no window fields.
-n 2 also: window sync on PingPong and Allreduce (every call accounted for), bad -sync and
-confidence values rejected with one line, and -confidence runs whose achieved CI half-width is
recomputed here from the row's own samples with the exact binomial interval (an oracle
independent of the C++ statistics), with met/not met checked against the target.

usage: test_trust.py --np N --parbench PARBENCH
"""
import argparse
import math
import os
import sys

BAD_INPUT = 2
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from pbtest.expect import expect, finish  # noqa: E402
from pbtest.run import mpi_suite  # noqa: E402

# Test_Late_Allreduce is a test-only benchmark.
run = mpi_suite("imb-mpi1", after=["--progress", "off"],
                env={"PARBENCH_TEST_KERNELS": "1"})


def median_ci_half_width(samples):
    """The 95 % distribution-free CI of the median from B(n, 1/2): the widest symmetric pair of
    order statistics whose coverage is still >= 95 % ([min, max] below six samples)."""
    xs = sorted(samples)
    n = len(xs)
    lower, cumulative = 0, 0.0
    for i in range(0, n):
        cumulative += math.comb(n, i) / 2.0 ** n  # P(B <= i)
        if 2 * i + 1 >= n or 1.0 - 2.0 * cumulative < 0.95:
            break
        lower = i
    if n % 2:
        median = xs[n // 2]
    else:
        median = (xs[n // 2 - 1] + xs[n // 2]) / 2.0
    return (xs[n - 1 - lower] - xs[lower]) / 2.0 / median, 1.0 - 2.0 * sum(
        math.comb(n, i) for i in range(lower + 1)) / 2.0 ** n


def check_late_rank(np, parbench):
    every = ["-npmin", str(np)]  # the full count only: -n 4 would also run a block at 2
    p, rows = run(["Test_Late_Allreduce", "-msglog", "2:2", "-iter", "4", "--start_sync", "window:50000"]
                  + every, np, parbench)
    what = f"-n {np} Test_Late_Allreduce -start_sync window"
    if not expect(p.returncode == 0, f"{what}: exit {p.returncode}\n{p.stderr}"):
        return
    expect(len(rows) == 2, f"{what}: {len(rows)} rows, expected 0 and 4 bytes")
    for r in rows:
        m = r["metrics"]
        label = f"{what} {r['bytes']} B"
        expect(r.get("timing") == "window" and "/timing:window/" in r["name"],
               f"{label}: the record does not name window sync: {r.get('timing')} {r['name']}")
        valid, invalid = m.get("valid_samples"), m.get("invalid_samples")
        if not expect(valid is not None and invalid is not None, f"{label}: no valid/invalid counts"):
            continue
        expect(valid + invalid == 4, f"{label}: {valid} valid + {invalid} invalid != 4 calls")
        expect(invalid >= 2, f"{label}: only {invalid} calls dropped; calls 2 and 3 start late")
        expect(valid >= 1, f"{label}: no valid call left")
        expect(len(r["samples_us"]) == valid and r["iterations"] == valid,
               f"{label}: {len(r['samples_us'])} samples, {r['iterations']} iterations, "
               f"{valid} valid calls")
        expect(abs(m.get("window_us", 0) - 50000.0) < 1e-6,
               f"{label}: window {m.get('window_us')} us, asked 50000")
    text = p.stdout + p.stderr
    expect("calls started late on some process and were dropped" in text,
           f"{what}: no console note of the dropped calls\n{text}")

    p, rows = run(["Test_Late_Allreduce", "-msglog", "2:2", "-iter", "4"] + every, np, parbench)
    what = f"-n {np} Test_Late_Allreduce, barrier sync"
    if expect(p.returncode == 0, f"{what}: exit {p.returncode}\n{p.stderr}"):
        expect(len(rows) == 2, f"{what}: {len(rows)} rows")
        for r in rows:
            expect("timing" not in r and "valid_samples" not in r["metrics"],
                   f"{what}: window fields in a barrier-synchronised row: {r['metrics']}")
            expect(r["iterations"] == 4, f"{what}: {r['iterations']} iterations, -iter 4")
        expect("dropped" not in p.stdout + p.stderr, f"{what}: a dropped-calls note without window sync")


def check_window_n2(parbench):
    p, rows = run(["PingPong", "Allreduce", "-msglog", "0:3", "-iter", "50", "--start_sync", "window"],
                  2, parbench)
    what = "-n 2 PingPong, Allreduce -start_sync window"
    if not expect(p.returncode == 0, f"{what}: exit {p.returncode}\n{p.stderr}"):
        return
    expect(len(rows) == 5 + 3, f"{what}: {len(rows)} rows")  # 0,1,2,4,8 and 0,4,8
    for r in rows:
        m = r["metrics"]
        label = f"{what} {r['benchmark']} {r['bytes']} B"
        expect(r.get("timing") == "window", f"{label}: timing {r.get('timing')}")
        expect(m.get("valid_samples", 0) + m.get("invalid_samples", 0) == 50,
               f"{label}: {m} does not account for the 50 calls")
        expect(len(r["samples_us"]) == m.get("valid_samples"), f"{label}: samples != valid calls")
        if m.get("valid_samples", 0) > 0:
            expect(r["median_us"] > 0, f"{label}: median {r['median_us']}")
            expect(min(r["samples_us"]) > 0, f"{label}: a call of no duration")


def check_bad_input(parbench):
    for args, needle in [(["--start_sync", "windw"], "-start_sync windw"),
                         (["--start_sync", "window:-5"], "-start_sync window:-5"),
                         (["--confidence", "0"], "-confidence 0"),
                         (["--confidence", "150%"], "-confidence 150%"),
                         (["--confidence", "5%", "--confidence_futile", "maybe"],
                          "-confidence_futile maybe"),
                         (["--confidence_futile", "continue"], "-confidence_futile")]:
        p, _ = run(["PingPong", "-msglog", "0:1"] + args, 2, parbench, timeout=60)
        errors = [l for l in p.stderr.splitlines() if "error" in l]
        expect(p.returncode == BAD_INPUT and len(errors) >= 1 and needle in errors[0],
               f"{args}: exit {p.returncode}, want {BAD_INPUT} and one line naming {needle}\n"
               f"{p.stderr}")


def check_confidence(parbench):
    for target, cap, futile in [("50%", "1", []), ("0.01%", "0.05", ["stop"])]:
        # -methodology 4.0: here -time is the confidence rounds' budget per size; IMB 2021's
        # would also be a budget per block of sizes (max(max_log - min_log - 1, 1) x -time), which
        # 0.05 s may spend before the last size on a loaded machine (a time-out row).
        p, rows = run(["PingPong", "Allreduce", "-msglog", "0:2", "--confidence", target,
                       "-time", cap, "-methodology", "4.0"] +
                      [a for f in futile for a in ("-confidence_futile", f)], 2, parbench)
        what = f"-n 2 -confidence {target} -time {cap}" + \
            "".join(f" -confidence_futile {f}" for f in futile)
        if not expect(p.returncode == 0, f"{what}: exit {p.returncode}\n{p.stderr}"):
            continue
        expect(len(rows) == 4 + 2, f"{what}: {len(rows)} rows")
        goal = float(target.rstrip("%"))
        for r in rows:
            m = r["metrics"]
            label = f"{what} {r['benchmark']} {r['bytes']} B"
            if not expect("ci_achieved_percent" in m and "ci_target_met" in m,
                          f"{label}: no achieved width or verdict in {m}"):
                continue
            samples = r["samples_us"]
            expect(8 <= len(samples) <= 64, f"{label}: {len(samples)} samples, not 8 to 64")
            expect(m["ci_target_percent"] == goal, f"{label}: target {m['ci_target_percent']}")
            width, coverage = median_ci_half_width(samples)
            expect(coverage >= 0.95, f"{label}: coverage {coverage}")
            expect(abs(100 * width - m["ci_achieved_percent"]) <= 1e-6 * max(1.0, 100 * width),
                   f"{label}: achieved {m['ci_achieved_percent']} %, the samples give {100 * width} %")
            met = m["ci_achieved_percent"] <= goal
            expect(m["ci_target_met"] == (1.0 if met else 0.0),
                   f"{label}: met {m['ci_target_met']} with {m['ci_achieved_percent']} % vs {goal} %")
            # Rounds stop as soon as the target is met: a met row's first round did not suffice
            # only when its first 8 (16, ...) samples alone were too wide.
            # Rounds of 8, 8, 16, 32 (the last one cut to the budget): the samples before the
            # last round had not met the target, or there would have been no last round.
            if met and len(samples) > 8:
                before = max(b for b in (8, 16, 32) if b < len(samples))
                earlier, _ = median_ci_half_width(samples[:before])
                expect(100 * earlier > goal, f"{label}: the first {before} samples already met {goal} %")
        if goal < 1:
            expect(any(r["metrics"].get("ci_target_met") == 0.0 for r in rows),
                   f"{what}: an unreachable 0.01 % target reported as met everywhere")
            # -confidence_futile stop: from 8 samples a 0.01 % target projects far more samples
            # than any budget, so every row stops after its first round — futile, or at its cap
            # where IMB's rule has no more than 8 samples — and none runs on.
            for r in rows:
                m = r["metrics"]
                expect(m.get("confidence_rounds") == 1.0 and len(r["samples_us"]) == 8,
                       f"{what} {r['benchmark']} {r['bytes']} B: {m.get('confidence_rounds')} "
                       f"rounds, {len(r['samples_us'])} samples; want one round of 8")
            expect(any(r["metrics"].get("ci_futile") == 1.0 for r in rows),
                   f"{what}: no row stopped as futile: {[r['metrics'] for r in rows]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--parbench", required=True)
    a = ap.parse_args()
    check_late_rank(a.np, a.parbench)
    if a.np == 2:
        check_window_n2(a.parbench)
        check_bad_input(a.parbench)
        check_confidence(a.parbench)
    sys.exit(finish())


if __name__ == "__main__":
    main()
