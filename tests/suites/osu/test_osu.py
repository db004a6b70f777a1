#!/usr/bin/env python3
"""The osu suite's point-to-point and collective tests through the driver under mpiexec.

-n 1: refused with one line and status 2. -n 2: latency, bw, bibw, multi_lat and mbw_mr at tiny
sizes with -c (no defects), OSU's figures worked out from each record's own time (catalogue E:
MB/s = bytes of one iteration / t with 10^6 B; bw W x, bibw 2 W x, mbw_mr pairs W x; messages/s
= pairs W / t), the console's columns against the JSON figures, the columns the suite declares
with -c -z -extra (OSU 7's headings, order and widths; Validation, percentiles, parbench's
Defects, median and CI worked out from the batch samples, the same in JSON and CSV), OSU's counts (small and large
messages, -i/-x overriding both), every OSU option good and bad (-m, -i, -x, -W, -c, -f, -z,
-M), every collective and bcast_ack with -c, and golden console tables (numbers masked) for
latency, bw and allreduce -f; every test against the PMPI oracle's known answer (each MPI call
costs D on a virtual clock, so a test's time is D times the calls OSU's method makes per
iteration). -n 4: multi_lat and mbw_mr over the pairs r <-> r + 2 (proven by
-c: each receiver's bytes carry its partner's rank), the collectives on four processes, latency
on processes 0 and 1 while the others wait, and the oracle with two pairs. OSU 7.5's added tests
(latency/bw/bibw_persistent, alltoallw, reduce_scatter_block) are in the tables above and, at -n 2
and 4, under the oracle's report: every process's calls and operands against OSU 7.5's sources
(persistent requests per size, starts per iteration, counts and datatypes), with a golden of
their console at -n 2. OSU's 15 nonblocking collectives (iallgather ... iscatterv) at -n 2 and 4
under the oracle (Pure Comm., Coll. Init, MPI_Test with -t, MPI_Wait and Overall against D times
OSU's calls; the overlap recomputed from each row's own times; every process's calls and
operands), and at -n 2 on the real library (the overlap again, the console against the JSON, a
golden table, bad -t values). OSU 7.5's ten neighbourhood tests (neighbor_*, ineighbor_*) under
the oracle at -n 2 (-N graph: an asymmetric two-process graph) and -n 4 (OSU's default cart:1:1):
every process's MPI_Dist_graph_create_adjacent and MPI_Cart_create and each call's neighbours,
counts and displacements against OSU's topology rule recomputed here, the figures against D,
-c's check (no defects, Validation Pass: each block from the right neighbour), the console
against the JSON, a golden table at -n 4; their refusals (-n 1, a topology OSU
refuses, bad -N values).

usage: test_osu.py --np N --parbench PARBENCH --golden DIR --oracle LIB
Set PARBENCH_APPROVE=1 to rewrite the golden files.
"""
import argparse
import collections
import csv
import io
import itertools
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
from pbtest import mask  # noqa: E402
from pbtest.approve import approve  # noqa: E402
from pbtest.expect import close, expect, finish  # noqa: E402
from pbtest.oracle import benchmark_calls, benchmark_operands  # noqa: E402
from pbtest.run import mpi_suite  # noqa: E402

BAD_INPUT = 2
POINT_TO_POINT = ["latency", "bw", "bibw", "multi_lat", "mbw_mr", "latency_persistent",
                  "bw_persistent", "bibw_persistent"]
COLLECTIVES = ["allgather", "allgatherv", "allreduce", "alltoall", "alltoallv", "alltoallw",
               "barrier", "bcast", "gather", "gatherv", "reduce", "reduce_scatter",
               "reduce_scatter_block", "scatter", "scatterv"]
# MPI_INT (OSU 7.5's default of the reductions, osu_util.c:1176-1189): sizes from 4 bytes
REDUCTIONS = {"allreduce", "reduce", "reduce_scatter", "reduce_scatter_block"}
# OSU 7.5's persistent point-to-point tests and its blocking collectives added to 7.3's
OSU75 = ["latency_persistent", "bw_persistent", "bibw_persistent", "alltoallw",
         "reduce_scatter_block"]
# OSU 7.5's 14 persistent collectives (c/mpi/collective/persistent/), each the blocking test's
# call as MPI-4's MPI_<Collective>_init, made once per size, and MPI_Start + MPI_Wait per
# iteration; their banners.
PERSISTENT_COLLECTIVES = {
    "allgather": "Allgather", "allgatherv": "Allgatherv", "allreduce": "Allreduce",
    "alltoall": "All-to-All Personalized Exchange",
    "alltoallv": "All-to-Allv Personalized Exchange",
    "alltoallw": "All-to-Allw Personalized Exchange", "barrier": "Barrier", "bcast": "Broadcast",
    "gather": "Gather", "gatherv": "Gatherv", "reduce": "Reduce",
    "reduce_scatter": "Reduce_scatter", "scatter": "Scatter", "scatterv": "Scatterv"}
# MPICH 4.0's persistent allgather, gather and scatter copy a process's own block only at the
# first MPI_Start: after -c clears the receive buffer that block stays empty (a library defect,
# which OSU's -c reports too), so their defects are asserted only on other libraries.
OWN_BLOCK_ONCE = {"allgather", "gather", "scatter"}
# The banner of each point-to-point test (OSU's BENCHMARK string without "%s")
P2P_BANNERS = {"latency": "# OSU MPI Latency Test", "multi_lat": "# OSU MPI Multi Latency Test",
               "bw": "# OSU MPI Bandwidth Test", "bibw": "# OSU MPI Bi-Directional Bandwidth Test",
               "mbw_mr": "# OSU MPI Multiple Bandwidth / Message Rate Test",
               "latency_persistent": "# OSU MPI Latency Persistent Test",
               "bw_persistent": "# OSU MPI Bandwidth Persistent Test",
               "bibw_persistent": "# OSU MPI Bi-Directional Bandwidth Persistent Test"}
FIELD = 18  # OSU 7's FIELD_WIDTH
# -N graph at -n 2 (OSU's default cart:1:1 needs 3 processes): process 0 sends to 1 twice and
# receives from 1 once, so degrees differ between in and out and between the processes
GRAPH_TWO = [(0, 1), (1, 0), (0, 1)]
D_US = 100.0  # the oracle's cost of one MPI call
# The driver under mpiexec, writing JSON and CSV: (run, JSON rows).
run = mpi_suite("osu", csv_file=True)


def links_asan(program):
    """Whether `program` was built with AddressSanitizer (it links libasan)."""
    return "libasan" in subprocess.run(["ldd", program], capture_output=True, text=True).stdout


def with_oracle(oracle):
    """run()'s keywords that preload the PMPI oracle: every MPI call costs D_US on a virtual
    clock. Under ASan the preloaded library comes before libasan, which is the point here."""
    return {"env": {"ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") +
                    ":verify_asan_link_order=0"},
            "env_args": [f"LD_PRELOAD={os.path.abspath(oracle)}",
                         f"PARBENCH_ORACLE_DELAY_US={D_US}", "PARBENCH_ORACLE_CLOCK=virtual"]}


def table_rows(stdout):
    """The data rows of each block of OSU's console: {benchmark banner index: [fields]}."""
    blocks, current = [], None
    for line in stdout.splitlines():
        line = line.split("  ! ")[0]
        if line.startswith("# OSU "):
            current = {"banner": line, "header": None, "rows": []}
            blocks.append(current)
        elif line.startswith("# Size") or (current and line.startswith(("# Avg",
                                                                        "# Overall(us)"))):
            current["header"] = line
        elif current is not None and line and not line.startswith("#"):
            current["rows"].append(line)
    return blocks


def osu_time(name, r):
    """The time OSU's figure comes from: process 0's own on the pair tests (osu_latency.c:277-278,
    osu_bw.c:363-377 and their persistent forms: process 0's t_end - t_start), the mean of the
    senders' on mbw_mr's rows (osu_mbw_mr.c:656-666), the slowest process's (t_max) on
    multi_lat's."""
    if name == "multi_lat":
        return r["t_max_us"]
    if name == "mbw_mr":
        return r["metrics"]["senders_mean_time_us"]
    return r["metrics"]["process0_time_us"]


def test_mbw_mr_senders(args, np):
    """osu_mbw_mr's figures come from the mean of the senders' times (each sender sums its own
    windows' times, then MPI_Reduce SUM over the senders / num_pairs, osu_mbw_mr.c:656-666), not
    from the slowest process: under the oracle with per-process delays D_r a window costs
    process r (W + 2) D_r (W MPI_Isend or MPI_Irecv, the MPI_Waitall, the reply), so at -n 4
    with D = 100, 300, 500, 700 us and W = 4 the senders 0 and 1 average 6 x 200 = 1200 us where
    the slowest takes 4200 us; MB/s = pairs W X / 1200 us, messages/s = pairs W / 1200 us."""
    delays, window, x = [100.0, 300.0, 500.0, 700.0], 4, 8
    oracle = with_oracle(args.oracle)
    env_args = [a for a in oracle["env_args"] if not a.startswith("PARBENCH_ORACLE_DELAY_US=")]
    env_args.append("PARBENCH_ORACLE_DELAY_US=" + ",".join(f"{d:g}" for d in delays[:np]))
    p, rows = run(["mbw_mr", "-m", f"{x}:{x}", "-i", "2", "-x", "0", "-W", str(window)], np,
                  args.parbench, timeout=200, env=oracle["env"], env_args=env_args)
    pairs = np // 2
    senders = (window + 2) * sum(delays[:pairs]) / pairs
    slowest = (window + 2) * max(delays[:np])
    if not expect(p.returncode == 0 and len(rows) == 1, f"mbw_mr senders: rc {p.returncode}, "
                  f"rows {rows}: {p.stderr[-300:]}"):
        return
    r = rows[0]
    expect(close(r["metrics"].get("senders_mean_time_us", 0), senders, 1e-6) and
           close(r["t_max_us"], slowest, 1e-6) and
           close(r["metrics"]["bandwidth_mb_s"], pairs * window * x / senders, 1e-6) and
           close(r["metrics"]["messages_per_s"], pairs * window * 1e6 / senders, 1e-6),
           f"mbw_mr -n {np} senders: {r['metrics']}, t_max {r['t_max_us']}; expected the "
           f"senders' mean {senders} us (slowest {slowest}), MB/s {pairs * window * x / senders}")


