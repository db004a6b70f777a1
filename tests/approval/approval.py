#!/usr/bin/env python3
"""Approval (golden) tests of the driver's output layouts, driven by the fake plugin's canned
records: the IMB console tables (single, parallel, collective, Barrier, multiple mode with
-multi 0 and 1, -map rank order, -check defects, declared columns), the OSU console with declared
columns, the JSON and CSV files, and Google Benchmark's
compare.py reading two parbench JSON files unchanged.

The fake plugin's numbers are deterministic, so they are compared unmasked: a swapped column, a
unit or a factor is a diff. Only what really varies is masked: the header's date and machine
lines, paths, and the machine-dependent context values of the JSON. json_values checks the JSON
figures against values worked out by hand from the fake plugin's canned formulas and IMB's
throughput definition (X / 2^20 / t).

usage: approval.py CASE PARBENCH FAKE_DIR GOLDEN_DIR [COMPARE_PY]
Set PARBENCH_APPROVE=1 to (re)write the golden file from the current output.
"""
import json
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from pbtest.approve import approve  # noqa: E402
from pbtest import mask  # noqa: E402
from pbtest.expect import require  # noqa: E402
from pbtest.run import run_command  # noqa: E402

CASE, PARBENCH, FAKE, GOLDEN = sys.argv[1:5]
COMPARE = sys.argv[5] if len(sys.argv) > 5 else "/usr/share/benchmark/compare.py"
PARBENCH = os.path.abspath(PARBENCH)

CONSOLE_CASES = {
    "console_single": ["PingPong", "-msglog", "0:3"],
    "console_parallel": ["Sendrecv", "-msglog", "2:4"],
    "console_collective": ["Allreduce", "-msglog", "0:2"],
    "console_barrier": ["Barrier"],
    "console_multi0": ["PingPong", "Allreduce", "-multi", "0", "-msglog", "1:2"],
    "console_multi1": ["PingPong", "-multi", "1", "-msglog", "1:2"],
    "console_map": ["PingPong", "Allreduce", "-map", "2x2", "-msglog", "1:2"],
    "console_check": ["PingPong", "Barrier", "-check", "-msglog", "0:1"],
    # Columns the suite declares for a benchmark (t, t_ovrl from a metric, overlap[%] to one
    # decimal) instead of its class's t_min/t_max/t_avg.
    "console_declared_columns": ["Extra", "-msglog", "0:1"],
    # The OSU layout renders only the columns declared (widths 18 and 12/10, 0 or 2 decimals,
    # the check's Pass, a metric), after a size column but for Barrier.
    "console_osu": ["PingPong", "Sendrecv", "Barrier", "-layout", "osu", "-msglog", "0:1",
                    "-check"],
}


def parbench(args, cwd=None):
    rc, out, err = run_command([PARBENCH, "run", "fake"] + args + ["--plugin-path", FAKE],
                               timeout=60, cwd=cwd)
    require(rc == 0, f"parbench exited with {rc}", err)
    return out


def python_with_scipy():
    for candidate in (sys.executable, "/usr/bin/python3"):
        if candidate and os.path.exists(candidate) and subprocess.run(
                [candidate, "-c", "import numpy, scipy"], capture_output=True).returncode == 0:
            return candidate
    return None


if CASE in CONSOLE_CASES:
    approve(os.path.join(GOLDEN, CASE + ".txt"),
            mask.fake_console(parbench(CONSOLE_CASES[CASE]), PARBENCH, FAKE), check=require)
elif CASE == "json":
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.json")
        parbench(["PingPong", "Barrier", "-multi", "1", "-msglog", "3:3", "--check", "--json", out,
                  "--quiet"])
        approve(os.path.join(GOLDEN, "json.json"), mask.json_context(json.load(open(out))),
                check=require)
