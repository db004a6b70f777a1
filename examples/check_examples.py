#!/usr/bin/env python3
"""Runs one custom-benchmark example (built on parbench::mpi::main) under mpiexec -n 2 and checks
what it prints and writes against the seeds' formulas: the sizes of -msglog, IMB's time and
throughput rules (MB/s = bytes moved per iteration / 2^20 / t), the message rate of a window,
--check's defects (zero, and absent without --check), the IMB header of the driver, and one-line
errors for bad input.

usage: check_examples.py EXAMPLE_BINARY NAME [DRIVER]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

example, name = sys.argv[1], sys.argv[2]
driver = sys.argv[3] if len(sys.argv) > 3 else None
errors = []
# The examples are built with MPICH (the build's default MPI): its launcher by its own name, as
# tests/pbtest/run.py names it (with Open MPI installed too, the plain `mpiexec` is Open MPI's).
MPIEXEC = "mpiexec.mpich" if shutil.which("mpiexec.mpich") else "mpiexec"


def run(args, n=2, timeout=120):
    p = subprocess.run([MPIEXEC, "-n", str(n), example] + args, capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def iteration_rows(path):
    with open(path) as f:
        doc = json.load(f)
    return doc, [b for b in doc["benchmarks"] if b.get("run_type") == "iteration"]


# What each example measures: its benchmarks, sizes for -msglog 0:4, and the bytes one
# iteration moves per X (the throughput formula's numerator) with the messages per iteration.
EXPECTED = {
    "ssend_pingpong": {"SsendPingPong": ([0, 1, 2, 4, 8, 16], 1, None)},
    "windowed_bandwidth": {"WindowedBandwidth": ([0, 1, 2, 4, 8, 16], 64, 64)},
    "ring_allreduce": {"RingAllreduce": ([0, 4, 8, 16], None, None),
                       "Allreduce": ([0, 4, 8, 16], None, None)},
}[name]
checks = name == "ring_allreduce"

with tempfile.TemporaryDirectory() as tmp:
    json_path = os.path.join(tmp, "out.json")
    args = ["-msglog", "0:4", "-time", "0.05", "--json", json_path] + (["--check"] if checks else [])
    status, out, err = run(args)
    if status != 0:
        errors.append(f"exit status {status}: {err[-400:]}")
    else:
        doc, rows = iteration_rows(json_path)
        if not rows:
            errors.append("no rows in the JSON file")
        for bench, (sizes, msgs, rate_msgs) in EXPECTED.items():
            mine = [r for r in rows if r["benchmark"] == bench]
            got = [r["bytes"] for r in mine]
            if got != sizes:
                errors.append(f"{bench}: sizes {got}, expected {sizes}")
            for r in mine:
                expected_name = f"example/{bench}/np:2/bytes:{r['bytes']}"
                if r["name"] != expected_name:
                    errors.append(f"row name {r['name']}, expected {expected_name}")
                t, x = r["t_max_us"], r["bytes"]
                if not (r["iterations"] >= 1 and t > 0 and r["median_us"] > 0):
                    errors.append(f"implausible row {r['name']}: {r}")
                if msgs is not None:  # IMB: MB/s = msgs * X / 2^20 / t_max[s]
                    expected = msgs * x / 1.048576 / t if t > 0 else 0
                    if abs(r["throughput_mib_s"] - expected) > 1e-6 * max(1.0, expected):
                        errors.append(f"{r['name']}: {r['throughput_mib_s']} MB/s, expected {expected}")
                if rate_msgs is not None:  # messages per second from t_max
                    rate = r["metrics"].get("msg_rate", r["metrics"].get("messages_per_s"))
                    expected = rate_msgs / (t * 1e-6)
                    if rate is None or abs(rate - expected) > 1e-6 * expected:
                        errors.append(f"{r['name']}: message rate {rate}, expected {expected}")
                if checks and r["defects"] != 0:
                    errors.append(f"{r['name']}: defects {r['defects']} with --check")
        # The console: IMB's header, then one table per benchmark with every size.
        for line in ["# Calling sequence was:", "# MPI Version", "# Date", "# List of Benchmarks to run:"]:
            if not any(l.startswith(line) for l in out.splitlines()):
                errors.append(f"console header lacks '{line}'")
        if not any(l.startswith("# ") and example in l for l in out.splitlines()):
            errors.append("console header lacks the calling sequence")
        for bench in EXPECTED:
            if f"# Benchmarking {bench}" not in out:
                errors.append(f"console lacks '# Benchmarking {bench}'")
        # The driver's run context: every key the driver writes, the example writes too.
        if driver:
            drv_json = os.path.join(tmp, "driver.json")
            p = subprocess.run([MPIEXEC, "-n", "2", driver, "run", "imb-mpi1", "PingPong",
                                "-msglog", "0:1", "-time", "0.05", "--json", drv_json],
                               capture_output=True, text=True, timeout=120,
                               env={k: v for k, v in os.environ.items() if k != "PARBENCH_PLUGIN_PATH"})
            if p.returncode != 0:
                errors.append(f"driver exit status {p.returncode}: {p.stderr[-300:]}")
            else:
                drv, _ = iteration_rows(drv_json)
                missing = sorted(set(drv["context"]) - set(doc["context"]))
                if missing:
                    errors.append(f"JSON context lacks the driver's keys {missing}")
                drv_header = [l.split(":")[0] for l in p.stdout.splitlines()
                              if l.startswith("# ") and ":" in l][:8]
                mine_header = [l.split(":")[0] for l in out.splitlines()
                               if l.startswith("# ") and ":" in l][:8]
                if drv_header != mine_header:
                    errors.append(f"header lines {mine_header}, the driver's {drv_header}")

    if not checks:  # without --check the rows carry no defects
        status, out, err = run(["-msglog", "0:1", "-time", "0.05", "--json", json_path])
        if status == 0:
            _, rows = iteration_rows(json_path)
            if not rows or any(r["defects"] is not None for r in rows):
                errors.append("defects reported without --check (or no rows)")
    else:
        status, out, err = run(["-msglog", "2:3", "-time", "0.05", "--json", json_path])
        if status == 0:
            _, rows = iteration_rows(json_path)
            if not rows or any(r["defects"] is not None for r in rows):
                errors.append("defects reported without --check (or no rows)")

# Bad input: one line on stderr, exit status 2, no hang; a pair benchmark on one process is bad
# input too, never an empty success.
bad_input = [(["-msglog", "x"], 2, "-msglog"), (["--timeout", "-1"], 2, "--timeout"),
             (["--bogus"], 2, "unknown option")]
if name != "ring_allreduce":
    bad_input.append(([], 1, "at least 2"))
if name == "ssend_pingpong":  # no verify_check: --check is refused before the run
    bad_input.append((["--check"], 2, "--check: SsendPingPong has no data verification"))
for args, n, words in bad_input:
    status, out, err = run(args, n=n, timeout=60)
    lines = [l for l in err.splitlines() if l.strip()]
    if status == 0 or len(lines) != 1 or words not in lines[0]:
        errors.append(f"{args} at -n {n}: status {status}, stderr {err!r}")

# A measurement past --timeout stops the run with one line naming it and status 3, as the
# driver's time limit does. The measurement must outlast 0.5 s on any machine, idle or busy:
# 2e9 windows of 64 messages (1.28e11 messages; at 10 ns each, over 20 minutes), with -time
# lifted to its maximum so that IMB's time cap does not shorten it. 100000 windows once finished
# within 0.5 s on an idle machine.
if name == "windowed_bandwidth":
    status, out, err = run(["-msglog", "0:0", "-iter", "2000000000", "-time", "1e9",
                            "--timeout", "0.5"], timeout=60)
    if status != 3 or not any(l.startswith("time limit: benchmark WindowedBandwidth (") and
                              l.endswith("did not finish within 0.5 s; stopped")
                              for l in err.splitlines()):
        errors.append(f"--timeout 0.5: status {status}, stderr {err[-300:]!r}")

for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
