#!/usr/bin/env python3
"""Driver behaviour on bad input: one line `parbench: error: ...` on stderr and the documented
exit status (2 bad input, 1 failure, 3 time limit), never a crash or a hang. Cases named mpi_*
need the MPI plugin and skip (exit 77) when it is not built.

usage: cli.py CASE PARBENCH FAKE_DIR MPI_PLUGIN_FILE MPIEXEC
"""
import json
import os
import re
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from pbtest.expect import fail  # noqa: E402
from pbtest.run import parbench, run_command  # noqa: E402

CASE, PARBENCH, FAKE, MPI_PLUGIN, MPIEXEC = sys.argv[1:6]
PARBENCH = os.path.abspath(PARBENCH)
run = parbench(PARBENCH, launcher=MPIEXEC)


def expect_error(rc, err, status, pattern, what):
    """Exactly one error line, matching `pattern`, and the exit status."""
    errors = [line for line in err.splitlines() if line.startswith("parbench: error:")]
    if rc != status:
        fail(f"{what}: exit status {rc}, want {status}", err)
    if len(errors) != 1 or not re.fullmatch(pattern, errors[0]):
        fail(f"{what}: want one error line matching /{pattern}/", err)


def fake(args, **kw):
    return run(["run", "fake"] + args + ["--plugin-path", FAKE], **kw)


def need_mpi():
    if not os.path.exists(MPI_PLUGIN) or not os.path.exists(MPIEXEC):
        print(f"SKIP: the MPI plugin ({MPI_PLUGIN}) or mpiexec is not built")
        sys.exit(77)


def mpi(n, args, **kw):
    return run(["run", "imb-mpi1"] + args, np=n, **kw)


def case_unknown_suite():
    rc, out, err = run(["run", "no-such-suite", "--plugin-path", FAKE])
    expect_error(rc, err, 2, r"parbench: error: unknown suite 'no-such-suite' \(available: .*fake.*\)",
                 "unknown suite")


def case_unknown_benchmark():
    rc, out, err = fake(["PingPong", "NoSuchBenchmark"])
    expect_error(rc, err, 2,
                 r"parbench: error: unknown benchmark 'NoSuchBenchmark' in suite 'fake' \(see parbench list\)",
                 "unknown benchmark")
    if out:
        fail("nothing may run before the input is checked", out)


def case_unknown_option():
    for option in (["-bogus", "3"], ["--bogus"]):
        rc, out, err = fake(option)
        expect_error(rc, err, 2, rf"parbench: error: .*{option[0]}.*", f"unknown option {option}")


def case_malformed_value():
    rc, out, err = fake(["--timeout", "soon"])
    expect_error(rc, err, 2, r"parbench: error: .*--timeout.*soon.*", "malformed --timeout")
    rc, out, err = fake(["--mpi", "maybe"])
    expect_error(rc, err, 2, r"parbench: error: --mpi maybe: no MPI plugin (for 'maybe' )?was "
                             r"found .*", "--mpi value")
    rc, out, err = fake(["-msglog"])
    expect_error(rc, err, 2, r"parbench: error: .*-msglog needs a value", "missing value")
    rc, out, err = fake(["--json", "/nonexistent-dir/out.json"])
    expect_error(rc, err, 2, r"parbench: error: --json /nonexistent-dir/out.json: directory "
                             r"/nonexistent-dir does not exist", "unwritable --json")


def case_usage():
    rc, out, err = run([])
    expect_error(rc, err, 2, r"parbench: error: A subcommand is required", "no subcommand")
    rc, out, err = run(["--version"])
    if rc != 0 or not re.fullmatch(r"parbench \d+\.\d+\.\d+\n", out):
        fail("--version", out, err)
    rc, out, err = fake(["-help"])
    if rc != 0 or "--msglog [MIN:]MAX" not in out or "--json FILE" not in out:
        fail("run SUITE -help lists the suite's and the common options", out, err)


def case_progress():
    # stderr is a pipe here: auto draws nothing, on draws a line per measurement and clears it.
    rc, out, err = fake(["--progress", "on"])
    last = err.rfind("[parbench]")
    if rc != 0 or "[parbench] PingPong (" not in err or "\x1b[K" not in err[last:]:
        fail("--progress on draws the progress line and clears it at the end", repr(err[-300:]))
    for mode in ("auto", "off"):
        rc, out, err = fake(["--progress", mode])
        if rc != 0 or "[parbench]" in err:
            fail(f"--progress {mode} with stderr on a pipe draws nothing", repr(err[-300:]))
    rc, out, err = fake(["--progress", "sometimes"])
    expect_error(rc, err, 2, r"parbench: error: --progress: sometimes not in \{auto,on,off\}",
                 "--progress value")


