#!/usr/bin/env python3
"""Installs parbench's development files (headers, pkg-config and CMake files: meson's 'devel'
install tag) into a staging directory and builds the examples of examples/meson.build out of
tree, as a user would: every example with plain `mpicxx $(pkg-config --cflags --libs parbench)`,
the first also with CMake's find_package(parbench) and with Meson's dependency('parbench-mpi').
Then runs each build of that example under mpiexec -n 2 to see that what was built works.

usage: check_install.py BUILD_DIR SOURCE_DIR
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

build_dir, source_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
started = time.monotonic()


def fail(what, p=None):
    print("FAILED:", what)
    if p is not None:
        print("---- command:", " ".join(p.args) if isinstance(p.args, list) else p.args)
        print(p.stdout[-3000:], p.stderr[-3000:])
    sys.exit(1)


def run(command, **kw):
    p = subprocess.run(command, capture_output=True, text=True, timeout=300, **kw)
    if p.returncode != 0:
        fail(f"exit status {p.returncode}", p)
    return p


# The examples, from the one list the project builds (so a new example is tested here too).
meson_list = open(os.path.join(source_dir, "examples", "meson.build")).read()
names = re.findall(r"'([a-z0-9_]+)'", re.search(r"example_names = \[([^\]]*)\]", meson_list).group(1))
if not names:
    fail("no examples listed in examples/meson.build")
examples = [os.path.join(source_dir, "examples", n + ".cpp") for n in names]

with tempfile.TemporaryDirectory() as tmp:
    stage = os.path.join(tmp, "stage")
    run(["meson", "install", "-C", build_dir, "--no-rebuild", "--quiet", "--tags", "devel",
         "--destdir", stage])
    pcs = glob.glob(os.path.join(stage, "**", "pkgconfig", "parbench.pc"), recursive=True)
    cmake_configs = glob.glob(os.path.join(stage, "**", "parbenchConfig.cmake"), recursive=True)
    if len(pcs) != 1 or len(cmake_configs) != 1:
        fail(f"staged files: parbench.pc {pcs}, parbenchConfig.cmake {cmake_configs}")
    if not glob.glob(os.path.join(stage, "**", "parbench", "mpi", "main.hpp"), recursive=True):
        fail("parbench/mpi/main.hpp not installed")
    env = dict(os.environ)
    env["PKG_CONFIG_PATH"] = os.path.dirname(pcs[0])
    env["CMAKE_PREFIX_PATH"] = os.path.dirname(cmake_configs[0])
    # -O0: these builds prove the flags and files, not the code's speed; they stay short.
    env["CXXFLAGS"] = "-O0"

    # 1. pkg-config, as the docs write it: mpicxx with 'parbench' (Meson below uses
    # 'parbench-mpi', which adds MPICH's flags for a plain compiler).
    flags = run(["pkg-config", "--cflags", "--libs", "parbench"], env=env).stdout.split()
    mpi_flags = run(["pkg-config", "--cflags", "--libs", "parbench-mpi"], env=env).stdout.split()
    if not any(f.endswith("mpich") for f in mpi_flags) or "-std=c++20" not in flags:
        fail(f"pkg-config flags: parbench {flags}, parbench-mpi {mpi_flags}")
    out = os.path.join(tmp, "pkgconfig")
    os.makedirs(out)
    jobs = []
    for n, src in zip(names, examples):
        jobs.append(subprocess.Popen(["mpicxx", "-O0", src, "-o", os.path.join(out, n)] + flags,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env=env))
    for j in jobs:
        stdout, stderr = j.communicate(timeout=300)
        if j.returncode != 0:
            fail(f"{' '.join(j.args)}: exit status {j.returncode}\n{stderr[-3000:]}")

    # 2. CMake and 3. Meson build the first example only: the pkg-config builds above proved
    # every example compiles against the installed headers; these two prove each build system's
    # package files give the same flags (a second example would only repeat the compile).
    first = [(names[0], examples[0])]

    # 2. CMake.
    cmake_src = os.path.join(tmp, "cmake_project")
    os.makedirs(cmake_src)
    with open(os.path.join(cmake_src, "CMakeLists.txt"), "w") as f:
        f.write("cmake_minimum_required(VERSION 3.20)\nproject(parbench_examples CXX)\n"
                "find_package(parbench 0.1 REQUIRED)\n")
        for n, src in first:
            f.write(f"add_executable({n} {src})\ntarget_link_libraries({n} PRIVATE parbench::mpi)\n")
    cmake_build = os.path.join(tmp, "cmake_build")
    run(["cmake", "-S", cmake_src, "-B", cmake_build, "-G", "Ninja"], env=env)
    run(["cmake", "--build", cmake_build, "-j", "2"], env=env)

    # 3. Meson.
    meson_src = os.path.join(tmp, "meson_project")
    os.makedirs(meson_src)
    for _, src in first:
        shutil.copy(src, meson_src)
    with open(os.path.join(meson_src, "meson.build"), "w") as f:
        f.write("project('parbench_examples', 'cpp', default_options: ['cpp_std=c++20'])\n"
                "parbench_dep = dependency('parbench-mpi')\n")
        for n, _ in first:
            f.write(f"executable('{n}', '{n}.cpp', dependencies: parbench_dep)\n")
    meson_build = os.path.join(tmp, "meson_build")
    run(["meson", "setup", meson_build, meson_src, "--buildtype=plain"], env=env)
    run(["ninja", "-C", meson_build, "-j", "2"], env=env)

    # What was built runs: the first example from each build, two sizes.
    for exe in [os.path.join(out, names[0]), os.path.join(cmake_build, names[0]),
                os.path.join(meson_build, names[0])]:
        p = run(["mpiexec", "-n", "2", exe, "-msglog", "0:1", "-time", "0.05"])
        sizes = [l.split()[0] for l in p.stdout.splitlines() if l.split() and l.split()[0].isdigit()]
        if sizes != ["0", "1", "2"]:
            fail(f"{exe}: rows for sizes {sizes}, expected 0, 1, 2", p)

print(f"{len(names)} examples built with pkg-config, the first also with CMake and Meson, in "
      f"{time.monotonic() - started:.1f} s")
