#!/usr/bin/env python3
"""The osu suite's one-sided tests and PAW's p2p_get/p2p_put through the driver under mpiexec.

-n 1: both suites refuse with one line and status 2. -n 2: every osu benchmark with each of its
synchronisations and window creations at tiny sizes with -check (no defects; the testing
module's corrupted put counted byte by byte, its never-exposed epoch stopped by --timeout with
the rows before it kept), figures worked out
from process 0's own time (OSU's MB/s = bytes x window / t0, latency = t0), OSU's counts, the
console layout against a golden file (numbers masked, OSU 7 widths), bad -s/-w/-m rejected with one line;
PAW's statistics over repetitions (MIN across tasks per repetition), its .dat files and GB/s.
-n 3: the one-sided set with PSCW and fence while process 2 waits outside the active set.
-n 4: osu on processes 0 and 1 while the others wait; PAW's pairs 0<->2, 1<->3, proven by
-check (each target's bytes carry its partner's rank).

usage: test_osu_paw.py --np N --parbench PARBENCH --golden DIR
Set PARBENCH_APPROVE=1 to rewrite the golden file.
"""
import argparse
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
from pbtest import mask  # noqa: E402
from pbtest.approve import approve  # noqa: E402
from pbtest.expect import close, expect, finish  # noqa: E402
from pbtest.run import MPIEXEC, mpi_suite, run_command  # noqa: E402

BAD_INPUT = 2
LATENCY = ["put_latency", "get_latency", "acc_latency", "get_acc_latency", "fop_latency",
           "cas_latency"]
BANDWIDTH = ["put_bw", "get_bw"]
EVERY_SYNC = ["lock", "flush", "flush_local", "lock_all", "pscw", "fence"]
# `parbench run ARGS` (the suite first) under mpiexec with a JSON file: (run, its result rows).
run = mpi_suite()


def check_osu_rows(rows, label, window, iterations):
    for r in rows:
        what = f"{label} {r['benchmark']} {r['bytes']} B"
        expect(r["defects"] == 0, f"{what}: defects {r['defects']}")
        expect(r["iterations"] == iterations, f"{what}: {r['iterations']} iterations, -i {iterations}")
        t = r["t_max_us"]
        expect(t > 0 and r["real_time"] == t, f"{what}: the headline is the slowest rank's t ({t})")
        # OSU's figure is process 0's own time (osu_put_latency.c:162-166, osu_put_bw.c:164-166)
        t0 = r["metrics"].get("process0_time_us", -1)
        expect(0 < t0 <= t * (1 + 1e-9), f"{what}: process 0's time {t0}, the slowest's {t}")
        if r["benchmark"] in BANDWIDTH + ["put_bibw"]:
            per_iteration = window * r["bytes"] * (2 if r["benchmark"] == "put_bibw" else 1)
            want = per_iteration / t0  # bytes per us = MB/s (10^6 B/s)
            got = r["metrics"].get("bandwidth_mb_s")
            expect(got is not None and close(got, want), f"{what}: MB/s {got} != {want}")
            # parbench's own MiB/s: over the slowest process's time, as in every suite
            expect(close(r["throughput_mib_s"], per_iteration / t / 1.048576),
                   f"{what}: MiB/s {r['throughput_mib_s']} != {per_iteration / t / 1.048576}")
        else:
            expect(r["throughput_mib_s"] is None, f"{what}: a latency test has no throughput")
        if r["benchmark"] in ("fop_latency", "cas_latency"):
            # one MPI_CHAR, OSU 7.5's default -T (osu_fop_latency.c:294 prints dtype_size)
            expect(r["bytes"] == 1, f"{what}: one 1-byte MPI_CHAR, as OSU 7.5")


def test_refusals(args):
    p, _ = run(["osu", "put_latency"], 1, args.parbench)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    expect(p.returncode == BAD_INPUT and len(lines) == 1 and "needs 2 processes" in lines[0],
           f"osu at -n 1: rc {p.returncode}, stderr {p.stderr!r}")
    p, _ = run(["paw", "p2p_get", "--max_size", "4"], 1, args.parbench)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    expect(p.returncode == BAD_INPUT and len(lines) == 1 and "even number of tasks" in lines[0],
           f"paw at -n 1: rc {p.returncode}, stderr {p.stderr!r}")