def case_progress_launcher():
    # Under mpiexec a rank's stderr is a pipe to the launcher; auto asks the launcher instead.
    # Here a small Python process whose stderr is a pseudo-terminal plays the launcher,
    # PMI_RANK says "launched", and parbench's own stderr goes to a file.
    import pty
    controller, terminal = pty.openpty()
    launcher = ("import subprocess, sys\n"
                "with open(sys.argv[1], 'w') as log:\n"
                "    sys.exit(subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL,\n"
                "                            stderr=log).returncode)\n")
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "stderr")
        for mode, drawn in (("auto", True), ("off", False)):
            env = dict(os.environ, PMI_RANK="0", PMI_SIZE="1")
            env.pop("PARBENCH_PLUGIN_PATH", None)
            p = subprocess.run([sys.executable, "-c", launcher, log, PARBENCH, "run", "fake",
                                "--plugin-path", FAKE, "--mpi", "off", "--progress", mode],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=terminal, env=env, timeout=60)
            text = open(log, encoding="utf-8", errors="replace").read()
            if p.returncode != 0 or ("[parbench] PingPong (" in text) != drawn:
                fail(f"--progress {mode} under a launcher on a terminal: drawn {not drawn}",
                     repr(text[-300:]))
    os.close(controller)
    os.close(terminal)


def case_mpi_msglog():
    need_mpi()
    rc, out, err = mpi(2, ["PingPong", "-msglog", "5:2"])
    expect_error(rc, err, 2, r"parbench: error: .*msglog.*", "-msglog 5:2")


def case_mpi_msglen():
    need_mpi()
    with tempfile.TemporaryDirectory() as tmp:
        missing = os.path.join(tmp, "missing-lengths")
        rc, out, err = mpi(2, ["PingPong", "-msglen", missing])
        expect_error(rc, err, 2, rf"parbench: error: .*{re.escape(missing)}.*", "unreadable -msglen")
        bad = os.path.join(tmp, "bad-lengths")
        with open(bad, "w") as f:
            f.write("0\n100\nlots\n")
        rc, out, err = mpi(2, ["PingPong", "-msglen", bad])
        expect_error(rc, err, 2, r"parbench: error: .*(lots|bad-lengths).*", "malformed -msglen")


def case_mpi_accelerator():
    """-accelerator cuda asks the MPI library whether it is CUDA-aware and refuses, in one line,
    when it is not (Debian's MPICH is built without CUDA) -- never a crash in MPI_Send with a
    device pointer. Bad values and -check with device buffers are bad input."""
    need_mpi()
    rc, out, err = mpi(2, ["PingPong", "-accelerator", "cuda", "-msglog", "0:2"])
    expect_error(rc, err, 2,
                 r"parbench: error: -accelerator cuda: the MPI library is not CUDA-aware \("
                 r"(MPIX_GPU_query_support\(MPIX_GPU_SUPPORT_CUDA\) says no|this MPI library offers "
                 r"no query for CUDA support); .*\): device buffers need an MPI built with CUDA .*",
                 "-accelerator cuda on a library without CUDA")
    if "PingPong" in out:
        fail("-accelerator cuda: nothing may run once it is refused", out)
    rc, out, err = mpi(2, ["PingPong", "-accelerator", "opencl"])
    expect_error(rc, err, 2, r"parbench: error: -accelerator 'opencl': expected cuda .*",
                 "-accelerator opencl")
    rc, out, err = mpi(2, ["PingPong", "-accelerator", "cuda", "-check"])
    expect_error(rc, err, 2, r"parbench: error: -check with -accelerator cuda: .*",
                 "-check with device buffers")


def case_mpi_npmin():
    need_mpi()
    rc, out, err = mpi(2, ["PingPong", "-npmin", "3", "-msglog", "0:1", "-iter", "10"])
    expect_error(rc, err, 2, r"parbench: error: .*npmin.*", "-npmin above the process count")


def case_mpi_map():
    need_mpi()
    rc, out, err = mpi(2, ["PingPong", "-map", "3x2", "-msglog", "0:1"])
    expect_error(rc, err, 2, r"parbench: error: .*map.*", "-map that does not fit")