def moved_messages(name, window, pairs):
    """Messages of the message size that one iteration moves (OSU's MB/s numerator over X), or
    None for a latency test: bw W (osu_bw.c, osu_bw_persistent.c: size / 1e6 * iterations *
    window_size), bibw 2 W (osu_bibw*.c: ... * window_size * 2), mbw_mr pairs W."""
    return {"bw": window, "bw_persistent": window, "bibw": 2 * window,
            "bibw_persistent": 2 * window, "mbw_mr": pairs * window}.get(name)


def by_name(rows):
    out = {}
    for r in rows:
        out.setdefault(r["benchmark"], []).append(r)
    return out


def sizes_of(rows):
    return [r["bytes"] for r in rows]


def test_refusals(args):
    for name in ["latency", "allreduce", "latency_persistent", "alltoallw",
                 "allreduce_persistent", "neighbor_allgather", "ineighbor_alltoallw"]:
        p, _ = run([name], 1, args.parbench)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        expect(p.returncode == BAD_INPUT and len(lines) == 1 and "needs 2 processes" in lines[0],
               f"osu {name} at -n 1: rc {p.returncode}, stderr {p.stderr!r}")


def check_point_to_point(rows, np, window, iterations, label):
    named = by_name(rows)
    expect(set(named) == set(POINT_TO_POINT), f"{label}: ran {sorted(named)}")
    pairs = np // 2
    for name, rs in named.items():
        expect(sizes_of(rs) == [1, 2, 4], f"{label} {name}: sizes {sizes_of(rs)}")
        for r in rs:
            t = osu_time(name, r)
            expect(r["iterations"] == iterations, f"{label} {name}: iterations {r['iterations']}")
            expect(r["defects"] == 0, f"{label} {name} {r['bytes']} B: defects {r['defects']}")
            expect(t > 0, f"{label} {name}: time {t}")
            expected_processes = np if name in ("multi_lat", "mbw_mr") else 2
            expect(r["processes"] == expected_processes,
                   f"{label} {name}: {r['processes']} processes")
            x = r["bytes"]
            moved = moved_messages(name, window, pairs)
            if moved is not None:
                mb_s = r["metrics"].get("bandwidth_mb_s", -1)
                # MB/s = bytes per iteration / t[us] (10^6 bytes per second)
                expect(close(mb_s, moved * x / t),
                       f"{label} {name} {x} B: {mb_s} MB/s, expected {moved * x / t}")
            if name == "mbw_mr":
                rate = r["metrics"].get("messages_per_s", -1)
                expect(close(rate, pairs * window * 1e6 / t, 1e-6),
                       f"{label} mbw_mr {x} B: {rate} messages/s, expected "
                       f"{pairs * window * 1e6 / t}")


def check_console_figures(stdout, rows, label):
    """Each block's first value column is the JSON figure OSU reports, to 2 decimals."""
    named = by_name(rows)
    def figure(name, r):
        if name == "multi_lat":
            return r["t_avg_us"]
        return osu_time(name, r) if moved_messages(name, 1, 1) is None else \
            r["metrics"]["bandwidth_mb_s"]
    blocks = table_rows(stdout)
    for name, banner in P2P_BANNERS.items():
        block = [b for b in blocks if b["banner"].startswith(banner + " v")]
        if not expect(len(block) == 1, f"{label}: one block for {name}, got {len(block)}"):
            continue
        rs = named.get(name, [])
        expect(len(block[0]["rows"]) == len(rs) > 0, f"{label} {name}: console rows "
               f"{block[0]['rows']} vs {len(rs)} records")
        for line, r in zip(block[0]["rows"], rs):
            fields = line.split()
            expect(int(fields[0]) == r["bytes"] and
                   abs(float(fields[1]) - figure(name, r)) <= 0.0051,
                   f"{label} {name}: row {line!r} vs {figure(name, r)}")
            expect(len(line) >= 10 + FIELD and line[10 + FIELD - 1] != " ",
                   f"{label} {name}: row {line!r} not in OSU's %-10d%18.2f layout")
            if name == "mbw_mr":
                expect(abs(float(fields[2]) - r["metrics"]["messages_per_s"]) <= 0.0051,
                       f"{label} mbw_mr: messages/s {line!r}")


