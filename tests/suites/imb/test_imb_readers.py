#!/usr/bin/env python3
"""imb-mpi1's console read by two public readers of IMB output, as they read IMB 2021's, at
mpiexec -n 2 under IMB 2021's methodology (the default).

The readers are written here from what their sources do (docs/imb-readers.md names them):

* PerfKitBenchmarker's MpiResultParser (perfkitbenchmarker/linux_packages/mpi.py): after
  "# Benchmarking NAME" it reads "# #processes = N" (or "G groups of N processes"), then the
  first line matching ".*#repetitions.*usec" is the heading line; each heading must be one IMB
  prints (a dictionary look-up: any other heading is a KeyError, the reader stops), and every
  following line up to an empty one is a row whose values it pairs with the headings (zip: values
  beyond the last heading are ignored), #bytes and #repetitions as integers, the rest as floats.
* StackHPC's hpc-tests read_imb_out (modules/imb.py, used by its ReFrame tests): after
  "# Benchmarking NAME" the next line must start "# #processes = "; it skips '#' lines and the
  heading line, then converts each row's first values positionally by benchmark (pingpong: int,
  int, float, float) up to an empty line.

So: only IMB's headings on the heading line (parbench's median and CI columns follow IMB's in the
rows and are named on a '#' line above), and an empty line after a table's last row before any
note or warning. Each reader's figures must be the JSON's (to the console's two decimals). -iter 3
gives every row fewer than six samples, so the run ends with a warning about them: the case in
which a table was followed directly by a '#' line. The header and block titles are also compared,
line by line, with what IMB-MPI1 2021.11 prints (check_imb2021_layout).

usage: test_imb_readers.py --parbench PARBENCH
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
from pbtest.expect import expect, finish  # noqa: E402
from pbtest.run import mpi_suite  # noqa: E402

run = mpi_suite("imb-mpi1")

# The headings PerfKitBenchmarker knows, and its names for them.
PKB_HEADINGS = {"#bytes": "bytes", "#repetitions": "repetitions", "t_min[usec]": "time_min",
                "t_max[usec]": "time_max", "t_avg[usec]": "time_avg", "Mbytes/sec": "throughput",
                "Msg/sec": "messages_per_sec", "t_ovrl[usec]": "time_overall",
                "t_pure[usec]": "time_pure", "t_CPU[usec]": "time_cpu",
                "overlap[%]": "overlap_percent", "t[usec]": "time_avg"}


def pkb_read(text):
    """[(benchmark, processes, [row dict])] as PerfKitBenchmarker reads the console; raises
    KeyError or ValueError where it would."""
    lines = iter(line.strip() for line in text.splitlines())
    out = []
    for line in lines:
        m = re.match(r"^# Benchmarking (.*)", line)
        if not m:
            continue
        name, processes = m[1], None
        for line in lines:
            g = re.match(r".*?(\d+) groups of (\d+) processes", line) or \
                re.match(r"# #processes = (\d+)", line)
            if g:
                processes = int(g.groups()[-1])
                break
        next(lines)  # its group-layout look-ahead consumes one line (the rule)
        headings = None
        for line in lines:
            if re.match(r".*#repetitions.*usec", line):
                headings = line.split()
                break
        rows = []
        for line in lines:
            if not line:
                break
            row = {}
            for heading, value in zip(headings, line.split()):
                key = PKB_HEADINGS[heading]
                row[key] = int(value) if key in ("bytes", "repetitions") else float(value)
            rows.append(row)
        out.append((name, processes, rows))
    return out


def hpc_tests_read(text, converters):
    """{processes: columns} of one benchmark's table as StackHPC's read_imb_out reads it."""
    lines = iter(text.splitlines(keepends=True))
    data = {}
    for line in lines:
        if not line.startswith("# Benchmarking "):
            continue
        line = next(lines)
        if not line.startswith("# #processes = "):
            raise ValueError(f"expected '# #processes = ', got {line!r}")
        processes = int(line.split("=")[-1].strip())
        while line.startswith("#"):
            line = next(lines)
        rows = []
        while True:
            line = next(lines).strip()
            if line == "":
                break
            rows.append([f(v) for f, v in zip(converters, line.split())])
        data[processes] = [list(c) for c in zip(*rows)]
    return data


def rule(columns):
    """IMB_make_line (IMB_output.c:986-1004): '#' and 13 x columns - 1 dashes."""
    return "#" + "-" * (13 * columns - 1)


def check_imb2021_layout(text, names):
    """The header and block titles as IMB-MPI1 2021.11 prints them, blanks included: the banner
    (IMB_g_info.c:86-111; parbench's title line is its own), the lines after IMB_general_info()
    (MPI1_suite.cpp:790-811), and each block's title (IMB_output.c:920-930, 665)."""
    lines = text.splitlines()
    expect(lines[0] == rule(5) and lines[2] == rule(5), f"banner rules: {lines[0]!r} {lines[2]!r}")
    expect(not any("is expected to be exceeded" in line for line in lines),
           "IMB 2021 prints no -time paragraph (IMB_g_info.c:246, '2021.11' < '3.2')")
    env = next((i for i, line in enumerate(lines)
                if line.startswith("# MPI Thread Environment: ")), None)
    if not expect(env is not None, "no '# MPI Thread Environment: ' line"):
        return
    want = ["", "", "# Calling sequence was: ", "", None, "",
            "# Minimum message length in bytes:   0", "# Maximum message length in bytes:   8",
            "#", "# MPI_Datatype                   :   MPI_BYTE ",
            "# MPI_Datatype for reductions    :   MPI_FLOAT ",
            "# MPI_Op                         :   MPI_SUM  ", "# ", "# ", "",
            "# List of Benchmarks to run:", "", *[f"# {n}" for n in names], ""]
    got = lines[env + 1:env + 1 + len(want)]
    for k, (g, w) in enumerate(zip(got, want)):
        if w is None:  # the calling sequence: "# %s \n\n"
            expect(g.startswith("# ") and " -iter 3 " in g and g.endswith(" "),
                   f"calling sequence {g!r}")
        else:
            expect(g == w, f"header line {env + 2 + k}: {g!r}, IMB 2021 prints {w!r}")
    # #bytes #repetitions + t[usec] Mbytes/sec | t_min t_max t_avg (+ Mbytes/sec)
    columns = {"PingPong": 4, "Sendrecv": 6, "Allreduce": 5, "Barrier": 4}
    for name in names:
        i = lines.index(f"# Benchmarking {name} ") if f"# Benchmarking {name} " in lines else -1
        if not expect(i > 0, f"no '# Benchmarking {name} ' line"):
            continue
        title = [lines[i - 1], lines[i + 1], lines[i + 2]]
        expect(title == [rule(columns[name]), "# #processes = 2 ", rule(columns[name])],
               f"{name}: block title {title}")


def check_imb2021_groups(exe):
    """-multi 1 at -n 4 as IMB-MPI1 2021.11 prints it: the names listed as given (MPI1_suite.cpp:
    809-811), the groups (IMB_show_procids, IMB_print_array: "Group  %d: ", " %4d" a rank, then
    "\\n# "), a Group column 13 wide first (IMB_print_header, "&Group") and an empty line before
    each length's rows (IMB_output.c:232-234). PingPong, a single transfer, keeps one time column
    and Mbytes/sec per group (OUT_TIME_AND_BW, IMB_output.c:210-213), each group's t its t_max:
    as `IMB-MPI1 PingPong -multi 1` prints at -n 4 on the 2021.11 build."""
    d, rows = run(["PingPong", "Allreduce", "-multi", "1", "-msglog", "0:0", "-iter", "3"], 4,
                  exe)
    if not expect(d.returncode == 0, f"-multi 1: rc {d.returncode}: {d.stderr[-800:]}"):
        return
    lines = d.stdout.splitlines()
    expect("# Allreduce" in lines and "# PingPong" in lines and
           not any("(Multi-)" in line for line in lines),
           "-multi 1: the list names PingPong and Allreduce as given")
    check_single_transfer_groups(lines, rows)
    title = "# Benchmarking Multi-Allreduce "
    i = lines.index(title) if title in lines else -1
    if not expect(i > 0, f"-multi 1: no {title!r} line"):
        return
    heading = "".join(f"{h:>13}" for h in ("Group", "#bytes", "#repetitions", "t_min[usec]",
                                           "t_max[usec]", "t_avg[usec]"))
    want = [rule(6), title, "# ( 2 groups of 2 processes each running simultaneous ) ",
            "# Group  0:     0    1", "# ", "# Group  1:     2    3", "# ", rule(6)]
    expect(lines[i - 1:i + 7] == want, f"-multi 1 block title {lines[i - 1:i + 7]}")
    j = lines.index(heading) if heading in lines else -1
    expect(j > i and lines[j + 1] == "" and lines[j + 2].split()[:2] == ["0", "0"] and
           lines[j + 3].split()[:2] == ["1", "0"],
           f"-multi 1 heading and rows {lines[j:j + 4] if j > 0 else lines[i:i + 12]}")


def check_single_transfer_groups(lines, rows):
    """Multi-PingPong's block under -multi 1 at -n 4, line by line as IMB-MPI1 2021.11 prints it:
    the rule of 5 columns (Group, #bytes, #repetitions, t[usec], Mbytes/sec), an empty line, then
    each group's row; t and Mbytes/sec are that group's t_max and mbytes_per_s in the JSON."""
    title = "# Benchmarking Multi-PingPong "
    i = lines.index(title) if title in lines else -1
    if not expect(i > 0, f"-multi 1: no {title!r} line"):
        return
    heading = "".join(f"{h:>13}" for h in ("Group", "#bytes", "#repetitions", "t[usec]",
                                           "Mbytes/sec"))
    want = [rule(5), title, "# ( 2 groups of 2 processes each running simultaneous ) ",
            "# Group  0:     0    1", "# ", "# Group  1:     2    3", "# ", rule(5)]
    expect(lines[i - 1:i + 7] == want, f"-multi 1 PingPong block title {lines[i - 1:i + 7]}")
    # parbench's median and CI are named on a '#' line between the rule and IMB's heading.
    expect(lines[i + 7].startswith("#") and lines[i + 8] == heading and lines[i + 9] == "",
           f"-multi 1 PingPong heading {lines[i + 7:i + 10]}")
    by_group = {r.get("group"): r for r in rows
                if r["benchmark"] == "PingPong" and r.get("bytes") == 0}
    for g, line in enumerate(lines[i + 10:i + 12]):
        cells = line.split()
        r = by_group.get(g)
        expect(r is not None and len(cells) >= 5 and cells[:3] == [str(g), "0", "3"] and
               abs(float(cells[3]) - r["t_max_us"]) <= 0.006 and
               abs(float(cells[4]) - r["metrics"]["mbytes_per_s"]) <= 0.006,
               f"-multi 1 PingPong group {g}: row {cells} against the JSON "
               f"{r and (r['t_max_us'], r['metrics'].get('mbytes_per_s'))}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--parbench", required=True)
    a = ap.parse_args()
    # Barrier before Allreduce, against the catalogue's order: IMB 2021 lists and runs the names
    # in the order given (src_cpp/imb.cpp:157-176, 224-253), and every check below reads the
    # console in this order.
    names = ["PingPong", "Sendrecv", "Barrier", "Allreduce"]
    d, rows = run([*names, "-msglog", "0:3", "-iter", "3"], 2, a.parbench)
    if not expect(d.returncode == 0, f"rc {d.returncode}: {d.stderr[-800:]}"):
        return finish()
    expect("# WARNING:" in d.stdout, "no end-of-run warning: the case this test needs is missing")
    check_imb2021_layout(d.stdout, names)
    check_imb2021_groups(a.parbench)
    by = {(r["benchmark"], r.get("bytes")): r for r in rows}  # Barrier has no size

    def figure(r, key):
        return {"time_min": r["t_min_us"], "time_max": r["t_max_us"], "time_avg": r["t_avg_us"],
                "throughput": r.get("metrics", {}).get("mbytes_per_s")}[key]
    try:
        tables = pkb_read(d.stdout)
    except (KeyError, ValueError, StopIteration) as e:
        expect(False, f"PerfKitBenchmarker's reader fails on the console: {type(e).__name__} {e}")
        tables = []
    expect([t[0] for t in tables] == names and all(t[1] == 2 for t in tables),
           f"PerfKitBenchmarker: tables {[(t[0], t[1]) for t in tables]}")
    for name, _, table in tables:
        expect(len(table) == len({x for (b, x) in by if b == name}),
               f"PerfKitBenchmarker {name}: {len(table)} rows")
        for row in table:
            r = by.get((name, row.get("bytes")))
            if not expect(r is not None, f"PerfKitBenchmarker {name}: a row {row} not in the JSON"):
                continue
            expect(row["repetitions"] == r["iterations"],
                   f"PerfKitBenchmarker {name}: repetitions {row['repetitions']} != {r['iterations']}")
            for key, value in row.items():
                if key in ("bytes", "repetitions"):
                    continue
                want = figure(r, "time_max" if name == "PingPong" and key == "time_avg" else key)
                expect(want is not None and abs(value - want) <= 0.006,
                       f"PerfKitBenchmarker {name} {row.get('bytes')} B: {key} {value} != {want}")
    try:
        ping = hpc_tests_read(d.stdout.split("# Benchmarking Sendrecv")[0],
                              (int, int, float, float))
    except (ValueError, StopIteration) as e:
        expect(False, f"hpc-tests' read_imb_out fails on the console: {type(e).__name__} {e}")
        ping = {}
    if expect(list(ping) == [2], f"hpc-tests: tables by processes {list(ping)}"):
        sizes, repetitions, t, mbytes = ping[2]
        expect(sizes == [0, 1, 2, 4, 8], f"hpc-tests: sizes {sizes}")
        for x, n, t_us, mb in zip(sizes, repetitions, t, mbytes):
            r = by[("PingPong", x)]
            expect(n == r["iterations"] and abs(t_us - r["t_max_us"]) <= 0.006 and
                   abs(mb - r["metrics"]["mbytes_per_s"]) <= 0.006,
                   f"hpc-tests PingPong {x} B: {n} {t_us} {mb} != JSON {r['iterations']} "
                   f"{r['t_max_us']} {r['metrics'].get('mbytes_per_s')}")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