def expect_stopped(rc, err, out_json, prefix, pattern, what):
    """A run stopped during Test_Deadlock (-msglog 0:2): non-zero status, one message naming the
    benchmark, and the JSON completed with PingPong's 4 rows and completed = false."""
    if rc == 0:
        fail(f"{what}: a stopped run must end with a non-zero status", err)
    lines = [l for l in err.splitlines() if l.startswith(prefix)]
    if len(lines) != 1 or not re.fullmatch(pattern, lines[0]):
        fail(f"{what}: one message naming the benchmark", err)
    doc = json.load(open(out_json))
    names = [b["name"] for b in doc["benchmarks"] if b["run_type"] == "iteration"]
    if len(names) != 4 or not all("/PingPong/" in n for n in names):
        fail(f"{what}: out.json holds the 4 PingPong rows: {names}")
    if doc["context"]["parbench"].get("completed") is not False:
        fail(f"{what}: out.json marks the run incomplete")


def case_mpi_timeout():
    need_mpi()
    with tempfile.TemporaryDirectory() as tmp:
        out_json = os.path.join(tmp, "out.json")
        # -iter 20: each PingPong size (its own limit) takes milliseconds, far within the 3 s
        # limit on a loaded VM too.
        rc, out, err = mpi(2, ["PingPong", "Test_Deadlock", "-msglog", "0:2", "-iter", "20",
                               "--timeout", "3", "--json", out_json],
                           env={"PARBENCH_TEST_KERNELS": "1"}, timeout=90)
        expect_stopped(rc, err, out_json, "parbench: error: time limit:",
                       r"parbench: error: time limit: benchmark Test_Deadlock \(\d+ bytes, \d+ "
                       r"processes\) did not finish within 3 s; stopped", "time limit")


def case_mpi_multi_name():
    # IMB's Multi- names select multiple mode; the driver takes them for suites that say so.
    need_mpi()
    rc, out, err = mpi(2, ["Multi-PingPong", "-msglog", "0:1", "-iter", "10"], timeout=90)
    if rc != 0 or "# Multi-PingPong" not in out or "Benchmarking PingPong" not in out:
        fail("Multi-PingPong: want exit 0, the name listed and its table", rc, out, err)
    rc, out, err = run(["run", "paw", "Multi-dgemm"])
    expect_error(rc, err, 2, r"parbench: error: unknown benchmark 'Multi-dgemm' in suite 'paw' "
                 r"\(see parbench list\)", "Multi- only where the suite takes it")


def iteration_rows(path):
    doc = json.load(open(path))
    return doc, [b for b in doc["benchmarks"] if b.get("run_type") == "iteration"]


def case_mpi_nothing_measured():
    # Without mpiexec every benchmark asked for needs 2 processes: an error that says why, a
    # non-zero status and a JSON file that does not claim a completed run.
    need_mpi()
    with tempfile.TemporaryDirectory() as tmp:
        out_json = os.path.join(tmp, "out.json")
        rc, out, err = run(["run", "imb-mpi1", "PingPong", "PingPing", "-msglog", "0:1",
                            "--json", out_json])
        expect_error(rc, err, 1,
                     r"parbench: error: nothing was measured in suite 'imb-mpi1': every benchmark "
                     r"was skipped: PingPong \(needs 2 processes and the run has 1\), PingPing "
                     r"\(needs 2 processes and the run has 1\)", "a run without rows")
        doc, rows = iteration_rows(out_json)
        if rows or doc["context"]["parbench"].get("completed") is not False:
            fail("the JSON of a run without rows must say completed: false", doc)


def case_mpi_skipped_summary():
    # Some benchmarks skipped, others measured: exit 0, and the last warning names the skipped,
    # once: in the console (a warning goes to one stream), on stderr under --quiet.
    need_mpi()
    summary = "not measured: PingPong (needs 2 processes and the run has 1)"
    rc, out, err = run(["run", "imb-mpi1", "PingPong", "Barrier", "-iter", "10"])
    lines = [l for l in out.splitlines()
             if l.startswith("# WARNING: ") and "rows are unstable" not in l]
    if rc != 0 or not lines:
        fail(f"exit status {rc}, want 0 with warnings", out + err)
    if lines[-1] != "# WARNING: " + summary or (out + err).count(summary) != 1:
        fail("the last console warning names what was skipped and why, once", out + err)
    if "Benchmarking Barrier" not in out:
        fail("Barrier's table", out)
    rc, out, err = run(["run", "imb-mpi1", "PingPong", "Barrier", "-iter", "10", "--quiet"])
    lines = [l for l in err.splitlines()
             if l.startswith("parbench: ") and "rows are unstable" not in l]
    if rc != 0 or not lines or lines[-1] != "parbench: warning: " + summary:
        fail("--quiet: the last line on stderr names what was skipped", err)


