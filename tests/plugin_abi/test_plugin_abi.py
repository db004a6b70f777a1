#!/usr/bin/env python3
"""Plugin ABI tests: the driver's exact one-line message and exit status for every way a plugin
can be unusable, plus discovery rules (search order, shadowing, no implicit current directory),
the time limit and the plugin's error statuses, all against MPI-free test plugins.

usage: test_plugin_abi.py CASE PARBENCH FAKE_DIR NO_ENTRY_DIR WRONG_ABI_DIR SMALL_STRUCT_DIR
                          INIT_FAILS_DIR CRASHES_DIR [BACKEND=PLUGIN_FILE ...]

The case `lazy_libraries` takes the real backends' plugin files (an empty PLUGIN_FILE: not built)
and checks that opening one, as discovery does on every rank, maps none of the heavy libraries
its benchmarks load on first use (cuBLAS, the OpenMP offload runtime and its libLLVM).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from pbtest.expect import require  # noqa: E402
from pbtest.run import parbench  # noqa: E402

CASE, PARBENCH, FAKE, NO_ENTRY, WRONG_ABI, SMALL_STRUCT, INIT_FAILS, CRASHES = sys.argv[1:9]
PARBENCH = os.path.abspath(PARBENCH)
run = parbench(PARBENCH, timeout=60)


def expect_line(stderr, pattern, what):
    lines = stderr.splitlines()
    require(any(re.fullmatch(pattern, line) for line in lines), what + f" (want /{pattern}/)",
            stderr)


def so(directory, kind):
    return os.path.join(directory, f"parbench_{kind}.so")


def case_no_entry():
    rc, out, err = run(["list", "--plugin-path", NO_ENTRY])
    require(rc == 1, f"list exit status {rc}, want 1", err)
    path = re.escape(so(NO_ENTRY, "no_entry"))
    expect_line(err, rf"parbench: error: {path}: no entry symbol parbench_plugin_entry_v1 \(.*undefined symbol: parbench_plugin_entry_v1.*\)",
                "missing entry symbol")


def case_wrong_abi():
    rc, out, err = run(["list", "--plugin-path", WRONG_ABI])
    require(rc == 1, f"list exit status {rc}, want 1", err)
    path = re.escape(so(WRONG_ABI, "wrong_abi"))
    expect_line(err, rf"parbench: error: {path}: built for ABI 2\.0, this parbench reads ABI 1\.x",
                "wrong ABI major")
    # A broken plugin is skipped by run with a warning; its suite is then unknown.
    rc, out, err = run(["run", "broken", "--plugin-path", WRONG_ABI])
    require(rc == 2, f"run exit status {rc}, want 2", err)
    expect_line(err, rf"parbench: warning: {path}: built for ABI 2\.0, this parbench reads ABI 1\.x",
                "warning on run")
    expect_line(err, r"parbench: error: unknown suite 'broken' \(available: .*\)", "unknown suite")


def case_small_struct():
    rc, out, err = run(["list", "--plugin-path", SMALL_STRUCT])
    require(rc == 1, f"list exit status {rc}, want 1", err)
    path = re.escape(so(SMALL_STRUCT, "small_struct"))
    expect_line(err, rf"parbench: error: {path}: descriptor is 16 bytes, ABI 1 needs at least \d+",
                "too-small struct_size")


def case_init_fails():
    rc, out, err = run(["list", "--plugin-path", INIT_FAILS])
    require(rc == 0, f"list must not initialise plugins (exit {rc})", err)
    require("plugin broken 0.0.1" in out, "list shows the plugin", out)
    rc, out, err = run(["run", "broken", "--plugin-path", INIT_FAILS])
    require(rc == 1, f"run exit status {rc}, want 1", err)
    path = re.escape(so(INIT_FAILS, "init_fails"))
    expect_line(err, rf"parbench: error: {path}: init failed: cannot reach the fabric",
                "init failure")
    require(len(err.strip().splitlines()) == 1, "exactly one line on stderr", err)


def case_crashes():
    # Discovery probes plugin files in a child process: a plugin that dies while loading is
    # reported by name, and the plugins beside it remain usable.
    rc, out, err = run(["list", "--plugin-path", CRASHES, "--plugin-path", FAKE])
    require(rc == 1, f"list exit status {rc}, want 1", err)
    path = re.escape(so(CRASHES, "crashes"))
    expect_line(err, rf"parbench: error: {path}: crashed while loading \(signal 6\)",
                "crashing plugin named")
    require("plugin fake" in out, "the fake plugin is still listed", out)
    rc, out, err = run(["run", "fake", "--plugin-path", CRASHES, "--plugin-path", FAKE])
    require(rc == 0, f"run beside a crashing plugin: exit {rc}", err)


def case_fake_list():
    rc, out, err = run(["list", "--plugin-path", FAKE])
    require(rc == 0, f"list exit status {rc}", err)
    require(re.search(r"^plugin fake 1\.2\.3  \(.*parbench_fake\.so\)$", out, re.M), "plugin line", out)
    require(re.search(r"^  fake backend 1\.0$", out, re.M), "backend info first line", out)
    require("second line not shown" not in out, "only the first backend_info line", out)
    require(re.search(r"^  suite fake - Canned results for testing the driver$", out, re.M), "suite", out)
    require(re.search(r"^    PingPong\s+single_transfer\s+default\s+Canned single-transfer results$",
                     out, re.M), "benchmark row", out)
    require(re.search(r"^    Extra\s+collective\s+non-default\s+", out, re.M), "non-default row", out)
    require("Hang" not in out, "TEST_ONLY benchmarks are hidden", out)


def case_fake_run():
    with tempfile.TemporaryDirectory() as tmp:
        j, c = os.path.join(tmp, "out.json"), os.path.join(tmp, "out.csv")
        rc, out, err = run(["run", "fake", "PingPong", "-msglog", "1:2", "--json", j, "--csv", c,
                            "--plugin-path", FAKE])
        require(rc == 0, f"run exit status {rc}", err, out)
        require("# Benchmarking PingPong" in out, "console table", out)
        require("# All processes entering MPI_Finalize" in out, "console end", out)
        doc = json.load(open(j))
        names = [b["name"] for b in doc["benchmarks"] if b["run_type"] == "iteration"]
        require(names == ["fake/PingPong/np:2/bytes:0", "fake/PingPong/np:2/bytes:2",
                         "fake/PingPong/np:2/bytes:4"], f"JSON names {names}")
        require(doc["context"]["parbench"]["completed"] is True, "JSON marks the run complete")
        rows = open(c, newline="").read().split("\r\n")
        require(len([r for r in rows if r]) == 4, "CSV header + 3 rows", rows)
        # Case-insensitive benchmark names, as IMB.
        rc, out, err = run(["run", "fake", "pingpong", "--plugin-path", FAKE, "--quiet"])
        require(rc == 0 and out == "", f"case-insensitive name, quiet: {rc}", err, out)


def typed_header(doc):
    """The "typed" object the fake plugin puts in its run header, wherever the JSON keeps it."""
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "typed" in node:
                return node["typed"]
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return None


TYPED_ARGS = ["-count", "3", "-pause", "0.5", "-order", "down", "-zero", "off",
              "-window", "2:5", "-ids", "1", "20"]


def case_typed_options():
    """ABI 1.1: the driver checks a typed parameter's value with the plugin's wording and hands
    the plugin typed JSON; --help shows the type; the run's context keeps the words as given."""
    with tempfile.TemporaryDirectory() as tmp:
        j = os.path.join(tmp, "out.json")
        rc, out, err = run(["run", "fake", "PingPong", "--quiet", "--json", j,
                            "--plugin-path", FAKE] + TYPED_ARGS)
        require(rc == 0, f"typed run: exit {rc}", err, out)
        doc = json.load(open(j))
        typed = typed_header(doc)
        want = {"count": 3, "pause": 0.5, "order": "down", "zero": False,
                "window": {"min": 2, "max": 5}, "ids": [1, 20]}
        require(typed == want, f"the plugin received {typed!r}, want {want!r}")
        require(type(typed["count"]) is int and type(typed["pause"]) is float,
                "count is a JSON integer, pause a JSON number", typed)
        options = doc["context"]["parbench"]["options"]
        require(options["count"] == "3" and options["window"] == "2:5" and options["ids"] == ["1", "20"],
                "the context records the options as typed on the command line", options)
    bad = [
        (["-count", "0"], r"-count 0: must lie in 1\.\.64"),
        (["-count", "x"], r"-count x: expected a non-negative integer"),
        (["-count", "99999999999999999999999"], r"-count 99999999999999999999999: out of range"),
        (["-pause", "61"], r"-pause 61: out of range \(at most 60 seconds\)"),
        (["-pause", "soon"], r"-pause soon: expected a non-negative number of seconds"),
        (["-order", "sideways"], r"-order sideways: expected up, down or random"),
        (["-zero", "maybe"], r"-zero maybe: expected on \(1\|enable\|yes\) or off \(0\|disable\|no\)"),
        (["-window", "5:2"], r"-window 5:2: minimum 5 is larger than maximum 2"),
        (["-window", "30"], r"-window 30: must be at most 20"),
        (["-window", "a:3"], r"-window a:3: expected \[MIN:\]MAX with non-negative integers"),
        (["-ids", "1", "two"], r"-ids two: expected a non-negative integer"),
    ]
    for args, message in bad:
        rc, out, err = run(["run", "fake", "PingPong", "--quiet", "--plugin-path", FAKE] + args)
        require(rc == 2, f"{args}: exit {rc}, want 2", err)
        expect_line(err, "parbench: error: " + message, f"{args}: one line naming the value")
        require(len(err.strip().splitlines()) == 1, f"{args}: exactly one line on stderr", err)
    rc, out, err = run(["run", "fake", "--help", "--plugin-path", FAKE])
    require(rc == 0, f"--help: exit {rc}", err)
    require("A typed choice (one of: up, down, random)" in out, "--help shows the choices", out)
    require("A typed count (count 1..64)" in out, "--help shows a count's bounds", out)


