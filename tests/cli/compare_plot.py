#!/usr/bin/env python3
"""`parbench compare` and `parbench plot` through the driver: exact verdicts and exit statuses on
hand-made runs, identical runs of the fake plugin, Google Benchmark's compare.py on parbench JSON,
figures that hold their series, and one error line with status 2 for bad input.

usage: compare_plot.py CASE PARBENCH FAKE_DIR PLOT_PYTHON
"""
import functools
import json
import math
import os
import re
import struct
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from pbtest.expect import fail  # noqa: E402
from pbtest.run import handmade_run, parbench  # noqa: E402

CASE, PARBENCH, FAKE, PLOT_PYTHON = sys.argv[1:5]
PARBENCH = os.path.abspath(PARBENCH)
run = parbench(PARBENCH)


def expect_error(result, pattern, what):
    rc, out, err = result
    errors = [line for line in err.splitlines() if line.startswith("parbench: error:")]
    if rc != 2 or len(errors) != 1 or not re.fullmatch(pattern, errors[0]):
        fail(f"{what}: want exit 2 and one error line matching /{pattern}/, got {rc}", out, err)


def fake_run(directory, name, benchmarks=("PingPong", "Sendrecv", "Allreduce")):
    path = os.path.join(directory, name)
    rc, out, err = run(["run", "fake", *benchmarks, "-msglog", "0:6", "--json", path, "--quiet",
                        "--plugin-path", FAKE])
    if rc != 0:
        fail(f"fake run {name}: exit {rc}", err)
    return path


# These files name their rows by "name" alone, as compare and plot must read them.
handmade = functools.partial(handmade_run, benchmark_field=False)


def steps(first, n, step):
    return [round(first + i * step, 10) for i in range(n)]


def shifted_pair(tmp):
    # 8 B: old 1.0..1.9, new 2.0..2.9 (medians 1.45 -> 2.45, +68.97 %; U = 0, exact
    # p = 2 / C(20, 10) = 1.0825e-5). 16 B: identical (p = 1). 32 B: old 2.0..2.9, new 1.0..1.45
    # (median 2.45 -> 1.225, -50 %, U = 100 of 100, p = 1.0825e-5).
    old = handmade(os.path.join(tmp, "old.json"),
                   {8: steps(1.0, 10, 0.1), 16: steps(1.0, 10, 0.1), 32: steps(2.0, 10, 0.1)})
    new = handmade(os.path.join(tmp, "new.json"),
                   {8: steps(2.0, 10, 0.1), 16: steps(1.0, 10, 0.1), 32: steps(1.0, 10, 0.05)})
    return old, new


def table(out):
    """benchmark -> (change, p, verdict) from the text table."""
    rows = {}
    for line in out.splitlines()[1:]:
        fields = line.split()
        if len(fields) == 6 and "/" in fields[0]:
            rows[fields[0]] = (fields[3], fields[4], fields[5])
    return rows


def case_compare_shift():
    with tempfile.TemporaryDirectory() as tmp:
        old, new = shifted_pair(tmp)
        rc, out, err = run(["compare", old, new])
        if rc != 0:
            fail(f"compare without --fail-above: exit {rc}", out, err)
        want = {"t/PingPong/np:2/bytes:8": ("+69.0%", "1.08e-05", "slower"),
                "t/PingPong/np:2/bytes:16": ("+0.0%", "1", "same"),
                "t/PingPong/np:2/bytes:32": ("-50.0%", "1.08e-05", "faster")}
        if table(out) != want:
            fail(f"rows {table(out)} != {want}", out)
        geomean = (2.45 / 1.45 * 1.0 * 0.5) ** (1 / 3)
        line = (f"t: 3 rows, geometric mean of new/old medians {geomean:.4f} "
                f"({100 * (geomean - 1):+.1f}%), 1 slower, 1 faster")
        if line not in out.splitlines():
            fail(f"want the suite line '{line}'", out)

        rc, out, err = run(["compare", old, new, "--fail-above", "5%"])
        regression = ("parbench: regression: 1 rows significantly slower by more than 5%: "
                      "t/PingPong/np:2/bytes:8 (+69.0%)")
        if rc != 1 or err.strip() != regression:
            fail(f"--fail-above 5%: want exit 1 and '{regression}', got {rc}", err)
        rc, out, err = run(["compare", old, new, "--fail-above", "70"])
        if rc != 0:
            fail(f"--fail-above 70 (+69 % is below): exit {rc}", err)

        rc, out, err = run(["compare", old, new, "--format", "markdown"])
        row = "| `t/PingPong/np:2/bytes:8` | 1.45 | 2.45 | +69.0% | 1.08e-05 | slower |"
        if rc != 0 or not out.startswith("| benchmark |") or row not in out.splitlines():
            fail(f"markdown: want the row '{row}'", out, err)