def case_mpi_strict():
    # --strict: a requested benchmark that was skipped fails the run with exit status 6 and one
    # line naming it (after the rows of the others were written); without it the run passes.
    need_mpi()
    args = ["run", "imb-mpi1", "PingPong", "Barrier", "-iter", "5", "--quiet"]
    rc, out, err = run(args)
    if rc != 0:
        fail(f"without --strict: exit status {rc}, want 0", err)
    with tempfile.TemporaryDirectory() as tmp:
        j = os.path.join(tmp, "strict.json")
        rc, out, err = run(args + ["--strict", "--json", j])
        expect_error(rc, err, 6, r"parbench: error: --strict: not every requested benchmark was "
                     r"measured: PingPong \(needs 2 processes and the run has 1\)", "--strict")
        doc = json.load(open(j))
        names = [b["name"] for b in doc["benchmarks"] if b.get("run_type") == "iteration"]
        if not names or not all("Barrier" in n for n in names):
            fail(f"--strict keeps the measured rows in the JSON: {names}")
        if doc["context"]["parbench"].get("strict") is not True:
            fail("the JSON context records strict", json.dumps(doc["context"]["parbench"])[:2000])
        # Nothing skipped: --strict passes.
        rc, out, err = run(["run", "imb-mpi1", "Barrier", "-iter", "5", "--quiet", "--strict"])
        if rc != 0:
            fail(f"--strict with nothing skipped: exit status {rc}, want 0", err)


def case_list_no_plugins():
    # An installed-looking parbench (outside the build tree) with nothing on its search path.
    import shutil
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "parbench")
        shutil.copy(PARBENCH, copy)
        empty = os.path.join(tmp, "empty")
        os.mkdir(empty)
        rc, out, err = run_command([copy, "list", "--plugin-path", empty], None, 60, tmp)
        expect_error(rc, err, 1, r"parbench: error: no plugins found \(searched: .*"
                     + re.escape(empty) + r"; set PARBENCH_PLUGIN_PATH or use --plugin-path "
                     r"DIR\)", "list without plugins")


def case_unknown_layout():
    rc, out, err = fake(["PingPong", "-layout", "no-such-layout", "-msglog", "0:1"])
    expect_error(rc, err, 1, r"parbench: error: suite 'fake' declares console layout "
                 r"'no-such-layout', which this parbench does not know \(known: caf, imb, "
                 r"imb-nbc, imb-p2p, osu, overlap, paw\); stopped", "unknown layout")
    # Also with --quiet (no console): the layout is still judged.
    rc, out, err = fake(["PingPong", "-layout", "no-such-layout", "--quiet"])
    expect_error(rc, err, 1, r"parbench: error: suite 'fake' declares console layout .*",
                 "unknown layout with --quiet")


