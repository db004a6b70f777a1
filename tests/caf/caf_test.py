#!/usr/bin/env python3
"""The caf suite under mpiexec with tiny sizes: every point-to-point mode, the synchronisation
and halo benchmarks, -check against the known answer (every row must report 0 defects), the
refusals (one error line, exit status 2), no UCX warnings after the coarray runtime stopped, and
the console layout against a golden file with the numbers masked.

-blksize 2 is used on purpose: OpenCoarrays 2.10.1 (Debian bookworm) loses transfers of 1 and 3
doubles (a plain Fortran program shows it too; docs/caf.md). Case check_catches_lost_puts keeps
that case as the proof that -check reports a wrong number.

usage: caf_test.py CASE PARBENCH MPIEXEC GOLDEN_DIR
Set PARBENCH_APPROVE=1 to rewrite the golden file.
"""
import os
import re
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from pbtest import mask  # noqa: E402
from pbtest.approve import approve  # noqa: E402
from pbtest.expect import fail, require  # noqa: E402
from pbtest.run import iteration_rows, parbench, read_json  # noqa: E402

CASE, PARBENCH, MPIEXEC, GOLDEN = sys.argv[1:5]
PARBENCH = os.path.abspath(PARBENCH)
TINY = ["-count", "1:2", "-blksize", "2", "-iter", "3", "-time", "0.02", "-halosize", "2",
        "-syncmaxneigh", "4", "-check"]
PT2PT = ["put", "subput", "simple_subput", "all_put", "many_put", "sub_manyput", "many_subput",
         "strided_put", "strided_subput", "strided_many_put", "get", "subget", "simple_subget",
         "all_get", "many_get", "sub_manyget", "many_subget", "strided_get", "strided_subget",
         "strided_many_get", "mpi_send"]
SYNC = ["sync_all", "sync_mpi_barrier", "sync_images_pairwise", "sync_images_random",
        "sync_images_ring", "sync_images_3d_grid", "sync_lock", "sync_critical"]
run = parbench(PARBENCH, prefix=["run", "caf"], timeout=240, launcher=MPIEXEC)


def tables(out):
    """{(benchmark, mode line): [row, ...]} with each row's columns as strings."""
    found, key, header = {}, None, None
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("# Benchmarking "):
            key, header = (line.split()[2], lines[i + 1][2:]), None
        elif key and line.strip() and not line.startswith("#"):
            if not line.split()[0][0].isdigit():
                header = line.split()  # the column names
            elif header:
                found.setdefault(key, []).append(dict(zip(header, line.split())))
    return found


def expect_clean(rc, out, err, what):
    if rc != 0:
        fail(f"{what}: exit status {rc}", err, out)
    if "UCX" in err or "UCX" in out:
        fail(f"{what}: UCX warnings after the coarray runtime stopped", err)
    if "parbench: error" in err:
        fail(f"{what}: error line", err)


def expect_no_defects(found, what):
    rows = [r for rs in found.values() for r in rs]
    if not rows:
        fail(f"{what}: no result rows")
    for key, rs in found.items():
        for r in rs:
            # Synchronisation rows (a t_delay column) move no data: nothing to verify.
            if "t_delay" in r and r.get("defects") == "unverified":
                continue
            if r.get("defects") != "0":
                fail(f"{what}: {key} row {r} has defects (the data that arrived is wrong)")


def expect_one_error(rc, err, pattern, what):
    errors = [line for line in err.splitlines() if line.startswith("parbench: error:")]
    if rc != 2 or len(errors) != 1 or not re.fullmatch(pattern, errors[0]):
        fail(f"{what}: want exit 2 and one error line matching /{pattern}/, got {rc}", err)