def case_abi_1_0():
    """A plugin built against ABI 1.0 (abi_minor 0) still loads, and its parameters are text:
    the host does not read the fields that ABI 1.1 added, so nothing is validated or typed."""
    old = os.environ["PARBENCH_TEST_ABI_1_0_DIR"]
    rc, out, err = run(["list", "--plugin-path", old])
    require(rc == 0 and "plugin fake 1.2.3" in out, f"a 1.0 plugin is listed (exit {rc})", err, out)
    with tempfile.TemporaryDirectory() as tmp:
        j = os.path.join(tmp, "out.json")
        args = ["-count", "0", "-pause", "soon", "-window", "5:2", "-ids", "1", "two"]
        rc, out, err = run(["run", "fake", "PingPong", "--quiet", "--json", j,
                            "--plugin-path", old] + args)
        require(rc == 0, f"1.0 plugin run: exit {rc}", err, out)
        typed = typed_header(json.load(open(j)))
        want = {"count": "0", "pause": "soon", "window": "5:2", "ids": ["1", "two"]}
        require(typed == want, f"the 1.0 plugin received {typed!r}, want the words {want!r}")


def case_shadowed():
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(so(FAKE, "fake"), tmp)
        rc, out, err = run(["list", "--plugin-path", tmp], env={"PARBENCH_PLUGIN_PATH": FAKE})
        require(rc == 0, f"list exit status {rc}", err)
        winner = re.escape(so(FAKE, "fake"))
        require(re.search(rf"^plugin fake 1\.2\.3  \({winner}\)$", out, re.M),
                "PARBENCH_PLUGIN_PATH comes before --plugin-path", out)
        require(re.search(rf"^shadowed: {re.escape(os.path.join(tmp, 'parbench_fake.so'))} "
                         rf"\(plugin 'fake' is already provided by {winner}\)$", out, re.M),
               "shadowed plugin logged", out)


