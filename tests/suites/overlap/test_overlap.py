#!/usr/bin/env python3
"""The overlap suite (COMB-style availability) through the driver under mpiexec -n N.

Every row's figures are checked against the seed's definitions, recomputed here from the row's
own ramp: iter_t is the timing's t_max, work_t the last ramp step's work, overhead =
max(0, iter_t - work_t), avail(%) = 100 (1 - overhead / base_t); the ramp starts at
max(base_t, 1 us), doubles, and stops at the first step where work_t >= base_t and
work_t >= threshold * overhead (or says that it gave up). Also: communicator sizes from
-startSize, -allMethods, -nohdr, -verbose, options.ini (command line wins; a bad line is one
error naming the file and line), asynchronous progress reported (MPIR_CVAR_ASYNC_PROGRESS=1 at
-n 2), and the console layout against a golden file (numbers masked).

usage: test_overlap.py --np N --parbench PARBENCH --golden DIR
Set PARBENCH_APPROVE=1 to rewrite the golden file.
"""
import argparse
import os
import re
import sys
import tempfile

BAD_INPUT = 2
VARIANTS = ["Blocking", "NB_Wait", "NB_Sleep", "NB_active"]
METHODS = ["allreduce", "barrier", "broadcast", "gather", "allgather", "scatter"]
SMALL = ["-iterations", "20", "-time", "0.05"]

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
from pbtest import mask  # noqa: E402
from pbtest.approve import approve  # noqa: E402
from pbtest.expect import expect, finish  # noqa: E402
from pbtest.run import mpi_suite  # noqa: E402

# `parbench run overlap` under mpiexec with JSON and CSV files: (run, its result rows).
run = mpi_suite("overlap", csv_file=True)


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def check_row(r, threshold=2.0, iterations=20):
    """The seed's figures, recomputed from the row's own timings."""
    what = f"{r['benchmark']} np {r['processes']} {r['mode']}"
    a = r.get("availability")
    if not expect(a is not None, f"{what}: no availability figures"):
        return
    expect(r["mode"] in VARIANTS, f"{what}: unknown variant")
    expect(1 <= r["iterations"] <= iterations, f"{what}: {r['iterations']} iterations")
    expect(a["threshold"] == threshold, f"{what}: threshold {a['threshold']}")
    base, ramp = a["base_t_us"], a["ramp"]
    expect(base > 0, f"{what}: base_t {base}")
    if not expect(len(ramp) >= 1, f"{what}: empty ramp"):
        return
    expect(close(ramp[0]["work_t_us"], max(base, 1.0)), f"{what}: ramp starts at {ramp[0]}")
    for earlier, later in zip(ramp, ramp[1:]):
        expect(close(later["work_t_us"], 2 * earlier["work_t_us"]), f"{what}: ramp not doubling")

    def dominates(step):
        overhead = max(0.0, step["iter_t_us"] - step["work_t_us"])
        return step["work_t_us"] >= base and step["work_t_us"] >= threshold * overhead

    for step in ramp[:-1]:
        expect(not dominates(step), f"{what}: the ramp went on past a dominating step {step}")
    last = ramp[-1]
    expect(a["work_dominated"] == dominates(last), f"{what}: work_dominated {a['work_dominated']}")
    if not a["work_dominated"]:
        expect(any("never dominated" in w for w in r.get("warnings", [])),
               f"{what}: a ramp that gave up carries no note")
    expect(a["work_t_us"] == last["work_t_us"], f"{what}: work_t is not the last step's")
    expect(a["iter_t_us"] == last["iter_t_us"] == r["t_max_us"],
           f"{what}: iter_t {a['iter_t_us']} is not the last timing's t_max {r['t_max_us']}")
    overhead = max(0.0, a["iter_t_us"] - a["work_t_us"])
    expect(close(a["overhead_us"], overhead), f"{what}: overhead {a['overhead_us']} != {overhead}")
    avail = 100.0 * (1.0 - overhead / base)
    expect(close(a["avail_percent"], avail, 1e-6), f"{what}: avail {a['avail_percent']} != {avail}")
    expect(r["bytes"] == (None if r["benchmark"] == "barrier" else 8),
           f"{what}: bytes {r['bytes']} (one MPI_DOUBLE per process)")