def case_compare_identical():
    with tempfile.TemporaryDirectory() as tmp:
        a, b = fake_run(tmp, "a.json"), fake_run(tmp, "b.json")
        rc, out, err = run(["compare", a, b, "--fail-above", "0%"])
        rows = table(out)
        if rc != 0 or len(rows) != 3 * 8:
            fail(f"identical runs: exit {rc}, {len(rows)} rows (want 24)", out, err)
        changed = {k: v for k, v in rows.items() if v != ("+0.0%", "1", "same")}
        if changed:
            fail(f"identical runs must show no change at every size: {changed}", out)
        # A directory of runs is their pooled samples: the same medians again.
        os.mkdir(os.path.join(tmp, "runs"))
        for name in ("1.json", "2.json"):
            os.replace(fake_run(tmp, name), os.path.join(tmp, "runs", name))
        rc, out, err = run(["compare", a, os.path.join(tmp, "runs")])
        if rc != 0 or any(v[2] != "same" for v in table(out).values()) or len(table(out)) != 24:
            fail(f"run against a directory of two identical runs: exit {rc}", out, err)


def case_compare_bad_input():
    with tempfile.TemporaryDirectory() as tmp:
        a = fake_run(tmp, "a.json", ("PingPong",))
        barrier = fake_run(tmp, "barrier.json", ("Barrier",))
        expect_error(run(["compare", a, "nope.json"]),
                     r"parbench: error: nope\.json: no such file or directory", "missing file")
        other = os.path.join(tmp, "other.json")
        with open(other, "w") as f:
            json.dump({"benchmarks": [{"name": "x", "real_time": 1}]}, f)
        expect_error(run(["compare", other, a]),
                     r"parbench: error: .*other\.json: not a parbench JSON file .*",
                     "not parbench JSON")
        expect_error(run(["compare", a, barrier]),
                     r"parbench: error: no rows in common: .*", "no rows in common")
        expect_error(run(["compare", a, a, "--fail-above", "five"]),
                     r"parbench: error: --fail-above five: expected a percentage such as 5%",
                     "bad threshold")


def case_compare_stdout():
    """The report is what a CI job reads: a full disk or a closed stdout is exit 4 and one line,
    never 0 (the gate would pass on a report nobody saw)."""
    with tempfile.TemporaryDirectory() as tmp:
        old, new = shifted_pair(tmp)
        for target, reason in (("/dev/full", "No space left on device"),
                               (None, "Bad file descriptor")):
            if target:
                with open(target, "w") as sink:
                    p = subprocess.run([PARBENCH, "compare", old, new], stdout=sink,
                                       stderr=subprocess.PIPE, text=True, timeout=60)
            else:  # stdout closed, as `parbench compare a b >&-` leaves it
                p = subprocess.run(["bash", "-c", '"$@" >&-', "bash", PARBENCH, "compare", old,
                                    new], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   text=True, timeout=60)
            want = f"parbench: error: stdout: cannot write: {reason}"
            if p.returncode != 4 or p.stderr.strip() != want:
                fail(f"stdout {target or 'closed'}: want exit 4 and '{want}', got "
                     f"{p.returncode}", p.stderr)
        # With a regression as well: still the write error, not a quiet 1 or 0.
        with open("/dev/full", "w") as sink:
            p = subprocess.run([PARBENCH, "compare", old, new, "--fail-above", "5%"], stdout=sink,
                               stderr=subprocess.PIPE, text=True, timeout=60)
        if p.returncode != 4:
            fail(f"stdout /dev/full with a regression: exit {p.returncode}, want 4", p.stderr)