def plugins_dlopened(err, directory):
    """How often each plugin file of `directory` was opened by the dynamic loader, from the
    LD_DEBUG=files lines of the driver and of its probe child (both write to stderr)."""
    counts = {}
    for path in re.findall(r"file=(\S+) \[0\];  dynamically loaded by", err):
        if os.path.dirname(path) == directory:
            counts[os.path.basename(path)] = counts.get(os.path.basename(path), 0) + 1
    return counts


def case_manifest():
    """A plugin manifest (parbench --write-manifest) lets a run dlopen only the plugin that hosts
    its suite; without one, or with a stale one (a file changed, added or removed), every file of
    the directory is probed and --verbose-discovery says why in one line."""
    abi_1_0 = os.environ["PARBENCH_TEST_ABI_1_0_DIR"]
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(so(FAKE, "fake"), tmp)
        # Another plugin file (the same plugin built for ABI 1.0: shadowed) and a broken one.
        other = os.path.join(tmp, "parbench_fake_abi10.so")
        shutil.copy(os.path.join(abi_1_0, "parbench_fake.so"), other)
        shutil.copy(so(WRONG_ABI, "wrong_abi"), tmp)
        manifest = os.path.join(tmp, "parbench-plugins.json")
        args = ["run", "fake", "PingPong", "-msglog", "1:1", "--quiet", "--plugin-path", tmp]
        debug = {"LD_DEBUG": "files"}
        broken = rf"parbench: warning: ignoring {re.escape(so(tmp, 'wrong_abi'))}: built for ABI 2\.0.*"

        rc, out, err = run(args + ["--verbose-discovery"], env=debug)
        require(rc == 0, f"no manifest: exit status {rc}", err)
        expect_line(err, rf"parbench: {re.escape(tmp)}: no plugin manifest; probing its 3 plugin "
                    r"files", "--verbose-discovery says the directory was probed")
        opened = plugins_dlopened(err, tmp)
        require(opened == {"parbench_fake.so": 2, "parbench_fake_abi10.so": 1,
                           "parbench_wrong_abi.so": 1},
                f"no manifest: every file probed, the suite's loaded again: {opened}", err)

        rc, out, err = run(["--write-manifest", manifest])
        require(rc == 0 and os.path.exists(manifest), f"--write-manifest: exit status {rc}", err)
        doc = json.load(open(manifest))
        entries = {p["file"]: p for p in doc["plugins"]}
        require(sorted(entries) == ["parbench_fake.so", "parbench_fake_abi10.so",
                                    "parbench_wrong_abi.so"]
                and entries["parbench_fake.so"]["suites"] == ["fake"]
                and "PingPong" in entries["parbench_fake.so"]["benchmarks"]["fake"]
                and entries["parbench_fake.so"]["size"] == os.path.getsize(so(tmp, "fake"))
                and "problem" in entries["parbench_wrong_abi.so"]
                and doc["directories"] == ["."], "the manifest's entries", json.dumps(doc)[:3000])

        rc, out, err = run(args + ["--verbose-discovery"], env=debug)
        require(rc == 0, f"with a manifest: exit status {rc}", err)
        require(tmp not in "".join(l for l in err.splitlines() if "probing" in l),
                "a fresh manifest: nothing probed", err)
        opened = plugins_dlopened(err, tmp)
        require(opened == {"parbench_fake.so": 1},
                f"with a manifest only the suite's plugin is opened, once: {opened}", err)
        expect_line(err, broken, "the manifest keeps the broken file's problem")

        # Stale: a file changed (its time), a file added, a file removed.
        stamp = os.stat(other)
        os.utime(other, ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 1_000_000_000))
        rc, out, err = run(args + ["--verbose-discovery"], env=debug)
        expect_line(err, rf"parbench: {re.escape(tmp)}: stale plugin manifest \({re.escape(manifest)}: "
                    rf"{re.escape(other)} changed since it was written\); probing its 3 plugin files",
                    "a changed file makes the manifest stale")
        require(plugins_dlopened(err, tmp).get("parbench_fake_abi10.so") == 1 and rc == 0,
                "a stale manifest: the files are probed", err)
        rc, out, err = run(args)
        require(rc == 0 and "manifest" not in err, "without --verbose-discovery, no line about it", err)
        run(["--write-manifest", manifest])
        added = os.path.join(tmp, "parbench_fake_copy.so")
        shutil.copy(so(FAKE, "fake"), added)
        rc, out, err = run(args + ["--verbose-discovery"])
        expect_line(err, rf"parbench: {re.escape(tmp)}: stale plugin manifest \(.*: {re.escape(added)} "
                    r"is not listed \(added since it was written\)\); probing its 4 plugin files",
                    "an added file makes the manifest stale")
        run(["--write-manifest", manifest])
        os.remove(added)
        rc, out, err = run(args + ["--verbose-discovery"])
        expect_line(err, rf"parbench: {re.escape(tmp)}: stale plugin manifest \(.*: lists a plugin "
                    r"file of .* that is gone \(removed since it was written\)\); probing its 3 "
                    r"plugin files", "a removed file makes the manifest stale")

        rc, out, err = run(["--write-manifest", manifest, os.path.join(tmp, "nowhere")])
        require(rc == 2, f"--write-manifest to a missing directory: exit status {rc}", err)
        expect_line(err, r"parbench: error: --write-manifest: .*nowhere.*: not a directory",
                    "one line")


