#!/usr/bin/env python3
"""A program built on parbench::mpi::main prints and records what `parbench run` prints and
records (issue 25): the defects line, its exit status 5 and its JSON warning; the warnings of the
run (a benchmark that cannot verify under --check, an oversubscribed node, an unoptimised build,
unstable rows); the driver's JSON context keys; the driver's options (--quiet) and its one line,
word for word, for bad ones.

usage: mpi_main_test.py PROGRAM PARBENCH [EXAMPLE]
PROGRAM is tests/mpi_main/corrupting_program (built without optimisation); EXAMPLE an optimised
example (examples/ssend_pingpong), which must not warn about its build.
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from pbtest.expect import expect, finish  # noqa: E402
from pbtest.run import iteration_rows, mpiexec, read_json, run_command  # noqa: E402

PROGRAM, PARBENCH = sys.argv[1], sys.argv[2]
EXAMPLE = sys.argv[3] if len(sys.argv) > 3 else None


def warnings(stdout):
    """The console's warning lines (the driver's '# WARNING:' among the tables)."""
    return [l[len("# WARNING: "):] for l in stdout.splitlines() if l.startswith("# WARNING: ")]


def stderr_lines(stderr):
    return [l for l in stderr.splitlines() if l.strip()]


with tempfile.TemporaryDirectory() as tmp:
    json_path, csv_path = os.path.join(tmp, "run.json"), os.path.join(tmp, "run.csv")

    # --- defects: the driver's line, exit status 5, and the line in the JSON warnings ----------
    # Sizes of -msglog 0:2: 0, 1, 2, 4 bytes. CorruptPingPong's rank 1 flips the first byte of
    # every message it receives: every size above 0 has defects, 0 bytes has none. Rows: 4 + 4
    # + 1 (Barrier, no size).
    status, out, err = run_command(mpiexec(2) + [PROGRAM, "-msglog", "0:2", "-iter", "10",
                                                 "-time", "0.05", "--check", "--json", json_path,
                                                 "--csv", csv_path])
    defects_line = ("--check found defects in 3 of 9 rows: CorruptPingPong 1 B (2 processes), "
                    "CorruptPingPong 2 B (2 processes), CorruptPingPong 4 B (2 processes)")
    expect(status == 5, f"--check with defects: exit status {status}, expected 5; {err[-500:]}")
    expect(stderr_lines(err) == [f"{PROGRAM}: {defects_line}"],
           f"--check with defects: stderr {err!r}, expected the one line '{defects_line}'")
    doc = read_json(json_path)
    recorded = doc["context"]["parbench"].get("warnings", []) if doc else []
    expect(defects_line in recorded, f"the JSON warnings lack the defects line: {recorded}")
    rows = iteration_rows(doc) if doc else []
    defective = sorted(r["bytes"] for r in rows if (r.get("defects") or 0) > 0)
    expect(defective == [1, 2, 4], f"rows with defects at {defective}, expected [1, 2, 4]")
    barrier = [r for r in rows if r["benchmark"] == "Barrier"]
    expect(len(barrier) == 1 and barrier[0].get("not_verified") is True,
           f"Barrier under --check: {barrier}, expected one row marked not_verified")
    said = warnings(out)
    expect(said.count("--check: Barrier has no data verification; its rows say 'unverified'")
           == 1, f"the warning naming Barrier under --check, once: {said}")
    build = [w for w in said if "built without optimisation" in w]
    expect(len(build) == 1 and build[0].startswith("this program is built without optimisation"),
           f"one warning for the unoptimised build: {said}")
    expect(sum("built without optimisation" in w for w in recorded) == 1,
           f"the JSON warnings record the unoptimised build once: {recorded}")

    # --- the driver's context keys, for the same kind of run ------------------------------------
    drv_json = os.path.join(tmp, "driver.json")
    status, _, err = run_command(mpiexec(2) + [PARBENCH, "run", "imb-mpi1", "PingPong",
                                               "-msglog", "0:1", "-iter", "10", "-time", "0.05",
                                               "--json", drv_json])
    expect(status == 0, f"driver: exit status {status}: {err[-300:]}")
    drv = read_json(drv_json)
    status, out, err = run_command(mpiexec(2) + [PROGRAM, "-msglog", "0:1", "-iter", "10",
                                                 "-time", "0.05", "--json", json_path])
    mine = read_json(json_path)
    expect(status == 0 and mine is not None, f"program: exit status {status}: {err[-300:]}")
    if drv and mine:
        # The driver's context: its own keys, the run header's, and the MPI run context of the
        # suite (plugin_context), where only a plugin says MPI_Init's time and the placement it
        # reads with hwloc, and only IMB its methodology, -off_cache and datatypes.
        d, m = drv["context"], mine["context"]
        expect(not set(d) - set(m), f"context lacks the driver's keys {set(d) - set(m)}")
        # time_outs is there only when a row ran out of time (a loaded machine can make one at
        # -time 0.05): a key of the run's outcome, not of the context's shape
        d, m = d["parbench"], m["parbench"]
        missing = set(d) - set(m) - {"time_outs"}
        expect(not missing, f"context.parbench lacks the driver's keys {missing}")
        plugin_only = {"mpi_init_ms", "placement", "methodology", "off_cache", "datatypes"}
        missing = set(d["plugin_context"]) - set(m["plugin_context"]) - plugin_only
        expect(not missing, f"the MPI run context lacks the driver's keys {missing}")
        for key in ("processes_per_node", "cpus_per_node", "oversubscribed", "mpi_library",
                    "thread_level", "processes", "timer", "message_buffers"):
            expect(m["plugin_context"].get(key) == d["plugin_context"].get(key),
                   f"run context {key}: program {m['plugin_context'].get(key)!r}, "
                   f"driver {d['plugin_context'].get(key)!r}")
        missing = set(d["header"]) - set(m["header"]) - {"part", "methodology"}
        expect(not missing, f"the run header lacks the driver's fields {missing}")
        # The MPI that ran, named as the driver names it; the program links it (no plugin).
        expect({k: m["mpi"].get(k) for k in ("name", "family", "library")} ==
               {k: d["mpi"].get(k) for k in ("name", "family", "library")} and
               m["mpi"].get("plugin") is None,
               f"context.parbench.mpi: program {m.get('mpi')}, driver {d.get('mpi')}")
        # Every row says where its processes ran, as the driver's rows: one node here.
        rows = [b for b in mine["benchmarks"] if b.get("run_type") == "iteration"]
        expect(rows and all(b.get("placement") == {"nodes": [[0, 0]], "span": "intra-node",
                                                   "run_nodes": 1} for b in rows),
               f"program rows' placement: {[b.get('placement') for b in rows]}")
        expect(m["plugins"] == [] and m["suite"] == "mpi-main-test" and
               m["requested_benchmarks"] == ["PingPong", "CorruptPingPong", "Barrier"],
               f"plugins {m['plugins']}, suite {m['suite']}, benchmarks "
               f"{m['requested_benchmarks']}")

    # --- an oversubscribed node: the driver's warning, once ------------------------------------
    cpus = len(os.sched_getaffinity(0))
    status, out, err = run_command(mpiexec(4) + [PROGRAM, "-msglog", "0:0", "-iter", "2",
                                                 "-time", "0.05"], timeout=90)
    over = [w for w in warnings(out) if w.startswith("oversubscribed: ")]
    expect(status == 0, f"-n 4: exit status {status}: {err[-300:]}")
    if cpus < 4:
        expect(len(over) == 1 and over[0].startswith(f"oversubscribed: 4 processes share {cpus} "
                                                     "CPUs on a node"),
               f"-n 4 on {cpus} CPUs: warnings {warnings(out)}")
    else:
        expect(not over, f"-n 4 on {cpus} CPUs warns of oversubscription: {over}")

    # --- --quiet: the driver's option; files only ------------------------------------------------
    status, out, err = run_command(mpiexec(2) + [PROGRAM, "-msglog", "0:0", "-iter", "10",
                                                 "-time", "0.05", "--quiet", "--json", json_path])
    expect(status == 0 and "# Benchmarking" not in out and read_json(json_path) is not None,
           f"--quiet: exit status {status}, stdout {out[:300]!r}, stderr {err[-300:]!r}")

# --- bad options: the driver's own line, word for word, and status 2 ----------------------------
for args in (["--timeout", "-1"], ["--progress", "maybe"], ["--json", ""], ["--csv"],
             ["--timeout", "1e99"]):
    status, out, err = run_command(mpiexec(2) + [PROGRAM] + args, timeout=60)
    d_status, _, d_err = run_command([PARBENCH, "run", "imb-mpi1", "PingPong"] + args, timeout=60)
    lines, d_lines = stderr_lines(err), stderr_lines(d_err)
    expected = (d_lines[0].replace("parbench: error: ", f"{PROGRAM}: ", 1)
                if len(d_lines) == 1 else None)
    expect(status == 2 and d_status == 2 and lines == [expected],
           f"{args}: status {status} (driver {d_status}), stderr {lines}, the driver's {d_lines}")
for args, words in ((["-iter", "0"], "-iter"), (["-time", "soon"], "-time"),
                    (["-msglog", "9:2"], "-msglog"), (["--bogus"], "unknown option '--bogus'")):
    status, out, err = run_command(mpiexec(2) + [PROGRAM] + args, timeout=60)
    lines = stderr_lines(err)
    expect(status == 2 and len(lines) == 1 and lines[0].startswith(f"{PROGRAM}: ") and
           words in lines[0], f"{args}: status {status}, stderr {lines}")

# --- an optimised program does not warn about its build -------------------------------------------
if EXAMPLE and os.path.exists(EXAMPLE):
    status, out, err = run_command(mpiexec(2) + [EXAMPLE, "-msglog", "0:0", "-iter", "10",
                                                 "-time", "0.05"])
    expect(status == 0 and not any("without optimisation" in w for w in warnings(out)),
           f"{EXAMPLE}: status {status}, warnings {warnings(out)}")

sys.exit(finish())
