"""Golden files: the masked output must equal the approved file byte for byte. With
PARBENCH_APPROVE=1 the file is (re)written from the output instead, and the check passes."""
import difflib
import os

from pbtest.expect import expect


def approving():
    return os.environ.get("PARBENCH_APPROVE") == "1"


def approve(path, actual, check=expect):
    """Compares `actual` with the golden file `path` and reports a difference (a unified diff)
    through `check(condition, message)`: pbtest.expect.expect records it and goes on,
    pbtest.expect.require stops the script. Returns whether it matched. A missing golden file is a
    failure that says how to create it."""
    if approving():
        with open(path, "w") as f:
            f.write(actual)
        print("wrote", path)
        return True
    if not os.path.exists(path):
        return check(False, f"no golden file {path}; run with PARBENCH_APPROVE=1 to create it")
    with open(path) as f:
        expected = f.read()
    diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                        path, "actual"))
    return check(actual == expected, f"output differs from {path}:\n{diff}")
