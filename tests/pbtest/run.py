"""Running what a test checks: a command with the environment the test chooses (variables the
caller may have set dropped, the test's own added), the driver with its JSON/CSV files in a scratch
directory, and the two test hosts (tests/mpi/plugin_host, tests/paw_host) with their events."""
import csv
import glob
import io
import json
import os
import shutil
import subprocess
import tempfile

from pbtest.expect import expect, fail

# The build's own plugins are the ones found: a search path from the caller's environment could
# shadow them.
PLUGIN_PATH = ("PARBENCH_PLUGIN_PATH",)
# PAW's BLAS variables set sizes and loop counts; a test passes its own or none.
PAW_BLAS = ("MIN_BLAS_SIZE", "MED_BLAS_SIZE", "MAX_BLAS_SIZE", "NLOOP_MAX", "NLOOP_MIN", "NREPS")
# The launcher of the build's default MPI (MPICH), by its own name: with Open MPI installed
# beside it (Debian), the plain `mpiexec` is Open MPI's (tests/meson.build says the same).
MPIEXEC = "mpiexec.mpich" if shutil.which("mpiexec.mpich") else "mpiexec"


def environment(env=None, drop=PLUGIN_PATH):
    """os.environ without the variables in `drop`, with `env` added or overriding."""
    result = {k: v for k, v in os.environ.items() if k not in drop}
    result.update(env or {})
    return result


def process(command, env=None, timeout=120, cwd=None, drop=PLUGIN_PATH):
    """Runs `command` to its end and returns its subprocess.CompletedProcess, with `pid` set (a
    test may look for files named after it, as LD_DEBUG_OUTPUT writes). Past `timeout` the
    process is killed and subprocess.TimeoutExpired raised, as subprocess.run does."""
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=environment(env, drop), cwd=cwd) as p:
        try:
            stdout, stderr = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            raise
    result = subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr)
    result.pid = p.pid
    return result


def run_command(command, env=None, timeout=120, cwd=None, drop=PLUGIN_PATH):
    """process(), as (exit status, stdout, stderr)."""
    p = process(command, env, timeout, cwd, drop)
    return p.returncode, p.stdout, p.stderr


def succeed(command, env=None, timeout=300, cwd=None, drop=()):
    """process() that must exit with status 0, or the script fails with the command line and the
    ends of its output. By default the caller's whole environment is kept (a build step)."""
    p = process(command, env, timeout, cwd, drop)
    if p.returncode != 0:
        fail(f"exit status {p.returncode}", "command: " + " ".join(map(str, command)),
             p.stdout[-3000:] + p.stderr[-3000:])
    return p


def parbench(executable, prefix=(), timeout=120, launcher=MPIEXEC):
    """The driver as a function of its arguments, for a script's checks:
    run(args, np=None, launcher=None, env=None, timeout=TIMEOUT, cwd=None) runs
    [launcher...] EXECUTABLE PREFIX... ARGS... and returns (exit status, stdout, stderr); with
    `np` under `LAUNCHER -n NP`."""
    default_timeout, program = timeout, launcher

    def run(args, np=None, launcher=None, env=None, timeout=default_timeout, cwd=None):
        start = list(launcher or (mpiexec(np, program) if np else []))
        return run_command(start + [executable, *prefix, *args], env, timeout, cwd)
    return run


def mpiexec(np, launcher=MPIEXEC, env_args=()):
    """The launcher for `np` processes; `env_args` (NAME=value) reach every rank through env(1).
    With more processes than this machine has CPUs, the ranks preload the test harness's
    yield_when_idle library (tests/yield_when_idle.cpp), before any LD_PRELOAD of env_args."""
    return [launcher, "-n", str(np)] + rank_env(np, env_args)


def rank_env(np, env_args=()):
    """`env NAME=value...` for the ranks of an `np`-process run, to follow the launcher's own
    arguments: `env_args` and the yield_when_idle library where it applies; [] when neither."""
    env_args = with_yield_when_idle(np, env_args)
    return ["env", *env_args] if env_args else []