def osu_tail(samples, q):
    """OSU 7.5's tail latency (omb_calculate_tail_lat, osu_util_mpi.c:745-749): sorted element
    n * q / 100 - 1 in C's integer division (the first where that is below it)."""
    ordered = sorted(samples)
    return ordered[max(1, len(ordered) * q // 100) - 1]


def csv_metrics(csv_text):
    """(benchmark, bytes) -> the metrics of each CSV row, from its name=value;... field."""
    out = {}
    for row in csv.DictReader(io.StringIO(csv_text)):
        pairs = [kv.split("=") for kv in row["metrics"].split(";") if kv]
        out[(row["benchmark"], int(row["bytes"]))] = {k: float(v) for k, v in pairs}
    return out


def check_declared_columns(p, rows, window, label):
    """-c -z -extra: each table's header is OSU 7's columns in OSU's order (figures, Validation,
    P50/P90/P99 Tail Lat(us) on latency tables, Tail BW(MB/s) on bandwidth tables), then
    parbench's Defects and the median and 95 % CI of the first figure, each at its width; every
    cell is the figure worked out here from the record's times and batch samples (a latency's
    derived figures keep the column's ratio to the slowest process's time; a bandwidth is the
    bytes of one iteration over the time; the tails, OSU's, are bounded by the samples'), and
    the JSON metrics and the CSV carry the same figures."""
    pairs = 1
    named = by_name(rows)
    in_csv = csv_metrics(p.csv_text)
    tails = [("P50 Tail Lat(us)", FIELD), ("P90 Tail Lat(us)", FIELD), ("P99 Tail Lat(us)", FIELD)]
    tails_mb = [(f"P{q} Tail BW(MB/s)", FIELD) for q in (50, 90, 99)]
    extra_us = [("Median(us)", FIELD), ("CI95 low(us)", FIELD), ("CI95 high(us)", FIELD)]
    extra_mb = [("Median(MB/s)", FIELD), ("CI95 low(MB/s)", FIELD), ("CI95 high(MB/s)", FIELD)]
    checked = [("Validation", FIELD)]
    defects = [("Defects", 10)]
    tables = {
        "latency": ("# OSU MPI Latency Test v", [("Avg Latency(us)", FIELD)] + checked + tails +
                    defects + extra_us),
        "multi_lat": ("# OSU MPI Multi Latency Test v", [("Avg Latency(us)", FIELD)] + checked +
                      tails + defects + extra_us),
        "bw": ("# OSU MPI Bandwidth Test v", [("Bandwidth (MB/s)", FIELD)] + checked + tails_mb +
               defects + extra_mb),
        "bibw": ("# OSU MPI Bi-Directional Bandwidth Test v",
                 [("Bandwidth (MB/s)", FIELD)] + checked + tails_mb + defects + extra_mb),
        "mbw_mr": ("# OSU MPI Multiple Bandwidth / Message Rate Test v",
                   [("MB/s", FIELD), ("Messages/s", FIELD)] + checked + tails_mb + defects +
                   extra_mb),
        "latency_persistent": ("# OSU MPI Latency Persistent Test v",
                               [("Avg Latency(us)", FIELD)] + checked + tails + defects +
                               extra_us),
        "bw_persistent": ("# OSU MPI Bandwidth Persistent Test v",
                          [("Bandwidth (MB/s)", FIELD)] + checked + tails_mb + defects +
                          extra_mb),
        "bibw_persistent": ("# OSU MPI Bi-Directional Bandwidth Persistent Test v",
                            [("Bandwidth (MB/s)", FIELD)] + checked + tails_mb + defects +
                            extra_mb),
    }
    blocks = table_rows(p.stdout)
    for name, (banner, columns) in tables.items():
        block = [b for b in blocks if b["banner"].startswith(banner)]
        if not expect(len(block) == 1, f"{label}: one {name} table"):
            continue
        want = f"{'# Size':<10}" + "".join(f"{h:>{w}}" for h, w in columns)
        expect(block[0]["header"] == want,
               f"{label} {name}: header\n{block[0]['header']!r}, expected\n{want!r}")
        rs = named.get(name, [])
        expect(len(block[0]["rows"]) == len(rs) > 0, f"{label} {name}: rows vs records")
        for line, r in zip(block[0]["rows"], rs):
            moved = moved_messages(name, window, pairs)
            if moved is None:  # a latency: each derived time keeps the figure's ratio
                ratio = (r["t_avg_us"] if name == "multi_lat" else osu_time(name, r)) / \
                    r["t_max_us"]
                at = lambda t: t * ratio  # noqa: E731
                # OSU's series (process 0's times; multi_lat: each iteration's mean over the
                # processes) is at most the slowest process's time of each iteration, the
                # samples: each tail at most theirs (the known answers: test_osu_options.py)
                tail = [r["metrics"].get(f"p{q}_latency_us", -1) for q in (50, 90, 99)]
                bound = [osu_tail(r["samples_us"], q) for q in (50, 90, 99)]
                expect(tail == sorted(tail) and
                       all(0 < t <= b * (1 + 1e-9) for t, b in zip(tail, bound)),
                       f"{label} {name} {r['bytes']} B: tails {tail}, expected ascending, each "
                       f"at most the slowest process's {bound}")
                stem = "latency_us"
            else:  # MB/s = bytes of one iteration / t (10^6 bytes per second)
                at = lambda t: moved * r["bytes"] / t  # noqa: E731
                # OSU's MB/s of process 0's single windows (its time at most the slowest
                # process's of each window, the samples): each tail at least the samples'
                tail = [r["metrics"].get(f"p{q}_bandwidth_mb_s", -1) for q in (50, 90, 99)]
                bound = [osu_tail([at(t) for t in r["samples_us"]], q) for q in (50, 90, 99)]
                expect(tail == sorted(tail) and
                       all(t >= b * (1 - 1e-9) and t > 0 for t, b in zip(tail, bound)),
                       f"{label} {name} {r['bytes']} B: tails {tail}, expected ascending, each "
                       f"at least the slowest process's {bound}")
                stem = "bandwidth_mb_s"
            lo, hi = sorted([at(r["ci_low_us"]), at(r["ci_high_us"])])
            derived = [at(r["median_us"]), lo, hi]
            fields = line.split()
            k = 3 if name == "mbw_mr" else 2
            expect(fields[k] == "Pass" and fields[k + 1 + len(tail)] == "0",
                   f"{label} {name}: Validation/Defects in {line!r}")
            got = [float(f) for f in fields[k + 1:k + 1 + len(tail)] + fields[-3:]]
            expect(all(abs(a - b) <= 0.0051 for a, b in zip(got, tail + derived)),
                   f"{label} {name}: {line!r}, expected P50.. {tail} median/CI {derived}")
            metrics = dict(zip([f"p{q}_{stem}" for q in (50, 90, 99)], tail))
            metrics.update(zip([f"median_{stem}", f"ci95_low_{stem}", f"ci95_high_{stem}"],
                               derived))
            for key, value in metrics.items():
                expect(close(r["metrics"].get(key, -1), value) and
                       close(in_csv.get((name, r["bytes"]), {}).get(key, -1), value, 1e-5),
                       f"{label} {name} {r['bytes']} B: {key} JSON "
                       f"{r['metrics'].get(key)} CSV {in_csv.get((name, r['bytes']), {}).get(key)}"
                       f", expected {value}")


def test_point_to_point_two(args):
    # -c -z -extra on top of OSU's two columns: checked by check_declared_columns; OSU's
    # window, 64 (the latency tests take no -W, test_osu_options.py)
    small = ["-m", "1:4", "-i", "20", "-x", "2", "-c", "-z", "-extra"]
    p, rows = run(POINT_TO_POINT + small, 2, args.parbench)
    expect(p.returncode == 0, f"osu p2p run: rc {p.returncode}: {p.stderr[-400:]}")
    check_point_to_point(rows, 2, 64, 20, "-n 2")
    check_console_figures(p.stdout, rows, "-n 2")
    check_declared_columns(p, rows, 64, "-n 2")
    expect("# [ pairs: 1 ] [ window size: 64 ]" in p.stdout, "mbw_mr's pairs line")

    # golden: latency and bw as OSU prints them (no -c: OSU's two columns only)
    p, rows = run(["latency", "bw", "-m", "1:4", "-i", "10", "-x", "1"], 2, args.parbench)
    expect(p.returncode == 0 and len(rows) == 6, f"golden run: rc {p.returncode}, {len(rows)} rows")
    approve(os.path.join(args.golden, "osu_latency_bw.txt"), mask.osu_console(p.stdout))


def test_counts(args):
    # OSU's bandwidth counts: 100 (skip 10) up to 8 KiB, 20 (skip 2) above; -i/-x set both
    p, rows = run(["bw", "-m", "8192:16384", "-W", "2"], 2, args.parbench)
    expect(p.returncode == 0 and [r["iterations"] for r in rows] == [100, 20],
           f"bw default counts: rc {p.returncode}, {[r['iterations'] for r in rows]}")
    p, rows = run(["bw", "-m", "8192:16384", "-W", "2", "-i", "3", "-x", "0"], 2, args.parbench)
    expect(p.returncode == 0 and [r["iterations"] for r in rows] == [3, 3],
           f"bw -i 3: rc {p.returncode}, {[r['iterations'] for r in rows]}")
    # collectives: 1000 up to 8 KiB, 100 above
    p, rows = run(["barrier", "bcast", "-m", "8192:16384", "-x", "1"], 2, args.parbench)
    named = by_name(rows)
    expect(p.returncode == 0 and [r["iterations"] for r in named.get("barrier", [])] == [1000] and
           [r["iterations"] for r in named.get("bcast", [])] == [1000, 100],
           f"collective counts: rc {p.returncode}, "
           f"{[(r['benchmark'], r['iterations']) for r in rows]}")


def test_options(args):
    # -m MIN: sets only MIN; default MAX of a collective is 1 MiB (not run: just the sizes)
    p, rows = run(["latency", "-m", "2048:", "-i", "2", "-x", "0"], 2, args.parbench)
    expect(p.returncode == 0 and sizes_of(rows) == [2048 * 2 ** k for k in range(12)],
           f"-m 2048: sizes {sizes_of(rows)}")
    # -mem-limit (OSU 7.3's -M): message buffers of x bytes to send and x to receive per
    # process; 2 x > 64 is skipped
    p, rows = run(["latency", "-m", "1:256", "-i", "2", "-x", "0", "-mem-limit", "64"], 2,
                  args.parbench)
    expect(p.returncode == 0 and sizes_of(rows) == [1, 2, 4, 8, 16, 32],
           f"-mem-limit 64: rc {p.returncode}, sizes {sizes_of(rows)}")
    expect("-mem-limit 64" in p.stdout + p.stderr,
           f"-mem-limit 64: no warning naming it: {p.stdout[-300:]}")
    # -f: min, max and iterations after the average; -z: P50 <= P90 <= P99 over the batches
    # (-f is the collectives': OSU 7.5's point-to-point strings have no f, test_osu_options.py)
    p, rows = run(["allreduce", "-m", "4:8", "-i", "40", "-x", "2", "-f", "-z"], 2,
                  args.parbench)
    expect(p.returncode == 0 and len(rows) == 2, f"-f -z: rc {p.returncode}, {len(rows)} rows")
    named = by_name(rows)
    for block in table_rows(p.stdout):
        name = "allreduce"
        expect("Min Latency(us)" in block["header"] and "Iterations" in block["header"] and
               "P99 Tail Lat(us)" in block["header"], f"-f -z header {block['header']!r}")
        for line, r in zip(block["rows"], named.get(name, [])):
            f = line.split()
            expect(abs(float(f[2]) - r["t_min_us"]) <= 0.0051 and
                   abs(float(f[3]) - r["t_max_us"]) <= 0.0051 and int(f[4]) == 40,
                   f"-f {name}: {line!r} vs min {r['t_min_us']} max {r['t_max_us']}")
            p50, p90, p99 = float(f[5]), float(f[6]), float(f[7])
            # OSU 7.5's percentiles (osu_util_mpi.c:745-749) of OSU's series, each iteration's
            # mean over the processes (allreduce) or process 0's time (latency): the JSON's
            # metrics, each at most the same percentile of the slowest process's times (the
            # samples); the known answers are test_osu_options.py's, under the oracle
            want = [r["metrics"].get(f"p{q}_latency_us", -1) for q in (50, 90, 99)]
            bound = [osu_tail(r["samples_us"], q) for q in (50, 90, 99)]
            expect(p50 <= p90 <= p99 and all(abs(a - b) <= 0.0051 for a, b in
                                             zip((p50, p90, p99), want)) and
                   all(0 < a <= b * (1 + 1e-9) for a, b in zip(want, bound)),
                   f"-z {name}: {line!r}, expected {want}, each at most {bound}")
    approve(os.path.join(args.golden, "osu_allreduce_full.txt"), mask.osu_console(p.stdout))
    # bad values: one line naming the option, status 2
    for bad, word in [(["-m", "4:1"], "-m"), (["-m", "x"], "-m"), (["-m", "1:3000000000"], "-m"),
                      (["-i", "0"], "-i"), (["-i", "-3"], "-i"), (["-x", "abc"], "-x"),
                      (["-W", "0"], "-W"), (["-mem-limit", "0"], "-mem-limit"),
                      (["-mem-limit", "lots"], "-mem-limit"),
                      (["-M", "64"], "OSU 7.5 has no -M"),
                      (["-c", "-i"], "-i"), (["-q"], "")]:
        p, rows = run(["latency"] + bad, 2, args.parbench)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        expect(p.returncode == BAD_INPUT and len(lines) == 1 and word in lines[0] and not rows,
               f"bad {bad}: rc {p.returncode}, stderr {p.stderr!r}")
    # OSU 7.5's sizes (osu_util.c): its point-to-point latency tests start at 0 bytes, the others
    # ignore a MIN of 0 (issue 27 §12)
    p, rows = run(["latency", "bw", "-m", "0:4", "-i", "2", "-x", "0"], 2, args.parbench)
    named = by_name(rows)
    expect(p.returncode == 0 and sizes_of(named.get("latency", [])) == [0, 1, 2, 4] and
           sizes_of(named.get("bw", [])) == [1, 2, 4],
           f"-m 0:4: rc {p.returncode}, sizes {[(r['benchmark'], r['bytes']) for r in rows]}")
    # a range without a size of a test, and -W beyond its bounds (issue 27 §3): one line each
    for argv, words in [(["bw", "-m", "0:0"], "-m 0:0: bw has no message size"),
                        (["allreduce", "-m", "1:2"], "whole 4-byte MPI_INT elements"),
                        (["bw", "-W", "1000000"], "-W 1000000: at most 65536"),
                        (["reduce_scatter_block", "-m", "1:2"],
                         "whole 4-byte MPI_INT elements"),
                        (["bw_persistent", "-W", "1000000"], "-W 1000000: at most 65536"),
                        (["bibw_persistent", "-W", "2147483647"], "above -mem-limit 536870912"),
                        (["bibw", "-W", "2147483647"], "above -mem-limit 536870912"),
                        (["put_bw", "-W", "4096", "-mem-limit", "4096"],
                         "above -mem-limit 4096")]:
        p, rows = run(argv, 2, args.parbench)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        expect(p.returncode == BAD_INPUT and len(lines) == 1 and words in lines[0] and not rows,
               f"{argv}: rc {p.returncode}, stderr {p.stderr!r}")
    # -mem-limit under every size of a one-sided test: each skipped, a warning naming it,
    # status 1
    p, rows = run(["put_latency", "-mem-limit", "1", "-m", "4:8", "-i", "2", "-x", "0"], 2,
                  args.parbench)
    expect(p.returncode == 1 and not rows and "above -mem-limit 1" in p.stdout + p.stderr,
           f"put_latency -mem-limit 1: rc {p.returncode}, {p.stderr[-300:]!r}")


def check_collectives(rows, np, iterations, label):
    named = by_name(rows)
    expect(set(named) == set(COLLECTIVES) | {"bcast_ack"}, f"{label}: ran {sorted(named)}")
    for name, rs in named.items():
        want = [None] if name == "barrier" else [4, 8] if name in REDUCTIONS else [1, 2, 4, 8]
        expect(sizes_of(rs) == want, f"{label} {name}: sizes {sizes_of(rs)}")
        for r in rs:
            expect(r["processes"] == np and r["iterations"] == iterations and r["defects"] == 0,
                   f"{label} {name} {r['bytes']}: {r['processes']} processes, "
                   f"{r['iterations']} iterations, defects {r['defects']}")
            expect((name == "bcast_ack" or 0 < r["t_min_us"]) and
                   r["t_min_us"] <= r["t_avg_us"] <= r["t_max_us"],
                   f"{label} {name}: min/avg/max {r['t_min_us']} {r['t_avg_us']} {r['t_max_us']}")
        if name == "bcast_ack":
            for r in rs:
                ack = r["metrics"].get("ack_us", -1)
                both = r["metrics"].get("bcast_with_ack_us", -1)
                # F97: latency = (bcast + ack) time per iteration - ack time
                expect(ack > 0 and both > 0 and close(r["t_max_us"], max(0.0, both - ack)),
                       f"{label} bcast_ack: ack {ack}, with ack {both}, t_max {r['t_max_us']}")


def check_collective_console(stdout, rows):
    blocks = table_rows(stdout)
    named = by_name(rows)
    for block in blocks:
        if any(w in block["banner"] for w in ("Latency Test v", "Exchange Latency")) and \
                "Multi" not in block["banner"] and "MPI Latency" not in block["banner"]:
            expect("Avg Latency(us)" in block["header"], f"collective header {block['header']!r}")
    barrier = [b for b in blocks if "Barrier" in b["banner"]]
    if expect(len(barrier) == 1 and len(barrier[0]["rows"]) == 1, "one barrier row"):
        expect(abs(float(barrier[0]["rows"][0].split()[0]) - named["barrier"][0]["t_avg_us"])
               <= 0.0051, f"barrier row {barrier[0]['rows']}")


# Timed and warm-up calls per size (-i, -x) in the known-answer runs: the oracle's figures do not
# depend on them. At -n 4 the ranks share two cores and each synchronising call waits for a time
# slice (about 16 ms), so the fewest that still check both counts: two timed, none untimed (-n 2
# keeps a warm-up call to check that it is left out).
FEW_CALLS = {2: (3, 1), 4: (2, 0)}


def oracle_calls(name, window):
    """MPI calls per reported time of each test, from OSU's definitions (catalogue E), each
    costing D on the oracle's virtual clock; and the bytes one iteration moves per pair in
    units of the message size (None: no bandwidth).
      latency, multi_lat: Send + Recv per round trip, halved            -> 1
      bw, mbw_mr: W Isend + Waitall + Recv (receiver: W Irecv + Waitall + Send) -> W + 2
      bibw: W Irecv + W Isend + Waitall (sends) + Waitall (receives) on 0, the receives'
        first on 1 (osu_bibw.c:260-264, 352-363)                        -> 2 W + 2
      collectives: one call -> 1; bcast_ack: root Bcast + Recv, minus the ack's one-way
      Send + Recv halved -> 2 - 1 = 1
    OSU 7.5's persistent tests (c/mpi/pt2pt/persistent/):
      latency_persistent: Start + Wait of the send, Start + Wait of the receive, halved -> 2
      bw_persistent: Startall + Waitall + the reply's Recv (receiver: ... + Send)        -> 3
      bibw_persistent: Startall (receives) + Startall (sends) + Waitall + Waitall       -> 4"""
    if name == "bw" or name == "mbw_mr":
        return window + 2, window
    if name == "bibw":
        return 2 * window + 2, 2 * window
    persistent = {"latency_persistent": 2, "bw_persistent": 3, "bibw_persistent": 4}
    if name in persistent:
        return persistent[name], moved_messages(name, window, 1)
    return 1, None


def test_oracle(args, np):
    # OSU's window, 64, and parbench's --check: in OSU 7.5 the latency tests and the collectives
    # take no -W, barrier no -c (test_osu_options.py)
    window = 64
    iterations, skip = FEW_CALLS[np]
    names = POINT_TO_POINT + COLLECTIVES + ["bcast_ack"]
    p, rows = run(names + ["-m", "1:8", "-i", str(iterations), "-x", str(skip), "--check"], np,
                  args.parbench, timeout=400, **with_oracle(args.oracle))
    expect(p.returncode == 0 and set(by_name(rows)) == set(names),
           f"oracle -n {np}: rc {p.returncode}, ran {sorted(by_name(rows))}: {p.stderr[-400:]}")
    check_collectives([r for r in rows if r["benchmark"] not in POINT_TO_POINT], np, iterations,
                      f"oracle -n {np}")
    check_collective_console(p.stdout, rows)
    pairs = np // 2
    for r in rows:
        name, x = r["benchmark"], r["bytes"] or 0
        calls, per_pair = oracle_calls(name, window)
        t = calls * D_US
        # OSU's figure: process 0's time (latency, bw, bibw and their persistent forms), the
        # average over the processes (multi_lat, collectives), the root's (bcast_ack: t_max)
        figure = r["t_avg_us"] if name == "multi_lat" or name in COLLECTIVES else \
            r["t_max_us"] if name == "bcast_ack" else osu_time(name, r)
        expect(close(figure, t, 1e-6), f"oracle -n {np} {name} {x} B: {figure} us, expected {t}")
        if per_pair is not None:
            moved = (pairs if name == "mbw_mr" else 1) * per_pair * x
            expect(close(r["metrics"]["bandwidth_mb_s"], moved / t, 1e-6),
                   f"oracle -n {np} {name} {x} B: {r['metrics']['bandwidth_mb_s']} MB/s, "
                   f"expected {moved / t}")
        if name == "mbw_mr":
            expect(close(r["metrics"]["messages_per_s"], pairs * window * 1e6 / t, 1e-6),
                   f"oracle -n {np} mbw_mr: {r['metrics']['messages_per_s']} messages/s")
        if name == "bcast_ack":
            expect(close(r["metrics"]["ack_us"], D_US, 1e-6) and
                   close(r["metrics"]["bcast_with_ack_us"], 2 * D_US, 1e-6),
                   f"oracle -n {np} bcast_ack: {r['metrics']}")


def osu75_calls(np, window, calls_per_size, sizes):
    """What each process of OSU 7.5's added tests calls, from their sources: {rank: {function:
    {operand: calls}}}, for `sizes` (the byte sizes of -m; the reductions keep whole MPI_INTs)
    with skip + iterations = `calls_per_size` calls of the kernel per size.
      osu_alltoallw.c: one MPI_Alltoallw of X MPI_CHARs per process (sendcounts[i] = num_elements)
      osu_reduce_scatter_block.c: MPI_Reduce_scatter_block(..., portion = (X / 4) / n, MPI_INT,
        MPI_SUM)
      osu_latency_persistent.c: per size one MPI_Send_init and one MPI_Recv_init of X MPI_CHARs
        on processes 0 and 1; per iteration 2 MPI_Start
      osu_bw_persistent.c: per size W MPI_Send_init on 0, W MPI_Recv_init on 1; per iteration one
        MPI_Startall and a reply of one MPI_CHAR (MPI_Send on 1)
      osu_bibw_persistent.c: per size W of each on both; per iteration 2 MPI_Startall"""
    out = {}
    for rank in range(np):
        want = collections.defaultdict(collections.Counter)
        for x in sizes:
            want["MPI_Alltoallw"][f"MPI_CHAR x {x}"] += calls_per_size
            if x >= 4:
                want["MPI_Reduce_scatter_block"][f"MPI_INT x {x // 4 // np} op MPI_SUM"] += \
                    calls_per_size
            if rank > 1:
                continue
            key = f"MPI_CHAR x {x}"
            want["MPI_Send_init"][key] += 1 + window + (window if rank == 0 else 0)
            want["MPI_Recv_init"][key] += 1 + window + (window if rank == 1 else 0)
            if rank == 1:
                want["MPI_Send"]["MPI_CHAR x 1"] += calls_per_size
        out[rank] = want
    return out


def test_osu75_calls(args, np):
    """OSU 7.5's added tests under the PMPI oracle with its report: every process's calls and
    their operands (datatype x count) against OSU's sources, -c without defects, and the console
    rows in OSU's layout."""
    # OSU's window, 64: latency_persistent and the collectives take no -W in OSU 7.5
    window, iterations, skip = 64, 3, 2
    sizes = [1, 2, 4, 8, 16, 32, 64]
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "oracle")
        oracle = with_oracle(args.oracle)
        p, rows = run(OSU75 + ["-m", "1:64", "-i", str(iterations), "-x", str(skip), "-c"], np,
                      args.parbench, timeout=400,
                      env=oracle["env"],
                      env_args=oracle["env_args"] + [f"PARBENCH_ORACLE_REPORT={prefix}"])
        reports = {}
        for rank in range(np):
            path = f"{prefix}.{rank}.json"
            if os.path.exists(path):
                with open(path) as f:
                    reports[rank] = json.load(f)
    label = f"osu 7.5 tests -n {np}"
    named = by_name(rows)
    expect(p.returncode == 0 and set(named) == set(OSU75) and len(reports) == np,
           f"{label}: rc {p.returncode}, ran {sorted(named)}, {len(reports)} reports: "
           f"{p.stderr[-400:]}")
    for name, rs in named.items():
        want = [x for x in sizes if x >= 4] if name in REDUCTIONS else sizes
        expect(sizes_of(rs) == want and all(r["defects"] == 0 and r["iterations"] == iterations
                                            for r in rs),
               f"{label} {name}: {[(r['bytes'], r['iterations'], r['defects']) for r in rs]}")
    started = {"MPI_Start": 2 * len(sizes) * (iterations + skip),       # latency_persistent
               "MPI_Startall": 3 * len(sizes) * (iterations + skip)}    # bw 1, bibw 2
    for rank, want in osu75_calls(np, window, iterations + skip, sizes).items():
        report = reports.get(rank, {"calls": {}, "operands": {}})
        for function, operands in want.items():
            got = report["operands"].get(function, {})
            if function == "MPI_Send":  # other parts of the run may send; the replies are these
                got = {k: v for k, v in got.items() if k in operands}
            expect(got == dict(operands),
                   f"{label} rank {rank} {function}: {got}, expected {dict(operands)}")
        for function, calls in started.items():
            want_calls = calls if rank < 2 else 0
            expect(report["calls"].get(function) == want_calls,
                   f"{label} rank {rank} {function}: {report['calls'].get(function)} calls, "
                   f"expected {want_calls}")


def test_osu75_golden(args):
    """OSU 7.5's added tests as the console prints them (numbers masked): banners, datatype
    lines, OSU's two columns."""
    p, rows = run(OSU75 + ["-m", "1:8", "-i", "10", "-x", "1"], 2, args.parbench)
    expect(p.returncode == 0 and len(rows) == 3 * 4 + 4 + 2,
           f"osu 7.5 golden run: rc {p.returncode}, {len(rows)} rows: {p.stderr[-400:]}")
    approve(os.path.join(args.golden, "osu_75_added.txt"), mask.osu_console(p.stdout))


def persistent_collective_operands(name, x, np):
    """The operand the oracle records for the _init call of `name` at X bytes, from OSU 7.5's
    sources (as the blocking test's call): X MPI_CHARs (send count; scatter's receive count),
    X/4 MPI_INTs summed, reduce_scatter's recvcounts[0] (osu_reduce_scatter_persistent.c:
    1 below n elements, else portion + 1 with a remainder); None for the barrier."""
    if name == "barrier":
        return None
    if name in ("allreduce", "reduce"):
        return f"MPI_INT x {x // 4} op MPI_SUM"
    if name == "reduce_scatter":
        elements = x // 4
        first = 1 if elements < np else elements // np + (1 if elements % np else 0)
        return f"MPI_INT x {first} op MPI_SUM"
    return f"MPI_CHAR x {x}"


def test_persistent_collectives(args, np):
    """OSU 7.5's persistent collectives under the PMPI oracle: MPI_Start + MPI_Wait per iteration
    (2 D, the average over the processes), one _init per size on every process with the blocking
    test's operand, OSU's banners and columns, and -c."""
    iterations, skip = FEW_CALLS[np]
    # at -n 4 two sizes: each size costs every process scheduler time slices on two cores
    sizes = [1, 2, 4, 8, 16] if np <= 2 else [4, 8]
    names = [f"{n}_persistent" for n in PERSISTENT_COLLECTIVES]
    label = f"persistent collectives -n {np}"
    # MPICH 4.0's persistent MPI_Scatter aborts when restarted on more than 2 processes: there
    # the suite refuses scatter_persistent in one line rather than lose the run
    p, rows = run(["scatter_persistent", "-m", "1:1", "-i", "1", "-x", "0"], np, args.parbench)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    refused = p.returncode == BAD_INPUT
    expect(p.returncode == 0 or (refused and len(lines) == 1 and not rows and
                                 "MPICH 4.0's persistent MPI_Scatter" in lines[0]),
           f"{label} scatter_persistent alone: rc {p.returncode}, stderr {p.stderr[-300:]!r}")
    if refused:
        names.remove("scatter_persistent")
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "oracle")
        oracle = with_oracle(args.oracle)
        # parbench's --check: barrier_persistent takes no -c in OSU 7.5
        p, rows = run(names + ["-m", f"{sizes[0]}:{sizes[-1]}", "-i", str(iterations), "-x",
                               str(skip), "--check"], np,
                      args.parbench, timeout=400, env=oracle["env"],
                      env_args=oracle["env_args"] + [f"PARBENCH_ORACLE_REPORT={prefix}"])
        reports = {}
        for rank in range(np):
            if os.path.exists(f"{prefix}.{rank}.json"):
                with open(f"{prefix}.{rank}.json") as f:
                    reports[rank] = json.load(f)
    named = by_name(rows)
    # 5: -c found defects (MPICH 4.0's persistent gathers below), which fail the run.
    expect(p.returncode in (0, 5) and set(named) == set(names) and len(reports) == np,
           f"{label}: rc {p.returncode}, ran {sorted(named)}, {len(reports)} reports: "
           f"{p.stderr[-400:]}")
    library = p.plugin_context.get("mpi_library", "")
    expect(library.strip() != "" and p.plugin_context.get("processes") == np,
           f"{label}: context library {library[:40]!r}, processes "
           f"{p.plugin_context.get('processes')} (report::mpi_suite_context)")
    own_block_once = library.startswith("MPICH Version:\t4.0")
    defective = sorted({r["benchmark"] for r in rows if (r["defects"] or 0) > 0})
    expect((p.returncode == 5) == bool(defective) and
           all(d.split("_")[0] in OWN_BLOCK_ONCE and own_block_once for d in defective),
           f"{label}: rc {p.returncode} with defects in {defective}")
    expect(refused == (own_block_once and np > 2),
           f"{label}: scatter_persistent refused {refused} on {library[:40]!r}")
    blocks = {b["banner"].split(" v")[0]: b for b in table_rows(p.stdout)}
    starts = 0
    for base, banner in PERSISTENT_COLLECTIVES.items():
        name = f"{base}_persistent"
        if name not in names:
            continue
        rs = named.get(name, [])
        want = [None] if base == "barrier" else \
            [x for x in sizes if x >= 4] if base in ("allreduce", "reduce", "reduce_scatter") \
            else sizes
        expect(sizes_of(rs) == want, f"{label} {name}: sizes {sizes_of(rs)}")
        starts += len(want) * (iterations + skip)
        for r in rs:
            # MPI_Start + MPI_Wait: 2 D on every process; OSU reports the average
            expect(close(r["t_avg_us"], 2 * D_US, 1e-6) and r["processes"] == np and
                   r["iterations"] == iterations,
                   f"{label} {name} {r['bytes']}: {r['t_avg_us']} us, expected {2 * D_US}")
            expect(r["defects"] == 0 or (own_block_once and base in OWN_BLOCK_ONCE),
                   f"{label} {name} {r['bytes']}: defects {r['defects']}")
        block = blocks.get(f"# OSU MPI {banner} Persistent Latency Test")
        if expect(block is not None, f"{label}: no block for {name}"):
            expect("Avg Latency(us)" in block["header"] and len(block["rows"]) == len(rs),
                   f"{label} {name}: header {block['header']!r}, {len(block['rows'])} rows")
        for rank in range(np):
            report = reports.get(rank, {"calls": {}, "operands": {}})
            function = "MPI_" + base.capitalize() + "_init"
            keys = [persistent_collective_operands(base, x or 0, np) for x in want]
            if base == "barrier":
                expect(report["calls"].get(function) == 1,
                       f"{label} rank {rank} {function}: {report['calls'].get(function)} calls")
                continue
            got = report["operands"].get(function, {})
            expect(got == dict(collections.Counter(keys)),
                   f"{label} rank {rank} {function}: {got}, expected {collections.Counter(keys)}")
    for rank in range(np):
        calls = reports.get(rank, {"calls": {}})["calls"].get("MPI_Start")
        expect(calls == starts, f"{label} rank {rank}: {calls} MPI_Start calls, expected {starts}")


