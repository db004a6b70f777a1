#!/usr/bin/env python3
"""The CUDA plugin through the driver. Without a GPU (the build machines): `parbench list` shows
the plugin with "no CUDA device: <reason>", a GPU test ends with that reason and exit status 1,
option errors are still bad input (2), and the BLAS tests of the same suite run as before. With a
GPU: a tiny run whose GB/s are recomputed here from the JSON's times and sizes. On any machine:
the plugin opens its cuBLAS layer from its own directory when a GEMM test starts, so a copy of the
plugin without the layer still lists and runs the transfer tests' checks, and its GEMM test ends
with one line naming the missing file (through PAW_HOST, which loads that one file).

usage: cuda_cli.py PARBENCH PAW_HOST PLUGIN
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from pbtest.expect import fail  # noqa: E402
from pbtest.run import parbench  # noqa: E402

PARBENCH = os.path.abspath(sys.argv[1])
PAW_HOST = os.path.abspath(sys.argv[2])
PLUGIN = os.path.abspath(sys.argv[3])
run = parbench(PARBENCH)


def one_error(err, pattern, what):
    lines = [l for l in err.splitlines() if l.startswith("parbench:")]
    if len(lines) != 1 or not re.fullmatch(pattern, lines[0]):
        fail(f"{what}: want one line matching /{pattern}/", err)


rc, out, err = run(["list"])
if rc != 0:
    fail("parbench list", rc, out, err)
m = re.search(r"^plugin cuda .*\n  (.*)$", out, re.M)
if not m:
    fail("parbench list shows no cuda plugin", out)
backend = m.group(1)
has_gpu = "no CUDA device:" not in backend
for name in ["gpu_in_pinned", "gpu_out_nopin", "gpu_dgemm", "gpu_sgemm"]:
    if not re.search(rf"^    {name} ", out, re.M):
        fail(f"list lacks {name}", out)

# Option errors are the user's, on any machine: exit 2, one line.
rc, out, err = run(["run", "paw", "gpu_in_pinned", "--method", "sometimes"])
if rc != 2:
    fail(f"--method sometimes: exit {rc}, want 2", err)
one_error(err, r"parbench: error: --method 'sometimes': expected paw, events or both", "--method")
rc, out, err = run(["run", "paw", "gpu_dgemm", "--sizes", "50000"])
if rc != 2:
    fail(f"gpu_dgemm --sizes 50000: exit {rc}, want 2", err)
one_error(err, r"parbench: error: matrix order 50000 is out of range .*", "matrix order")
rc, out, err = run(["run", "paw", "gpu_in_pinned", "dgemm"])
if rc != 2:
    fail(f"mixing plugins: exit {rc}, want 2", err)
one_error(err, r"parbench: error: 'dgemm' \(plugin blas\) and 'gpu_in_pinned' \(plugin cuda\) .*"
          r"different plugins: run them separately", "mixed plugins")

# The BLAS tests of the same suite are untouched by the CUDA plugin's presence.
with tempfile.TemporaryDirectory() as d:
    rc, out, err = run(["run", "paw", "dgemm", "--sizes", "16", "--nreps", "2", "--dat-dir", d])
    if rc != 0 or not re.search(r"^\s+16\s", out, re.M):
        fail("paw dgemm beside the CUDA plugin", rc, out, err)

# The cuBLAS layer is opened from the plugin's directory, when a GEMM test starts: a copy of the
# plugin alone ends its GEMM test with one line naming the file it looked for.
with tempfile.TemporaryDirectory() as alone:
    copy = os.path.join(alone, os.path.basename(PLUGIN))
    shutil.copy(PLUGIN, copy)
    request = json.dumps({"suite": "paw", "benchmarks": ["gpu_sgemm"], "options": {"sizes": "16"},
                          "calling_sequence": "cuda_cli"})
    p = subprocess.run([PAW_HOST, copy, request, alone], capture_output=True, text=True,
                       timeout=60)
    layer = os.path.join(alone, "libparbench_cublas_layer.so")
    lines = [l for l in p.stderr.splitlines() if l.startswith("error:")]
    if p.returncode != 1 or len(lines) != 1 or not lines[0].startswith(
            f"error: {layer}: cannot be loaded ("):
        fail(f"GEMM test without the cuBLAS layer: exit {p.returncode}, want 1 and one line "
             f"naming {layer}", p.stdout, p.stderr)

if not has_gpu:
    reason = backend.split("no CUDA device:", 1)[1].strip()
    # The layer beside the built plugin loads (before the device census): the GEMM test gets as
    # far as the missing device.
    rc, out, err = run(["run", "paw", "gpu_dgemm", "--sizes", "16"])
    if rc != 1:
        fail(f"gpu_dgemm without a device: exit {rc}, want 1", out, err)
    one_error(err, r"parbench: error: no CUDA device: " + re.escape(reason), "gemm, no device")
    if not reason:
        fail("no reason given for the missing device", backend)
    rc, out, err = run(["run", "paw", "gpu_in_pinned", "--sizes", "4096"])
    if rc != 1:
        fail(f"gpu_in_pinned without a device: exit {rc}, want 1", out, err)
    one_error(err, r"parbench: error: no CUDA device: " + re.escape(reason), "no device")
    print(f"no GPU here ({reason}): the no-device path was tested; "
          "the GPU figures are measured on a GPU machine (docs/paw.md)")
    sys.exit(0)

# A GPU: a tiny real run, its GB/s recomputed from the JSON's own times.
with tempfile.TemporaryDirectory() as d:
    j = os.path.join(d, "gpu.json")
    rc, out, err = run(["run", "paw", "gpu_inout_pinned", "--sizes", "4096,65536", "--nreps", "3",
                        "--json", j, "--dat-dir", d])
    if rc != 0:
        fail("tiny GPU run", rc, out, err)
    rows = [b for b in json.load(open(j))["benchmarks"] if "gpu_inout_pinned" in b["name"]
            and b["run_type"] == "iteration"]
    if len(rows) != 4:  # two sizes x two methods
        fail(f"want 4 rows, got {len(rows)}", json.dumps(rows, indent=1))
    for b in rows:
        size = int(b["name"].rsplit("bytes:", 1)[1])
        mean_s = b["t_avg_us"] * 1e-6
        want = 2 * size / mean_s / 1e9  # inout crosses the link twice
        got = b["metrics"]["gb_per_s_mean"]
        if abs(got - want) > 1e-6 * want:
            fail(f"{b['name']}: GB/s {got} != {want}")
        if abs(b["bytes_per_second"] - want * 1e9) > 1e-6 * want * 1e9:
            fail(f"{b['name']}: bytes_per_second {b['bytes_per_second']} != {want * 1e9}")
    if sum(1 for b in rows if b.get("timing") == "cuda_events") != 2:
        fail("want two rows timed with CUDA events", json.dumps(rows, indent=1))
    print("GPU run checked")