def case_refused_record():
    # A record its layout refuses ends the run (docs/plugin-authors.md, "Events"): one error line
    # naming the benchmark and the reason, status 1, and the files complete with the rows before
    # it. The fake plugin's caf layout gives PingPong's rows their caf figures and Sendrecv's none.
    # (Such a row used to be a warning, dropped from every output, in a run that exited 0.)
    with tempfile.TemporaryDirectory() as tmp:
        out_json, out_csv = os.path.join(tmp, "out.json"), os.path.join(tmp, "out.csv")
        rc, out, err = fake(["PingPong", "Sendrecv", "-layout", "caf", "-msglog", "0:1",
                             "--json", out_json, "--csv", out_csv])
        expect_error(rc, err, 1, r"parbench: error: the caf layout refuses a result of Sendrecv "
                     r"\(0 bytes\): caf console: the row of Sendrecv \(0 bytes, \) carries no caf "
                     r"figures \(result_record::caf\), which every row of the caf layout has; "
                     r"stopped", "a row the caf layout refuses")
        if "warning" in err:
            fail("a refused row is an error, not a warning", err)
        # PingPong's rows (0, 1 and 2 bytes) everywhere, Sendrecv's nowhere.
        doc = json.load(open(out_json))
        names = [b["name"] for b in doc["benchmarks"] if b["run_type"] == "iteration"]
        if len(names) != 3 or not all("/PingPong/" in n for n in names):
            fail(f"out.json holds PingPong's 3 rows: {names}")
        if doc["context"]["parbench"].get("completed") is not False:
            fail("out.json marks the run incomplete")
        rows = open(out_csv).read().splitlines()[1:]
        if len(rows) != 3 or not all("PingPong" in r and "Sendrecv" not in r for r in rows):
            fail("out.csv holds PingPong's 3 rows", rows)
        table = [l for l in out.splitlines() if re.match(r"\s+\d+\s+1\s+1\s", l)]
        if [l.split()[0] for l in table] != ["0", "1", "2"]:
            fail("the console shows PingPong's 3 rows (count 0, 1, 2) and no other", out)
        # A header the layout refuses (the fake's IMB header has no overlap part): the run stops
        # before any row; the JSON file records the start.
        rc, out, err = fake(["PingPong", "-layout", "overlap", "--json", out_json])
        expect_error(rc, err, 1, r"parbench: error: the overlap layout refuses the run_start of "
                     r"suite 'fake': .+; stopped", "a header the overlap layout refuses")
        doc = json.load(open(out_json))
        if doc["benchmarks"] or doc["context"]["parbench"].get("completed") is not False:
            fail("out.json: no rows, the run incomplete", json.dumps(doc)[:2000])
        # An event that is not JSON (a broken plugin): the run stops after the row before it.
        rc, out, err = fake(["PingPong", "-raw_event", "{not json", "-msglog", "0:1", "--json",
                             out_json])
        expect_error(rc, err, 1, r"parbench: error: a plugin emitted an event that is not JSON; "
                     r"stopped", "an event that is not JSON")
        doc = json.load(open(out_json))
        names = [b["name"] for b in doc["benchmarks"] if b["run_type"] == "iteration"]
        if len(names) != 1 or doc["context"]["parbench"].get("completed") is not False:
            fail(f"out.json: the first row alone, the run incomplete: {names}")


def case_note():
    # A note event reaches the console as a comment line after the row it follows; in the IMB
    # layout the table ends first with an empty line, as IMB's tables do (docs/imb-readers.md).
    rc, out, err = fake(["PingPong", "-msglog", "0:1", "-note", "hello from the plugin"])
    lines = out.splitlines()
    if rc != 0 or "# hello from the plugin" not in lines:
        fail("the note is printed on the console", rc, out, err)
    first_row = next(i for i, l in enumerate(lines) if re.match(r"\s+0\s", l))
    if lines.index("# hello from the plugin") != first_row + 2 or lines[first_row + 1] != "":
        fail("the note follows the first row and the table's empty line", out)

def case_mpi_interrupt():
    # Ctrl-C on mpiexec: the launcher passes SIGINT on; rank 0 names the measurement, completes
    # the JSON with the finished rows and stops every process.
    need_mpi()
    import signal
    import time
    with tempfile.TemporaryDirectory() as tmp:
        out_json = os.path.join(tmp, "out.json")
        environment = dict(os.environ, PARBENCH_TEST_KERNELS="1")
        environment.pop("PARBENCH_PLUGIN_PATH", None)
        p = subprocess.Popen([MPIEXEC, "-n", "2", PARBENCH, "run", "imb-mpi1", "PingPong",
                              "Test_Deadlock", "-msglog", "0:2", "-iter", "20", "--timeout", "0",
                              "--progress", "on", "--json", out_json], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=environment)
        # The event: the progress line for Test_Deadlock on stderr (the JSON's text names
        # PingPong from the start, in requested_benchmarks, so it is no event).
        import threading
        seen, began = [], threading.Event()

        def read_stderr():
            for chunk in iter(lambda: p.stderr.read(1), ""):
                seen.append(chunk)
                if not began.is_set() and "[parbench] Test_Deadlock (" in "".join(seen[-4096:]):
                    began.set()
        reader = threading.Thread(target=read_stderr, daemon=True)
        reader.start()
        began.wait(timeout=60)
        p.send_signal(signal.SIGINT)
        out = p.stdout.read()
        p.wait(timeout=60)
        reader.join(timeout=10)
        # Drop the progress lines (the driver does not clear the last one before its error
        # message, which then follows it on the same line).
        err = re.sub(r"\[parbench\] [^\n]*?\(\d+ bytes, \d+ processes\)", "",
                     "".join(seen).replace("\x1b[K", "").replace("\r", ""))
        expect_stopped(p.returncode, err, out_json, "parbench: error: interrupted",
                       r"parbench: error: interrupted by SIGINT during Test_Deadlock \(\d+ bytes, "
                       r"2 processes\); stopped", "interrupt")


globals()["case_" + CASE]()
print("ok", CASE)