# OSU's nonblocking collective tests (c/mpi/collective/non_blocking/osu_i*.c): the function
# each calls and its banner
NBC = {"iallgather": ("MPI_Iallgather", "Allgather"),
       "iallgatherv": ("MPI_Iallgatherv", "Allgatherv"),
       "iallreduce": ("MPI_Iallreduce", "Allreduce"),
       "ialltoall": ("MPI_Ialltoall", "All-to-All"),  # OSU 7.5's banners, as they are
       "ialltoallv": ("MPI_Ialltoallv", "All-to-Allv Personalized Exchange"),
       "ialltoallw": ("MPI_Ialltoallw", "All-to-Allw Personalized Exchange"),
       "ibarrier": ("MPI_Ibarrier", "Barrier"), "ibcast": ("MPI_Ibcast", "Broadcast"),
       "igather": ("MPI_Igather", "Gather"), "igatherv": ("MPI_Igatherv", "Gatherv"),
       "ireduce": ("MPI_Ireduce", "Reduce"),
       "ireduce_scatter": ("MPI_Ireduce_scatter", "Reduce_scatter"),
       "ireduce_scatter_block": ("MPI_Ireduce_scatter_block", "Reduce_scatter_block"),
       "iscatter": ("MPI_Iscatter", "Scatter"), "iscatterv": ("MPI_Iscatterv", "Scatterv")}