def console_rows(stdout):
    """(method, processes, variant) of every table row, stability notes stripped."""
    rows, table = [], None
    for line in stdout.splitlines():
        line = line.split("  ! ")[0]
        m = re.match(r"# (\w+), (\d+) processes", line)
        if m:
            table = (m.group(1), int(m.group(2)))
        m = re.match(r"  (Blocking|NB_Wait|NB_Sleep|NB_active) +(-?[\d.]+ +){4}(-?[\d.]+|-)$", line)
        if m and table:
            rows.append(table + (m.group(1),))
    return rows


def test_default(args, np):
    p, rows = run(SMALL, np, args.parbench)
    context = p.plugin_context
    expect(p.returncode == 0, f"-n {np} default run: rc {p.returncode}: {p.stderr[-400:]}")
    expect(len(rows) == 4, f"-n {np}: {len(rows)} rows, expected allreduce x 4 variants")
    expect([r["mode"] for r in rows] == VARIANTS, f"-n {np}: variants {[r['mode'] for r in rows]}")
    for r in rows:
        expect(r["benchmark"] == "allreduce" and r["processes"] == np, f"-n {np}: row {r['name']}")
        check_row(r)
    # The CSV row carries the same availability figures as the JSON row.
    expect(len(p.csv_rows) == len(rows), f"-n {np}: {len(p.csv_rows)} CSV rows")
    for c, r in zip(p.csv_rows, rows):
        a = r.get("availability") or {}
        for key in ("base_t_us", "iter_t_us", "work_t_us", "overhead_us"):
            expect(key in a and c[key] != "" and close(float(c[key]), a[key], 1e-5),
                   f"-n {np}: CSV {key} {c.get(key)} != JSON {a.get(key)}")
        want = a.get("avail_percent")
        expect((c["avail_percent"] == "") == (want is None) and
               (want is None or close(float(c["avail_percent"]), want, 1e-5)),
               f"-n {np}: CSV avail_percent {c['avail_percent']} != JSON {want}")
    expect(console_rows(p.stdout) == [("allreduce", np, v) for v in VARIANTS],
           f"-n {np}: console rows {console_rows(p.stdout)}")
    async_state = context.get("async_progress", {})
    expect(async_state.get("enabled") is False and context.get("thread_level") == "MPI_THREAD_SINGLE",
           f"-n {np}: async progress without a variable: {async_state}")
    expect("# Async progress  : off (no progress-thread variable set)" in p.stdout,
           f"-n {np}: header does not say async off")


def test_sizes(args, np):
    # -startSize 1 at np processes: 1, 2, 4, ... below np, then np.
    p, rows = run(["-startSize", "1", "-iterations", "5", "-time", "0.02"], np, args.parbench)
    expect(p.returncode == 0, f"-startSize 1: rc {p.returncode}: {p.stderr[-400:]}")
    sizes = []
    q = 1
    while q < np:
        sizes.append(q)
        q *= 2
    sizes.append(np)
    got = [r["processes"] for r in rows]
    expect(got == [q for q in sizes for _ in VARIANTS], f"-startSize 1 at -n {np}: sizes {got}")
    for r in rows:
        check_row(r, iterations=5)


def test_all_methods(args):
    p, rows = run(SMALL + ["-allMethods", "1"], 2, args.parbench)
    expect(p.returncode == 0, f"-allMethods 1: rc {p.returncode}: {p.stderr[-400:]}")
    expect([(r["benchmark"], r["mode"]) for r in rows] == [(m, v) for m in METHODS for v in VARIANTS],
           f"-allMethods 1: rows {[(r['benchmark'], r['mode']) for r in rows]}")
    for r in rows:
        check_row(r)
    approve(os.path.join(args.golden, "overlap_console.txt"), mask.overlap_console(p.stdout))


def test_header_options(args):
    p, rows = run(SMALL + ["-nohdr", "1", "-verbose", "1", "-threshold", "3"], 2, args.parbench)
    expect(p.returncode == 0, f"-nohdr/-verbose: rc {p.returncode}: {p.stderr[-400:]}")
    expect("# Methods" not in p.stdout and "Async progress" not in p.stdout,
           "-nohdr 1 still prints the header")
    ramp_lines = [l for l in p.stdout.splitlines() if l.startswith("  #   ramp:")]
    expect(len(ramp_lines) == sum(len(r["availability"]["ramp"]) for r in rows) and ramp_lines,
           f"-verbose 1: {len(ramp_lines)} ramp lines")
    for r in rows:
        check_row(r, threshold=3.0)


