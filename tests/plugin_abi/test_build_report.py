#!/usr/bin/env python3
"""What each plugin folder reports to the build (plugins/<name>/meson.build: built or not, its
suites, why not) against what the driver says.

usage: test_build_report.py CASE PARBENCH SOURCE_ROOT MESON
                            [NAME PLUGIN_FILE SUITES REASON GROUP]...

Five arguments per plugin, from plugin_reports: PLUGIN_FILE is empty when the plugin was not
built, SUITES is comma-separated, GROUP names the plugins that host the same suites (the MPI
plugins, one per MPI library; empty for the others): a group's suites are unavailable only when
none of its plugins was built, and are named once, by its first plugin.

list       `parbench list` of this build: every built plugin lists exactly the suites its folder
           declares (so that a suite added to a plugin and not to its meson.build is caught), and
           every suite of a plugin not built is named as unavailable with its folder's reason.
configure  Configures (does not build) the source tree in a scratch directory with every plugin
           turned off, MPI first so that the coarray plugin misses its MPI, and checks the list
           generated for the driver (plugins/unavailable_suites.inc) and Meson's summary: each
           suite of each plugin, with the reason a formula gives for its option.
"""
import os
import re
import subprocess
import sys
import tempfile

CASE, PARBENCH, SOURCE_ROOT, MESON = sys.argv[1:5]
REPORTS = [{"name": n, "path": p, "file": os.path.basename(p) if p else
            f"parbench_{n.replace('-', '_')}.so", "suites": s.split(","), "reason": r, "group": g}
           for n, p, s, r, g in zip(*[iter(sys.argv[5:])] * 5)]


def named_unavailable(report, reports):
    """Whether `report`'s suites are named as unavailable: it was not built, and neither was any
    plugin of its group, of which it is the first."""
    if report["path"] or not report["group"]:
        return not report["path"]
    group = [r for r in reports if r["group"] == report["group"]]
    return not any(r["path"] for r in group) and group[0] is report


def expect(condition, what, *context):
    if not condition:
        print("FAILED:", what)
        for c in context:
            print("----\n" + str(c))
        sys.exit(1)


def unavailable_line(suite, report, reason):
    return f"suite {suite} - unavailable: {report['file']} was not built: {reason}"


def listed_suites(out, plugin):
    """The suites `parbench list` shows under `plugin NAME ...`, in order."""
    suites, inside = [], False
    for line in out.splitlines():
        if line.startswith("plugin "):
            inside = line.split()[1] == plugin
        elif inside and line.startswith("  suite "):
            suites.append(line.split()[1])
        elif not line.startswith("  "):
            inside = False
    return suites


def case_list():
    expect({r["name"] for r in REPORTS} ==
           {"mpi", "mpi-openmpi", "blas", "cuda", "offload", "caf"},
           f"reports given: {[r['name'] for r in REPORTS]}")
    env = dict(os.environ)
    env.pop("PARBENCH_PLUGIN_PATH", None)
    p = subprocess.run([PARBENCH, "list"], capture_output=True, text=True, env=env, timeout=60)
    expect(p.returncode == 0, f"parbench list exit status {p.returncode}", p.stdout, p.stderr)
    offered = set()
    for r in REPORTS:
        if r["path"]:
            offered.update(listed_suites(p.stdout, r["name"]))
    for r in REPORTS:
        if r["path"] and not os.path.exists(r["path"]):
            print(f"{r['name']}: skipped, {r['path']} is configured but not built yet")
            continue
        if r["path"]:
            expect(listed_suites(p.stdout, r["name"]) == r["suites"],
                   f"plugin {r['name']} lists {listed_suites(p.stdout, r['name'])}, its "
                   f"meson.build declares {r['suites']}",
                   "\n".join(l for l in p.stdout.splitlines() if not l.startswith("    ")))
            expect(f"unavailable: {r['file']}" not in p.stdout,
                   f"{r['file']} was built but is listed as unavailable", p.stdout)
            print(f"{r['name']}: built, suites {', '.join(r['suites'])}")
            continue
        if not named_unavailable(r, REPORTS):
            expect(f"unavailable: {r['file']}" not in p.stdout,
                   f"{r['file']} is listed as unavailable, but another plugin of its group runs "
                   "its suites", p.stdout)
            print(f"{r['name']}: not built ({r['reason']}), its suites run by its group")
            continue
        for suite in r["suites"]:
            line = unavailable_line(suite, r, r["reason"])
            expect(line in p.stdout.splitlines(), f"list lacks '{line}'", p.stdout)
            if suite in offered:
                continue  # another plugin runs this suite
            run = subprocess.run([PARBENCH, "run", suite], capture_output=True, text=True,
                                 env=env, timeout=60)
            want = (f"parbench: error: suite '{suite}' is unavailable: {r['file']} was not "
                    f"built: {r['reason']}")
            expect(run.returncode == 1 and want in run.stderr.splitlines(),
                   f"parbench run {suite}: exit {run.returncode}, want 1 and '{want}'",
                   run.stderr)
        print(f"{r['name']}: not built ({r['reason']}), named as unavailable")


# One line of the generated list: {"suite", "plugin", "file", "reason"},
ENTRY = re.compile(r'^\{"([^"]*)", "([^"]*)", "([^"]*)", "((?:[^"\\]|\\.)*)"\},$')


def case_configure():
    if not MESON:
        print("SKIP: no meson program to configure with")
        sys.exit(77)
    reasons = {r["name"]: f"disabled (-D{r['name']}=disabled)" for r in REPORTS}
    reasons["caf"] = "needs the MPI plugin, which is not built (-Dmpi=disabled)"
    reasons["mpi-openmpi"] = reasons["mpi"]
    with tempfile.TemporaryDirectory() as scratch:
        build = os.path.join(scratch, "build")
        options = [f"-D{name}=disabled" for name in ("mpi", "blas", "cuda", "offload")]
        options += ["-Dcaf=auto", "-Dtests=false", "-Dbench=false", "-Dexamples=false"]
        p = subprocess.run([MESON, "setup", build, SOURCE_ROOT] + options, capture_output=True,
                           text=True, timeout=300)
        expect(p.returncode == 0, f"meson setup exit status {p.returncode}", p.stdout, p.stderr)
        generated = open(os.path.join(build, "plugins", "unavailable_suites.inc")).read()
    entries = [m.groups() for m in map(ENTRY.match, generated.splitlines()) if m]
    none_built = [{**r, "path": ""} for r in REPORTS]
    want = [(suite, r["name"], r["file"], reasons[r["name"]])
            for r in none_built if named_unavailable(r, none_built) for suite in r["suites"]]
    expect(entries == want, f"generated list {entries}, want {want}", generated)
    for r in REPORTS:
        expect(re.search(rf": NO: {re.escape(reasons[r['name']])}$", p.stdout, re.M),
               f"Meson's summary lacks 'NO: {reasons[r['name']]}'", p.stdout)
    print(f"{len(entries)} suites of {len(REPORTS)} plugins named, each with its reason")


globals()["case_" + CASE]()
print("ok", CASE)