NBC_REDUCTIONS = {"iallreduce", "ireduce", "ireduce_scatter", "ireduce_scatter_block"}
NBC_FIGURES = ["compute_us", "init_us", "test_us", "wait_us", "pure_comm_us", "min_comm_us",
               "max_comm_us", "overlap_percent"]


def osu_overlap(overall, compute, pure):
    """print_stats_nbc (osu_util_mpi.c): MAX(0, 100 - (overall - compute) / pure * 100), where
    compute is the dummy compute without its MPI_Test calls."""
    return max(0.0, 100.0 - (overall - compute) / pure * 100.0)


def check_nbc_rows(rows, np, iterations, label, sizes=(1, 2, 4, 8)):
    """Every row of the nonblocking tests: its sizes, OSU's figures present, the overlap worked
    out from the row's own Overall, Compute and Pure Comm., min <= mean <= max of the pure time,
    no defects (-c)."""
    named = by_name(rows)
    expect(set(named) == set(NBC), f"{label}: ran {sorted(named)}")
    for name, rs in named.items():
        want = [None] if name == "ibarrier" else \
            [x for x in sizes if x >= 4 or name not in NBC_REDUCTIONS]
        expect(sizes_of(rs) == want, f"{label} {name}: sizes {sizes_of(rs)}")
        for r in rs:
            m = r["metrics"]
            if not expect(all(k in m for k in NBC_FIGURES), f"{label} {name}: metrics {m}"):
                continue
            expect(r["processes"] == np and r["iterations"] == iterations and
                   r["defects"] == 0, f"{label} {name} {r['bytes']}: {r['processes']} processes,"
                   f" {r['iterations']} iterations, defects {r['defects']}")
            expect(close(m["overlap_percent"], osu_overlap(r["t_avg_us"], m["compute_us"],
                                                           m["pure_comm_us"]), 1e-9) or
                   abs(m["overlap_percent"] - osu_overlap(r["t_avg_us"], m["compute_us"],
                                                          m["pure_comm_us"])) < 1e-9,
                   f"{label} {name} {r['bytes']}: overlap {m['overlap_percent']} from overall "
                   f"{r['t_avg_us']} compute {m['compute_us']} pure {m['pure_comm_us']}")
            expect(m["min_comm_us"] <= m["pure_comm_us"] * (1 + 1e-12) and
                   m["pure_comm_us"] <= m["max_comm_us"] * (1 + 1e-12),
                   f"{label} {name}: pure min/mean/max {m['min_comm_us']} {m['pure_comm_us']} "
                   f"{m['max_comm_us']}")