def expect_figures_in_json(rows, found, what):
    """Every row's caf figures in the JSON file under the metrics' keys they have always had, no
    other table's: the geometry from EPCC's formulas (-blksize 2), the halo's cube and its
    MPI_Dims_create grid at 2 images (x varies fastest: 1x1x2), each overhead the difference of
    its two medians and within noise exactly where its interval reaches zero; and the console's
    row shows the same figures."""
    keys = {"point_to_point": {"count", "blksize", "stride", "ndata", "nextent"},
            "sync": {"neighbours", "t_delay_sync_us", "t_delay_us", "overhead_us",
                     "overhead_ci_low_us", "overhead_ci_high_us", "overhead_within_noise"},
            "halo": {"halo_size", "grid_x", "grid_y", "grid_z"}}
    taken = {}
    for row in rows:
        key, m = (row["benchmark"], row["mode"]), row["metrics"]
        n = taken[key] = taken.get(key, -1) + 1
        if n >= len(found.get(key, [])):
            fail(f"{what}: JSON row {key} #{n + 1} has no console row", str(row))
        shown = found[key][n]
        table = ("point_to_point" if key[0] in PT2PT else "halo" if key[0] == "halo" else "sync")
        if set(m) != keys[table]:
            fail(f"{what}: {key} metrics {sorted(m)}, want {sorted(keys[table])}", str(row))
        if table == "point_to_point":
            stride = 2 if "strided" in key[0] else 1
            count = m["count"]
            want = {"blksize": 2, "stride": stride, "ndata": 2 * count,
                    "nextent": ((count - 1) * stride + 1) * 2}
            for name, value in want.items():
                if m[name] != value:
                    fail(f"{what}: {key} {name} {m[name]}, want {value}", str(m))
            for name in keys[table]:
                if shown[name] != str(int(m[name])):
                    fail(f"{what}: {key} console {name} {shown[name]}, JSON {m[name]}", str(m))
        elif table == "halo":
            want = {"halo_size": 2, "grid_x": 1, "grid_y": 1, "grid_z": 2}
            if m != want or shown["size"] != "2" or key[1] != "grid 1x1x2":
                fail(f"{what}: halo {key[1]}, metrics {m} and size {shown['size']}, want {want}")
        else:
            if m["overhead_us"] != m["t_delay_sync_us"] - m["t_delay_us"]:
                fail(f"{what}: {key} overhead is not t(delay + sync) - t(delay)", str(m))
            if m["overhead_within_noise"] != (1.0 if m["overhead_ci_low_us"] <= 0 else 0.0):
                fail(f"{what}: {key} within noise is not 'interval reaches zero'", str(m))
            want = {"neighbours": str(int(m["neighbours"])),
                    "t_delay+sync": f"{m['t_delay_sync_us']:.2f}",
                    "t_delay": f"{m['t_delay_us']:.2f}",
                    "overhead[usec]": f"{m['overhead_us']:.2f}",
                    "CI95[usec]": f"{m['overhead_ci_low_us']:.2f}..{m['overhead_ci_high_us']:.2f}"}
            for name, value in want.items():
                if shown[name] != value:
                    fail(f"{what}: {key} console {name} {shown[name]}, JSON says {value}", str(m))
    if len(rows) != sum(len(rs) for rs in found.values()):
        fail(f"{what}: the JSON file has {len(rows)} rows, the console "
             f"{sum(len(rs) for rs in found.values())}")


def case_n1():
    rc, out, err = run(np=1, args=TINY)
    expect_clean(rc, out, err, "-n 1 default run")
    found = tables(out)
    expect_no_defects(found, "-n 1")
    names = {k[0] for k in found}
    want = {"sync_all", "sync_mpi_barrier", "sync_images_3d_grid", "sync_lock", "sync_critical",
            "halo"}
    if names != want:
        fail(f"-n 1 ran {sorted(names)}, want {sorted(want)}", out)
    # Skipped defaults are said once each, not silently dropped.
    for name in ["put", "sync_images_pairwise", "sync_images_random"]:
        if f"{name} skipped:" not in out:
            fail(f"-n 1: no warning that {name} was skipped", out)
    # One image: sync all costs nothing measurable; a negative overhead must say "within noise".
    for r in found[("sync_all", "delay loop 2 usec")]:
        if r["overhead[usec]"].startswith("-") and "within" not in out:
            fail("-n 1: negative sync overhead without 'within noise'", out)


def case_n1_refusal():
    rc, out, err = run(np=1, args=["put"] + TINY)
    expect_one_error(rc, err, r"parbench: error: put: single ping-pong needs at least 2 images; "
                              r"the run has 1", "single ping-pong at one image")


def case_n3_refusal():
    rc, out, err = run(np=3, args=["get", "-mode", "multiple"] + TINY)
    expect_one_error(rc, err, r"parbench: error: get: multiple ping-pong pairs image i with "
                              r"i \+ n/2 and needs an even number of images; the run has 3",
                     "multiple ping-pong at three images")


def case_bad_input():
    cases = [
        (1, ["-count", "5:2"], r"-count 5:2: minimum 5 is larger than maximum 2"),
        (1, ["-mode", "sideways"], r"-mode sideways: expected single, multiple or crossing"),
        (1, ["-delay", "0"], r"-delay 0: expected a positive number of microseconds"),
        (2, ["put", "-count", "2147483647", "-blksize", "134217728"],
         r"-count 2147483647 -blksize 134217728: an array of \d+ elements would exceed the "
         r"limit of 134217728 elements \(1 GiB\) per image"),
    ]
    for images, args, message in cases:
        rc, out, err = run(np=images, args=args, timeout=60)
        expect_one_error(rc, err, "parbench: error: " + message, " ".join(args))