def yield_when_idle_library(np):
    """tests/yield_when_idle.cpp's library for the ranks of an `np`-process run: where they are
    more than this machine's CPUs and the build made it (Meson's default test setup names it in
    PARBENCH_TEST_YIELD_WHEN_IDLE; not in a sanitizer build); None otherwise."""
    library = os.environ.get("PARBENCH_TEST_YIELD_WHEN_IDLE")
    if not library or not os.path.exists(library) or int(np) <= len(os.sched_getaffinity(0)):
        return None
    return library


def with_yield_when_idle(np, env_args=()):
    """`env_args` with yield_when_idle_library(np) first in LD_PRELOAD, where there is one."""
    library = yield_when_idle_library(np)
    if library is None:
        return list(env_args)
    preload = [i for i, a in enumerate(env_args) if a.startswith("LD_PRELOAD=")]
    if not preload:
        return [f"LD_PRELOAD={library}", *env_args]
    result = list(env_args)
    result[preload[0]] = f"LD_PRELOAD={library}:" + result[preload[0]][len("LD_PRELOAD="):]
    return result


def read_json(path):
    """The JSON document at `path`; None when the file does not exist."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def iteration_rows(source):
    """The result rows (run_type "iteration", not aggregates) of a parbench JSON document or
    file; none when the file does not exist."""
    document = read_json(source) if isinstance(source, str) else source
    if document is None:
        return []
    return [b for b in document["benchmarks"] if b.get("run_type") == "iteration"]


def read_jsonl(path):
    """The records of a JSON-lines file (the hosts' events); none when it does not exist."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def read_events(prefix):
    """Every rank's events, from PREFIX.<rank>.jsonl in rank order."""
    events = []
    for path in sorted(glob.glob(prefix + ".*.jsonl")):
        events += read_jsonl(path)
    return events


class Driven:
    """What a driver run left: the process (returncode, stdout, stderr), its JSON document and
    result rows, its CSV text, and whatever `collect` read from the scratch directory."""

    def __init__(self, process, document, csv_text, collected):
        self.process = process
        self.returncode, self.stdout, self.stderr = (process.returncode, process.stdout,
                                                     process.stderr)
        self.document = document
        self.rows = iteration_rows(document)
        self.csv_text = csv_text
        self.collected = collected

    @property
    def plugin_context(self):
        return self.document["context"]["parbench"].get("plugin_context", {}) \
            if self.document else {}

    @property
    def csv_rows(self):
        return list(csv.DictReader(io.StringIO(self.csv_text)))


def driver(command, json_file=True, csv_file=False, after=(), env=None, timeout=240, cwd=None,
           drop=PLUGIN_PATH, collect=None):
    """Runs a driver command line (launcher, parbench, run, suite, options; or a function of the
    scratch directory that returns one) in a scratch directory, with `--json` and `--csv` files
    there when asked, then `after`. cwd: the scratch directory unless given. collect(scratch):
    reads more files before the directory goes."""
    with tempfile.TemporaryDirectory() as tmp:
        argv = list(command(tmp) if callable(command) else command)
        json_path, csv_path = os.path.join(tmp, "run.json"), os.path.join(tmp, "run.csv")
        if json_file:
            argv += ["--json", json_path]
        if csv_file:
            argv += ["--csv", csv_path]
        p = process(argv + list(after), env, timeout, cwd or tmp, drop)
        csv_text = ""
        if csv_file and os.path.exists(csv_path):
            with open(csv_path) as f:
                csv_text = f.read()
        return Driven(p, read_json(json_path) if json_file else None, csv_text,
                      collect(tmp) if collect else None)


def mpi_suite(suite=None, csv_file=False, after=(), env=None, timeout=240):
    """`parbench run [SUITE]` under mpiexec with a JSON file (and a CSV file), as the MPI scripts
    call it: run(args, np, parbench, timeout=TIMEOUT, cwd=None, env=None, env_args=()) returns
    (Driven, its result rows). env adds to the suite's `env`; env_args reach every rank
    (mpiexec -n NP env NAME=value ...)."""
    suite_env, default_timeout = env or {}, timeout

    def run(args, np, parbench, timeout=default_timeout, cwd=None, env=None, env_args=()):
        command = mpiexec(np, env_args=env_args) + [parbench, "run"] + \
            ([suite] if suite else []) + list(args)
        d = driver(command, csv_file=csv_file, after=after, env={**suite_env, **(env or {})},
                   timeout=timeout, cwd=cwd)
        return d, d.rows
    return run


class Hosted:
    """What a test host's run left: the process (returncode, also as rc; stdout, stderr), every
    rank's events, and whatever `collect` read from the scratch directory."""

    def __init__(self, process, events, collected):
        self.process = process
        self.returncode, self.stdout, self.stderr = (process.returncode, process.stdout,
                                                     process.stderr)
        self.rc = self.returncode
        self.events = events
        self.collected = collected

    def of(self, kind):
        return [e for e in self.events if e.get("event") == kind]

    def results(self, name=None):
        return [e for e in self.of("result") if name is None or e["benchmark"] == name]


def plugin_host(command, request, env=None, timeout=300, drop=(), collect=None):
    """Runs tests/mpi/plugin_host: `command` (launcher, host, plugin; or a function of a scratch
    directory that returns them) with the request as JSON and an output prefix in the scratch
    directory. By default the caller's whole environment is kept."""
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "out")
        argv = list(command(tmp) if callable(command) else command)
        p = process(argv + [json.dumps(request), prefix], env, timeout, None, drop)
        return Hosted(p, read_events(prefix), collect(tmp) if collect else None)