elif CASE == "json_values":
    # Worked by hand from the fake plugin's canned record (t_min = scale * (0.5 + X/1000) us,
    # t_max = 1.25 t_min, t_avg = 1.125 t_min, cpu = t_max, -multi 1 adds the group index to
    # t_max; samples t_max * (1 + 0.01 i), i = 0..9) and IMB's throughput X / 2^20 / t:
    # PingPong at 8 B: t_min 0.508, t_max 0.635, t_avg 0.5715, 8 / 1.048576 / 0.635 MiB/s =
    # 12.0147945374... (8e6 / 0.635 = 12598425.19... B/s); median of the samples 0.635 * 1.045.
    # Barrier (scale 2, no bytes): 1.0, 1.25, 1.125 and no throughput.
    want = {
        # stddev: the sample standard deviation of 0.625 * (1 + 0.01 i), i = 0..9:
        # 0.625 * 0.01 * sqrt(82.5 / 9).
        ("PingPong", 0, 0): dict(t_min_us=0.5, t_max_us=0.625, t_avg_us=0.5625, real_time=0.625,
                                 cpu_time=0.625, throughput_mib_s=0.0, median_us=0.653125,
                                 stddev_us=0.625 * 0.01 * (82.5 / 9) ** 0.5, samples=10),
        ("PingPong", 0, 1): dict(t_min_us=0.5, t_max_us=1.625, t_avg_us=0.5625, real_time=1.625,
                                 cpu_time=0.625, throughput_mib_s=0.0, median_us=0.653125),
        ("PingPong", 8, 0): dict(t_min_us=0.508, t_max_us=0.635, t_avg_us=0.5715,
                                 real_time=0.635, cpu_time=0.635,
                                 throughput_mib_s=12.014794537401574,
                                 bytes_per_second=12598425.196850394, median_us=0.663575),
        ("PingPong", 8, 1): dict(t_min_us=0.508, t_max_us=1.635, t_avg_us=0.5715,
                                 real_time=1.635, cpu_time=0.635,
                                 throughput_mib_s=12.014794537401574,
                                 bytes_per_second=12598425.196850394),
        ("Barrier", None, 0): dict(t_min_us=1.0, t_max_us=1.25, t_avg_us=1.125, real_time=1.25,
                                cpu_time=1.25, median_us=1.30625),
        ("Barrier", None, 1): dict(t_min_us=1.0, t_max_us=2.25, t_avg_us=1.125, real_time=2.25),
    }
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.json")
        parbench(["PingPong", "Barrier", "-multi", "1", "-msglog", "3:3", "--json", out,
                  "--quiet"])
        doc = json.load(open(out))
    got = {(b["benchmark"], b["bytes"], b["group"]): b for b in doc["benchmarks"]
           if b["run_type"] == "iteration"}
    bad = []
    if sorted(got) != sorted(want):
        bad.append(f"rows {sorted(got)} != {sorted(want)}")
    for key, fields in want.items():
        row = got.get(key, {})
        for field, value in fields.items():
            if field not in row or abs(row[field] - value) > 1e-9 * max(1.0, abs(value)):
                bad.append(f"{key} {field}: {row.get(field)} != {value}")
        if key[0] == "Barrier" and ("bytes_per_second" in row or row.get("throughput_mib_s")):
            bad.append(f"{key}: a collective has no throughput")
        if row.get("time_unit") != "us":
            bad.append(f"{key}: time_unit {row.get('time_unit')}")
    # The rate from the median beside IMB's: 8 / 1.048576 / 0.663575 MiB/s.
    near = lambda a, b: a is not None and abs(a - b) <= 1e-9 * max(1.0, abs(b))
    ping8, ping8_late = got.get(("PingPong", 8, 0), {}), got.get(("PingPong", 8, 1), {})
    if not near(ping8.get("throughput_median_mib_s"), 8 / 1.048576 / 0.663575):
        bad.append(f"throughput_median_mib_s {ping8.get('throughput_median_mib_s')}")
    # Stability: group 0's t_max 0.635 is 0.635 / 0.663575 of the median (stable); group 1's
    # 1.635 is 2.4639... times it (flagged). The CI of 10 samples is [x(2), x(9)]:
    # 0.635 * (1.08 - 1.01) / 2 / 0.663575 = 3.349...%. Loops: 1000 / 10 batches x 0.635 us.
    s0, s1 = ping8.get("stability", {}), ping8_late.get("stability", {})
    if not (s0.get("stable") is True and s0.get("flags") == []
            and near(s0.get("headline_to_median"), 0.635 / 0.663575)
            and near(s0.get("ci_half_width_percent"), 100 * 0.635 * 0.035 / 0.663575)
            and near(s0.get("shortest_loop_us"), 100 * 0.635)):
        bad.append(f"stability of PingPong 8 B, group 0: {s0}")
    if not (s1.get("stable") is False and s1.get("flags") == ["headline_far_from_median"]
            and near(s1.get("headline_to_median"), 1.635 / 0.663575)):
        bad.append(f"stability of PingPong 8 B, group 1: {s1}")
    # compare.py's aggregate entries: the median and the mean of the samples, in ns.
    aggregates = {b["name"]: b for b in doc["benchmarks"] if b["run_type"] == "aggregate"}
    for suffix in ("median", "mean"):
        a = aggregates.get(ping8.get("name", "?") + "_" + suffix, {})
        if not (near(a.get("real_time"), 663.575) and a.get("time_unit") == "ns"
                and a.get("aggregate_name") == suffix and a.get("run_name") == ping8.get("name")
                and a.get("repetitions") == 10):
            bad.append(f"aggregate {suffix} of PingPong 8 B: {a}")
    if len(aggregates) != 2 * len(got):
        bad.append(f"{len(aggregates)} aggregate entries for {len(got)} rows")
    if bad:
        print("\n".join(bad))
        sys.exit(1)