def case_compare_gbench():
    """compare.py reads the aggregate entries: sub-us medians in ns, not 0."""
    script = "/usr/share/benchmark/compare.py"
    if not os.path.exists(script):
        print(f"SKIP: {script} not installed (Debian: libbenchmark-tools)")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        a, b = fake_run(tmp, "a.json", ("PingPong",)), fake_run(tmp, "b.json", ("PingPong",))
        p = subprocess.run(["/usr/bin/python3", script, "benchmarks", a, b], capture_output=True,
                           text=True, timeout=120)
        text = re.sub(r"\x1b\[[0-9;]*m", "", p.stdout)
        # fake PingPong at 0 B: samples 0.625 (1 + 0.01 i), median 0.653125 us = 653 ns
        line = next((l for l in text.splitlines()
                     if l.startswith("fake/PingPong/np:2/bytes:0_median ")), "")
        if p.returncode != 0 or line.split()[1:5] != ["+0.0000", "+0.0000", "653", "653"]:
            fail("compare.py: want the 0 B median row with 653 ns on both sides", text, p.stderr)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        fail(f"{path} is not a PNG")
    return struct.unpack(">II", head[16:24])


def need_matplotlib():
    if subprocess.run([PLOT_PYTHON, "-c", "import matplotlib"], capture_output=True).returncode:
        print(f"SKIP: {PLOT_PYTHON} has no matplotlib (Debian: python3-matplotlib)")
        sys.exit(77)


def case_plot():
    need_matplotlib()
    with tempfile.TemporaryDirectory() as tmp:
        a = fake_run(tmp, "a.json", ("PingPong", "Allreduce"))
        b = fake_run(tmp, "b.json", ("PingPong", "Allreduce"))
        svg = os.path.join(tmp, "lat.svg")
        rc, out, err = run(["plot", a, b, "-o", svg, "--imb-t", "--title", "two runs"])
        if rc != 0 or not os.path.exists(svg):
            fail(f"plot to SVG: exit {rc}", err)
        text = open(svg).read()
        # latency for both benchmarks, bandwidth for PingPong only (a collective has none)
        for run_name in ("a", "b"):
            for kind in ("series", "ci", "headline"):
                for series in ("fake/PingPong/np:2", "fake/Allreduce/np:2"):
                    n = text.count(f'id="{kind}:{run_name}: {series}"')
                    want = 2 if series.endswith("PingPong/np:2") else 1
                    if n != want:
                        fail(f"SVG: {n} groups '{kind}:{run_name}: {series}', want {want}")
        if not text.lstrip().startswith("<?xml") or "two runs" not in text:
            fail("SVG: not an SVG document with the title")
        png = os.path.join(tmp, "lat.png")
        rc, out, err = run(["plot", a, "-o", png])
        if rc != 0:
            fail(f"plot to PNG: exit {rc}", err)
        width, height = png_size(png)
        # two panels (latency, bandwidth) of 6.4 x 4.8 in at 120 dpi
        if (width, height) != (1536, 576) or os.path.getsize(png) < 20000:
            fail(f"PNG {width}x{height}, {os.path.getsize(png)} bytes; want 1536x576, > 20 kB")

        # PAW: GFlop/s against N from the compute rows' flop count
        paw = os.path.join(tmp, "paw.json")
        rows = []
        for n in (64, 128, 256):
            t = 2 * n * n * (n + 1) / 50e9 * 1e6  # 50 GFlop/s
            rows.append({"name": f"paw/dgemm/np:1/threads:1/n:{n}", "run_type": "iteration",
                         "suite": "paw", "class": "compute", "bytes": n, "real_time": t,
                         "median_us": t, "ci_low_us": t * 0.99, "ci_high_us": t * 1.01,
                         "metrics": {"flops_paw": 2 * n * n * (n + 1), "gflops_paw": 50.0}})
        with open(paw, "w") as f:
            json.dump({"context": {"parbench": {}}, "benchmarks": rows}, f)
        rc, out, err = run(["plot", paw, "-o", os.path.join(tmp, "paw.svg")])
        text = open(os.path.join(tmp, "paw.svg")).read() if rc == 0 else ""
        if rc != 0 or text.count('id="series:paw/dgemm/np:1/threads:1"') != 2:
            fail(f"PAW plot: exit {rc}; want GFlop/s and time series", err)


