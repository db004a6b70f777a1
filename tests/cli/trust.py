#!/usr/bin/env python3
"""Trust in every row and every check (issue 25), through the driver: a run with defects fails
with exit status 5 and one line naming the rows; --check on benchmarks that cannot verify is
refused before the run, or named once and marked "unverified" in every output; a row with
fewer samples than a 95 % CI needs says "no CI", is never stable and is counted in the warning;
the CSV carries the verdict; a warning is printed once; an option the suite lacks gets parbench's
own line naming `parbench run SUITE --help`. The fake plugin's rows are canned, so the expected
figures are its definitions (Corrupt: `bytes` defects per row; Single: one sample per row);
mpi_* cases run the MPI plugin (IMB's corrupting kernel, IMB-RMA's and IMB-IO's aggregate
epochs, OSU's advice) and skip (77) when it is not built.

usage: trust.py CASE PARBENCH FAKE_DIR MPI_PLUGIN_FILE MPIEXEC
"""
import csv
import json
import math
import os
import re
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from pbtest.expect import fail  # noqa: E402
from pbtest.run import parbench  # noqa: E402

CASE, PARBENCH, FAKE, MPI_PLUGIN, MPIEXEC = sys.argv[1:6]
run = parbench(os.path.abspath(PARBENCH), launcher=MPIEXEC)
EXIT_DEFECTS = 5
SIZES = [0, 1, 2, 4, 8]  # the fake suite's default -msglog 0:3


def fake(args, **kw):
    return run(["run", "fake"] + args + ["--plugin-path", FAKE, "--progress", "off"], **kw)


def need_mpi():
    if not os.path.exists(MPI_PLUGIN) or not os.path.exists(MPIEXEC):
        print(f"SKIP: the MPI plugin ({MPI_PLUGIN}) or mpiexec is not built")
        sys.exit(77)


def min_ci_samples():
    """The fewest samples whose [min, max] covers the median with >= 95 % (B(n, 1/2))."""
    n = 1
    while 1.0 - 2.0 * 0.5 ** n < 0.95:
        n += 1
    return n


def rows_of(path):
    return [b for b in json.load(open(path))["benchmarks"] if b.get("run_type") == "iteration"]


def csv_rows(path):
    return list(csv.DictReader(open(path, newline="")))


def label(bytes_, processes=2):
    return f"{bytes_} B ({processes} processes)"


def case_check_defects():
    with tempfile.TemporaryDirectory() as tmp:
        out_json, out_csv = os.path.join(tmp, "r.json"), os.path.join(tmp, "r.csv")
        rc, out, err = fake(["Corrupt", "--check", "--json", out_json, "--csv", out_csv])
        errors = [l for l in err.splitlines() if l.startswith("parbench: error:")]
        bad = [b for b in SIZES if b > 0]  # Corrupt: `bytes` defects in each row
        want = (f"parbench: error: --check found defects in {len(bad)} of {len(SIZES)} rows: "
                + ", ".join(f"Corrupt {label(b)}" for b in bad))
        if rc != EXIT_DEFECTS or errors != [want]:
            fail(f"a run with defects: exit {rc} (want {EXIT_DEFECTS}), errors {errors}, "
                 f"want [{want!r}]", err)
        rows = rows_of(out_json)
        if [r["defects"] for r in rows] != SIZES:
            fail(f"the JSON's defects {[r['defects'] for r in rows]} != {SIZES}")
        doc = json.load(open(out_json))
        if want[len("parbench: error: "):] not in doc["context"]["parbench"].get("warnings", []):
            fail("the JSON does not record the defects line", doc["context"]["parbench"])
        if not doc["context"]["parbench"].get("completed"):
            fail("a run with defects completed: its JSON must say so")
        if [r["defects"] for r in csv_rows(out_csv)] != [str(b) for b in SIZES]:
            fail("the CSV's defects", open(out_csv).read())
    # The same rows without --check, and a check that finds nothing, pass.
    for args in (["Corrupt"], ["PingPong", "--check"]):
        rc, out, err = fake(args)
        if rc != 0 or "parbench: error:" in err:
            fail(f"{args}: exit {rc}, want 0", err)


