#!/usr/bin/env python3
"""Approval (golden) tests of the driver's output layouts, driven by the fake plugin's canned
records: the IMB console tables (single, parallel, collective, Barrier, multiple mode with
-multi 0 and 1, -map rank order, -check defects), the JSON and CSV files, and Google Benchmark's
compare.py reading two parbench JSON files unchanged.

Numbers are masked (every decimal becomes '~' of the same width, so column alignment is still
compared); machine-dependent header fields and context values are replaced by placeholders.

usage: approval.py CASE PARBENCH FAKE_DIR GOLDEN_DIR [COMPARE_PY]
Set PARBENCH_APPROVE=1 to (re)write the golden file from the current output.
"""
import difflib
import json
import os
import re
import subprocess
import sys
import tempfile

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
}


def parbench(args, cwd=None):
    env = dict(os.environ)
    env.pop("PARBENCH_PLUGIN_PATH", None)
    p = subprocess.run([PARBENCH, "run", "fake"] + args + ["--plugin-path", FAKE],
                       capture_output=True, text=True, env=env, cwd=cwd, timeout=60)
    if p.returncode != 0:
        print(f"parbench exited with {p.returncode}\n{p.stderr}")
        sys.exit(1)
    return p.stdout


def mask_numbers(text):
    return re.sub(r"\d+\.\d+(e[-+]?\d+)?", lambda m: "~" * len(m.group()), text)


def mask_console(text):
    text = text.replace(PARBENCH, "parbench").replace(FAKE, "FAKE")
    text = re.sub(r"^(# (Date|Machine|System|Release|Version) +: ).*$", r"\1<masked>", text,
                  flags=re.M)
    return mask_numbers(text)


VOLATILE_CONTEXT = {"date", "date_text", "host_name", "executable", "num_cpus", "mhz_per_cpu",
                    "cpu_scaling_enabled", "caches", "load_avg", "library_build_type", "machine",
                    "system", "release", "version", "plugins", "calling_sequence"}


def mask_json(document):
    def mask_value(value):
        if isinstance(value, float):
            return "<float>"
        if isinstance(value, dict):
            return {k: mask_value(v) for k, v in value.items()}
        if isinstance(value, list):
            return [mask_value(v) for v in value]
        return value

    context = document["context"]
    for key in list(context):
        if key in VOLATILE_CONTEXT:
            context[key] = "<masked>"
    pb = context["parbench"]
    for key in list(pb):
        if key in VOLATILE_CONTEXT:
            pb[key] = "<masked>"
    return json.dumps(mask_value(document), indent=2, sort_keys=True) + "\n"


def approve(name, actual):
    path = os.path.join(GOLDEN, name)
    if os.environ.get("PARBENCH_APPROVE") == "1":
        with open(path, "w") as f:
            f.write(actual)
        print("wrote", path)
        return
    if not os.path.exists(path):
        print(f"no golden file {path}; run with PARBENCH_APPROVE=1 to create it")
        sys.exit(1)
    expected = open(path).read()
    if expected != actual:
        sys.stdout.writelines(difflib.unified_diff(expected.splitlines(True),
                                                   actual.splitlines(True), path, "actual"))
        sys.exit(1)


def python_with_scipy():
    for candidate in (sys.executable, "/usr/bin/python3"):
        if candidate and os.path.exists(candidate) and subprocess.run(
                [candidate, "-c", "import numpy, scipy"], capture_output=True).returncode == 0:
            return candidate
    return None


if CASE in CONSOLE_CASES:
    approve(CASE + ".txt", mask_console(parbench(CONSOLE_CASES[CASE])))
elif CASE == "json":
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.json")
        parbench(["PingPong", "Barrier", "-multi", "1", "-msglog", "3:3", "--check", "--json", out,
                  "--quiet"])
        approve("json.json", mask_json(json.load(open(out))))
elif CASE == "csv":
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.csv")
        parbench(["PingPong", "Barrier", "-multi", "0", "-msglog", "3:3", "--csv", out, "--quiet"])
        raw = open(out, newline="").read()
        if not raw.endswith("\r\n") or "\n" in raw.replace("\r\n", ""):
            print("CSV rows must end in CRLF")
            sys.exit(1)
        approve("csv.csv", mask_numbers(raw.replace("\r\n", "\n")))
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