def test_osu_two(args):
    # OSU's window, 64: the one-sided latency tests take no -W (OSU 7.5's ONE_SIDED LAT string)
    small = ["-m", "1:4", "-i", "20", "-x", "2", "--check"]
    one_sided = LATENCY + BANDWIDTH + ["put_bibw"]
    p, rows = run(["osu"] + one_sided + small, 2, args.parbench)
    expect(p.returncode == 0, f"osu one-sided run: rc {p.returncode}: {p.stderr[-400:]}")
    names = {r["benchmark"] for r in rows}
    expect(names == set(one_sided), f"osu one-sided run ran {sorted(names)}")
    check_osu_rows(rows, "one-sided", 64, 20)
    for sync in EVERY_SYNC:
        p, rows = run(["osu", "put_latency", "get_latency", "put_bw", "get_bw", "acc_latency",
                       "get_acc_latency", "fop_latency", "cas_latency", "-s", sync] + small,
                      2, args.parbench)
        expect(p.returncode == 0 and len(rows) == 6 * 3 + 2,
               f"-s {sync}: rc {p.returncode}, {len(rows)} rows: {p.stderr[-300:]}")
        check_osu_rows(rows, f"-s {sync}", 64, 20)
    p, rows = run(["osu", "put_bibw", "-s", "fence"] + small, 2, args.parbench)
    expect(p.returncode == 0 and len(rows) == 3, f"put_bibw -s fence: rc {p.returncode}")
    check_osu_rows(rows, "put_bibw fence", 64, 20)
    for creation in ["create", "dynamic"]:
        p, rows = run(["osu", "put_latency", "get_bw", "acc_latency", "-w", creation] + small, 2,
                      args.parbench)
        expect(p.returncode == 0 and len(rows) == 9, f"-w {creation}: rc {p.returncode}")
        check_osu_rows(rows, f"-w {creation}", 64, 20)
    # A put one byte off its section (the testing module's kernel): -check counts every byte.
    p, rows = run(["osu", "Test_Corrupt_put", "-m", "1:8", "-i", "5", "-x", "1", "--check"], 2,
                  args.parbench)
    if p.returncode == BAD_INPUT and "unknown benchmark" in p.stderr:
        print("skipped Test_Corrupt_put: plugin built without -Dtest_kernels=true")
    else:
        got = {r["bytes"]: r["defects"] for r in rows}
        expect(p.returncode == 5 and got == {1: 1, 2: 2, 4: 4, 8: 8},  # 5: defects found
               f"Test_Corrupt_put defects {got} (rc {p.returncode})")
    # An epoch the target never exposes: --timeout stops the run naming it, earlier rows kept.
    p, rows = run(["osu", "put_latency", "Test_Deadlock_put", "-m", "1:2", "-i", "5", "-x", "1",
                   "--timeout", "3"], 2, args.parbench, timeout=60)
    if not (p.returncode == BAD_INPUT and "unknown benchmark" in p.stderr):
        expect(p.returncode == 3 and "Test_Deadlock_put" in p.stderr and
               [r["benchmark"] for r in rows] == ["put_latency", "put_latency"],
               f"deadlocked epoch: rc {p.returncode}, rows {[r['benchmark'] for r in rows]}, "
               f"stderr {p.stderr[-300:]!r}")
    # OSU's counts without -i/-x: 10000/100 for latency, 100/10 for bandwidth at <= 8 KiB.
    p, rows = run(["osu", "put_latency", "put_bw", "-m", "8:8"], 2, args.parbench)
    counts = {r["benchmark"]: r["iterations"] for r in rows}
    expect(counts == {"put_latency": 10000, "put_bw": 100}, f"OSU's default counts: {counts}")

    for bad, says in [(["put_bibw", "-s", "flush"], "-s flush: not a synchronisation of put_bibw"),
                      (["put_latency", "-s", "sometimes"], "-s sometimes: expected lock"),
                      (["put_latency", "-w", "borrow"], "-w borrow: expected create, allocate or dynamic"),
                      (["put_latency", "-m", "64:8"], "-m 64:8: MIN is larger than MAX"),
                      (["put_latency", "-m", "lots"], "-m lots: MAX 'lots' is not"),
                      (["put_bw", "-W", "0"], "-W 0:")]:
        p, _ = run(["osu"] + bad, 2, args.parbench)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        expect(p.returncode == BAD_INPUT and len(lines) == 1 and says in lines[0],
               f"osu {' '.join(bad)}: rc {p.returncode}, stderr {p.stderr!r}")

    # The console layout, numbers masked.
    _, stdout, _ = run_command([MPIEXEC, "-n", "2", args.parbench, "run", "osu", "put_latency",
                                "put_bw", "cas_latency", "-m", "1:4", "-i", "10", "-x", "1"])
    actual = mask.osu_one_sided_console(stdout)
    # -extra: parbench's median and CI trail OSU's two columns, which keep their layout
    _, stdout, _ = run_command([MPIEXEC, "-n", "2", args.parbench, "run", "osu", "put_bw",
                                "-m", "4:4", "-i", "20", "-x", "1", "-W", "2", "-extra"])
    rows = [l for l in stdout.splitlines() if l and not l.startswith("#")]
    expect(len(rows) == 1 and re.fullmatch(r"4 {9}[ \d.]{18}( +\d+\.\d\d){3}", rows[0]) is not None,
           f"-extra row {rows}")
    approve(os.path.join(args.golden, "osu_one_sided.txt"), actual)