def case_check_unverifiable():
    rc, out, err = fake(["Unverified", "--check"])
    errors = [l for l in err.splitlines() if l.startswith("parbench: error:")]
    if rc != 2 or len(errors) != 1 or not re.fullmatch(
            r"parbench: error: --check: Unverified has no data verification \(no verify_check in "
            r"its definition\); run without --check", errors[0]):
        fail(f"--check on a benchmark without verification: exit {rc}, want 2 and one line", err)
    if "Benchmarking" in out:
        fail("refused before the run: nothing may be measured", out)
    with tempfile.TemporaryDirectory() as tmp:
        out_json, out_csv = os.path.join(tmp, "r.json"), os.path.join(tmp, "r.csv")
        rc, out, err = fake(["PingPong", "Unverified", "--check", "--json", out_json,
                             "--csv", out_csv])
        if rc != 0:
            fail(f"a mixed --check selection: exit {rc}, want 0", err)
        warning = "--check: Unverified has no data verification; its rows say 'unverified'"
        said = (out + err).count(warning)
        if said != 1:
            fail(f"the mixed selection's warning is said {said} times, want once", out + err)
        console = [l for l in out.splitlines() if re.match(r"^ +\d", l)]
        unverified = console[len(SIZES):]
        if len(console) != 2 * len(SIZES) or not all(
                l.split("  ! ")[0].endswith(" unverified") for l in unverified) or any(
                "unverified" in l for l in console[:len(SIZES)]):
            fail("the console marks Unverified's rows 'unverified', PingPong's not", out)
        rows = rows_of(out_json)
        got = [(r["benchmark"], r["defects"], r.get("not_verified", False)) for r in rows]
        want = ([("PingPong", 0, False)] * len(SIZES) + [("Unverified", None, True)] * len(SIZES))
        if got != want:
            fail(f"the JSON's (benchmark, defects, not_verified) {got} != {want}")
        cells = [r["defects"] for r in csv_rows(out_csv)]
        if cells != ["0"] * len(SIZES) + ["unverified"] * len(SIZES):
            fail(f"the CSV's defects cells {cells}")


def case_no_ci():
    need = min_ci_samples()
    with tempfile.TemporaryDirectory() as tmp:
        out_json, out_csv = os.path.join(tmp, "r.json"), os.path.join(tmp, "r.csv")
        rc, out, err = fake(["Single", "PingPong", "--json", out_json, "--csv", out_csv])
        if rc != 0:
            fail(f"exit {rc}", err)
        rows = rows_of(out_json)
        single = [r for r in rows if r["benchmark"] == "Single"]
        if len(single) != len(SIZES):
            fail(f"{len(single)} Single rows, want {len(SIZES)}")
        for r in rows:
            one = r["benchmark"] == "Single"
            s = r["stability"]
            if s["samples"] != r["samples"] or r["samples"] != (1 if one else 10):
                fail(f"{r['name']}: samples {r['samples']} / {s['samples']}")
            if one and (s["stable"] or "no_ci" not in s["flags"]
                        or s["ci_half_width_percent"] is not None):
                fail(f"{r['name']}: one sample is never stable nor a 0 % CI: {s}")
            if not one and "no_ci" in s["flags"]:
                fail(f"{r['name']}: 10 samples have a CI: {s}")
        table = [l for l in out.splitlines() if re.match(r"^ +\d", l)]
        for line in table[:len(SIZES)]:  # Single's table first
            cells = line.split("  ! ")
            if not re.search(r"\d +no-CI$", cells[0]) or len(cells) != 2 \
                    or "no CI (1 sample)" not in cells[1]:
                fail(f"a one-sample row shows 'no-CI' and its '!': {line!r}", out)
        for line in table[len(SIZES):]:
            if "no-CI" in line:
                fail(f"a row of 10 samples shows a CI: {line!r}")
        warning = [l for l in (out + err).splitlines() if "rows are unstable" in l]
        if len(warning) != 1 or f"{len(SIZES)} of {2 * len(SIZES)} rows are unstable" not in \
                warning[0] or f"{len(SIZES)} with fewer than {need} samples (no CI)" not in \
                warning[0]:
            fail(f"one warning counting the no-CI rows: {warning}")
        if "time longer" in warning[0]:
            fail("the fake suite declares no timing option: the advice may name none", warning[0])
        for r in csv_rows(out_csv):
            one = r["benchmark"] == "Single"
            if r["samples"] != ("1" if one else "10") or r["stable"] != ("false" if one else "true") \
                    or (one and "no_ci" not in r["stability_flags"].split(";")):
                fail(f"CSV row {r['benchmark']} {r['bytes']}: samples {r['samples']}, stable "
                     f"{r['stable']}, flags {r['stability_flags']}")
    # OSU's layout: a footnote after each unstable row; the row keeps OSU's %-10d%18.2f columns.
    rc, out, err = fake(["Single", "-layout", "osu"])
    lines = out.splitlines()
    rows = [i for i, l in enumerate(lines) if re.fullmatch(r"\d+ +\d+\.\d\d", l)]
    if rc != 0 or len(rows) != len(SIZES):
        fail(f"OSU layout: exit {rc}, {len(rows)} rows in OSU's columns", out + err)
    for i in rows:
        if len(lines[i]) != 28 or not lines[i + 1].startswith("# ! unstable: ") or \
                "no CI (1 sample)" not in lines[i + 1]:
            fail(f"OSU layout: row {lines[i]!r} and its footnote {lines[i + 1]!r}")