def check_nbc_console(stdout, rows, full, label):
    """OSU's nonblocking table (print_only_header_nbc, print_stats_nbc): the banner, the
    'Overall = ...' line, the header, and each row's fields equal to the JSON figures."""
    named = by_name(rows)
    columns = (["t_avg_us", "compute_us"] + (["init_us", "test_us", "wait_us"] if full else []) +
               ["pure_comm_us"] + (["min_comm_us", "max_comm_us"] if full else []) +
               ["overlap_percent"])
    for name, (_, banner) in NBC.items():
        # OSU 7.5 spells it "Non-Blocking" in osu_ibcast.c alone
        blocking = "Non-Blocking" if name == "ibcast" else "Non-blocking"
        title = f"# OSU MPI {blocking} {banner} Latency Test v7.5\n"
        expect(title in stdout, f"{label}: no banner {title!r}")
    for block in table_rows(stdout):
        hit = [n for n, (_, b) in NBC.items()
               if f"Non-blocking {b} Latency".lower() in block["banner"].lower()]
        if not hit:
            continue
        name = hit[0]
        header = block["header"] or ""
        want_head = "Overall(us)" + "Compute(us)".rjust(FIELD)
        # OSU's columns, then -c's Validation (and parbench's Defects)
        expect(want_head in header and header.split()[-3 if "Validation" in header else -1]
               == "Overlap(%)" and
               (("MPI_Test(us)" in header and "Max Comm.(us)" in header) == full),
               f"{label} {name}: header {header!r}")
        for line, r in zip(block["rows"], named.get(name, [])):
            f = line.split()
            values = (f if name == "ibarrier" else f[1:])[:len(columns)]
            want = [r["t_avg_us"] if c == "t_avg_us" else r["metrics"][c] for c in columns]
            expect(len(values) == len(want) and
                   all(abs(float(a) - b) <= 0.0051 for a, b in zip(values, want)),
                   f"{label} {name}: row {line!r}, JSON {want}")


def test_nbc(args, np, probe_counts=(0, 2)):
    """The 15 nonblocking collectives: under the PMPI oracle (each MPI call costs D on a virtual
    clock; the dummy compute runs on the real clock, so it costs no virtual time) OSU's known
    answers per process and size:
      Pure Comm. = I<call> + MPI_Wait = 2 D (min = max = 2 D)
      Coll. Init = D, MPI_Wait = D, MPI_Test = T D with -t T, Compute = 0
      Overall = (2 + T) D, Overlap = max(0, 100 - (2 + T) D / 2 D * 100) = 0
    and the oracle's report: per size and process 2 (x + i) calls of the test's function (pure
    and overall loops, OSU's skip + iterations each) with OSU's operands, and at least T (x + i)
    MPI_Test calls per size with -t T (the library's quiet barriers test too)."""
    (iterations, skip), probes = FEW_CALLS[np], probe_counts[-1]
    # at -n 4 two sizes: each size costs every process scheduler time slices on two cores
    sizes = [1, 2, 4, 8] if np <= 2 else [4, 8]
    runs = {}
    with tempfile.TemporaryDirectory() as tmp:
        for t in probe_counts:
            prefix = os.path.join(tmp, f"oracle{t}")
            oracle = with_oracle(args.oracle)
            p, rows = run(list(NBC) + ["-m", f"{sizes[0]}:{sizes[-1]}", "-i", str(iterations),
                                       "-x", str(skip),  # --check: ibarrier takes no -c
                                       "-t", str(t), "--check", "-f"], np, args.parbench,
                          timeout=400, env=oracle["env"],
                          env_args=oracle["env_args"] + [f"PARBENCH_ORACLE_REPORT={prefix}"])
            reports = {}
            for rank in range(np):
                path = f"{prefix}.{rank}.json"
                if os.path.exists(path):
                    with open(path) as f:
                        reports[rank] = json.load(f)
            runs[t] = (p, rows, reports)
    for t, (p, rows, reports) in runs.items():
        label = f"nbc oracle -n {np} -t {t}"
        if not expect(p.returncode == 0 and len(reports) == np,
                      f"{label}: rc {p.returncode}, {len(reports)} reports: {p.stderr[-600:]}"):
            continue
        check_nbc_rows(rows, np, iterations, label, sizes)
        check_nbc_console(p.stdout, rows, True, label)
        for r in rows:
            m, name = r["metrics"], f"{label} {r['benchmark']} {r['bytes']}"
            want = {"pure_comm_us": 2 * D_US, "min_comm_us": 2 * D_US, "max_comm_us": 2 * D_US,
                    "init_us": D_US, "wait_us": D_US, "test_us": t * D_US}
            for k, v in want.items():
                expect(close(m.get(k, -1), v, 1e-6), f"{name}: {k} {m.get(k)}, expected {v}")
            expect(abs(m.get("compute_us", -1)) < 1e-3 and
                   close(r["t_avg_us"], (2 + t) * D_US, 1e-6) and
                   abs(m.get("overlap_percent", -1)) < 1e-6,
                   f"{name}: overall {r['t_avg_us']}, compute {m.get('compute_us')}, overlap "
                   f"{m.get('overlap_percent')}, expected {(2 + t) * D_US}, 0, 0")
        # the calls: OSU's two loops per size, skip + iterations each, on every process
        for rank in range(np):
            report = reports[rank]
            for name, (function, _) in NBC.items():
                calls = benchmark_calls(report, function)
                per_size = 2 * (iterations + skip)
                n_sizes = 1 if name == "ibarrier" else \
                    len([x for x in sizes if x >= 4 or name not in NBC_REDUCTIONS])
                if name == "ibarrier":  # the library's quiet barriers are MPI_Ibarrier too
                    expect(calls >= per_size, f"{label} rank {rank} {function}: {calls} calls")
                    continue
                expect(calls == per_size * n_sizes,
                       f"{label} rank {rank} {function}: {calls} calls, expected "
                       f"{per_size * n_sizes}")
                want = collections.Counter()
                for x in sizes:
                    if name in NBC_REDUCTIONS and x < 4:
                        continue
                    # IMB's split of X/4 floats (ireduce_scatter): process 0 gets one of the
                    # remainder; recvcounts[0] is what the oracle records
                    split = x // 4 // np + (1 if x // 4 % np else 0)
                    key = {"iallreduce": f"MPI_INT x {x // 4} op MPI_SUM",
                           "ireduce": f"MPI_INT x {x // 4} op MPI_SUM",
                           "ireduce_scatter_block": f"MPI_INT x {x // 4 // np} op MPI_SUM",
                           "ireduce_scatter": f"MPI_INT x {split} op MPI_SUM",
                           }.get(name, f"MPI_CHAR x {x}")
                    want[key] += per_size
                got = benchmark_operands(report, function)
                expect(got == dict(want), f"{label} rank {rank} {function}: {got}, expected "
                                          f"{dict(want)}")
    if runs[probes][0].returncode == 0 and len(runs[probes][2]) == np:
        # -t T: T MPI_Test calls per overall iteration on every process (at least: the
        # library's quiet barriers test too, a varying number of times)
        n_iterations = sum(1 if n == "ibarrier" else
                           len([x for x in sizes if x >= 4 or n not in NBC_REDUCTIONS])
                           for n in NBC) * (iterations + skip)
        for rank in range(np):
            calls = runs[probes][2][rank]["calls"].get("MPI_Test", 0)
            expect(calls >= probes * n_iterations,
                   f"nbc -n {np} rank {rank}: {calls} MPI_Test calls with -t {probes}, expected "
                   f"at least {probes * n_iterations}")