def group_style(text, gid):
    """(stroke colour, dash pattern or None) of the line in the SVG group `gid`."""
    body = re.search(r'<g id="' + re.escape(gid) + r'">(.*?)</g>', text, re.S)
    if not body:
        fail(f"SVG: no group '{gid}'")
    style = re.search(r'style="([^"]*)"', body.group(1)).group(1)
    stroke = re.search(r"stroke: ?(#[0-9a-f]{6})", style)
    dash = re.search(r"stroke-dasharray: ?([^;]+)", style)
    return stroke.group(1) if stroke else None, dash.group(1).strip() if dash else None


def case_plot_filters():
    """--benchmark and --suite keep their rows; one colour per run, one line style per series."""
    need_matplotlib()
    with tempfile.TemporaryDirectory() as tmp:
        a = fake_run(tmp, "a.json", ("PingPong", "Allreduce"))
        b = fake_run(tmp, "b.json", ("PingPong", "Allreduce"))
        svg = os.path.join(tmp, "f.svg")
        rc, out, err = run(["plot", a, b, "-o", svg, "--metric", "latency", "--benchmark",
                            "PingPong"])
        text = open(svg).read() if rc == 0 else ""
        if rc != 0 or 'id="series:a: fake/PingPong/np:2"' not in text or "Allreduce" in text:
            fail(f"--benchmark PingPong: exit {rc}; want PingPong's series only", err)
        rc, out, err = run(["plot", a, b, "-o", svg, "--metric", "latency"])
        text = open(svg).read()
        a_ping, a_all = (group_style(text, f"series:a: fake/{n}/np:2") for n in ("PingPong",
                                                                               "Allreduce"))
        b_ping, b_all = (group_style(text, f"series:b: fake/{n}/np:2") for n in ("PingPong",
                                                                               "Allreduce"))
        if not (a_ping[0] == a_all[0] and b_ping[0] == b_all[0] and a_ping[0] != b_ping[0]):
            fail(f"want one colour per run: a {a_ping[0]} {a_all[0]}, b {b_ping[0]} {b_all[0]}")
        if not (a_ping[1] == b_ping[1] and a_all[1] == b_all[1] and a_ping[1] != a_all[1]):
            fail(f"want one line style per series: PingPong {a_ping[1]} {b_ping[1]}, "
                 f"Allreduce {a_all[1]} {b_all[1]}")
        expect_error(run(["plot", a, "-o", svg, "--suite", "imb-mpi1"]),
                     r"parbench: error: no rows of --suite imb-mpi1 in .*a\.json", "no such suite")
        expect_error(run(["plot", a, "-o", svg, "--benchmark", "Ping\x1b"]),
                     r"parbench: error: --benchmark .*: expected a suite or benchmark name",
                     "control character")