def case_warning_once():
    rc, out, err = fake(["PingPong"])
    said = (out + err).count("fake plugin finished")
    if rc != 0 or said != 1:
        fail(f"a warning is said {said} times (stdout and stderr), want once", out + err)
    rc, out, err = fake(["PingPong", "--quiet"])  # no console: stderr
    if err.count("parbench: warning: fake plugin finished") != 1:
        fail("--quiet: the warning on stderr, once", err)


def case_unknown_option_hint():
    for option in ("-time", "--bogus"):
        rc, out, err = fake(["PingPong", option, "3"])
        errors = [l for l in err.splitlines() if l.startswith("parbench: error:")]
        if rc != 2 or len(errors) != 1 or "not expected" in err or not re.fullmatch(
                rf"parbench: error: .*{option}.* is not an option of suite 'fake' \(its options: "
                r"parbench run fake --help.*\)", errors[0]):
            fail(f"{option}: exit {rc}, want 2 and parbench's line naming the suite's help", err)


def case_no_plugins_searched():
    # An installed-looking parbench (outside the build tree) with nothing on its search path: the
    # unknown suite names where it looked, not "available: none" (item 5).
    import shutil
    from pbtest.run import run_command
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "parbench")
        shutil.copy(PARBENCH, copy)
        empty = os.path.join(tmp, "empty")
        os.mkdir(empty)
        rc, out, err = run_command([copy, "run", "imb-mpi1", "--plugin-path", empty], None, 60,
                                   tmp)
        errors = [l for l in err.splitlines() if l.startswith("parbench: error:")]
        if rc != 1 or len(errors) != 1 or not re.fullmatch(
                r"parbench: error: unknown suite 'imb-mpi1': no plugins found \(searched: .*"
                + re.escape(empty) + r"; set PARBENCH_PLUGIN_PATH or use --plugin-path DIR\)",
                errors[0]) or "available: none" in err:
            fail(f"no plugins: exit {rc}, want 1 and the directories searched", err)


def case_mpi_check_defects():
    need_mpi()
    with tempfile.TemporaryDirectory() as tmp:
        out_json = os.path.join(tmp, "r.json")
        rc, out, err = run(["run", "imb-mpi1", "Test_Corrupt", "-msglog", "0:2", "-iter", "10",
                            "--check", "--progress", "off", "--json", out_json], np=2,
                           env={"PARBENCH_TEST_KERNELS": "1"})
        rows = rows_of(out_json) if os.path.exists(out_json) else []
        bad = [f"Test_Corrupt {label(r['bytes'])}" for r in rows if (r["defects"] or 0) > 0]
        if not rows or not bad:
            fail(f"Test_Corrupt: rows {[(r['bytes'], r['defects']) for r in rows]}", err)
        errors = [l for l in err.splitlines() if l.startswith("parbench: error:")]
        want = (f"parbench: error: --check found defects in {len(bad)} of {len(rows)} rows: "
                + ", ".join(bad))
        if rc != EXIT_DEFECTS or errors != [want]:
            fail(f"a corrupted run: exit {rc} (want {EXIT_DEFECTS}), errors {errors}, want "
                 f"[{want!r}]", err)