def case_env_path():
    rc, out, err = run(["list"], env={"PARBENCH_PLUGIN_PATH": "/nonexistent:" + FAKE})
    require(rc == 0 and "plugin fake 1.2.3" in out, "PARBENCH_PLUGIN_PATH is searched", out, err)


def case_no_cwd():
    rc, out, err = run(["run", "fake"], cwd=FAKE)
    require(rc == 2, f"exit status {rc}, want 2", err)
    expect_line(err, r"parbench: error: unknown suite 'fake' \(available: .*\)",
                "the current directory is not searched")


def case_time_limit():
    with tempfile.TemporaryDirectory() as tmp:
        j = os.path.join(tmp, "out.json")
        rc, out, err = run(["run", "fake", "PingPong", "Hang", "--timeout", "1", "--json", j,
                            "--plugin-path", FAKE], timeout=30)
        require(rc == 3, f"exit status {rc}, want 3", err)
        expect_line(err, r"parbench: error: time limit: benchmark Hang \(1024 bytes, 2 processes\) "
                         r"did not finish within 1 s; stopped", "time-limit message")
        doc = json.load(open(j))
        names = [b["name"] for b in doc["benchmarks"] if b["run_type"] == "iteration"]
        require(len(names) == 5 and all(n.startswith("fake/PingPong/") for n in names),
                f"JSON holds the finished PingPong rows: {names}")
        require(doc["context"]["parbench"]["completed"] is False, "JSON marks the run incomplete")


