"""What the driver-level test scripts share: run a command line of the driver with the plugin
search path of the build (never one from the caller's environment), and fail with context."""
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
