#!/usr/bin/env python3
"""`parbench report` through the driver: the comparison it shows is `parbench compare`'s (known
answers from the U test's exact p-value and the geometric mean's formula), the raw tables carry
the JSON's numbers, the page's structure matches its golden outline, bad input is one line and
exit 2, and the pages open in headless Chromium without a console error, every benchmark's panel
drawn and every run in the legend (a screenshot under the build directory).

usage: report.py CASE PARBENCH FAKE_DIR PLOT_PYTHON MPI_PLUGIN MPIEXEC OUT_DIR
"""
import html.parser
import json
import os
import re
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from pbtest.approve import approve  # noqa: E402
from pbtest.expect import expect, failures, fail  # noqa: E402
from pbtest.run import handmade_run, parbench  # noqa: E402

CASE, PARBENCH, FAKE, PLOT_PYTHON, MPI_PLUGIN, MPIEXEC, OUT_DIR = sys.argv[1:8]
PARBENCH = os.path.abspath(PARBENCH)
HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "report_outline.golden")
run = parbench(PARBENCH)


def need_matplotlib():
    if subprocess.run([PLOT_PYTHON, "-c", "import matplotlib"], capture_output=True).returncode:
        print(f"SKIP: {PLOT_PYTHON} has no matplotlib (Debian: python3-matplotlib)")
        sys.exit(77)


def fake_run(directory, name, benchmarks=("PingPong", "Allreduce", "Barrier")):
    path = os.path.join(directory, name)
    rc, out, err = run(["run", "fake", *benchmarks, "-msglog", "0:4", "--json", path, "--quiet",
                        "--plugin-path", FAKE])
    if rc != 0:
        fail(f"fake run {name}: exit {rc}", err)
    return path


def steps(first, n, step):
    return [round(first + i * step, 10) for i in range(n)]


def report(inputs, output, *extra):
    rc, out, err = run(["report", *inputs, "-o", output, *extra])
    if rc != 0 or not os.path.exists(output) or "Traceback" in err:
        fail(f"report {inputs}: exit {rc}", out, err)
    with open(output, encoding="utf-8") as f:
        return f.read()


class Outline(html.parser.HTMLParser):
    """The page's structure without its numbers: headings, sections and figures with their ids,
    table headers, and how many series each figure draws."""

    def __init__(self):
        super().__init__()
        self.lines, self.depth, self.capture, self.text = [], 0, None, ""
        self.series = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("h1", "h2", "h3", "h4", "th"):
            self.capture, self.text = tag, ""
        elif tag in ("section", "nav", "details"):
            self.lines.append("  " * self.depth + f"{tag}#{a.get('id', '')}"
                              + (f" .{a['class']}" if a.get("class") else ""))
            self.depth += 1
        elif tag == "figure":
            self.lines.append("  " * self.depth + f"figure#{a.get('id', '')}")
            self.series = 0
        elif self.series is not None and re.search(r"-series-", a.get("id", "")):
            self.series += 1
        elif tag == "input":
            self.lines.append("  " * self.depth + f"input#{a.get('id', '')}")

    def handle_endtag(self, tag):
        if tag == self.capture:
            text = re.sub(r"\s+", " ", self.text).strip()
            if tag != "th" or not re.fullmatch(r"[\d.e+-]*", text):
                self.lines.append("  " * self.depth + f"{tag}: {text}")
            self.capture = None
        elif tag in ("section", "nav", "details"):
            self.depth -= 1
        elif tag == "figure":
            self.lines[-1] += f" series:{self.series}"
            self.series = None

    def handle_data(self, data):
        if self.capture:
            self.text += data


def outline(text):
    parser = Outline()
    parser.feed(text)
    return "\n".join(parser.lines) + "\n"


def fake_pages(tmp):
    a, b = fake_run(tmp, "a.json"), fake_run(tmp, "b.json")
    return [a, b], report([a, b], os.path.join(tmp, "fake.html"))