def test_options_file(args):
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "options.ini"), "w") as f:
            f.write("# the overlap suite's options\nmethod = barrier\niterations=7\ntime=0.05\n")
        p, rows = run([], 2, args.parbench, cwd=tmp)
        context = p.plugin_context
        expect(p.returncode == 0, f"options.ini: rc {p.returncode}: {p.stderr[-400:]}")
        expect({r["benchmark"] for r in rows} == {"barrier"} and len(rows) == 4,
               f"options.ini method=barrier: rows {[r['name'] for r in rows]}")
        for r in rows:
            check_row(r, iterations=7)
        expect(context.get("options", {}).get("optionsFile") == "options.ini",
               f"options.ini not recorded: {context.get('options')}")
        # the command line wins
        p, rows = run(["-iterations", "3"], 2, args.parbench, cwd=tmp)
        expect(p.returncode == 0 and rows and all(r["iterations"] <= 3 for r in rows),
               f"-iterations 3 over the file's 7: {[r['iterations'] for r in rows]}")
        with open(os.path.join(tmp, "options.ini"), "w") as f:
            f.write("method=barrier\niterations=many\n")
        p, rows = run([], 2, args.parbench, cwd=tmp)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        expect(p.returncode == BAD_INPUT and len(lines) == 1 and "options.ini:2" in lines[0]
               and "iterations=many" in lines[0] and not rows,
               f"bad options.ini value: rc {p.returncode}, stderr {p.stderr!r}")
        with open(os.path.join(tmp, "options.ini"), "w") as f:
            f.write("verbose=1\nwarmup=3\n")
        p, _ = run([], 2, args.parbench, cwd=tmp)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        expect(p.returncode == BAD_INPUT and len(lines) == 1 and "options.ini:2" in lines[0]
               and "'warmup' is not an option" in lines[0],
               f"unknown options.ini key: rc {p.returncode}, stderr {p.stderr!r}")
    for bad, why in ((["-method", "alltoall"], "-method alltoall"),
                     (["-startSize", "3"], "-startSize 3"),
                     (["-optionsFile", "/nonexistent.ini"], "/nonexistent.ini")):
        p, _ = run(bad, 2, args.parbench)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        expect(p.returncode == BAD_INPUT and len(lines) == 1 and why in lines[0],
               f"{bad}: rc {p.returncode}, stderr {p.stderr!r}")


def test_async_progress(args):
    # MPICH starts a progress thread per process with MPIR_CVAR_ASYNC_PROGRESS=1 and needs
    # MPI_THREAD_MULTIPLE for it; the run must say so in the header and the JSON context.
    p, rows = run(["-iterations", "10", "-time", "0.05", "-thread_level", "multiple"], 2,
                  args.parbench, env={"MPIR_CVAR_ASYNC_PROGRESS": "1"})
    context = p.plugin_context
    expect(p.returncode == 0, f"async progress run: rc {p.returncode}: {p.stderr[-400:]}")
    state = context.get("async_progress", {})
    expect(state.get("enabled") is True and state.get("variable") == "MPIR_CVAR_ASYNC_PROGRESS"
           and state.get("value") == "1" and state.get("thread_level") == "MPI_THREAD_MULTIPLE",
           f"async progress not reported in the context: {state}")
    expect("# Async progress  : on (MPIR_CVAR_ASYNC_PROGRESS=1, MPI_THREAD_MULTIPLE)" in p.stdout,
           f"header does not report async progress on:\n{p.stdout[:3000]}")
    expect(len(rows) == 4, f"async progress run: {len(rows)} rows")
    for r in rows:
        check_row(r, iterations=10)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--np", type=int, required=True)
    parser.add_argument("--parbench", required=True)
    parser.add_argument("--golden", required=True)
    args = parser.parse_args()
    if args.np == 1:
        test_default(args, 1)
    elif args.np == 2:
        test_default(args, 2)
        test_all_methods(args)
        test_header_options(args)
        test_options_file(args)
        test_async_progress(args)
    else:
        test_sizes(args, args.np)
    sys.exit(finish())


if __name__ == "__main__":
    main()