def case_interrupt():
    # SIGINT and SIGTERM end the run like the time limit: a message naming the measurement, the
    # files completed with every finished row, and 128 + the signal as the exit status.
    import signal
    import time
    for signo, name in ((signal.SIGINT, "SIGINT"), (signal.SIGTERM, "SIGTERM")):
        with tempfile.TemporaryDirectory() as tmp:
            j = os.path.join(tmp, "out.json")
            marker = os.path.join(tmp, "hang-began")
            environment = dict(os.environ, PARBENCH_FAKE_HANG_MARKER=marker)
            environment.pop("PARBENCH_PLUGIN_PATH", None)
            p = subprocess.Popen([PARBENCH, "run", "fake", "PingPong", "Hang", "--json", j,
                                  "--plugin-path", FAKE], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=environment)
            # The event: the fake plugin creates the marker once Hang has begun (the JSON's
            # text names PingPong from the start, in requested_benchmarks, so it is no event).
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not os.path.exists(marker):
                time.sleep(0.01)
            require(os.path.exists(marker), f"{name}: Hang began within 20 s")
            p.send_signal(signo)
            out, err = p.communicate(timeout=30)
            require(p.returncode == 128 + signo, f"{name}: exit status {p.returncode}", err)
            expect_line(err, rf"parbench: error: interrupted by {name} during Hang \(1024 bytes, "
                             r"2 processes\); stopped", f"{name} message")
            doc = json.load(open(j))
            names = [b["name"] for b in doc["benchmarks"] if b["run_type"] == "iteration"]
            require(len(names) == 5 and all(n.startswith("fake/PingPong/") for n in names),
                    f"{name}: JSON holds every finished row: {names}")
            require(doc["context"]["parbench"]["completed"] is False, f"{name}: run incomplete")