def case_report_comparison():
    """Known answers: the shifted pair of compare_plot.py (U = 0 of 100, exact p = 2 / C(20, 10)
    = 1.0825e-5; medians 1.45 -> 2.45 and 2.45 -> 1.225)."""
    need_matplotlib()
    with tempfile.TemporaryDirectory() as tmp:
        old = handmade_run(os.path.join(tmp, "old.json"),
                       {8: steps(1.0, 10, 0.1), 16: steps(1.0, 10, 0.1), 32: steps(2.0, 10, 0.1)})
        new = handmade_run(os.path.join(tmp, "new.json"),
                       {8: steps(2.0, 10, 0.1), 16: steps(1.0, 10, 0.1), 32: steps(1.0, 10, 0.05)})
        text = report([old, new], os.path.join(tmp, "shift.html"))
        cells = lambda row: [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td>(.*?)</td>", row)]
        rows = re.findall(r'<tr class="(slower|faster|same)">(.*?)</tr>', text)
        table = {cells(r)[0]: (cls, cells(r)[3:6]) for cls, r in rows if "<code>" in r}
        want = {"t/PingPong/np:2/bytes:8": ("slower", ["+69.0%", "1.08e-05", "slower"]),
                "t/PingPong/np:2/bytes:16": ("same", ["+0.0%", "1", "same"]),
                "t/PingPong/np:2/bytes:32": ("faster", ["-50.0%", "1.08e-05", "faster"])}
        expect(table == want, f"compared rows {table} != {want}")
        geomean = (2.45 / 1.45 * 1.0 * 0.5) ** (1 / 3)
        suite_row = (f"<td>t</td><td>3</td><td>{geomean:.4g}</td>"
                     f"<td>{100 * (geomean - 1):+.1f}%</td><td>1</td><td>1</td>")
        expect(suite_row in text, f"want the suite row '{suite_row}'")
        expect("1 rows significantly slower" in text, "the regression is not called out")

    if failures:
        fail("\n".join(failures))
    print("ok")


def case_report_units():
    """Each suite's console unit, from the formulas: OSU MB/s = bytes / t[µs] (10^6 B/s), IMB
    Mbytes/sec = bytes / 2^20 / t[s] (IMB 4.0) or the row's 10^6 figure (IMB 2021), PAW GFlop/s = 2 N^2 (N + 1) / t / 10^9 against N;
    and the summary's row of IMB 2021's unmeasured sizes (context.parbench.time_outs)."""
    need_matplotlib()
    with tempfile.TemporaryDirectory() as tmp:
        def row(suite, benchmark, size, median, **extra):
            name = f"{suite}/{benchmark}/np:2/" + ("n:" if suite == "paw" else "bytes:") + str(size)
            r = {"name": name, "run_type": "iteration", "suite": suite, "benchmark": benchmark,
                 "class": "compute" if suite == "paw" else "single_transfer", "bytes": size,
                 "real_time": median, "median_us": median, "ci_low_us": median,
                 "ci_high_us": median}
            r.update(extra)
            return r
        rows = [row("osu", "bw", 1000000, 4.0, metrics={"bandwidth_mb_s": 1000000 / 4.0}),
                row("imb-mpi1", "PingPong", 1048576, 2.0,
                    throughput_mib_s=1048576 / 1048576 / 2e-6,
                    throughput_median_mib_s=1048576 / 1048576 / 2e-6),
                # under the IMB 2021 methodology the console's Mbytes/sec is 10^6 B/s
                row("imb-mpi1", "Sendrecv", 1000000, 2.0,
                    throughput_mib_s=1000000 / 1048576 / 2e-6,
                    throughput_median_mib_s=1000000 / 1048576 / 2e-6,
                    metrics={"mbytes_per_s": 2 * 1000000 / 1e6 / 2e-6}),
                row("paw", "dgemm", 100, 10.0, metrics={"flops_paw": 2 * 100 ** 2 * 101}),
                # mbw_mr's rate from its headline time moved to the median: 64 messages of a
                # window in 8 us at the headline, the median twice as long -> half the rate
                row("osu", "mbw_mr", 64, 16.0, real_time=8.0,
                    metrics={"bandwidth_mb_s": 64 * 64 / 8.0, "messages_per_s": 64 / 8e-6}),
                row("imb-nbc", "Iallreduce", 1024, 5.0,
                    overlap={"t_ovrl_us": 5.0, "t_pure_us": 4.0, "t_cpu_us": 4.0,
                             "overlap_percent": 100 * (4.0 + 4.0 - 5.0) / 4.0})]
        path = os.path.join(tmp, "units.json")
        # IMB 2021's unmeasured sizes (context.parbench.time_outs): a time-out without a reason
        # (files before the reason was recorded) and an out-of-mem. row with its need.
        time_outs = [{"name": "imb-mpi1/PingPong/np:2/bytes:8"},
                     {"name": "imb-mpi1/Sendrecv/np:2/bytes:1025", "reason": "out-of-mem",
                      "need_bytes": 2050}]
        with open(path, "w") as f:
            json.dump({"context": {"parbench": {"schema_version": 1, "time_outs": time_outs}},
                       "benchmarks": rows}, f)
        text = report([path], os.path.join(tmp, "units.html"))
        ended = re.search(r"benchmarks ended unmeasured \(IMB 2021\)</th><td>(.*?)</td>", text, re.S)
        items = re.findall(r"<li>(.*?)</li>", ended.group(1)) if ended else []
        want = ["imb-mpi1/PingPong/np:2/bytes:8: time-out",
                "imb-mpi1/Sendrecv/np:2/bytes:1025: out-of-mem (2050 B per process needed)"]
        expect(ended is not None and "<strong class=\"bad\">2</strong>" in ended.group(1) and
               items == want, f"the summary's unmeasured sizes: {items}, want {want}")
        for bench, heading, value in (
                ("osu-bw", "bandwidth [MB/s (10^6 B/s, as OSU)] (median)", 1000000 / 4.0),
                ("imb-mpi1-PingPong", "bandwidth [Mbytes/sec (2^20 B/s, as IMB)] (median)",
                 1.0 / 2e-6),
                ("imb-mpi1-Sendrecv", "bandwidth [Mbytes/sec (10^6 B/s, as IMB 2021)] (median)",
                 2 * 1000000 / 1e6 / 2e-6),
                ("paw-dgemm", "GFlop/s (PAW's flop count) (median)",
                 2 * 100 ** 2 * 101 / 10e-6 / 1e9),
                ("osu-mbw_mr", "messages/s (median)", 64 / 16e-6),
                ("osu-mbw_mr", "bandwidth [MB/s (10^6 B/s, as OSU)] (median)", 64 * 64 / 16.0),
                ("imb-nbc-Iallreduce", "overlap [%]", 75.0)):
            raw = re.search(rf'id="bench-{bench}-raw".*?</table>', text, re.S)
            if not expect(raw is not None, f"no raw table for {bench}"):
                continue
            headings = [h for h in re.findall(r"<th[^>]*>(.*?)</th>", raw.group(0))]
            cells = re.findall(r"<td>(.*?)</td>", raw.group(0).split("<tbody>")[1])
            expected = html_escape(heading)
            if expect(expected in headings, f"{bench}: no column '{heading}' in {headings}"):
                got = cells[headings.index(expected)]
                expect(re.fullmatch(r"[0-9.e+-]+", got) and abs(float(got) / value - 1) < 5e-4,
                       f"{bench}: {heading} {got}, want {value:.4g}")
        figure = re.search(r'id="bench-paw-dgemm-figure".*?</figure>', text, re.S).group(0)
        expect("matrix order N" in figure and "message size" not in figure,
               "PAW's figure: the x axis is the matrix order N")
    if failures:
        fail("\n".join(failures))
    print("ok")


def html_escape(text):
    import html
    return html.escape(text, quote=True)


def case_report_outline():
    """The page's structure (not its pixels) against the golden outline; identical fake runs all
    'same' with a geometric mean of 1; the raw table's median that of the JSON file."""
    need_matplotlib()
    with tempfile.TemporaryDirectory() as tmp:
        runs, text = fake_pages(tmp)
        if not approve(GOLDEN, outline(text)):
            fail("\n".join(failures))
        with open(runs[0]) as f:
            all_rows = [r for r in json.load(f)["benchmarks"] if r.get("run_type") == "iteration"]
        same = re.findall(r'<tr class="same">', text)
        expect(len(same) == len(all_rows) > 0 and 'class="slower"' not in text,
               f"identical fake runs: {len(same)} rows 'same', want all {len(all_rows)}")
        suite_row = f"<td>fake</td><td>{len(all_rows)}</td><td>1</td><td>+0.0%</td>"
        expect(suite_row in text, f"identical runs: want the suite row {suite_row}")
        median = next(r["median_us"] for r in all_rows
                      if r["name"] == "fake/PingPong/np:2/bytes:0")
        raw = re.search(r'id="bench-fake-PingPong-raw".*?</table>', text, re.S).group(0)
        headings = re.findall(r"<th[^>]*>(.*?)</th>", raw)
        first = re.search(r"<tr[^>]*><td>.*?</tr>", raw.split("<tbody>")[1]).group(0)
        cells = re.findall(r"<td>(.*?)</td>", first)
        column = headings.index("median [µs]")
        expect(cells[headings.index("size")] == "0" and re.fullmatch(r"[0-9.e+-]+", cells[column])
               and abs(float(cells[column]) / median - 1) < 5e-4,
               f"raw table: the 0 B median {median:.4g} of the JSON is not in {first}")
    if failures:
        fail("\n".join(failures))
    print("ok")


def expect_error(result, pattern, what):
    rc, out, err = result
    errors = [line for line in err.splitlines() if line.startswith("parbench: error:")]
    if rc != 2 or len(errors) != 1 or not re.fullmatch(pattern, errors[0]) or "Traceback" in err:
        fail(f"{what}: want exit 2 and one error line matching /{pattern}/, got {rc}", out, err)


def case_report_bad_input():
    need_matplotlib()
    with tempfile.TemporaryDirectory() as tmp:
        a = fake_run(tmp, "a.json", ("PingPong",))
        out = os.path.join(tmp, "r.html")
        expect_error(run(["report", "nope.json", "-o", out]),
                     r"parbench: error: nope\.json: no such file", "missing file")
        other = os.path.join(tmp, "other.json")
        with open(other, "w") as f:
            f.write('{"benchmarks": []}')
        expect_error(run(["report", other, "-o", out]),
                     r"parbench: error: .*other\.json: not a parbench JSON file .*",
                     "not parbench JSON")
        expect_error(run(["report", a]), r"parbench: error: .*-o.* is required.*", "no -o")
        expect_error(run(["report", a, "-o", os.path.join(tmp, "r.pdf")]),
                     r"parbench: error: -o .*r\.pdf: the report must end in \.html", "not .html")
        expect_error(run(["report", a, "-o", os.path.join(tmp, "nodir", "r.html")]),
                     r"parbench: error: -o .*: directory .* does not exist", "no directory")
        before = open(a, "rb").read()
        os.symlink(a, os.path.join(tmp, "link.html"))
        expect_error(run(["report", a, "-o", os.path.join(tmp, "link.html")]),
                     r"parbench: error: -o .*link\.html: is the input .*a\.json; the report "
                     r"would overwrite it", "output is an input")
        if open(a, "rb").read() != before:
            fail("the input was changed")
        if os.geteuid() != 0:  # root writes anywhere
            locked = os.path.join(tmp, "locked")
            os.mkdir(locked, 0o500)
            expect_error(run(["report", a, "-o", os.path.join(locked, "r.html")]),
                         r"parbench: error: -o .*: .*", "unwritable directory")
        expect_error(run(["report", a, "-o", out, "--significance", "nan"]),
                     r"parbench: error: --significance: .*", "bad level")
        if os.path.exists(out):
            fail("a report was written for bad input")
    print("ok")


def mpi_runs(tmp):
    """A real -n 2 run: IMB-MPI1 PingPong (1 to 8 bytes) and OSU latency and bw."""
    if not os.path.exists(MPI_PLUGIN) or not os.path.exists(MPIEXEC):
        return None
    files = []
    # -time 600: IMB 2021's -time is also a budget per block of sizes (2 x -time here), which
    # a loaded machine could spend before the last size (a time-out row, not a table row).
    for name, args in (("imb", ["imb-mpi1", "PingPong", "Barrier", "-msglog", "0:3", "-iter",
                                "20", "-time", "600"]),
                       ("osu", ["osu", "latency", "bw", "-m", "1:8", "-i", "20", "-x", "2"])):
        path = os.path.join(tmp, name + ".json")
        p = subprocess.run([MPIEXEC, "-n", "2", PARBENCH, "run", *args, "--json", path,
                            "--quiet", "--progress", "off"], capture_output=True, text=True,
                           timeout=180)
        if p.returncode != 0:
            fail(f"mpiexec -n 2 parbench run {' '.join(args)}: exit {p.returncode}", p.stderr)
        files.append(path)
    return files


# Run in the page: per benchmark section its figure's series (groups with a drawn path), the
# legend's names and whether the raw table has rows.
PROBE = """(() => Array.from(document.querySelectorAll('section.benchmark')).map(s => ({
  id: s.id,
  benchmark: s.dataset.benchmark,
  legend: Array.from(s.querySelectorAll('ul.legend li .run')).map(li => li.textContent.trim()),
  series: Array.from(s.querySelectorAll('figure.panel svg [id*="-series-"]')).filter(
    g => Array.from(g.querySelectorAll('path')).some(p => (p.getAttribute('d') || '').length > 10)
      && g.getBoundingClientRect().width > 0).length,
  axes: s.querySelectorAll('figure.panel svg g[id^="axes_"]').length,
  drawn_axes: new Set(Array.from(s.querySelectorAll('figure.panel svg [id*="-series-"]')).filter(
    g => Array.from(g.querySelectorAll('path')).some(p => (p.getAttribute('d') || '').length > 10))
    .map(g => g.id.split('-series-')[0])).size,
  raw_rows: s.querySelectorAll('table.raw tbody tr').length,
  figure_height: (s.querySelector('figure.panel svg') || {getBoundingClientRect: () => ({height: 0})})
    .getBoundingClientRect().height,
})))()"""


def case_report_browser():
    need_matplotlib()
    sys.path.insert(0, os.path.join(HERE, os.pardir))
    from pbtest.chromium import Browser, BrowserError, find_chromium
    if not find_chromium():
        print("SKIP: chromium not installed (Debian: apt-get install chromium; scripts/setup.sh "
              "installs it)")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        fake_inputs, _ = fake_pages(tmp)
        pages = [("fake", os.path.join(tmp, "fake.html"), ["a", "b"],
                  ["PingPong", "Allreduce", "Barrier"])]
        real = mpi_runs(tmp)
        if real:
            report(real, os.path.join(tmp, "mpi.html"))
            # The summary's placement comes from the run's plugin_context.placement: one node,
            # both ranks on it.
            with open(os.path.join(tmp, "mpi.html")) as f:
                html = f.read()
            expect("2 on each node" in html and "rank 0: node 0" in html and
                   "rank 1: node 0" in html,
                   "mpi: the summary shows the recorded placement (2 on each node, ranks 0 and 1 "
                   "on node 0)")
            pages.append(("mpi", os.path.join(tmp, "mpi.html"), ["imb", "osu"],
                          ["PingPong", "Barrier", "latency", "bw"]))
        else:
            print("note: no MPI plugin or mpiexec: the real -n 2 page is left out")
        os.makedirs(OUT_DIR, exist_ok=True)
        start = time.monotonic()
        try:
            with Browser() as browser:
                for name, path, run_labels, benchmarks in pages:
                    page = browser.open("file://" + path)
                    sections = page.evaluate(PROBE)
                    filtered = page.evaluate(
                        "(() => { const f = document.getElementById('filter'); f.value = '"
                        + benchmarks[0] + "'; f.dispatchEvent(new Event('input')); return "
                        "Array.from(document.querySelectorAll('section.benchmark:not(.hidden)'))"
                        ".map(s => s.dataset.benchmark); })()")
                    page.evaluate("(() => { const f = document.getElementById('filter'); "
                                  "f.value = ''; f.dispatchEvent(new Event('input')); })()")
                    shot = page.screenshot(os.path.join(OUT_DIR, f"report-{name}.png"), full=True)
                    page.collect()
                    expect(page.errors == [], f"{name}: console errors {page.errors}")
                    external = [u for u in page.requests if not u.startswith(("file:", "data:",
                                                                              "about:"))]
                    expect(external == [], f"{name}: the page loads {external}")
                    found = [s["benchmark"] for s in sections]
                    expect(sorted(found) == sorted(benchmarks),
                           f"{name}: benchmark sections {found}, want {benchmarks}")
                    for s in sections:
                        expect(s["series"] >= 1 and s["figure_height"] > 100,
                               f"{name}: {s['id']}: {s['series']} drawn series, figure "
                               f"{s['figure_height']} px high")
                        expect(s["axes"] >= 1 and s["drawn_axes"] == s["axes"],
                               f"{name}: {s['id']}: {s['drawn_axes']} of {s['axes']} panels "
                               "have a series")
                        expect(sorted(s["legend"]) == sorted(run_labels) or name == "mpi",
                               f"{name}: {s['id']}: legend {s['legend']}, want {run_labels}")
                        expect(s["raw_rows"] > 0, f"{name}: {s['id']}: empty raw table")
                    if name == "mpi":  # each file its own suites: each legend names its run
                        legends = {tuple(s["legend"]) for s in sections}
                        expect(legends == {("imb",), ("osu",)}, f"mpi: legends {legends}")
                    expect(all(b == benchmarks[0] for b in filtered) and filtered,
                           f"{name}: the filter '{benchmarks[0]}' left {filtered}")
                    expect(os.path.getsize(shot) > 20000, f"{name}: screenshot {shot} is empty")
                    print(f"{name}: {len(sections)} benchmark panels, screenshot {shot}")
        except BrowserError as e:
            fail(f"chromium: {e}")
        print(f"browser: {time.monotonic() - start:.1f} s for {len(pages)} pages")
    if failures:
        fail("\n".join(failures))
    print("ok")


globals()["case_" + CASE]()
