#!/usr/bin/env python3
"""Compile-failure test that also checks the message: runs the compiler command given after
`--` and passes only where it fails and its diagnostics contain NEEDLE (the member's name), so
that a definition misuse is rejected for the right reason and tells the author what to fix.

    expect_error.py NEEDLE -- c++ -fsyntax-only ... file.cpp
"""
import subprocess
import sys


def main() -> int:
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        print("usage: expect_error.py NEEDLE -- COMMAND...", file=sys.stderr)
        return 2
    needle, command = sys.argv[1], sys.argv[3:]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode == 0:
        print(f"compiled, but must fail naming {needle!r}", file=sys.stderr)
        return 1
    if needle not in done.stderr:
        print(f"failed without naming {needle!r}:\n{done.stderr[-4000:]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