def test_nbc_real(args):
    """The nonblocking tests on the real MPI library at -n 2 (no oracle): OSU's overlap from
    each row's own three times; the console without -f; the golden table of OSU's layout
    (numbers masked); bad -t values."""
    p, rows = run(list(NBC) + ["-m", "1:8", "-i", "5", "-x", "1", "--check"], 2, args.parbench,
                  timeout=300)
    if expect(p.returncode == 0, f"nbc real: rc {p.returncode}: {p.stderr[-600:]}"):
        check_nbc_rows(rows, 2, 5, "nbc real")
        check_nbc_console(p.stdout, rows, False, "nbc real")
    p, rows = run(["iallreduce", "ibarrier", "ialltoall", "-m", "4:8", "-i", "4", "-x", "1",
                   "-f", "-t", "1"], 2, args.parbench)
    expect(p.returncode == 0 and len(rows) == 5, f"nbc golden run: rc {p.returncode}, "
                                                 f"{len(rows)} rows: {p.stderr[-400:]}")
    approve(os.path.join(args.golden, "osu_nbc_full.txt"), mask.osu_console(p.stdout))
    for bad in (["-t", "abc"], ["-t", "-1"], ["-t", "3000000000"], ["-t"]):
        p, rows = run(["iallreduce"] + bad, 2, args.parbench)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        expect(p.returncode == BAD_INPUT and len(lines) == 1 and
               lines[0].startswith("parbench:") and "-t" in lines[0] and not rows,
               f"bad {bad}: rc {p.returncode}, stderr {p.stderr!r}")


# OSU 7.5's neighbourhood collectives (c/mpi/collective/neighborhood/): the function each calls
# and its banner (osu_neighbor_alltoallw.c:1 prints the blocking alltoallw's)
NEIGHBOR = {"neighbor_allgather": ("MPI_Neighbor_allgather", "Neighborhood Allgather"),
            "neighbor_allgatherv": ("MPI_Neighbor_allgatherv", "Neighborhood Allgatherv"),
            "neighbor_alltoall": ("MPI_Neighbor_alltoall", "Neighborhood Alltoall"),
            "neighbor_alltoallv": ("MPI_Neighbor_alltoallv", "Neighborhood All-to-Allv"),
            "neighbor_alltoallw": ("MPI_Neighbor_alltoallw",
                                   "All-to-Allw Personalized Exchange")}
INEIGHBOR = {"i" + name: ("MPI_Ineighbor" + function[len("MPI_Neighbor"):],
                          "Non-blocking Neighborhood " + name.split("_")[1].capitalize())
             for name, (function, _) in NEIGHBOR.items()}


