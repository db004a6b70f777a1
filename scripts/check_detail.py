#!/usr/bin/env python3
"""Fails when a `detail::` name is used outside its own module.

A module is a folder (include/parbench/report, plugins/mpi/imb, apps/parbench, ...). A name is
the module's own when a file of that folder declares it inside a `namespace ... detail` block.
Every `detail::NAME` in a source file must name something its own folder declares; anything else
(another module's internals, or a detail name that no folder declares) is listed with its file
and line, and the exit status is 1.

usage: check_detail.py [ROOT]   (default: the repository this script lives in)
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TREES = ["include", "plugins", "apps", "examples", "tests", "bench"]
SUFFIXES = (".hpp", ".cpp", ".h", ".cc", ".cu", ".ipp")

COMMENT_OR_TEXT = re.compile(
    r'//[^\n]*|/\*.*?\*/|R"([^(\s]*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
    re.S)
DETAIL_BLOCK = re.compile(r"\bnamespace\s+(?:[A-Za-z_]\w*\s*::\s*)*detail\s*\{")
USE = re.compile(r"\bdetail\s*::\s*([A-Za-z_]\w*)")
DECLARED = [
    re.compile(r"\b(?:struct|class|union|enum(?:\s+class)?|concept|using|namespace)\s+([A-Za-z_]\w*)"),
    re.compile(r"([A-Za-z_]\w*)\s*(?:<[^;{}()]*>)?\s*\("),   # a function (first name before '(')
    re.compile(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*(?:=|\{|;)"),  # a variable
]


NOT_NAMES = {"template", "inline", "constexpr", "static", "const", "return", "operator",
             "decltype", "noexcept", "requires", "sizeof", "alignas", "explicit"}


def blank(match):
    """Comments and literals become blanks of the same shape, so that offsets and lines hold."""
    return re.sub(r"[^\n]", " ", match.group(0))


def declared_names(code):
    """The names declared at the top level of every detail namespace block of `code`."""
    names = set()
    for m in DETAIL_BLOCK.finditer(code):
        depth, statement = 0, ""
        i = m.end()
        while i < len(code):
            c = code[i]
            if c == "{":
                if depth == 0:
                    names.update(first_name(statement))
                depth += 1
            elif c == "}":
                if depth == 0:
                    break
                depth -= 1
                if depth == 0:
                    statement = ""
            elif depth == 0:
                statement += c
                if c == ";":
                    names.update(first_name(statement))
                    statement = ""
            i += 1
    return names


def first_name(statement):
    text = re.sub(r"\[\[[^\]]*\]\]", " ", statement)
    text = re.sub(r"^\s*template\s*<.*?>\s*", " ", text, flags=re.S)
    for pattern in DECLARED:
        for m in pattern.finditer(text):
            if m.group(1) not in NOT_NAMES:
                return {m.group(1)}
    return set()


def main():
    files = []
    for tree in TREES:
        for folder, _, names in os.walk(os.path.join(ROOT, tree)):
            files += [os.path.join(folder, n) for n in names if n.endswith(SUFFIXES)]
    code_of, own = {}, {}
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            code = COMMENT_OR_TEXT.sub(blank, f.read())
        code_of[path] = code
        own.setdefault(os.path.dirname(path), set()).update(declared_names(code))
    problems = []
    for path, code in sorted(code_of.items()):
        module = own.get(os.path.dirname(path), set())
        for m in USE.finditer(code):
            if m.group(1) not in module:
                line = code.count("\n", 0, m.start()) + 1
                problems.append(f"{os.path.relpath(path, ROOT)}:{line}: detail::{m.group(1)} "
                                "is not declared in this folder's detail namespace")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} use(s) of another module's detail:: names; promote what other "
              "modules need out of detail (STYLE.md: detail/ holds internals)")
        return 1
    print(f"detail:: names stay in their modules ({len(files)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