elif CASE in ("json_sigkill", "json_sigkill_rows"):
    # SIGKILL cannot be caught: the JSON must still be a valid document, marked incomplete, whose
    # rows are the finished ones with their exact values (json_sigkill). json_sigkill_rows also
    # wants every row finished before the kill (1.5 s after the last one) in the file: the rows
    # the writer's rate limit held back are written by the driver's timer although the hang
    # sends no further event.
    import signal
    import time
    with tempfile.TemporaryDirectory() as tmp:
        out, marker = os.path.join(tmp, "out.json"), os.path.join(tmp, "hang-began")
        env = dict(os.environ, PARBENCH_FAKE_HANG_MARKER=marker)
        env.pop("PARBENCH_PLUGIN_PATH", None)
        p = subprocess.Popen([PARBENCH, "run", "fake", "PingPong", "Hang", "-msglog", "0:3",
                              "--json", out, "--quiet", "--plugin-path", FAKE],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not os.path.exists(marker):
            time.sleep(0.01)
        began = os.path.exists(marker)
        if CASE == "json_sigkill_rows":
            time.sleep(1.5)  # longer than the writer's 1 s interval: the rows are due
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=20)
        bad = [] if began else ["Hang never began"]
        try:
            doc = json.load(open(out))
        except (OSError, ValueError) as e:
            doc = None
            bad.append(f"the JSON after SIGKILL is not a document: {e}")
        if doc is not None:
            if doc["context"]["parbench"].get("completed") is not False:
                bad.append("the JSON after SIGKILL must say completed: false")
            rows = [b for b in doc["benchmarks"] if b["run_type"] == "iteration"]
            want = [(x, 0.5 + x / 1000, 1.25 * (0.5 + x / 1000)) for x in (0, 1, 2, 4, 8)]
            got = [(b["bytes"], b["t_min_us"], b["t_max_us"]) for b in rows]
            if any(g[0] != w[0] or abs(g[1] - w[1]) > 1e-12 or abs(g[2] - w[2]) > 1e-12
                   for g, w in zip(got, want)) or len(got) > len(want):
                bad.append(f"rows after SIGKILL are not the finished PingPong rows: {got}")
            if CASE == "json_sigkill_rows" and len(got) != len(want):
                bad.append(f"{len(got)} of the {len(want)} rows finished before SIGKILL are in "
                           f"the JSON")
            print(f"after SIGKILL: {len(got)} rows, completed "
                  f"{doc['context']['parbench'].get('completed')}")
    if bad:
        print("\n".join(bad))
        sys.exit(1)
elif CASE == "csv":
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.csv")
        parbench(["PingPong", "Barrier", "Extra", "-multi", "0", "-msglog", "3:3", "--csv", out,
                  "--quiet"])
        raw = open(out, newline="").read()
        if not raw.endswith("\r\n") or "\n" in raw.replace("\r\n", ""):
            print("CSV rows must end in CRLF")
            sys.exit(1)
        approve(os.path.join(GOLDEN, "csv.csv"), raw.replace("\r\n", "\n"), check=require)
elif CASE == "compare":
    interpreter = python_with_scipy()
    if interpreter is None or not os.path.exists(COMPARE):
        print("SKIP: compare.py or numpy/scipy not available")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, "a.json"), os.path.join(tmp, "b.json")
        parbench(["PingPong", "Allreduce", "-msglog", "0:2", "--json", a, "--quiet"])
        parbench(["PingPong", "Allreduce", "-msglog", "0:3", "--json", b, "--quiet"])
        p = subprocess.run([interpreter, COMPARE, "benchmarks", a, b], capture_output=True, text=True)
        if p.returncode != 0 or "fake/PingPong/np:2/bytes:4" not in p.stdout:
            print(f"compare.py failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
            sys.exit(1)
        p = subprocess.run([interpreter, COMPARE, "benchmarks", a, a], capture_output=True, text=True)
        if p.returncode != 0 or "fake/Allreduce/np:2/bytes:2" not in p.stdout:
            print(f"compare.py failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
            sys.exit(1)
else:
    print("unknown case", CASE)
    sys.exit(2)
print("ok", CASE)
