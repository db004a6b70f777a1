#!/usr/bin/env python3
"""The offload suite end to end on the real offload devices (libomptarget's x86_64 devices
here), through a host that loads the plugin as the driver does, and through the driver when
given: rows for every size, device set and test, counts as asked, and GB/s recomputed here from
the recorded bytes and times (10^9 bytes/s; inout moves the buffer twice; the concurrent rows move
it once per device) — an oracle that shares no code with the plugin; PAW's .dat files, one line
per size; aliases; bad input (exit 2, one line); no offload device (exit 1, the reason).

usage: run_offload_test.py PAW_HOST PLUGIN [PARBENCH]
"""
import json
import os
import shutil
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from pbtest.expect import expect, finish  # noqa: E402
from pbtest.run import paw_host, process  # noqa: E402

HOST = os.path.abspath(sys.argv[1])
PLUGIN = os.path.abspath(sys.argv[2])
DRIVER = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else None
PAW_VARIABLES = ("MIN_PHI_SIZE", "MED_PHI_SIZE", "MAX_PHI_SIZE", "NLOOP_PHI_MAX", "NLOOP_MIN",
                 "NREPS", "OMP_TARGET_OFFLOAD", "OMP_DEFAULT_DEVICE")


def run_host(benchmarks, options, env=None, plugin=PLUGIN):
    """Runs one request through the host; returns (process, events, dat directory)."""
    out = tempfile.mkdtemp(prefix="parbench_offload_")
    request = {"suite": "paw", "benchmarks": benchmarks, "options": options,
               "calling_sequence": "run_offload_test"}
    events_file = os.path.join(out, "events.jsonl")
    dat = os.path.join(out, "dat")
    os.mkdir(dat)
    proc, events = paw_host(HOST, plugin, request, dat, events_file, env=env,
                            drop=PAW_VARIABLES)
    return proc, events, dat


def error_lines(stderr):
    return [line for line in stderr.splitlines() if line.startswith(("error:", "parbench: error"))]


def expected_gb_per_s(record):
    """10^9 bytes per second over the mean time, from the name alone: no plugin code."""
    title = record["block"]["title"]
    copies = 2 if record["benchmark"].endswith("_inout") else 1
    devices = 1
    if "_dev" in title:
        devices = len(title.rsplit("_dev", 1)[1].split("+"))
    mean_s = record["t_avg_us"] * 1e-6
    return record["bytes"] * copies * devices / mean_s / 1e9


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def read_dat(path):
    with open(path) as f:
        return [line.split() for line in f if line.strip() and not line.startswith("#")]