def dims_create(n, d):
    """MPI_Dims_create(n, d): the most balanced d factors of n, largest first."""
    best = None

    def shapes(rest, left, most):
        if left == 1:
            if rest <= most:
                yield [rest]
            return
        for f in range(min(rest, most), 0, -1):
            if rest % f == 0:
                for tail in shapes(rest // f, left - 1, f):
                    yield [f] + tail
    for shape in shapes(n, d, n):
        if best is None or max(shape) - min(shape) < max(best) - min(best):
            best = shape
    return best


def cart_neighbors(n, d, r, rank):
    """omb_neighborhood_create (osu_util_mpi.c) for -N cart:d:r: the periodic grid of
    MPI_Dims_create's shape, ranks row-major; every displacement in [-r, r]^d, the last
    dimension's fastest, but the one that lands on the process itself; sources = destinations."""
    dims = dims_create(n, d)
    coords, rest = [], rank
    for size in reversed(dims):
        coords.insert(0, rest % size)
        rest //= size
    out = []
    for disp in itertools.product(range(-r, r + 1), repeat=d):
        at = 0
        for c, s, size in zip(coords, disp, dims):
            at = at * size + (c + s) % size
        if at != rank:
            out.append(at)
    return out, out


def graph_neighbors(edges, rank):
    """-N graph:FILE: the sources are the SRC of the edges into the process, the destinations
    the DEST of the edges out of it, in the file's order."""
    return [s for s, d in edges if d == rank], [d for s, d in edges if s == rank]


def neighbor_keys(name, x, sources, destinations):
    """The oracle's key of one call of test `name` of x bytes: X MPI_CHARs per neighbour, the
    v-forms with counts X and displacements k X (alltoallw's in bytes: the same for MPI_CHAR),
    as osu_neighbor_*.c fill them."""
    def joined(values):
        return ",".join(str(v) for v in values) or "-"
    where = f" in {joined(sources)} out {joined(destinations)}"
    base = name.lstrip("i").replace("neighbor_", "")
    recv = f"recv {joined([x] * len(sources))} at {joined(k * x for k in range(len(sources)))}"
    send = f"send {joined([x] * len(destinations))} at " \
           f"{joined(k * x for k in range(len(destinations)))}"
    if base in ("allgather", "alltoall"):
        return f"MPI_CHAR x {x}" + where
    if base == "allgatherv":
        return f"MPI_CHAR send {x} {recv}" + where
    return f"MPI_CHAR {send} {recv}" + where


def test_neighbor(args, np, topology=None, edges=None):
    """The ten neighbourhood tests under the PMPI oracle, on OSU's default -N cart:1:1 (np 4:
    neighbours r - 1 and r + 1) or -N graph:FILE with `edges`: every process's
    MPI_Dist_graph_create_adjacent (its neighbours from OSU's rule, recomputed here; weights 1,
    no reordering; once per size) and MPI_Cart_create, and each call's neighbours, counts and
    displacements; -c: 0 defects and Validation Pass on every row (the check expects the l-th
    block from the l-th source, the alltoalls' the part the source sent this process); the
    figures: blocking Avg Latency = D (one call per iteration), nonblocking
    Pure Comm. = 2 D, Coll. Init = D, MPI_Wait = D, MPI_Test = T D, Overall = (2 + T) D,
    Overlap 0 (and from the row's own figures); the console against the JSON; a golden table.
    No -t (T = 0: MPI_Test's figure 0): the blocking neighbourhood tests, in the same run, take
    none in OSU 7.5 (OMBOP__COLLECTIVE__NHBR_GATHER); the nonblocking kernel's -t is test_nbc's."""
    iterations, skip, probes = 3, 1, 0
    sizes = [2, 4] if np == 2 else [4]  # two graphs per test at -n 2, one size at -n 4 (time)
    names = list(NEIGHBOR) + list(INEIGHBOR)
    # MPICH 4.0.2 in a program built with AddressSanitizer misdelivers MPI_Neighbor_alltoallw on
    # a graph with a repeated edge: a plain C program of its calls on edges 0,1 1,0 1,0 (mpicc
    # -fsanitize=address) found rank 0's blocks wrong in 80 of 80 calls, 0 of 80 without ASan;
    # parbench's sanitizer build the same, its release build never. There the graph's run
    # leaves -c out (the cart run, no edge repeated, keeps it).
    checked = not (edges is not None and len(set(edges)) < len(edges) and
                   links_asan(args.parbench))
    with tempfile.TemporaryDirectory() as tmp:
        extra = []
        if edges is not None:
            path = os.path.join(tmp, "graph.txt")
            with open(path, "w") as f:
                f.write("# SRC,DEST\n" + "".join(f"{s},{d}\n" for s, d in edges))
            extra = ["-N", f"graph:{path}"]
        prefix = os.path.join(tmp, "oracle")
        oracle = with_oracle(args.oracle)
        p, rows = run(names + ["-m", f"{sizes[0]}:{sizes[-1]}", "-i", str(iterations), "-x",
                               str(skip), "-f"] + (["-c"] if checked else []) + extra, np,
                      args.parbench, timeout=400,
                      env=oracle["env"],
                      env_args=oracle["env_args"] + [f"PARBENCH_ORACLE_REPORT={prefix}"])
        reports = {}
        for rank in range(np):
            if os.path.exists(f"{prefix}.{rank}.json"):
                with open(f"{prefix}.{rank}.json") as f:
                    reports[rank] = json.load(f)
    label = f"neighbourhood -n {np} {'graph' if edges else 'cart:1:1'}"
    named = by_name(rows)
    if not expect(p.returncode == 0 and set(named) == set(names) and len(reports) == np,
                  f"{label}: rc {p.returncode}, ran {sorted(named)}, {len(reports)} reports: "
                  f"{p.stderr[-600:]}"):
        return
    for name, rs in named.items():
        expect(sizes_of(rs) == sizes and all(r["processes"] == np and
                                             r["iterations"] == iterations for r in rs),
               f"{label} {name}: {[(r['bytes'], r['processes'], r['iterations']) for r in rs]}")
        # -c: every block received holds its source's bytes (0 defects, not the unchecked None)
        expect(all(r["defects"] == (0 if checked else None) for r in rs),
               f"{label} {name} -c: defects {[(r['bytes'], r['defects']) for r in rs]}")
        for r in rs:
            m, where = r["metrics"], f"{label} {name} {r['bytes']}"
            if name in NEIGHBOR:
                expect(close(r["t_avg_us"], D_US, 1e-6) and close(r["t_min_us"], D_US, 1e-6)
                       and close(r["t_max_us"], D_US, 1e-6),
                       f"{where}: {r['t_min_us']} {r['t_avg_us']} {r['t_max_us']}, expected {D_US}")
                continue
            want = {"pure_comm_us": 2 * D_US, "min_comm_us": 2 * D_US, "max_comm_us": 2 * D_US,
                    "init_us": D_US, "wait_us": D_US, "test_us": probes * D_US}
            for k, v in want.items():
                expect(close(m.get(k, -1), v, 1e-6), f"{where}: {k} {m.get(k)}, expected {v}")
            expect(abs(m.get("compute_us", -1)) < 1e-3 and
                   close(r["t_avg_us"], (2 + probes) * D_US, 1e-6) and
                   abs(m.get("overlap_percent", -1)) < 1e-6 and
                   abs(m["overlap_percent"] - osu_overlap(r["t_avg_us"], m["compute_us"],
                                                          m["pure_comm_us"])) < 1e-9,
                   f"{where}: overall {r['t_avg_us']}, compute {m.get('compute_us')}, overlap "
                   f"{m.get('overlap_percent')}, expected {(2 + probes) * D_US}, 0, 0")
    # the calls of every process
    for rank in range(np):
        report = reports[rank]
        sources, destinations = graph_neighbors(edges, rank) if edges else \
            cart_neighbors(np, 1, 1, rank)
        graphs = len(names) * len(sizes)  # one graph per size of each test
        where = f"in {','.join(map(str, sources)) or '-'} out " \
                f"{','.join(map(str, destinations)) or '-'}"
        want_graph = {f"{where} weights {','.join('1' * len(sources))} reorder 0"
                      if sources else f"{where} reorder 0": graphs}
        got = report["operands"].get("MPI_Dist_graph_create_adjacent", {})
        expect(got == want_graph, f"{label} rank {rank} MPI_Dist_graph_create_adjacent: {got}, "
                                  f"expected {want_graph}")
        want_cart = {} if edges else {f"dims {np} periods 1 reorder 0": graphs}
        got = report["operands"].get("MPI_Cart_create", {})
        expect(got == want_cart, f"{label} rank {rank} MPI_Cart_create: {got}, expected "
                                 f"{want_cart}")
        for name in names:
            function = (NEIGHBOR | INEIGHBOR)[name][0]
            per_size = (iterations + skip) * (2 if name in INEIGHBOR else 1)
            want = collections.Counter()
            for x in sizes:
                want[neighbor_keys(name, x, sources, destinations)] += per_size
            got = report["operands"].get(function, {})
            expect(got == dict(want) and report["calls"].get(function) == sum(want.values()),
                   f"{label} rank {rank} {function}: {got}, expected {dict(want)}")
    # the console: OSU's banners and columns, each row's figures those of the JSON
    blocks = {b["banner"].split(" v")[0]: b for b in table_rows(p.stdout)}
    for name in names:
        banner = f"# OSU MPI {(NEIGHBOR | INEIGHBOR)[name][1]} Latency Test"
        block = blocks.get(banner)
        if not expect(block is not None, f"{label}: no block {banner!r} in {list(blocks)}"):
            continue
        columns = (["t_avg_us", "t_min_us", "t_max_us"] if name in NEIGHBOR else
                   ["t_avg_us", "compute_us", "init_us", "test_us", "wait_us", "pure_comm_us",
                    "min_comm_us", "max_comm_us", "overlap_percent"])
        head = "Avg Latency(us)" if name in NEIGHBOR else "Overall(us)"
        expect(head in (block["header"] or "") and len(block["rows"]) == len(sizes),
               f"{label} {name}: header {block['header']!r}, rows {block['rows']}")
        for line, r in zip(block["rows"], named[name]):
            f = line.split()
            want = [r[c] if c.startswith("t_") else r["metrics"][c] for c in columns]
            expect(int(f[0]) == r["bytes"] and
                   all(abs(float(a) - b) <= 0.0051 for a, b in zip(f[1:], want)) and
                   (f[-2:] == ["Pass", "0"] or not checked),
                   f"{label} {name}: row {line!r}, JSON {want}, Validation Pass, Defects 0")
    if edges is None:
        approve(os.path.join(args.golden, "osu_neighbor.txt"), mask.osu_console(p.stdout))


def test_neighbor_refusals(args, np):
    """-N's bad values (at -n 2: the same parsing at any count): one line naming -N, status 2,
    no rows. A topology OSU 7.5 refuses on this many processes (a radius above (smallest
    dimension - 1) / 2, as the default cart:1:1 on 2; a graph naming a process the run has
    not): refused in one line."""
    with tempfile.TemporaryDirectory() as tmp:
        far = os.path.join(tmp, "far.txt")
        with open(far, "w") as f:
            f.write(f"0,{np}\n")
        bad_file = os.path.join(tmp, "bad.txt")
        with open(bad_file, "w") as f:
            f.write("0;1\n")
        bad_values = [["-N", "cart"], ["-N", "cart:1"], ["-N", "cart:x:1"], ["-N", "cart:0:1"],
                      ["-N", "cart:1:-1"], ["-N", "torus:1:1"], ["-N", "graph"],
                      ["-N", f"graph:{tmp}/missing"], ["-N", f"graph:{bad_file}"], ["-N"]]
        for bad in bad_values if np == 2 else []:
            p, rows = run(["neighbor_allgather"] + bad, np, args.parbench)
            lines = [l for l in p.stderr.splitlines() if l.strip()]
            expect(p.returncode == BAD_INPUT and len(lines) == 1 and
                   lines[0].startswith("parbench:") and "-N" in lines[0] and not rows,
                   f"bad {bad}: rc {p.returncode}, stderr {p.stderr!r}")
        refused = [["-N", f"graph:{far}"], ["-N", "cart:2:1"]] + ([[]] if np == 2 else [])
        for topology in refused:
            p, rows = run(["ineighbor_alltoall"] + topology, np, args.parbench)
            lines = [l for l in p.stderr.splitlines() if l.strip()]
            expect(p.returncode == BAD_INPUT and len(lines) == 1 and "-N" in lines[0] and
                   "neighbourhood tests" in lines[0] and not rows,
                   f"-n {np} {topology}: rc {p.returncode}, stderr {p.stderr!r}")

def test_four(args):
    p, rows = run(["latency", "multi_lat", "mbw_mr", "-m", "1:4", "-i", "10", "-x", "1", "-c"],
                  4, args.parbench, timeout=400)
    expect(p.returncode == 0, f"-n 4 p2p: rc {p.returncode}: {p.stderr[-400:]}")
    named = by_name(rows)
    expect(all(r["processes"] == 2 for r in named.get("latency", [])) and
           all(r["processes"] == 4 and r["defects"] == 0 for r in
               named.get("multi_lat", []) + named.get("mbw_mr", [])) and len(rows) == 9,
           f"-n 4: {[(r['benchmark'], r['processes'], r['defects']) for r in rows]}")
    for r in named.get("mbw_mr", []):
        # two pairs, each moving W = 64 (OSU's default) messages of x bytes per iteration, over
        # the senders' mean time (osu_mbw_mr.c:656-666), which the slowest process's bounds
        t = r["metrics"].get("senders_mean_time_us", 0)
        expect(0 < t <= r["t_max_us"] * (1 + 1e-9) and
               close(r["metrics"]["bandwidth_mb_s"], 2 * 64 * r["bytes"] / t),
               f"-n 4 mbw_mr: {r['metrics']}")
    expect("# [ pairs: 2 ] [ window size: 64 ]" in p.stdout, "-n 4 mbw_mr pairs line")
    expect("pair tests use processes 0 and 1; the other 2 wait" in p.stdout + p.stderr,
           "-n 4: the waiting processes are named")
    test_oracle(args, 4)
    test_mbw_mr_senders(args, 4)
    test_osu75_calls(args, 4)
    test_persistent_collectives(args, 4)
    test_nbc(args, 4, probe_counts=(2,))  # -t 0 at -n 2 only: the same calls, fewer MPI_Test
    test_neighbor(args, 4)
    test_neighbor_refusals(args, 4)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--np", type=int, required=True)
    parser.add_argument("--parbench", required=True)
    parser.add_argument("--golden", required=True)
    parser.add_argument("--oracle", required=True, help="the PMPI oracle library")
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    args.parbench = os.path.abspath(args.parbench)
    if args.np == 1:
        test_refusals(args)
    elif args.np == 2:
        for name, fn in [("p2p", test_point_to_point_two), ("counts", test_counts),
                         ("options", test_options),
                         ("oracle", lambda a: test_oracle(a, 2)),
                         ("osu75", lambda a: test_osu75_calls(a, 2)),
                         ("osu75-golden", test_osu75_golden),
                         ("persistent", lambda a: test_persistent_collectives(a, 2)),
                         ("nbc", lambda a: test_nbc(a, 2)), ("nbc-real", test_nbc_real),
                         ("neighbor", lambda a: test_neighbor(a, 2, edges=GRAPH_TWO)),
                         ("neighbor-refusals", lambda a: test_neighbor_refusals(a, 2))]:
            if not args.only or args.only == name:
                fn(args)
    else:
        test_four(args)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