def aggregate_rows(path):
    return [r for r in rows_of(path) if r["mode"] == "aggregate"]


def case_mpi_aggregate_samples():
    need_mpi()
    need = min_ci_samples()
    with tempfile.TemporaryDirectory() as tmp:
        # -aggregate_ci always: six epochs whatever an epoch costs on a loaded machine (IMB
        # 2021's budget for the repeats is the PMPI oracle's known answer, oracle-imb2021_rma).
        cases = [("imb-rma", 2, ["Unidir_put", "-msglog", "0:2", "-iter", "20",
                                 "-aggregate_ci", "always"]),
                 ("imb-io", 1, ["S_Write_indv", "-msglog", "0:2", "-iter", "20",
                                "-methodology", "4.0", "--io-dir", tmp])]
        for suite, np, args in cases:
            out_json = os.path.join(tmp, f"{suite}.json")
            rc, out, err = run(["run", suite] + args + ["--progress", "off", "--json", out_json],
                               np=np)
            rows = aggregate_rows(out_json) if rc == 0 else []
            if len(rows) != 4:
                fail(f"{suite}: exit {rc}, {len(rows)} aggregate rows, want 4", err)
            for r in rows:
                what = f"{suite} {r['name']}"
                if r["samples"] != need or len(r["samples_us"]) != need:
                    fail(f"{what}: {r['samples']} samples, want {need} epochs")
                if "no_ci" in r["stability"]["flags"] or r["ci_coverage"] < 0.95:
                    fail(f"{what}: no CI from {need} epochs: {r['stability']}")
                if r["metrics"].get("epochs") != need:
                    fail(f"{what}: metrics.epochs {r['metrics'].get('epochs')}")
            # parbench compare tests the aggregate rows: a p-value, never "untested".
            rc, out, err = run(["compare", out_json, out_json])
            verdicts = [l.split()[-1] for l in out.splitlines() if "/mode:aggregate/" in l]
            if rc != 0 or len(verdicts) != 4 or any(v.startswith("untested") for v in verdicts):
                fail(f"{suite}: compare's verdicts on the aggregate rows {verdicts}, exit {rc}",
                     out + err)


def case_mpi_osu_advice():
    need_mpi()
    # -i 1: one batch, one sample per row, so every row is unstable (no CI) and the warning's
    # advice must name options osu accepts.
    rc, out, err = run(["run", "osu", "latency", "-m", "1:2", "-i", "1", "-x", "1",
                        "--progress", "off"], np=2)
    warning = [l for l in (out + err).splitlines() if "rows are unstable" in l]
    if rc != 0 or len(warning) != 1:
        fail(f"osu -i 1: exit {rc}, want one unstable-rows warning", out + err)
    advice = re.search(r"time longer \(([^)]*)\)", warning[0])
    if not advice:
        fail("the advice names the options that time longer", warning[0])
    options = [o.strip() for o in advice.group(1).split(",")]
    if not options or "-iter" in options or "-time" in options:
        fail(f"osu's advice {options}: osu has -i and -x")
    footnotes = [l for l in out.splitlines() if l.startswith("# ! unstable: ")]
    if len(footnotes) != 2:
        fail(f"{len(footnotes)} footnotes under osu's 2 rows", out)
    # Every option advised is accepted by the suite.
    extra = []
    for o in options:
        extra += [o, "10"]
    rc, out, err = run(["run", "osu", "latency", "-m", "1:1", *extra, "--progress", "off"], np=2)
    if rc != 0:
        fail(f"osu rejects its own advice {extra}: exit {rc}", err)
    rc, out, err = run(["run", "osu", "latency", "-time", "1"])
    if rc != 2 or "parbench run osu --help" not in err or "not expected" in err:
        fail(f"osu -time: exit {rc}, want 2 and the suite's help named", err)


globals()["case_" + CASE]()
print("ok", CASE)