def check_run(events, tests, sizes, nreps, dat, devices_present, how):
    starts = [e for e in events if e["event"] == "run_start"]
    expect(len(starts) == 1, f"{how}: one run_start event ({len(starts)})")
    if not starts:
        return
    start = starts[0]
    expect(start["layout"] == "paw", f"{how}: layout paw")
    header, context = start["header"], start["context"]
    expect(header.get("bandwidth_unit") == "GB/s = 10^9 bytes/s", f"{how}: header names GB/s")
    expect(header.get("nreps") == nreps and header.get("nloop_max") == 100,
           f"{how}: header nreps {header.get('nreps')}, nloop_max {header.get('nloop_max')}")
    off = context.get("offload", {})
    expect(off.get("device_count") == devices_present,
           f"{how}: context device_count {off.get('device_count')}")
    expect(off.get("runtime") == "libomptarget" and "libomptarget" in off.get("runtime_library", ""),
           f"{how}: context names libomptarget ({off.get('runtime_library')})")
    expect("x86_64" in off.get("targets", "") and "x86_64 offload device" in off.get("device_kind", ""),
           f"{how}: context names the x86_64 offload device ({off.get('device_kind')})")
    expect(off.get("initial_device") == devices_present,
           f"{how}: initial device {off.get('initial_device')}")
    if how == "host":
        warnings = [e["message"] for e in events if e["event"] == "warning"]
        expect(any("x86_64 host devices" in w for w in warnings),
               f"{how}: a warning says what the x86_64 offload devices are ({warnings})")
    results = [e for e in events if e["event"] == "result"]
    titles = []
    for t in tests:
        titles.append(t)
        if devices_present >= 2:
            titles.append(t + "_dev0+1")
    for title in titles:
        rows = [r for r in results if r["block"]["title"] == title]
        expect([r["bytes"] for r in rows] == sizes,
               f"{how}: {title}: one row per size {[r['bytes'] for r in rows]}")
        for r in rows:
            what = f"{how}: {title} at {r['bytes']} bytes"
            expect(r["benchmark"] == title.split("_dev")[0], f"{what}: benchmark {r['benchmark']}")
            expect(r["class"] == "host_device_transfer", f"{what}: class {r['class']}")
            expect(r["suite"] == "paw", f"{what}: suite")
            expect(1 <= r["iterations"] <= 100, f"{what}: NLOOP {r['iterations']} within [1, 100]")
            expect(r["distribution_us"]["samples"] == nreps and r["metrics"]["nreps"] == nreps,
                   f"{what}: {nreps} repetitions")
            expect(r["t_min_us"] <= r["t_avg_us"] <= r["t_max_us"] and r["t_min_us"] > 0,
                   f"{what}: t_min <= t_mean <= t_max")
            expected = expected_gb_per_s(r)
            got = r["metrics"]["gb_per_s_mean"]
            expect(close(got, expected), f"{what}: GB/s {got} != bytes moved / mean time {expected}")
            slowest = r["bytes"] * (2 if r["benchmark"].endswith("inout") else 1) * \
                (2 if "_dev0+1" in title else 1) / (r["t_max_us"] * 1e-6) / 1e9
            expect(close(r["metrics"]["gb_per_s_min"], slowest), f"{what}: min GB/s from max time")
            devices = 2 if "_dev0+1" in title else 1
            expect(r["metrics"]["devices"] == devices, f"{what}: devices {r['metrics']['devices']}")
        if dat is None:
            continue
        for kind in ("time", "bw"):
            path = os.path.join(dat, f"{title}_{kind}-np_1.dat")
            expect(os.path.exists(path), f"{how}: {os.path.basename(path)} written "
                                        f"(have {sorted(os.listdir(dat))[:6]})")
            if not os.path.exists(path):
                continue
            lines = read_dat(path)
            expect([int(line[0]) for line in lines] == sizes,
                   f"{how}: {os.path.basename(path)} has one line per size")
            for line, r in zip(lines, rows):
                if kind == "time":
                    expect(close(float(line[3]), r["t_avg_us"] * 1e-6, 1e-4),
                           f"{how}: {os.path.basename(path)} mean time matches the record")
                else:
                    expect(close(float(line[3]), expected_gb_per_s(r), 1e-4),
                           f"{how}: {os.path.basename(path)} mean GB/s {line[3]} is bytes / mean time")


def device_count():
    proc, events, _ = run_host(["phi_keep_al_in"], {"sizes": "256", "nreps": "1"})
    for e in events:
        if e["event"] == "run_start":
            return e["context"]["offload"]["device_count"]
    print(proc.stderr)
    return 0


DEVICES = device_count()
expect(DEVICES >= 1, f"an offload device is present ({DEVICES}); this test needs libomptarget's "
                    "x86_64 devices")
print(f"offload devices: {DEVICES}")

# 1. Canonical names and aliases, keep and alloc, aligned and not, every direction.
SIZES = [256, 4096]
tests = ["phi_keep_al_in", "offload_alloc_unaligned_inout", "phi_keep_noal_out"]
canonical = ["phi_keep_al_in", "phi_alloc_noal_inout", "phi_keep_noal_out"]
proc, events, dat = run_host(tests, {"sizes": "256,4096", "nreps": "3"})
expect(proc.returncode == 0, f"host run exit status {proc.returncode}: {proc.stderr[-600:]}")
check_run(events, canonical, SIZES, 3, dat, DEVICES, "host")

# 2. An explicit device and PAW's variables: device 1 alone, titled _dev1, sizes from MIN/MAX.
if DEVICES >= 2:
    proc, events, dat = run_host(["phi_alloc_al_out"], {"device": "1"},
                                 env={"MIN_PHI_SIZE": "1024", "MAX_PHI_SIZE": "4096",
                                      "NREPS": "2"})
    expect(proc.returncode == 0, f"--device 1: exit status {proc.returncode}: {proc.stderr[-400:]}")
    rows = [e for e in events if e["event"] == "result"]
    listed = [e["benchmarks"] for e in events if e["event"] == "run_start"]
    expect(listed == [["phi_alloc_al_out_dev1"]], f"--device 1: run_start lists {listed}")
    expect([(r["block"]["title"], r["bytes"], r["metrics"].get("device")) for r in rows] ==
           [("phi_alloc_al_out_dev1", b, 1.0) for b in (1024, 2048, 4096)],
           f"--device 1: rows {[(r['block']['title'], r['bytes']) for r in rows]}")

