"""What the driver-level test scripts share: run a command line of the driver with the plugin
search path of the build (never one from the caller's environment), and fail with context — at
once (fail) or after every check has run (expect, finish) — and read the rows of its JSON file."""
import json
import os
import subprocess
import sys


def run_command(command, env=None, timeout=120, cwd=None):
    """Runs `command` (a launcher and the parbench executable first) and returns
    (exit status, stdout, stderr). PARBENCH_PLUGIN_PATH is dropped so that the build's own
    plugins are the ones found; `env` adds or overrides variables."""
    environment = dict(os.environ)
    environment.pop("PARBENCH_PLUGIN_PATH", None)
    environment.update(env or {})
    p = subprocess.run(command, capture_output=True, text=True, env=environment,
                       timeout=timeout, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def fail(what, *context):
    print("FAILED:", what)
    for c in context:
        print("----\n" + str(c))
    sys.exit(1)


# --- Checks that go on after a failure, for scripts that test many figures in one run -----------

failures = []


def expect(condition, message):
    """Records `message` as a failure unless `condition` holds, and goes on; returns the
    condition (so a check can guard the ones that depend on it)."""
    if not condition:
        failures.append(message)
        print("FAIL:", message, flush=True)
    return condition


def finish():
    """The exit status of a script that used expect(): 1 (after the count) if anything failed."""
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("ok")
    return 0


def close(a, b, rel=1e-9):
    """a and b agree to a relative tolerance `rel`."""
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def iteration_rows(json_path):
    """The result rows of a parbench JSON file (run_type "iteration", not aggregates); none when
    the file does not exist."""
    if not os.path.exists(json_path):
        return []
    with open(json_path) as f:
        return [b for b in json.load(f)["benchmarks"] if b.get("run_type") == "iteration"]