def case_n2():
    with tempfile.TemporaryDirectory() as scratch:
        json_file = os.path.join(scratch, "caf.json")
        rc, out, err = run(np=2, args=TINY + ["-mode", "single", "multiple", "crossing",
                                              "--json", json_file])
        expect_clean(rc, out, err, "-n 2 run")
        rows = iteration_rows(json_file)
        document = read_json(json_file) or {}
    # The context's MPI part (report::mpi_suite_context): the library and the images' processes.
    context = document.get("context", {}).get("parbench", {}).get("plugin_context", {})
    if context.get("processes") != 2 or not str(context.get("mpi_library") or "").strip():
        fail(f"-n 2: context processes {context.get('processes')}, library "
             f"{str(context.get('mpi_library'))[:40]!r}", out)
    found = tables(out)
    expect_no_defects(found, "-n 2")
    expect_figures_in_json(rows, found, "-n 2")
    names = {k[0] for k in found}
    missing = set(PT2PT + SYNC + ["halo"]) - names
    if missing:
        fail(f"-n 2: benchmarks without rows: {sorted(missing)}", out)
    for name in PT2PT:
        modes = {k[1] for k in found if k[0] == name}
        if len(modes) != (3 if name == "mpi_send" else 6):
            fail(f"-n 2: {name} ran in {sorted(modes)}", out)
    for key, rows in found.items():
        if key[0] in PT2PT:
            if [r["ndata"] for r in rows] != ["2", "4"]:
                fail(f"{key}: ndata column {[r['ndata'] for r in rows]}, want 2 4", out)
            nextent = "2 4" if "strided" not in key[0] else "2 6"
            if " ".join(r["nextent"] for r in rows) != nextent:
                fail(f"{key}: nextent {[r['nextent'] for r in rows]}, want {nextent}", out)
    # ndata * 8 bytes over the median time, in MiB/s.
    for key, rows in found.items():
        for r in rows:
            if "ndata" in r and float(r["t_median[usec]"]) > 0:
                t = float(r["t_median[usec]"])
                want = int(r["ndata"]) * 8 / 1.048576 / t
                # t is printed with two decimals: allow for its rounding.
                if abs(float(r["MiB/s"]) - want) > 0.01 + want * (0.0051 / t + 0.001):
                    fail(f"{key}: MiB/s {r['MiB/s']}, want {want:.2f}", out)
    approve(os.path.join(GOLDEN, "caf_console_n2.txt"), mask.caf_console(out), check=require)


def case_n4():
    rc, out, err = run(np=4, args=["put", "get", "mpi_send", "sync_images_random",
                                   "sync_images_pairwise", "halo", "-mode", "multiple", "crossing",
                                   "-sync", "images", "-count", "2", "-blksize", "2", "-iter", "2",
                                   "-time", "0.01", "-halosize", "2", "-syncmaxneigh", "4",
                                   "-check"])
    expect_clean(rc, out, err, "-n 4 run")
    found = tables(out)
    expect_no_defects(found, "-n 4")
    random_rows = found[("sync_images_random", "delay loop 2 usec")]
    if [r["neighbours"] for r in random_rows] != ["2", "3"]:
        fail("-n 4: random neighbour counts want 2 3 (capped at images - 1)", out)


def case_check_catches_lost_puts():
    rc, out, err = run(np=2, args=["put", "-count", "1", "-sync", "all", "-iter", "3", "-check"])
    rows = [r for rs in tables(out).values() for r in rs]
    backend = subprocess.run([PARBENCH, "list"], capture_output=True, text=True).stdout
    if "OpenCoarrays 2.10.1" not in backend:
        print("SKIP: the lost-put defect is known for OpenCoarrays 2.10.1 only")
        sys.exit(77)
    if not rows or rows[0]["defects"] == "0":
        fail("OpenCoarrays 2.10.1 loses a put of one double, and -check did not report it", out)
    # Defects fail the run: exit status 5 and one line naming the row (docs/user-guide.md).
    errors = [line for line in err.splitlines() if line.startswith("parbench: error:")]
    if rc != 5 or errors != ["parbench: error: --check found defects in 1 of 1 row: put 8 B "
                             "(2 processes)"]:
        fail(f"a run with defects: exit status {rc} (want 5) and one line naming the row", err)
    if "UCX" in err or "UCX" in out:
        fail("put of one double: UCX warnings after the coarray runtime stopped", err)


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}
if CASE not in CASES:
    fail(f"unknown case {CASE}")
CASES[CASE]()
print("ok")