def paw_host(host, plugin, request, directory, events_file, env=None, timeout=240, drop=PAW_BLAS):
    """Runs tests/paw_host (PAW's suites without MPI): its files go to `directory`, its events to
    `events_file`. Returns (process, events)."""
    p = process([host, plugin, json.dumps(request), directory, events_file], env, timeout, None,
                drop)
    return p, read_jsonl(events_file)


def handmade_run(path, rows, suite="t", benchmark_field=True):
    """Writes a parbench JSON file of PingPong rows {size: samples in us} with their median,
    CI ends (2nd smallest, 2nd largest sample) and rates as parbench computes them; returns the
    path. benchmark_field=False leaves out the rows' "benchmark" key, as files whose readers
    take the name from "name" alone."""
    benchmarks = []
    for size, samples in rows.items():
        ordered = sorted(samples)
        n = len(ordered)
        median = (ordered[(n - 1) // 2] + ordered[n // 2]) / 2
        row = {"name": f"{suite}/PingPong/np:2/bytes:{size}", "run_type": "iteration",
               "suite": suite, "class": "single_transfer", "bytes": size,
               "real_time": max(samples), "median_us": median,
               "ci_low_us": ordered[1], "ci_high_us": ordered[-2],
               "throughput_mib_s": size / 1.048576 / max(samples),
               "throughput_median_mib_s": size / 1.048576 / median, "samples_us": samples}
        if benchmark_field:
            row["benchmark"] = "PingPong"
        benchmarks.append(row)
    with open(path, "w") as f:
        json.dump({"context": {"parbench": {"schema_version": 1}}, "benchmarks": benchmarks}, f)
    return path


def refused(executable, suite, np, args, why, env=None):
    """`parbench run SUITE ARGS --quiet` under mpiexec -n NP refuses its input as every suite
    must: exit status 2 (bad input) and one `parbench:` line on stderr that names `why`."""
    rc, _, err = parbench(executable)(["run", suite, *args, "--quiet"], np=np, env=env)
    lines = [line for line in err.splitlines() if line.strip()]
    expect(rc == 2 and len(lines) == 1 and lines[0].startswith("parbench:") and why in lines[0],
           f"{suite} {args} at -n {np}: one parbench: line naming '{why}', exit status 2: rc "
           f"{rc}, stderr {err!r}")