def case_bad_input():
    rc, out, err = run(["run", "fake", "-fail", "bad_input", "--plugin-path", FAKE])
    require(rc == 2, f"exit status {rc}, want 2", err)
    expect_line(err, r"parbench: error: -fail bad_input: the fake plugin was asked to reject its input",
                "plugin BAD_INPUT")


def case_plugin_error():
    rc, out, err = run(["run", "fake", "-fail", "error", "--plugin-path", FAKE])
    require(rc == 1, f"exit status {rc}, want 1", err)
    expect_line(err, r"parbench: error: the fake backend failed as asked", "plugin ERROR")


# Libraries a plugin may open only when a benchmark needs them (plugin/companion_library.hpp).
HEAVY_LIBRARIES = ("libcublas", "libomptarget", "libLLVM")
# Opens the plugin files named on the command line with RTLD_NOW | RTLD_LOCAL, as the loader
# does, in this one process, and prints the files it then maps.
MAPS_PROBE = """
import ctypes, os, sys
for f in sys.argv[1:]:
    ctypes.CDLL(f, mode=os.RTLD_NOW | os.RTLD_LOCAL)
print("\\n".join(sorted({l.split()[-1] for l in open("/proc/self/maps") if "/" in l})))
"""


def mapped_after_opening(files):
    env = dict(os.environ)
    # A sanitizer build's plugins need the sanitizer's runtime first in the process.
    ldd = subprocess.run(["ldd"] + files, capture_output=True, text=True).stdout
    runtimes = sorted({m.group(1) for m in re.finditer(r"=> (\S*lib[atl]san\.so\S*)", ldd)})
    if runtimes:
        env["LD_PRELOAD"] = ":".join(runtimes)
        env["ASAN_OPTIONS"] = "detect_leaks=0"
    p = subprocess.run([sys.executable, "-c", MAPS_PROBE] + files, capture_output=True,
                       text=True, env=env, timeout=60)
    require(p.returncode == 0, f"opening {files} with RTLD_LOCAL", p.stdout, p.stderr)
    return p.stdout.splitlines()


def case_lazy_libraries():
    plugins = dict(arg.split("=", 1) for arg in sys.argv[9:])
    require(set(plugins) == {"mpi", "blas", "cuda", "offload", "caf"}, f"backends given: {plugins}")
    built = {name: f for name, f in plugins.items() if f}
    for name in sorted(set(plugins) - set(built)):
        print(f"skipped {name}: its plugin is not built in this configuration")
    require(built, "no plugin built: nothing to check")
    # Each file alone, then all in one process (as `parbench list` has them).
    for files in [[f] for f in built.values()] + [list(built.values())]:
        mapped = mapped_after_opening(files)
        require(any(m.endswith(os.path.basename(files[-1])) for m in mapped),
                f"{files[-1]} is not among the mapped files: the check would see nothing", mapped)
        heavy = [m for m in mapped if any(h in os.path.basename(m) for h in HEAVY_LIBRARIES)]
        require(not heavy, f"opening {[os.path.basename(f) for f in files]} maps {heavy}: "
                "these belong in a library the plugin opens on first use")
        print("opened", " ".join(os.path.basename(f) for f in files), f"({len(mapped)} files "
              "mapped, none of", ", ".join(HEAVY_LIBRARIES) + ")")
    # The suites of the lazily loading plugins are still listed (discovery reads the descriptors).
    rc, out, err = run(["list"])
    require(rc == 0, f"parbench list exit status {rc}", out, err)
    listed = {"cuda": ["gpu_in_pinned", "gpu_dgemm", "gpu_sgemm"],
              "offload": ["phi_keep_al_in", "phi_alloc_noal_inout"]}
    for name, benchmarks in listed.items():
        if name not in built:
            continue
        require(re.search(rf"^plugin {name} ", out, re.M), f"list shows no {name} plugin", out)
        for b in benchmarks:
            require(re.search(rf"^    {b} ", out, re.M), f"list lacks {b} ({name} plugin)", out)


globals()["case_" + CASE]()
print("ok", CASE)