def test_paw(args, np):
    with tempfile.TemporaryDirectory() as dat:
        loop = ["--nreps", "3", "--min_loop_time", "0"] + (["--nloop_max", "4"] if np > 2 else [])
        sizes = ["--max_size", "2" if np > 2 else "64"]
        p, rows = run(["paw", "p2p_get", "p2p_put", "--check", "--dat-dir", dat] + sizes + loop,
                      np, args.parbench, timeout=400)
        expect(p.returncode == 0, f"paw at -n {np}: rc {p.returncode}: {p.stderr[-400:]}")
        for stem in ["get", "put"]:
            for kind in ["time", "bw"]:
                path = os.path.join(dat, f"{stem}_{kind}-np_{np}.dat")
                expect(os.path.exists(path), f"PAW file {path} missing")
            with open(os.path.join(dat, f"{stem}_time-np_{np}.dat")) as f:
                lines = [l.split() for l in f if not l.startswith("#")]
            mine = [r for r in rows if r["benchmark"] == "p2p_" + stem]
            expect(len(lines) == len(mine) > 0, f"{stem}: {len(lines)} .dat lines, {len(mine)} rows")
            for line, r in zip(lines, mine):
                expect(int(line[0]) == r["bytes"] and close(float(line[3]), r["t_avg_us"] * 1e-6, 1e-6),
                       f"{stem} .dat line {line} vs record mean {r['t_avg_us']} us")
        for r in rows:
            what = f"paw -n {np} {r['benchmark']} {r['bytes']} B"
            s = r["samples_us"]
            expect(r["defects"] == 0, f"{what}: defects {r['defects']}")
            expect(len(s) == 3, f"{what}: {len(s)} repetitions, NREPS 3")
            # PAW's statistics over the repetitions (each already the minimum across tasks).
            if s:
                mean = sum(s) / len(s)
                expect(close(r["t_min_us"], min(s)) and close(r["t_max_us"], max(s)) and
                       close(r["t_avg_us"], mean), f"{what}: t_min/max/avg vs samples {s}")
                expect(close(r["real_time"], mean), f"{what}: headline is PAW's mean")
            want = r["bytes"] / r["t_avg_us"] / 1e3
            expect(close(r["metrics"]["gb_per_s_mean"], want), f"{what}: GB/s {r['metrics']}")


def test_osu_four(args):
    p, rows = run(["osu", "put_latency", "get_bw", "-m", "1:2", "-i", "4", "-x", "1", "--check"],
                  4, args.parbench, timeout=400)
    expect(p.returncode == 0 and len(rows) == 4, f"osu at -n 4: rc {p.returncode}: {p.stderr[-300:]}")
    expect(all(r["processes"] == 2 for r in rows), "osu at -n 4 measures on 2 processes")
    check_osu_rows(rows, "-n 4", 64, 4)  # OSU's window: put_latency takes no -W


def test_osu_three(args):
    """-n 3 (issue 27 §1): the one-sided set with each test's default synchronisation (put_bibw:
    pscw) and then with pscw and fence everywhere they are offered, on processes 0 and 1 while
    process 2 waits outside the active set: every row there, no defect, figures as at -n 2."""
    one_sided = LATENCY + BANDWIDTH + ["put_bibw"]
    for sync in [None, "pscw", "fence"]:
        names = one_sided if sync is None else \
            [n for n in one_sided if n not in ("fop_latency", "cas_latency")]
        extra = [] if sync is None else ["-s", sync]
        small = ["-m", "1:2", "-i", "3", "-x", "1", "-c"]  # W 64: the latency tests take no -W
        p, rows = run(["osu"] + names + extra + small, 3, args.parbench, timeout=400)
        label = f"osu -n 3 -s {sync or 'default'}"
        sized = [n for n in names if n not in ("fop_latency", "cas_latency")]
        want = len(sized) * 2 + (len(names) - len(sized))
        expect(p.returncode == 0 and len(rows) == want,
               f"{label}: rc {p.returncode}, {len(rows)} rows, want {want}: {p.stderr[-400:]}")
        expect(all(r["processes"] == 2 for r in rows), f"{label}: measured on 2 processes")
        expect("parbench: error" not in p.stderr, f"{label}: {p.stderr[-300:]}")
        check_osu_rows(rows, label, 64, 3)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--np", type=int, required=True)
    parser.add_argument("--parbench", required=True)
    parser.add_argument("--golden", required=True)
    args = parser.parse_args()
    args.parbench = os.path.abspath(args.parbench)
    if args.np == 1:
        test_refusals(args)
    elif args.np == 2:
        test_osu_two(args)
        test_paw(args, 2)
    elif args.np == 3:
        test_osu_three(args)
    else:
        test_osu_four(args)
        test_paw(args, 4)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
