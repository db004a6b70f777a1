#!/usr/bin/env python3
"""`parbench run paw ...` through the driver: a single-process run with no MPI library in the
process, PAW's .dat files plus JSON and CSV, the OpenBLAS fallback warning with its remedy (and the
remedy's core in effect), and bad input failing fast with one line.

usage: run_driver_test.py PARBENCH
"""
import csv
import json
import os
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from pbtest.expect import expect, finish  # noqa: E402
from pbtest.run import PAW_BLAS, process  # noqa: E402

PARBENCH = os.path.abspath(sys.argv[1])


def run(args, env=None, cwd=None):
    """`parbench run paw ARGS`: the process, with its pid (LD_DEBUG_OUTPUT names its trace file
    after it)."""
    return process([PARBENCH, "run", "paw"] + args, env, 240, cwd,
                   drop=PAW_BLAS + ("OPENBLAS_CORETYPE",))


def cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


# 1. A whole run: no MPI library is ever loaded into the driver's process (LD_DEBUG lists every
# object the loader opens). Plugin discovery probes files in a child process, which may load the
# MPI plugin to read its descriptor; that child's trace is a separate file and does not count.
out = tempfile.mkdtemp(prefix="parbench_paw_")
proc = run(["dgemm", "sgemm", "dgemv", "sgemv", "--max_size", "64", "--nreps", "2",
            "--time", "1", "--json", "r.json", "--csv", "r.csv", "--dat-dir", "dat"],
           env={"LD_DEBUG": "files", "LD_DEBUG_OUTPUT": os.path.join(out, "ld")}, cwd=out)
expect(proc.returncode == 0, f"run exit status {proc.returncode}: {proc.stderr[-500:]}")
loaded = ""
# A forked child keeps writing to its parent's trace file; every line starts with its own pid.
with open(os.path.join(out, f"ld.{proc.pid}")) as f:
    loaded = "".join(line for line in f if line.lstrip().startswith(f"{proc.pid}:"))
expect("parbench_blas" in loaded, "the loader trace shows the BLAS plugin")
expect("libmpi" not in loaded, "no MPI library loaded into a paw run")
for kernel in ("dgemm", "sgemm", "dgemv", "sgemv"):
    for kind in ("time", "flops"):
        files = [n for n in os.listdir(os.path.join(out, "dat"))
                 if n.startswith(f"{kernel}_{kind}-np_") and n.endswith(".dat")]
        expect(len(files) == 1, f"{kernel}_{kind}-np_<threads>.dat written ({files})")
with open(os.path.join(out, "r.json")) as f:
    doc = json.load(f)
text = json.dumps(doc)
for field in ("flops_paw", "flops_conventional", "gflops_paw", "gflops_conventional"):
    expect(f'"{field}"' in text, f"JSON carries {field}")
expect('"corename"' in text, "JSON context carries the OpenBLAS core name")
with open(os.path.join(out, "r.csv")) as f:
    rows = list(csv.reader(f))
expect(len(rows) >= 1 + 4 * 4, f"CSV has a row per kernel and size ({len(rows)} rows)")
expect("# dgemm," in proc.stdout and "GFlop/s" in proc.stdout, "PAW summary on the console")

# 2. The fallback core is warned about once, with the remedy; the remedy takes effect: the run
# under it records the remedy's core and no fallback. (That the remedy also raises the rate is a
# speed ratio, which a busy machine can push below any bound: bench/openblas_remedy.py measures it
# as a benchmark().)
def openblas_context(document):
    """The "openblas" object of a run's context, wherever the context nests it."""
    stack = [document.get("context", {})]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("openblas"), dict) and "corename" in node["openblas"]:
                return node["openblas"]
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return {}


flags = cpu_flags()
if {"avx2", "fma"} <= flags:
    def run_core(coretype):
        d = tempfile.mkdtemp(prefix="parbench_paw_")
        p = run(["dgemm", "--sizes", "64", "--nreps", "2", "--threads", "1", "--json", "r.json",
                 "--dat-dir", d], env={"OPENBLAS_CORETYPE": coretype}, cwd=d)
        expect(p.returncode == 0, f"OPENBLAS_CORETYPE={coretype}: exit {p.returncode}")
        with open(os.path.join(d, "r.json")) as f:
            return p, openblas_context(json.load(f))
    slow_proc, slow = run_core("Prescott")
    remedy = "SkylakeX" if "avx512f" in flags else "Haswell"
    # Once in the PAW summary (the driver may echo warnings on stderr too).
    warned = [l for l in slow_proc.stdout.splitlines() if f"OPENBLAS_CORETYPE={remedy}" in l]
    expect(len(warned) == 1, f"one fallback warning naming OPENBLAS_CORETYPE={remedy} ({warned})")
    expect(str(slow.get("corename", "")).lower() == "prescott" and slow.get("fallback_core") is True,
           f"Prescott recorded as a fallback core: {slow}")
    fast_proc, fast = run_core(remedy)
    expect(str(fast.get("corename", "")).lower() == remedy.lower()
           and fast.get("fallback_core") is False,
           f"the remedy's core {remedy} recorded, no fallback: {fast}")
    expect("OPENBLAS_CORETYPE=" not in fast_proc.stdout + fast_proc.stderr,
           "no fallback warning under the remedy")

# 3. Bad input: non-zero exit, one clear line, no results.
for args, env, expected in [
        (["dgemm", "--min_size", "abc"], {}, "--min_size 'abc'"),
        (["dgemm", "--max_size", "-5"], {}, "-5"),
        (["dgemm"], {"MIN_BLAS_SIZE": "512", "MAX_BLAS_SIZE": "256"}, "minimum size 512"),
        (["dgemm", "--threads", "0"], {}, "--threads '0'")]:
    p = run(args, env=env, cwd=tempfile.mkdtemp(prefix="parbench_paw_"))
    lines = [l for l in p.stderr.strip().splitlines() if l.strip()]
    expect(p.returncode != 0, f"{args} {env}: non-zero exit")
    expect(len(lines) == 1 and expected in lines[0], f"{args} {env}: one clear line ({lines})")
    expect("GFlop/s" not in p.stdout, f"{args} {env}: no results")

sys.exit(finish())
