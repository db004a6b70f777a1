#!/usr/bin/env python3
"""Installs parbench's development files (headers, pkg-config and CMake files: meson's 'devel'
install tag) into a staging directory, checks that every public header is there, and builds a
small consumer (consumer.cpp) out of tree as a user would, with plain
`mpicxx $(pkg-config --cflags --libs parbench)`, with CMake's find_package(parbench) and with
Meson's dependency('parbench-mpi'). Then runs each build under mpiexec -n 2 to see that it works.
Then installs the driver and the plugins (the 'runtime' tag) into another staging directory,
moves the installed prefix elsewhere and runs the moved driver: it finds its plugins relative to
itself, reads the plugin manifest that `meson install` wrote (no probing), and a run under
mpiexec -n 2 opens only the MPI plugin (LD_DEBUG=files); a host-API program (host_consumer.cpp)
built against the moved prefix with pkg-config's flags alone finds the plugins through the
package's plugindir and runs a checked PingPong.

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
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from pbtest.expect import fail  # noqa: E402
from pbtest.run import MPIEXEC, succeed  # noqa: E402

build_dir, source_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
# MPICH's compiler wrapper by its own name, as its launcher (pbtest.run.MPIEXEC): with Open MPI
# installed beside it (Debian), the plain `mpicxx` is Open MPI's, and CMake's FindMPI would take
# it too unless told which wrapper to ask (MPI_CXX_COMPILER, as a user with both MPIs does).
MPICXX = "mpicxx.mpich" if shutil.which("mpicxx.mpich") else "mpicxx"
started = time.monotonic()


# The installed driver, moved: plugins relative to itself, read from the installed manifest;
# and a host-API program built against the moved prefix with pkg-config's flags alone. Installed
# and moved first, so that the host-API program compiles beside the consumers.
moved_tmp_dir = tempfile.TemporaryDirectory()
moved_tmp = moved_tmp_dir.name
stage = os.path.join(moved_tmp, "stage")
succeed(["meson", "install", "-C", build_dir, "--no-rebuild", "--quiet", "--tags",
         "runtime,devel", "--destdir", stage])
drivers = glob.glob(os.path.join(stage, "**", "bin", "parbench"), recursive=True)
if len(drivers) != 1:
    fail(f"staged drivers: {drivers}")
moved = os.path.join(moved_tmp, "elsewhere", "prefix")
os.makedirs(os.path.dirname(moved))
shutil.move(os.path.dirname(os.path.dirname(drivers[0])), moved)
driver = os.path.join(moved, "bin", "parbench")
manifests = glob.glob(os.path.join(moved, "**", "parbench", "parbench-plugins.json"),
                      recursive=True)
if len(manifests) != 1:
    fail(f"the install wrote no plugin manifest beside the plugins: {manifests}")
plugindir = os.path.dirname(manifests[0])
no_path = ("PARBENCH_PLUGIN_PATH",)  # the moved install's own plugins, nothing else
# The host-API program compiles meanwhile (pkg-config's relocatable
# prefix follows the moved .pc file, so its plugindir is the moved one).
moved_pcs = glob.glob(os.path.join(moved, "**", "pkgconfig", "parbench.pc"), recursive=True)
if len(moved_pcs) != 1:
    fail(f"the moved prefix holds parbench.pc {len(moved_pcs)} times")
pc_env = dict(os.environ, PKG_CONFIG_PATH=os.path.dirname(moved_pcs[0]))
host_flags = succeed(["pkg-config", "--cflags", "--libs", "parbench"], env=pc_env).stdout.split()
pc_plugindir = succeed(["pkg-config", "--variable=plugindir", "parbench"],
                       env=pc_env).stdout.strip()
if os.path.realpath(pc_plugindir) != os.path.realpath(plugindir):
    fail(f"pkg-config's plugindir {pc_plugindir} is not the moved prefix's {plugindir}")
host_exe = os.path.join(moved_tmp, "host_consumer")
host_job = subprocess.Popen(
    ["c++", "-O0", os.path.join(source_dir, "tests", "install", "host_consumer.cpp"), "-o",
     host_exe, *host_flags, "-ldl", f'-DPARBENCH_PLUGINDIR="{pc_plugindir}"'],
    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=pc_env)

with tempfile.TemporaryDirectory() as tmp:
    stage = os.path.join(tmp, "stage")
    succeed(["meson", "install", "-C", build_dir, "--no-rebuild", "--quiet", "--tags", "devel",
             "--destdir", stage])
    pcs = glob.glob(os.path.join(stage, "**", "pkgconfig", "parbench.pc"), recursive=True)
    cmake_configs = glob.glob(os.path.join(stage, "**", "parbenchConfig.cmake"), recursive=True)
    if len(pcs) != 1 or len(cmake_configs) != 1:
        fail(f"staged files: parbench.pc {pcs}, parbenchConfig.cmake {cmake_configs}")
    # Every public header is installed (the examples compiled in the build tree see only
    # include/ and the generated version.hpp, so with all of them here the installed tree builds
    # whatever the build tree builds).
    mains = glob.glob(os.path.join(stage, "**", "parbench", "mpi", "main.hpp"), recursive=True)
    if len(mains) != 1:
        fail(f"parbench/mpi/main.hpp installed {len(mains)} times")
    staged_root = os.path.dirname(os.path.dirname(mains[0]))
    def headers(root):
        return {os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root)
                for f in fs if f.endswith((".hpp", ".h"))}
    expected = headers(os.path.join(source_dir, "include", "parbench")) | {"version.hpp"}
    missing, extra = expected - headers(staged_root), headers(staged_root) - expected
    if missing or extra:
        fail(f"installed headers differ from include/parbench: missing {sorted(missing)}, "
             f"unexpected {sorted(extra)}")
    env = dict(os.environ)
    env["PKG_CONFIG_PATH"] = os.path.dirname(pcs[0])
    env["CMAKE_PREFIX_PATH"] = os.path.dirname(cmake_configs[0])
    # -O0: these builds prove the flags and files, not the code's speed; they stay short.
    env["CXXFLAGS"] = "-O0"

    # 1. pkg-config, as the docs write it: mpicxx with 'parbench' (Meson below uses
    # 'parbench-mpi', which adds MPICH's flags for a plain compiler).
    flags = succeed(["pkg-config", "--cflags", "--libs", "parbench"], env=env).stdout.split()
    mpi_flags = succeed(["pkg-config", "--cflags", "--libs", "parbench-mpi"],
                        env=env).stdout.split()
    if not any(f.endswith("mpich") for f in mpi_flags) or "-std=c++20" not in flags:
        fail(f"pkg-config flags: parbench {flags}, parbench-mpi {mpi_flags}")
    out = os.path.join(tmp, "pkgconfig")
    os.makedirs(out)
    # Each package file builds the small consumer: what is tested is that its flags find the
    # installed headers, MPI and C++20. A whole benchmark program (an example: 18-22 s of CPU at
    # -O0, most of this test's time when pkg-config built one) proves no more: every public
    # header is installed (checked above), and the build tree compiles and runs the examples
    # from the same headers.
    consumer = os.path.join(source_dir, "tests", "install", "consumer.cpp")
    pkgconfig_job = subprocess.Popen([MPICXX, "-O0", consumer, "-o", os.path.join(out, "consumer")]
                                     + flags, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env=env)

    # 2. CMake.
    cmake_src = os.path.join(tmp, "cmake_project")
    os.makedirs(cmake_src)
    with open(os.path.join(cmake_src, "CMakeLists.txt"), "w") as f:
        f.write("cmake_minimum_required(VERSION 3.20)\nproject(parbench_examples CXX)\n"
                "find_package(parbench 0.1 REQUIRED)\n")
        f.write(f"add_executable(consumer {consumer})\n"
                "target_link_libraries(consumer PRIVATE parbench::mpi)\n")
    cmake_build = os.path.join(tmp, "cmake_build")
    succeed(["cmake", "-S", cmake_src, "-B", cmake_build, "-G", "Ninja",
             "-DMPI_CXX_COMPILER=" + shutil.which(MPICXX)], env=env)
    cmake_job = subprocess.Popen(["cmake", "--build", cmake_build], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=env)

    # 3. Meson.
    meson_src = os.path.join(tmp, "meson_project")
    os.makedirs(meson_src)
    shutil.copy(consumer, meson_src)
    with open(os.path.join(meson_src, "meson.build"), "w") as f:
        f.write("project('parbench_examples', 'cpp', default_options: ['cpp_std=c++20'])\n"
                "parbench_dep = dependency('parbench-mpi')\n")
        f.write("executable('consumer', 'consumer.cpp', dependencies: parbench_dep)\n")
    meson_build = os.path.join(tmp, "meson_build")
    succeed(["meson", "setup", meson_build, meson_src, "--buildtype=plain"], env=env)
    succeed(["ninja", "-C", meson_build], env=env)
    for j in (pkgconfig_job, cmake_job):
        stdout, stderr = j.communicate(timeout=300)
        if j.returncode != 0:
            fail(f"{' '.join(j.args)}: exit status {j.returncode}\n{stdout[-2000:]}{stderr[-3000:]}")

    # What was built runs: the consumer of each package file (its MPI_Allreduce of the ranks
    # gives 0 + 1 at -n 2).
    for exe in [os.path.join(out, "consumer"), os.path.join(cmake_build, "consumer"),
                os.path.join(meson_build, "consumer")]:
        p = succeed([MPIEXEC, "-n", "2", exe])
        if not re.fullmatch(r"parbench \S+, \w+: 2 processes, sum of ranks 1\n", p.stdout):
            fail(f"{exe}: printed {p.stdout!r}, expected 2 processes and a sum of ranks 1",
                 p.stderr[-3000:])

# The moved driver's checks, then the host-API program (compiled meanwhile) runs.
p = succeed([driver, "list", "--verbose-discovery"], cwd=moved_tmp, drop=no_path)
if "plugin mpi " not in p.stdout or plugindir not in p.stdout:
    fail(f"the moved driver lists no MPI plugin from {plugindir}", p.stdout + p.stderr)
if "probing" in p.stderr:
    fail("the moved install's manifest was not used", p.stderr)
p = succeed([MPIEXEC, "-n", "2", driver, "run", "imb-mpi1", "PingPong", "-msglog", "0:0",
             "-iter", "5", "--quiet"], env={"LD_DEBUG": "files"}, cwd=moved_tmp, drop=no_path)
opened = re.findall(r"file=(\S*/parbench_\S*\.so) \[0\];  dynamically loaded", p.stderr)
if sorted(opened) != [os.path.join(plugindir, "parbench_mpi.so")] * 2:
    fail(f"a PingPong opened {opened}, want {plugindir}/parbench_mpi.so once per rank",
         p.stderr[-3000:])
stdout, stderr = host_job.communicate(timeout=300)
if host_job.returncode != 0:
    fail(f"{' '.join(host_job.args)}: exit status {host_job.returncode}\n{stdout[-2000:]}"
         f"{stderr[-3000:]}")
p = succeed([MPIEXEC, "-n", "2", host_exe], cwd=moved_tmp, drop=no_path)
# PingPong at 0, 1 and 2 bytes (-msglog 0:1), each checked, on the pair
if not re.search(r"^host: 3 rows, 0 defects, passed 1, PingPong at 2 bytes on 2 processes$",
                 p.stdout, re.M):
    fail(f"{host_exe}: printed {p.stdout!r}", p.stderr[-3000:])

print(f"{len(expected)} headers installed; the consumer built with pkg-config, CMake and "
      f"Meson; the moved driver found its plugins from its manifest, and a host-API "
      f"program built with pkg-config's flags alone found them there; "
      f"{time.monotonic() - started:.1f} s")
moved_tmp_dir.cleanup()