# 3. Bad input: one line, exit status 2.
for options, needle in (({"device": "7"}, "out of range"),
                        ({"sizes": "0"}, "--sizes '0'"),
                        ({"nreps": "x"}, "--nreps"),
                        ({"device": "0,0"}, "named twice")):
    proc, events, _ = run_host(["phi_keep_al_in"], options)
    lines = error_lines(proc.stderr)
    expect(proc.returncode == 2, f"{options}: exit status {proc.returncode} (2 expected)")
    expect(len(lines) == 1 and needle in lines[0], f"{options}: one line naming '{needle}': {lines}")
    expect(not any(e["event"] == "result" for e in events), f"{options}: no results")

# 4. No offload device: a clear reason and exit status 1, nothing reported as a device figure.
proc, events, _ = run_host(["phi_keep_al_in"], {"sizes": "256", "nreps": "1"},
                           env={"OMP_TARGET_OFFLOAD": "disabled"})
lines = error_lines(proc.stderr)
expect(proc.returncode == 1, f"OMP_TARGET_OFFLOAD=disabled: exit status {proc.returncode} (1)")
expect(len(lines) == 1 and "no OpenMP offload device" in lines[0] and
       "OMP_TARGET_OFFLOAD=disabled" in lines[0],
       f"OMP_TARGET_OFFLOAD=disabled: one line with the reason: {lines}")
expect(not any(e["event"] == "result" for e in events), "no device: no results")

# 4b. The plugin opens its device layer from its own directory when a run starts: a copy of the
# plugin alone loads (discovery needs no layer), and its run ends with one line naming the file.
with tempfile.TemporaryDirectory() as alone:
    copy = os.path.join(alone, os.path.basename(PLUGIN))
    shutil.copy(PLUGIN, copy)
    proc, events, _ = run_host(["phi_keep_al_in"], {"sizes": "256", "nreps": "1"}, plugin=copy)
    lines = error_lines(proc.stderr)
    layer = os.path.join(alone, "libparbench_omp_layer.so")
    expect(proc.returncode == 1, f"no layer: exit status {proc.returncode} (1 expected)")
    expect(len(lines) == 1 and layer + ": cannot be loaded (" in lines[0],
           f"no layer: one line naming {layer}: {lines}")
    expect(not any(e["event"] == "result" for e in events), "no layer: no results")

# 5. Through the driver, when given: `parbench run paw phi_keep_al_in` (and an alias).
if DRIVER is not None:
    out = tempfile.mkdtemp(prefix="parbench_offload_driver_")
    proc = process([DRIVER, "run", "paw", "offload_keep_aligned_in", "phi_alloc_al_inout",
                    "--sizes", "256,4096", "--nreps", "3", "--json", "r.json", "--dat-dir", "dat"],
                   timeout=240, cwd=out, drop=PAW_VARIABLES)
    expect(proc.returncode == 0, f"driver run exit status {proc.returncode}: {proc.stderr[-600:]}")
    if proc.returncode == 0:
        with open(os.path.join(out, "r.json")) as f:
            doc = json.load(f)
        pb = doc["context"].get("parbench", {})
        start = {"event": "run_start", "layout": pb.get("layout"), "header": pb.get("header", {}),
                 "context": pb.get("plugin_context", {})}
        rows = [{"event": "result", "suite": b["suite"], "benchmark": b["benchmark"],
                 "class": b["class"], "block": {"title": b["title"]}, "bytes": b["bytes"],
                 "iterations": b["iterations"], "t_min_us": b["t_min_us"],
                 "t_max_us": b["t_max_us"], "t_avg_us": b["t_avg_us"],
                 "distribution_us": {"samples": b["samples"]}, "metrics": b["metrics"]}
                for b in doc["benchmarks"] if b.get("suite") == "paw"]
        check_run([start] + rows, ["phi_keep_al_in", "phi_alloc_al_inout"], SIZES, 3,
                  os.path.join(out, "dat"), DEVICES, "driver")
    proc = process([DRIVER, "run", "paw", "phi_keep_al_in", "--device", "7"], timeout=60,
                   drop=PAW_VARIABLES)
    expect(proc.returncode == 2 and "out of range" in proc.stderr,
           f"driver --device 7: exit {proc.returncode}: {proc.stderr[-300:]}")
    proc = process([DRIVER, "run", "paw", "phi_keep_al_in", "--sizes", "256"],
                   env={"OMP_TARGET_OFFLOAD": "disabled"}, timeout=60, drop=PAW_VARIABLES)
    expect(proc.returncode == 1 and "no OpenMP offload device" in proc.stderr,
           f"driver without a device: exit {proc.returncode}: {proc.stderr[-300:]}")

sys.exit(finish(failed="expect(s) failed", passed="all offload run checks passed"))