def case_plot_targets():
    """The figure goes through the output layer: a link is written through to its target, the
    file is replaced whole, names with '$' and non-ASCII titles are drawn as text."""
    need_matplotlib()
    with tempfile.TemporaryDirectory() as tmp:
        run_json = handmade(os.path.join(tmp, "run.json"),
                            {8: steps(1.0, 10, 0.1), 16: steps(2.0, 10, 0.1)}, suite="t$x")
        os.symlink("figure.svg", os.path.join(tmp, "link.svg"))
        with open(os.path.join(tmp, "figure.svg"), "w") as f:
            f.write("old")
        rc, out, err = run(["plot", run_json, "-o", os.path.join(tmp, "link.svg"),
                            "--title", "Débit ≈ µs"])
        if rc != 0 or "parbench: error" in err or "Traceback" in err:
            fail(f"plot through a link: exit {rc}", err)
        if not os.path.islink(os.path.join(tmp, "link.svg")):
            fail("the link was replaced by the figure")
        text = open(os.path.join(tmp, "figure.svg"), encoding="utf-8").read()
        if not text.lstrip().startswith("<?xml") or 'id="series:t$x/PingPong/np:2"' not in text:
            fail("the link's target does not hold the figure with the series 't$x/PingPong/np:2'")
        leftovers = [n for n in os.listdir(tmp) if ".tmp." in n or n.startswith(".parbench")]
        if leftovers:
            fail(f"left behind: {leftovers}")


def case_plot_script_alone():
    """parbench_plot.py run by hand: the figure on stdout, one line for every problem."""
    need_matplotlib()
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir,
                          "tools", "parbench_plot.py")
    with tempfile.TemporaryDirectory() as tmp:
        run_json = handmade(os.path.join(tmp, "run.json"), {8: steps(1.0, 10, 0.1)})
        p = subprocess.run([PLOT_PYTHON, script, "--format", "svg", "--", run_json],
                           capture_output=True, timeout=120)
        if p.returncode != 0 or not p.stdout.lstrip().startswith(b"<?xml"):
            fail(f"script alone: exit {p.returncode}, want an SVG on stdout", p.stderr.decode())
        for args, pattern in (
                (["--format", "png", "--", "/dev/zero"],
                 r"parbench: error: /dev/zero: not a regular file \(a device, FIFO or socket\)"),
                (["--format", "gif", "--", run_json], r"parbench: error: argument --format: .*"),
                (["--format", "png", "--title", "\x1b]0;x\x07", "--", run_json],
                 r"parbench: error: --title '\\x1b\]0;x\\x07': control characters .*")):
            p = subprocess.run([PLOT_PYTHON, script] + args, capture_output=True, text=True,
                               timeout=60)
            lines = p.stderr.splitlines()
            if p.returncode != 2 or len(lines) != 1 or not re.fullmatch(pattern, lines[0]):
                fail(f"script {args}: want exit 2 and one line /{pattern}/, got {p.returncode}",
                     p.stderr)


def case_plot_bad_input():
    need_matplotlib()
    with tempfile.TemporaryDirectory() as tmp:
        barrier = fake_run(tmp, "barrier.json", ("Barrier",))
        expect_error(run(["plot", "nope.json", "-o", os.path.join(tmp, "x.png")]),
                     r"parbench: error: nope\.json: no such file", "missing file")
        expect_error(run(["plot", barrier, "-o", os.path.join(tmp, "x.pdf")]),
                     r"parbench: error: -o .*x\.pdf: the figure must end in \.png or \.svg",
                     "unknown format")
        expect_error(run(["plot", barrier, "-o", os.path.join(tmp, "x.png")]),
                     r"parbench: error: no rows with a message size or matrix order in .*",
                     "no sizes")
        other = os.path.join(tmp, "other.json")
        with open(other, "w") as f:
            f.write("[1, 2]")
        expect_error(run(["plot", other, "-o", os.path.join(tmp, "x.png")]),
                     r"parbench: error: .*other\.json: not a parbench JSON file .*",
                     "not parbench JSON")


globals()["case_" + CASE]()
print("ok")
