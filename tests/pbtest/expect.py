"""Checks with context: fail or require stop the script at once; expect records a failure and
goes on, and finish turns the record into the exit status, for scripts that test many figures in
one run."""
import sys


def fail(what, *context):
    print("FAILED:", what)
    for c in context:
        print("----\n" + str(c))
    sys.exit(1)


def require(condition, what, *context):
    """fail(what, *context) unless `condition` holds; returns the condition (then true)."""
    if not condition:
        fail(what, *context)
    return condition


# One record per process: a masker that checks a row's layout records into the same list as the
# script that called it.
failures = []


def expect(condition, message):
    """Records `message` as a failure unless `condition` holds, and goes on; returns the
    condition (so a check can guard the ones that depend on it)."""
    if not condition:
        failures.append(message)
        print("FAIL:", message, flush=True)
    return condition


def finish(failed="failure(s)", passed="ok"):
    """The exit status of a script that used expect(): 1 (after the count) if anything failed."""
    if failures:
        print(f"{len(failures)} {failed}")
        return 1
    if passed:
        print(passed)
    return 0


def close(a, b, rel=1e-9):
    """a and b agree to a relative tolerance `rel`."""
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)
