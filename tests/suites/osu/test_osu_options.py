#!/usr/bin/env python3
"""OSU 7.5's method, options and layout in the osu suite, against the PMPI oracle's known answers
(each MPI call costs D on a virtual clock; tests/mpi/oracle/pmpi_oracle.cpp) and OSU 7.5's
sources (c/ of mjwilkins18/aurora_osu_microbenchmarks).

Per-call timing (the default; osu_allreduce.c: t_start, the call, t_stop, MPI_Barrier): between
-i 10 and -i 20 a collective's run makes 10 more MPI_Barrier (one after each timed call) and 10
more calls; osu_barrier's 10 more MPI_Barrier are the timed calls alone (osu_barrier.c
lines 97-99); with -batched no barrier is added per call. Each process's time per call is its
own D (the barrier is outside the timed part: 2 D if it were inside), so with per-rank delays
D0, D1 the row reads Avg (D0 + D1) / 2, Min D0, Max D1 (osu_allreduce.c's MPI_Reduce of the
processes' latencies: SUM / n, MIN, MAX). The window tests (bw, bibw, mbw_mr, the persistent
and fan forms) are timed window by window: 10 more windows make 20 more clock readings on the
timed process, each window's calls alone between two of them (the oracle's between_readings).

usage: test_osu_options.py --np N --parbench PARBENCH --oracle LIB
"""
import argparse
import json
import os
import struct
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
from pbtest.expect import close, expect, finish  # noqa: E402
from pbtest.run import mpi_suite, parbench, refused  # noqa: E402

BAD_INPUT = 2
D0_US, D1_US = 100.0, 300.0
run = mpi_suite("osu")


def oracle_run(args, names, options, delays=f"{D0_US},{D1_US}", oracle_env=()):
    """The run under the oracle (per-rank delays D0, D1; `oracle_env` its further settings), and
    each rank's report."""
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "oracle")
        p, rows = run(names + options, args.np, args.parbench, timeout=120,
                      env={"ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") +
                           ":verify_asan_link_order=0"},
                      env_args=[f"LD_PRELOAD={os.path.abspath(args.oracle)}",
                                f"PARBENCH_ORACLE_DELAY_US={delays}",
                                "PARBENCH_ORACLE_CLOCK=virtual",
                                "PARBENCH_ORACLE_PEERS=1",
                                f"PARBENCH_ORACLE_REPORT={prefix}", *oracle_env])
        reports = {}
        for rank in range(args.np):
            if os.path.exists(f"{prefix}.{rank}.json"):
                with open(f"{prefix}.{rank}.json") as f:
                    reports[rank] = json.load(f)
    expect(p.returncode == 0 and len(reports) == args.np,
           f"{names} {options}: rc {p.returncode}, {len(reports)} reports: {p.stderr[-400:]}")
    return p, rows, reports


def refused_early(args, options, why):
    """A refusal the suite makes while it reads its options, before it counts the processes
    (osu/suite.cpp: parse_options, refuse_options_not_taken, -I, -d): the same one line at one
    process, launched in half the time of two."""
    refused(args.parbench, "osu", 1, options, why)


def calls(report, function):
    return report.get("calls", {}).get(function, 0)


def operands(report, function):
    return report.get("operands", {}).get(function, {})


def test_per_call_timing(args):
    """Barriers per timed call, the calls per size and the row's Avg/Min/Max across processes."""
    for name, function, operand, barriers_per_call in [
            ("allreduce", "MPI_Allreduce", "MPI_INT x 2 op MPI_SUM", 1),  # 7.5's MPI_INT
            ("barrier", "MPI_Barrier", None, 0)]:
        for batched in ([False, True] if barriers_per_call else [False]):
            label = f"{name}{' -batched' if batched else ''}"
            counts = {}
            for iterations in (10, 20):
                p, rows, reports = oracle_run(
                    args, [name], ["-m", "8:8", "-i", str(iterations), "-x", "2", "-f"] +
                    (["-batched"] if batched else []))
                if p.returncode != 0 or len(rows) != 1:
                    expect(False, f"{label} -i {iterations}: rows {rows}")
                    continue
                r = rows[0]
                # each process's time per call is its own D; the barrier after it is untimed
                expect(close(r["t_avg_us"], (D0_US + D1_US) / 2, 1e-6) and
                       close(r["t_min_us"], D0_US, 1e-6) and close(r["t_max_us"], D1_US, 1e-6),
                       f"{label} -i {iterations}: avg {r['t_avg_us']} min {r['t_min_us']} "
                       f"max {r['t_max_us']}, expected {(D0_US + D1_US) / 2}, {D0_US}, {D1_US}")
                counts[iterations] = {rank: (calls(rep, "MPI_Barrier"),
                                             operands(rep, function).get(operand, 0))
                                      for rank, rep in reports.items()}
                if operand is not None:  # warm-up and timed calls, on every process
                    expect(all(c[1] == iterations + 2 for c in counts[iterations].values()),
                           f"{label} -i {iterations}: {operand} calls {counts[iterations]}, "
                           f"expected {iterations + 2}")
            if len(counts) != 2:
                continue
            for rank in range(args.np):
                added = counts[20][rank][0] - counts[10][rank][0]
                if name == "barrier":
                    want = 10  # the timed barriers themselves, none after them
                else:
                    want = 0 if batched else 10 * barriers_per_call
                expect(added == want, f"{label} rank {rank}: {added} more MPI_Barrier for 10 more "
                       f"timed calls, expected {want}")


def calls_added(args, name, options, functions):
    """What 10 more timed iterations add: `name` run under the oracle at -i 10 and -i 20 with
    `options`, each rank's calls of each of `functions` in the second run less the first, as
    {rank: (added, ...)}; None (and a failed expectation) when a run did not give one row."""
    counts = {}
    for iterations in (10, 20):
        p, rows, reports = oracle_run(args, [name], ["-m", "8:8", "-i", str(iterations), "-x",
                                                     "2"] + options)
        if p.returncode != 0 or len(rows) != 1 or len(reports) != args.np:
            expect(False, f"{name} {options} -i {iterations}: rows {rows}")
            return None
        counts[iterations] = {rank: [calls(rep, f) for f in functions]
                              for rank, rep in reports.items()}
    return {rank: tuple(more - fewer for more, fewer in zip(counts[20][rank], counts[10][rank]))
            for rank in range(args.np)}


def test_nbc_per_call_timing(args):
    """OSU 7.5's nonblocking collectives time every call of both loops on its own with an
    MPI_Barrier after it (osu_iallreduce.c:175-183, 230-247), but osu_ibarrier's first loop
    (osu_ibarrier.c:109-116, its barrier after the second loop's calls only, :169): between -i 10
    and -i 20 iallreduce makes 20 more MPI_Iallreduce (10 in each loop) and 20 more MPI_Barrier,
    ibarrier 20 more MPI_Ibarrier and 10 more MPI_Barrier."""
    for name, function, want_barriers in [("iallreduce", "MPI_Iallreduce", 20),
                                          ("ibarrier", "MPI_Ibarrier", 10)]:
        added = calls_added(args, name, [], ["MPI_Barrier", function])
        for rank, (barriers, started) in (added or {}).items():
            expect(started == 20 and barriers == want_barriers,
                   f"{name} rank {rank}: {started} more {function} and {barriers} more "
                   f"MPI_Barrier for 10 more timed calls in each loop, expected 20 and "
                   f"{want_barriers}")


def test_mbw_mr_barriers(args):
    """osu_mbw_mr puts two MPI_Barrier of every process before each window (osu_mbw_mr.c:509 and
    514 on the senders, 509 and 582 on the receivers): between -i 10 and -i 20 each process makes
    20 more MPI_Barrier, and the sender 10 W more MPI_Isend; -batched none."""
    for batched in (False, True):
        added = calls_added(args, "mbw_mr", ["-W", "4"] + (["-batched"] if batched else []),
                            ["MPI_Barrier", "MPI_Isend"])
        for rank, (barriers, sends) in (added or {}).items():
            want = (0 if batched else 20, 40 if rank < args.np // 2 else 0)
            expect((barriers, sends) == want,
                   f"mbw_mr{' -batched' if batched else ''} rank {rank}: {barriers} more "
                   f"MPI_Barrier and {sends} more MPI_Isend for 10 more windows, expected {want}")


def window_segments(args, name, options):
    """What 10 more windows add to the process OSU times, under the oracle's segments
    (PARBENCH_ORACLE_SEGMENTS: the calls between two consecutive MPI_Wtime readings): `name` at
    -W 4, -i 10 and -i 20, the timed process's (OSU's process 0; bw_fan_in's child, process 1 at
    -n 2) added readings and added segments {calls: count}; None when a run failed. (The
    agreements' polling, MPI_Iallreduce and MPI_Test*N, differs from run to run: the caller
    reads the segments it expects.)"""
    timed = 1 if name == "bw_fan_in" else 0
    got = {}
    for iterations in (10, 20):
        p, rows, reports = oracle_run(args, [name], ["-m", "8:8", "-i", str(iterations), "-x",
                                                     "2", "-W", "4"] + options,
                                      oracle_env=["PARBENCH_ORACLE_SEGMENTS=1"])
        if p.returncode != 0 or len(rows) != 1 or timed not in reports:
            expect(False, f"{name} {options} -i {iterations}: rows {rows}")
            return None
        got[iterations] = reports[timed]
    segments = {key: got[20]["between_readings"].get(key, 0) -
                got[10]["between_readings"].get(key, 0)
                for key in set(got[20]["between_readings"]) | set(got[10]["between_readings"])}
    return (got[20]["wtime_readings"] - got[10]["wtime_readings"],
            {key: added for key, added in segments.items() if added != 0})


def test_window_timing(args):
    """OSU 7.5 times each window on its own and sums the windows' times: process 0 reads
    MPI_Wtime before the window's first request and after its reply (osu_bw.c:224-262,
    osu_bibw.c:224-277, osu_bw_persistent.c:249-275, osu_bibw_persistent.c:261-290,
    osu_bw_fan_in.c:217-256 on the children, osu_bw_fan_out.c:212-266 on the parents) and starts
    the next window at once, or after mbw_mr's two MPI_Barrier (osu_mbw_mr.c:509, 514-516). So
    10 more windows make 20 more readings on the timed process, 10 more segments of one
    window's calls between two readings, and 10 more between a window's end and the next one's
    start: nothing, or two MPI_Barrier. -batched (parbench's loop) reads the clock once per
    batch: fewer readings, and no empty segment between two windows."""
    window = "MPI_Isend*4 MPI_Waitall MPI_Recv"
    for name, timed, between in [
            ("bw", window, ""),
            # the sends' MPI_Waitall, then the receives' (osu_bibw.c:260-264)
            ("bibw", "MPI_Irecv*4 MPI_Isend*4 MPI_Waitall*2", ""),
            ("mbw_mr", window, "MPI_Barrier*2"),
            ("bw_persistent", "MPI_Startall MPI_Waitall MPI_Recv", ""),
            ("bibw_persistent", "MPI_Startall*2 MPI_Waitall*2", ""),
            ("bw_fan_in", window, ""),
            ("bw_fan_out", window, "")]:
        added = window_segments(args, name, [])
        got = added and (added[0], {key: added[1].get(key, 0) for key in (timed, between)})
        want = (20, {timed: 10, between: 10})
        expect(got == want, f"{name}: 10 more windows add (readings, segments) {got} on the "
               f"timed process, expected {want}; all added segments: {added}")
    # -batched: one reading per batch, none between two windows
    added = window_segments(args, "bw", ["-batched"])
    expect(added is not None and added[0] < 20 and added[1].get("", 0) == 0,
           f"bw -batched: 10 more windows add (readings, segments) {added}, expected fewer "
           f"than 20 readings and no empty segment")


def test_layout(args):
    """OSU 7.5's preamble, exactly as its programs print it (osu_util_mpi.c print_preamble: an
    empty line, then "# BANNER v7.5"; osu_barrier: no datatype line; mbw_mr: banner first), the
    heading of the latency tests, parbench's identification as the run's last '#' line, and
    OSU's parser habit: the lines whose first field is a whole number are the size rows alone."""
    p, rows = run(["latency", "barrier", "allreduce", "mbw_mr", "-m", "4:8", "-i", "5", "-x",
                   "1"], args.np, args.parbench, timeout=120)
    out = p.stdout
    expect(p.returncode == 0 and out.startswith(
        "\n# OSU MPI Latency Test v7.5\n# Datatype: MPI_CHAR.\n# Size       Avg Latency(us)\n4 "),
        f"latency's preamble: {out[:200]!r}")
    expect("\n\n# OSU MPI Barrier Latency Test v7.5\n# Avg Latency(us)\n" in out,
           f"barrier's preamble: {out!r}")
    expect("\n\n# OSU MPI Allreduce Latency Test v7.5\n# Datatype: MPI_INT.\n"
           "# Size       Avg Latency(us)\n" in out, f"allreduce's preamble: {out!r}")
    expect("\n\n# OSU MPI Multiple Bandwidth / Message Rate Test v7.5\n# [ pairs: 1 ] "
           "[ window size: 64 ]\n# Datatype: MPI_CHAR.\n# Size                  MB/s"
           "        Messages/s\n" in out and "\n\n\n" not in out, f"mbw_mr's preamble: {out!r}")
    lines = out.rstrip("\n").split("\n")
    expect(lines[-1].startswith("# parbench ") and
           lines[-1].endswith(", OSU micro-benchmarks 7.5 compatible"),
           f"last line {lines[-1]!r}")
    sized = [line.split()[0] for line in lines if line.split() and line.split()[0].isdigit()]
    expect(sized == ["4", "8", "4", "8", "4", "8"], f"awk '$1 ~ /^[0-9]+$/' rows: {sized}")


def test_bw_reply(args):
    """osu_bw's reply after each window is one MPI_CHAR (osu_bw.c:249, 325): process 0
    receives i + x of them per size; and -b's buffers. The one-sided tests (a run of their own:
    -W is not an option of put_latency, nor -s of bw, in OSU 7.5) print process 0's own time
    too (print_latency's and print_bw's rank 0 branch: osu_put_latency.c:162-166, the pscw round
    trip halved at :703; osu_put_bibw.c:151-156, t process 0's t_end - t_start): under -s pscw
    each process makes its own MPI_Put of a round trip (put_latency) or its W MPI_Put per epoch
    (put_bibw), the epochs' calls free under the oracle, so put_latency prints D0 / 2 and
    put_bibw 2 W X / (W D0) MB/s, where the slowest process's time would give D1 / 2 and
    2 W X / (W D1), W OSU's default 64."""
    p, rows, reports = oracle_run(args, ["put_latency", "put_bibw"],
                                  ["-m", "8:8", "-i", "10", "-x", "2", "-s", "pscw"])
    one_sided = {r["benchmark"]: (r.get("metrics", {}).get("process0_time_us", -1),
                                  r["t_max_us"]) for r in rows}
    expect(set(one_sided) == {"put_latency", "put_bibw"} and
           close(one_sided["put_latency"][0], D0_US / 2, 1e-6) and
           close(one_sided["put_latency"][1], D1_US / 2, 1e-6) and
           close(one_sided["put_bibw"][0], 64 * D0_US, 1e-6) and
           close(one_sided["put_bibw"][1], 64 * D1_US, 1e-6),
           f"put_latency put_bibw -s pscw under the oracle (process 0's time, the slowest's): "
           f"{one_sided}, expected D0 / 2 = {D0_US / 2} and W D0 = {64 * D0_US}")
    # the tables' cells in order: put_latency's (D0 / 2), put_bibw's (2 W X / (W D0))
    got = [float(line.split()[1]) for line in p.stdout.splitlines() if line.startswith("8 ")]
    expect(got == [D0_US / 2, round(2 * 8 / D0_US, 2)],
           f"put_latency put_bibw under the oracle: cells {got}, expected {D0_US / 2} and "
           f"{2 * 8 / D0_US}")
    p, rows, reports = oracle_run(args, ["bw"], ["-m", "8:8", "-i", "10", "-x", "2", "-W", "4"])
    # no MPI session without -I (test_sessions)
    expect(all(calls(rep, "MPI_Session_init") == 0 for rep in reports.values()),
           "bw without -I: MPI_Session_init called")
    got = operands(reports.get(0, {}), "MPI_Recv")
    expect(got.get("MPI_CHAR x 1") == 12 and "MPI_CHAR x 4" not in got,
           f"bw: process 0's receives {got}, expected 12 of MPI_CHAR x 1")
    # OSU's MB/s is over process 0's own time (osu_bw.c:363-377): W X / ((W + 2) D0), its W
    # MPI_Isend, MPI_Waitall and the reply's MPI_Recv, not over process 1's (W + 2) D1
    want = 4 * 8 / (6 * D0_US)
    got = [float(line.split()[1]) for line in p.stdout.splitlines() if line.startswith("8 ")]
    metrics = rows[0].get("metrics", {}) if len(rows) == 1 else {}
    expect(got == [round(want, 2)] and
           close(metrics.get("bandwidth_mb_s", -1), want, 1e-6) and
           close(metrics.get("process0_time_us", -1), 6 * D0_US, 1e-6),
           f"bw under the oracle: cells {got}, bw's metrics {metrics}, "
           f"expected {want} over process 0's {6 * D0_US} us")
    # -b (osu_bw.c:56-58, 232-244): single, the default, sends every message of a window from
    # one buffer; multiple from W buffers, one per message (the oracle's distinct addresses)
    for b, want in [(None, 1), ("multiple", 4)]:
        if b:
            p, rows, reports = oracle_run(args, ["bw"], ["-m", "8:8", "-i", "2", "-x", "0",
                                                         "-W", "4", "-b", b])
        seen = reports.get(0, {}).get("send_buffers", {}).get("8", {})
        expect(seen.get("distinct") == want and (want == 1 or seen["max"] - seen["min"] == 24),
               f"bw -b {b or 'single'}: process 0's 8-byte send buffers {seen}, expected "
               f"{want} distinct")


def test_options(args):
    """OSU 7.5's spellings: -m :MAX sets MAX only (osu_util.c:204-206); the long options
    (osu_util_options.h OMBOP_LONG_OPTIONS_ALL) are their short forms; -M, which 7.5 dropped,
    is refused in one line with status 2."""
    p, rows = run(["bw", "-m", ":4", "-i", "2", "-x", "0", "-W", "2"], args.np, args.parbench)
    expect(p.returncode == 0 and [r["bytes"] for r in rows] == [1, 2, 4] and
           not any("datatype" in r for r in rows) and
           p.plugin_context.get("options", {}).get("a") == 32,
           f"bw -m :4: rc {p.returncode}, sizes {[r['bytes'] for r in rows]}, datatypes "
           f"{[r.get('datatype') for r in rows]} (none without -T), context's a "
           f"{p.plugin_context.get('options', {}).get('a')} (OSU's 32): {p.stderr[-300:]}")
    # --array-size (-a, osu_util.c:383-391, 823-830): the collectives' device array size, recorded
    # in the context and of no effect in parbench (docs/osu.md)
    p, rows = run(["allreduce", "--message-size", "4:8", "--iterations", "3", "--warmup", "0",
                   "--full", "--array-size", "7"], args.np, args.parbench)
    expect(p.returncode == 0 and [(r["bytes"], r["iterations"]) for r in rows] == [(4, 3), (8, 3)]
           and "Min Latency(us)" in p.stdout and
           p.plugin_context.get("options", {}).get("a") == 7,
           f"long options: rc {p.returncode}, rows {[(r['bytes'], r['iterations']) for r in rows]}"
           f", context's a {p.plugin_context.get('options', {}).get('a')}: {p.stderr[-300:]}")
    for bad, words in [(["latency", "-M", "64"], "-M 64: OSU 7.5 has no -M"),
                       (["latency", "--iterations", "0"], "-i 0"),
                       (["latency", "-m", ":x"], "-m :x")]:
        p, rows = run(bad, args.np, args.parbench)
        lines = [line for line in p.stderr.splitlines() if line.strip()]
        expect(p.returncode == BAD_INPUT and len(lines) == 1 and words in lines[0] and not rows,
               f"{bad}: rc {p.returncode}, stderr {p.stderr!r}")


def test_root(args):
    """-k (osu_util_mpi.c omb_get_root_rank): the root of each MPI_Reduce, warm-up and timed calls
    alike (OSU's i runs over both), by the oracle's count of calls per root: without -k all 12
    at root 0; fixed:1 all at 1; rotate i % 2, so 6 and 6. A root outside the run is refused."""
    reduce = "MPI_Reduce 2"  # MPI_INT x 2 at 8 bytes
    for k, want in [(None, {0: 12}), ("fixed:1", {1: 12}), ("rotate", {0: 6, 1: 6})]:
        p, rows, reports = oracle_run(args, ["reduce"], ["-m", "8:8", "-i", "10", "-x", "2"] +
                                      (["-k", k] if k else []))
        for rank, rep in reports.items():
            got = {int(key.split()[-1]): calls for key, calls in rep.get("roots", {}).items()
                   if key.startswith(reduce + " ")}
            expect(got == want, f"reduce -k {k} rank {rank}: calls by root {got}, expected {want}")
    p, rows = run(["gather", "-k", "fixed:2", "-m", "1:1"], args.np, args.parbench)
    lines = [line for line in p.stderr.splitlines() if line.strip()]
    expect(p.returncode == BAD_INPUT and len(lines) == 1 and "-k fixed:2" in lines[0] and not rows,
           f"gather -k fixed:2 at -n {args.np}: rc {p.returncode}, stderr {p.stderr!r}")
    p, rows = run(["gather", "-k", "sometimes"], args.np, args.parbench)
    expect(p.returncode == BAD_INPUT and "-k sometimes" in p.stderr and not rows,
           f"gather -k sometimes: rc {p.returncode}, stderr {p.stderr!r}")


def test_datatypes(args):
    """-T (osu_util.c:1096-1108; ALL: MPI_CHAR, MPI_INT, MPI_FLOAT, one table each, as
    osu_allreduce.c:116-126 loops): each call's datatype and element count per size, X / size
    of the type, sizes without a whole element skipped (osu_allreduce.c:129-132); a reduction's
    MPI_CHAR is MPI_SIGNED_CHAR (OMB_MPI_REDUCE_CHAR_CHECK); one datatype line and heading per
    table under one banner; each record names its datatype. Without -T the reductions take
    MPI_INT and the others MPI_CHAR (osu_util.c:1176-1189)."""
    sizes = [1, 2, 4, 8]
    calls_per_size = 2  # -i 2 -x 0
    p, rows, reports = oracle_run(args, ["allreduce", "gatherv", "ireduce_scatter_block",
                                         "alltoallw_persistent"],
                                  ["-T", "all", "-m", "1:8", "-i", "2", "-x", "0"])
    types = [("MPI_CHAR", 1), ("MPI_INT", 4), ("MPI_FLOAT", 4)]
    for rank, rep in reports.items():
        for function, reduction, per_call, count_of in [
                ("MPI_Allreduce", True, calls_per_size, lambda n: n),
                ("MPI_Gatherv", False, calls_per_size, lambda n: n),
                # pure and overall loops; the block is the elements / n
                ("MPI_Ireduce_scatter_block", True, 2 * calls_per_size,
                 lambda n: n // args.np),
                ("MPI_Alltoallw_init", False, 1, lambda n: n)]:
            want = {}
            for name, size in types:
                if reduction and name == "MPI_CHAR":
                    name = "MPI_SIGNED_CHAR"
                for x in sizes:
                    if x >= size:
                        key = f"{name} x {count_of(x // size)}" + (" op MPI_SUM" if reduction
                                                                   else "")
                        want[key] = want.get(key, 0) + per_call
            # the runner's own calls are MPI_MAX, MPI_DOUBLE (gather_splits), ...
            got = {k: v for k, v in operands(rep, function).items()
                   if k.split()[0] in ("MPI_CHAR", "MPI_SIGNED_CHAR", "MPI_INT", "MPI_FLOAT")
                   and (k.endswith(" op MPI_SUM") or not reduction)}
            expect(got == want, f"-T all rank {rank} {function}: {got}, expected {want}")
    tables = [(r["benchmark"], r.get("datatype"), r["bytes"]) for r in rows]
    want_rows = [(name, t, x) for name, reduction in [("allreduce", True), ("gatherv", False),
                                                       ("ireduce_scatter_block", True),
                                                       ("alltoallw_persistent", False)]
                 for t, size in [("MPI_SIGNED_CHAR" if reduction else "MPI_CHAR", 1),
                                 ("MPI_INT", 4), ("MPI_FLOAT", 4)]
                 for x in sizes if x >= size]
    expect(tables == want_rows, f"-T all records (benchmark, datatype, bytes): {tables}")
    out = p.stdout
    expect("# OSU MPI Allreduce Latency Test v7.5\n# Datatype: MPI_SIGNED_CHAR.\n# Size       "
           "Avg Latency(us)\n1 " in out and out.count("# OSU MPI Allreduce Latency Test") == 1,
           f"-T all: allreduce's first table: {out[:300]!r}")
    allreduce = out[out.find("Allreduce"):out.find("Gatherv")]
    lines = [line for line in allreduce.split("\n") if line.startswith("# D")]
    expect(lines == ["# Datatype: MPI_SIGNED_CHAR.", "# Datatype: MPI_INT.",
                     "# Datatype: MPI_FLOAT."] and
           "# Datatype: MPI_INT.\n# Size       Avg Latency(us)\n4 " in allreduce,
           f"-T all: allreduce's tables: {allreduce!r}")


def test_point_to_point_datatypes(args):
    """-T on the point-to-point tests (OSU 7.5's OMBOP__PT2PT__LAT, __BW and OMBOP__MBW_MR,
    osu_util_options.h:62-67, :137): each message is X / size(type) elements of the table's
    datatype (osu_latency.c:125-147, osu_bw.c:148-168, osu_bw_persistent.c:159-203), a size
    without a whole element is skipped, the reply stays one MPI_CHAR (osu_bw_persistent.c), and
    ALL gives a datatype line and heading per type under one banner, as the 7.5-1 build prints
    `osu_latency -T ALL -m 1:8`. Without -T the records name no datatype, as before. The fan
    tests' run places their buffers by -d cuda D MH too (the senders' SRC, the receivers' DST)
    through the stand-in CUDA runtime."""
    iterations = 2  # -i 2 -x 0
    window = 64  # OSU's default: -W is not an option of latency (test_option_acceptance)
    types = [("MPI_CHAR", 1), ("MPI_INT", 4), ("MPI_FLOAT", 4)]
    sizes = [2, 4, 8]  # from 2: the reply's MPI_CHAR x 1 stands apart from the messages
    p, rows, reports = oracle_run(args, ["latency", "bw_persistent"],
                                  ["-T", "all", "-m", "2:8", "-i", "2", "-x", "0"])
    messages = {f"{name} x {x // size}": iterations for name, size in types for x in sizes
                if x >= size}
    tables = sum(1 for name, size in types for x in sizes if x >= size)
    for rank, rep in reports.items():
        sent = {k: v for k, v in operands(rep, "MPI_Send").items()
                if k.split()[0] in ("MPI_CHAR", "MPI_INT", "MPI_FLOAT")}
        # latency: every message both ways; bw_persistent: process 1's replies, one per iteration
        want = dict(messages)
        if rank == 1:
            want["MPI_CHAR x 1"] = iterations * tables
        expect(sent == want, f"-T all rank {rank} MPI_Send: {sent}, expected {want}")
        made = operands(rep, "MPI_Send_init" if rank == 0 else "MPI_Recv_init")
        want = {f"{name} x {x // size}": window for name, size in types for x in sizes
                if x >= size}
        expect(made == want, f"-T all rank {rank} bw_persistent's requests {made}, "
               f"expected {want} (W = {window} per size)")
    got = [(r["benchmark"], r.get("datatype"), r["bytes"]) for r in rows]
    want_rows = [(b, name, x) for b in ("latency", "bw_persistent") for name, size in types
                 for x in sizes if x >= size]
    expect(got == want_rows, f"-T all records (benchmark, datatype, bytes): {got}")
    # process 0's figures (osu_latency.c:277-278, osu_bw_persistent.c:368-382): latency's one
    # way D0, bw_persistent's MB/s W X / (3 D0) (MPI_Startall, MPI_Waitall, the reply)
    figures = [(r["benchmark"], r["bytes"], r.get("metrics", {}).get("process0_time_us"),
                r.get("metrics", {}).get("bandwidth_mb_s")) for r in rows]
    expect(all(close(t or -1, D0_US if b == "latency" else 3 * D0_US, 1e-6) and
               (b == "latency" or close(mb or -1, window * x / (3 * D0_US), 1e-6))
               for b, x, t, mb in figures),
           f"-T all under the oracle (benchmark, bytes, process 0's time, MB/s): {figures}")
    expect("\n# OSU MPI Latency Test v7.5\n# Datatype: MPI_CHAR.\n# Size       Avg Latency(us)"
           "\n2 " in p.stdout and p.stdout.count("# OSU MPI Latency Test") == 1 and
           "# Datatype: MPI_INT.\n# Size       Avg Latency(us)\n4 " in p.stdout and
           "# Datatype: MPI_FLOAT.\n# Size      Bandwidth (MB/s)\n4 " in p.stdout,
           f"-T all: the tables of latency and bw_persistent: {p.stdout!r}")
    # mbw_mr: after its pairs line (osu_mbw_mr.c:157-180); no 1- or 2-byte rows for MPI_FLOAT
    p, rows, reports = oracle_run(args, ["mbw_mr"], ["--type", "mpi_float", "-m", "1:8", "-i",
                                                     "2", "-x", "0", "-W", "2"])
    sent = {k: v for k, v in operands(reports.get(0, {}), "MPI_Isend").items()
            if k.split()[0] in ("MPI_CHAR", "MPI_INT", "MPI_FLOAT")}
    expect(sent == {"MPI_FLOAT x 1": 4, "MPI_FLOAT x 2": 4},
           f"mbw_mr -T mpi_float: process 0's MPI_Isend {sent}, expected 4 of 1 and of 2 floats")
    expect([(r.get("datatype"), r["bytes"]) for r in rows] == [("MPI_FLOAT", 4), ("MPI_FLOAT", 8)]
           and "[ window size: 2 ]\n# Datatype: MPI_FLOAT.\n# Size " in p.stdout,
           f"mbw_mr -T mpi_float: rows {rows}, {p.stdout!r}")
    # -c on MPI_INT and MPI_FLOAT elements: every byte received as sent; the accumulate's and
    # fetch-and-op's sums (test_atomic_datatypes) right in every type. As OSU's long
    # --validation=log:DIR, which makes DIR only when a check fails (osu_util_mpi.c:2304)
    with tempfile.TemporaryDirectory() as tmp:
        log_dir = os.path.join(tmp, "log")
        p, rows = run(["bibw", "multi_lat", "latency_persistent", "acc_latency", "fop_latency",
                       "-T", "all", f"--validation=log:{log_dir}", "-m", "4:4", "-i", "2", "-x",
                       "0"], args.np, args.parbench)
        made = os.path.exists(log_dir)
    expect(p.returncode == 0 and len(rows) == 15 and
           all(r.get("defects") == 0 for r in rows) and "Fail" not in p.stdout and not made,
           f"-T all -c: rc {p.returncode}, {[(r['benchmark'], r.get('defects')) for r in rows]}"
           f", log directory made: {made}: {p.stderr[-300:]}")
    # latency_mt's threads and latency_mp's ping-pong (osu_latency_mt.c:236-254,
    # osu_latency_mp.c:190-206): i + x messages of X / 4 MPI_INTs per size each way, whatever
    # the threads (-t 1:1 and the default 2:2 forked processes)
    p, rows, reports = oracle_run(args, ["latency_mt", "latency_mp"],
                                  ["-T", "MPI_INT", "-m", "2:8", "-i", "2", "-x", "0", "-t",
                                   "1:1"])
    for rank, rep in reports.items():
        sent = {k: v for k, v in operands(rep, "MPI_Send").items()
                if k.split()[0] in ("MPI_CHAR", "MPI_INT", "MPI_FLOAT")}
        want = {"MPI_INT x 1": 4, "MPI_INT x 2": 4}  # 2 per size from each test
        expect(sent == want, f"latency_mt latency_mp -T MPI_INT rank {rank} MPI_Send: {sent}, "
               f"expected {want}")
    expect([(r["benchmark"], r.get("datatype"), r["bytes"]) for r in rows] ==
           [(b, "MPI_INT", x) for b in ("latency_mt", "latency_mp") for x in (4, 8)],
           f"latency_mt latency_mp -T MPI_INT rows {rows}")
    # both print process 0's one-way time, D0 (osu_latency_mt.c:488-489, osu_latency_mp.c:
    # 293-294), where the slowest process's is D1
    cells = [line.split()[1] for line in p.stdout.splitlines() if line[:2] in ("4 ", "8 ")]
    expect(cells == [f"{D0_US:.2f}"] * 4,
           f"latency_mt latency_mp under the oracle: Avg Latency {cells}, expected D0 {D0_US}")
    # bw_fan_in's leaves and bw_fan_out's root post W MPI_Isend of X / 4 floats per iteration
    # (osu_bw_fan_in.c:145-163, 229-245); the other side W MPI_Irecv of them. Through the
    # stand-in CUDA runtime the same run checks -d's placement (test_device_buffers): the
    # senders' buffers where SRC says, the receivers' where DST says (osu_bw_fan_in.c:130-136,
    # osu_bw_fan_out.c:130-136: fan_in's root receives, fan_out's sends), so -d cuda D MH gives
    # each process memory of both kinds and sends every 8-byte message (2 floats: fan_in's leaf's,
    # fan_out's root's; the replies are 1 MPI_CHAR) from cudaMalloc'd memory; the MH makes the
    # window's buffers multiple (setAccel, osu_util.c:1366-1369): W = 2 addresses, 8 bytes apart;
    # the banner names CUDA (print_preamble, osu_bw_fan_in.c:138)
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "cuda")
        device = ["-d", "cuda", "D", "MH"] if args.fake_cudart else []
        p, rows, reports = oracle_run(args, ["bw_fan_in", "bw_fan_out"],
                                      ["-T", "MPI_FLOAT", "-m", "2:8", "-i", "2", "-x", "0",
                                       "-W", "2"] + device,
                                      oracle_env=stand_in_cuda(args, log) if device else ())
        if device:
            expect(p.stdout.count("\n# OSU MPI-CUDA Bandwidth Test v7.5\n") == 2,
                   f"bw_fan_in bw_fan_out -d cuda D MH: console {p.stdout!r}")
            check_placement("bw_fan_in bw_fan_out -d cuda D MH", log, reports,
                            [{"cudaMalloc", "cudaMallocManaged"}] * 2, ["cudaMalloc"] * 2, [2, 2],
                            count="2", apart=8)
    for rank, rep in reports.items():
        for function in ("MPI_Isend", "MPI_Irecv"):
            got = {k: v for k, v in operands(rep, function).items()
                   if k.split()[0] in ("MPI_CHAR", "MPI_INT", "MPI_FLOAT")}
            want = {"MPI_FLOAT x 1": 4, "MPI_FLOAT x 2": 4}  # W (i + x) per size, one test
            expect(got == want, f"bw_fan_in bw_fan_out -T MPI_FLOAT rank {rank} {function}: "
                   f"{got}, expected {want}")
    # partitioned_latency (osu_partitioned_latency.c:161-168, 204-214): -q partitions of
    # (X / 4) / q MPI_INTs, sizes with fewer elements than partitions skipped: -q 2 -m 4:16
    # measures 8 and 16 bytes, one MPI_Psend_init per size of MPI_INT x 1 and x 2 per partition;
    # -c sees the delivered elements intact
    p, rows, reports = oracle_run(args, ["partitioned_latency"],
                                  ["-T", "MPI_INT", "-q", "2", "-m", "4:16", "-i", "2", "-x",
                                   "0", "-c"])
    for rank, rep in reports.items():
        got = operands(rep, "MPI_Psend_init")
        want = {"MPI_INT x 1 partitions 2": 1, "MPI_INT x 2 partitions 2": 1}
        expect(got == want, f"partitioned_latency -T MPI_INT -q 2 rank {rank} MPI_Psend_init: "
               f"{got}, expected {want}")
    expect([(r["bytes"], r.get("datatype"), r.get("defects")) for r in rows] ==
           [(8, "MPI_INT", 0), (16, "MPI_INT", 0)], f"partitioned_latency -T MPI_INT rows {rows}")
    # a range with no whole element, and the tests parbench does not offer -T on
    refused(args.parbench, "osu", args.np, ["latency", "-T", "mpi_int", "-m", "1:2", "-i", "1",
                                            "-x", "0"], "whole 4-byte MPI_INT elements")
    test_neighborhood_datatypes(args)


def test_in_place(args):
    """-l (OSU 7.5's omb_enable_mpi_in_place): MPI_IN_PLACE as every process's send buffer
    (osu_allreduce.c:143-145, osu_alltoall.c:148), as the root's alone (osu_gather.c:159-170,
    osu_reduce.c:166-176), or as the root's receive buffer (osu_scatter.c:170-175); the oracle
    records the operand with " in place"; the persistent tests make their request so where their
    program reads -l (osu_scatter_persistent.c:148-153). With -k rotate the root of iteration i is i % n
    (omb_get_root_rank), igather's too (osu_igather.c:154 and :230, in both of its loops), so
    each process is the in-place root of half the calls. The first run also shows -T's defaults
    (osu_util.c:1176-1189): MPI_INT for a reduction, MPI_CHAR for the others."""
    p, rows, reports = oracle_run(args, ["allreduce", "alltoall", "alltoall_persistent",
                                         "scatter_persistent"],
                                  ["-l", "-m", "4:4", "-i", "2", "-x", "0"])
    expect([r.get("datatype") for r in rows] == ["MPI_INT", "MPI_CHAR", "MPI_CHAR", "MPI_CHAR"],
           f"-l: the records' datatypes {[r.get('datatype') for r in rows]}")
    for rank, rep in reports.items():
        root = " in place" if rank == 0 else ""
        want = {"MPI_Allreduce": {"MPI_INT x 1 in place op MPI_SUM": 2},
                "MPI_Alltoall": {"MPI_CHAR x 4 in place": 2},
                # one request per size (osu_alltoall_persistent.c, osu_scatter_persistent.c)
                "MPI_Alltoall_init": {"MPI_CHAR x 4 in place": 1},
                "MPI_Scatter_init": {f"MPI_CHAR x 4{root}": 1}}
        for function, operand in want.items():
            got = {k: v for k, v in operands(rep, function).items()
                   if k.startswith("MPI_CHAR") or
                   (k.startswith("MPI_INT x 1 ") and k.endswith("op MPI_SUM"))}
            expect(got == operand, f"-l rank {rank} {function}: {got}, expected {operand}")
    p, rows, reports = oracle_run(args, ["gather", "reduce", "scatter", "igather"],
                                  ["-l", "-k", "rotate", "-m", "4:4", "-i", "2", "-x", "0"])
    for rank, rep in reports.items():
        for function, operand, calls in [("MPI_Gather", "MPI_CHAR x 4", 2),
                                         ("MPI_Reduce", "MPI_INT x 1", 2),
                                         ("MPI_Scatter", "MPI_CHAR x 4", 2),
                                         ("MPI_Igather", "MPI_CHAR x 4", 4)]:
            sums = " op MPI_SUM" if function == "MPI_Reduce" else ""
            want = {f"{operand} in place{sums}": calls // 2, f"{operand}{sums}": calls // 2}
            got = {k: v for k, v in operands(rep, function).items() if k in want}
            expect(got == want, f"-l -k rotate rank {rank} {function}: {got}, expected {want}")


def test_option_refusals(args):
    """A bad -T value (OSU ignores it, osu_util.c:1096-1108; parbench refuses it), -l with -c,
    and -a below 1 (OSU 7.5's "Invalid Device Array Size [-a 0]", set_device_array_size,
    osu_util.c:383-391): one parbench: line, status 2. An option a test does not take:
    test_option_acceptance; here its long forms, as 7.5's getopt_long maps them to the letters
    (osu_util_options.h:28-57)."""
    for options, why in [(["allreduce", "-T", "foo"], "-T foo"),
                         (["allreduce", "-l", "-c"], "-l: not offered with -c"),
                         (["allreduce", "-a", "0"], "-a 0: Invalid Device Array Size"),
                         (["ibcast", "--array-size", "-3"], "-a -3: Invalid Device Array Size"),
                         (["latency", "--window-size", "4"], "-W: not an option of latency ("),
                         (["barrier", "allreduce", "ibarrier", "--validation"],
                          "-c: not an option of barrier, ibarrier ("),
                         # -u: a missing letter where 7.5's string lacks it (the one-sided
                         # strings, osu_util.c:588-602; CONG_BW, NBC_BARRIER,
                         # osu_util_options.h:74-75, 102-103), else not offered; in the default
                         # set too (its one-sided and fan tests would run without it)
                         (["put_latency", "latency", "bw_fan_in", "--validation-warmup", "3"],
                          "-u: not an option of put_latency, bw_fan_in (OSU 7.5 does not take it "
                          "there: Invalid option [-u]; see docs/osu.md)"),
                         (["latency", "-u", "3"], "-u 3: not offered"),
                         (["-u", "3"], "-u 3: not offered")]:
        refused_early(args, options + ["-m", "4:4", "-i", "1", "-x", "0"], why)
    # init: OSU 7.5's string is "I" alone (osu_util_options.h:142): -m, -i, -x (long forms too)
    # are letters it lacks; its getopt says "invalid option -- 'i'" (and osu_init runs on,
    # osu_init.c:29-37: parbench refuses, docs/osu.md)
    for options, why in [(["init", "--iterations", "5"],
                          "-i: not an option of init (OSU 7.5 does not take it there: osu_init: "
                          "invalid option -- 'i'; see docs/osu.md)"),
                         (["init", "hello", "-x", "1", "-m", "8"], "-m: not an option of init ("),
                         (["init", "put_latency", "-u", "2"],
                          "-u: not an option of init, put_latency (OSU 7.5 does not take it "
                          "there: Invalid option [-u]")]:
        refused_early(args, options, why)


# OSU 7.5's option strings (c/util/osu_util_options.h, line of each: plain build, accelerator
# build), by the name of OSU's macro; a program takes the letters of its string.
OSU75_OPTION_STRINGS = {
    "LAT": ("+:hvm:x:i:b:c::u:G:D:P:T:Iz::", "+:x:i:m:d:hvc::u:G:D:T:Iz::"),  # 62, 64
    "PART_LAT": ("+:hvm:x:i:b:c::u:G:D:P:T:Iz::q:", "+:x:i:m:d:hvc::u:G:D:T:Iz::q:"),  # 63, 65
    "BW": ("+:hvm:x:i:t:W:b:c::u:G:D:P:T:Iz::", "+:x:i:t:m:d:W:hvb:c::u:G:D:T:Iz::"),  # 66, 67
    # 68-71; no accelerator build for these (enable_accel_support, osu_util.c:409-414)
    "LAT_MT": ("+:hvm:x:i:t:c::u:G:D:T:Iz::",) * 2,
    "LAT_MP": ("+:hvm:x:i:t:c::u:G:D:P:T:Iz::",) * 2,
    "CONG_BW": ("+:hvm:x:i:W:b:G:D:P:T:Iz::", "p:W:R:x:i:m:d:Vhvb:G:D:T:Iz::"),  # 74, 75
    "MBW_MR": ("p:W:R:x:i:m:Vhvb:c::u:G:D:P:T:Iz::", "p:W:R:x:i:m:d:Vhvb:c::u:G:D:T:Iz::"),  # 137
    # 72-73 (ALL_GATHER 78-79 is the same; GATHER 76-77 and SCATTER 80-81 add k:)
    "ALLTOALL": ("+:hvfm:i:x:a:c::u:G:D:P:T:Ilz::", "+:d:hvfm:i:x:a:c::u:G:D:T:Ilz::"),
    "GATHER": ("+:hvfm:i:x:a:c::u:G:D:P:T:Ilz::k:", "+:d:hvfm:i:x:a:c::u:G:D:T:Ilz::k:"),
    "BCAST": ("+:hvfm:i:x:a:c::u:G:D:P:T:Iz::", "+:d:hvfm:i:x:a:c::u:G:D:T:Iz::"),  # 83-84
    "NHBR": ("+:hvfm:i:x:a:c::u:N:G:D:P:T:Iz::", "+:d:hvfm:i:x:a:c::u:N:G:D:T:Iz::"),  # 85-88
    "BARRIER": ("+:hvfm:i:x:a:u:G:P:Iz::", "+:d:hvfm:i:x:a:u:G:Iz::"),  # 90-91
    # 94-95 (REDUCE_SCATTER 99-100 the same; REDUCE 96-97 adds k:)
    "ALL_REDUCE": ("+:hvfm:i:x:a:c::u:G:P:T:Ilz::", "+:d:hvfm:i:x:a:c::u:G:T:Ilz::"),
    "REDUCE": ("+:hvfm:i:x:a:c::u:G:P:T:Ilz::k:", "+:d:hvfm:i:x:a:c::u:G:T:Ilz::k:"),
    "NBC_BARRIER": ("+:hvfm:i:x:t:a:G:P:Iz::", "+:d:hvfm:i:x:t:a:G:Iz::"),  # 102-103
    # 104-105 (NBC_ALL_GATHER 110-111 the same; NBC_GATHER 107-108, NBC_SCATTER 113-114 add k:)
    "NBC_ALLTOALL": ("+:hvfm:i:x:t:a:c::u:G:D:P:T:Ilz::", "+:d:hvfm:i:x:t:a:c::u:G:D:T:Ilz::"),
    "NBC_GATHER": ("+:hvfm:i:x:t:a:c::u:G:D:P:T:Ilz::k:", "+:d:hvfm:i:x:t:a:c::u:G:D:T:Ilz::k:"),
    "NBC_BCAST": ("+:hvfm:i:x:t:a:c::u:G:D:P:T:Iz::", "+:d:hvfm:i:x:t:a:c::u:G:D:T:Iz::"),  # 116
    # 118-119 (NBC_REDUCE_SCATTER 124-125 the same; NBC_REDUCE 121-122 adds k:)
    "NBC_ALL_REDUCE": ("+:hvfm:i:x:t:a:c::u:G:P:T:Ilz::", "+:d:hvfm:i:x:t:a:c::u:G:T:Ilz::"),
    "NBC_REDUCE": ("+:hvfm:i:x:t:a:c::u:G:P:T:Ilz::k:", "+:d:hvfm:i:x:t:a:c::u:G:T:Ilz::k:"),
    "NBC_NHBR": ("+:hvfm:i:x:t:a:c::u:N:G:D:P:T:Iz::", "+:d:hvfm:i:x:t:a:c::u:N:G:D:T:Iz::"),
    # persistent 144-163: ALLTOALL_P (GATHER_P, ALL_GATHER_P, SCATTER_P: no k:), BCAST_P,
    # BARRIER_P, ALL_REDUCE_P (REDUCE_P, REDUCE_SCATTER_P: no k:)
    "ALLTOALL_P": ("+:hvfm:i:x:a:c::u:G:D:P:T:Ilz::", "+:d:hvfm:i:x:a:c::u:G:D:T:Ilz::"),
    "BCAST_P": ("+:hvfm:i:x:a:c::u:G:D:P:T:Iz::", "+:d:hvfm:i:x:a:c::u:G:D:T:Iz::"),
    "BARRIER_P": ("+:hvfm:i:x:a:u:G:P:Iz::", "+:d:hvfm:i:x:a:u:G:Iz::"),
    "ALL_REDUCE_P": ("+:hvfm:i:x:a:c::u:G:P:T:Ilz::", "+:d:hvfm:i:x:a:c::u:G:T:Ilz::"),
    # one-sided, built in osu_util.c:588-602: W: on BW, d: or P:, cT: (show_validation: all nine)
    "ONE_SIDED_LAT": ("+:w:s:hvm:x:i:G:Iz::P:cT:", "+:w:s:hvm:x:i:G:Iz::d:cT:"),
    "ONE_SIDED_BW": ("+:w:s:hvm:x:i:G:Iz::W:P:cT:", "+:w:s:hvm:x:i:G:Iz::W:d:cT:"),
    "INIT": ("I", "I"),  # 142
    "HELLO": (None, None),  # osu_hello.c reads no options: every one is taken and ignored
}
# Each program's option string (its options.bench and options.subtype, as its main sets them)
OSU75_PROGRAMS = {
    "LAT": "latency multi_lat latency_persistent",
    "PART_LAT": "partitioned_latency",
    "BW": "bw bibw bw_persistent bibw_persistent",
    "LAT_MT": "latency_mt", "LAT_MP": "latency_mp", "CONG_BW": "bw_fan_in bw_fan_out",
    "MBW_MR": "mbw_mr",
    "ALLTOALL": "alltoall alltoallv alltoallw allgather allgatherv",
    "GATHER": "gather gatherv scatter scatterv", "BCAST": "bcast", "BARRIER": "barrier",
    "NHBR": "neighbor_allgather neighbor_allgatherv neighbor_alltoall neighbor_alltoallv "
            "neighbor_alltoallw",
    "ALL_REDUCE": "allreduce reduce_scatter reduce_scatter_block", "REDUCE": "reduce",
    "NBC_BARRIER": "ibarrier",
    "NBC_ALLTOALL": "ialltoall ialltoallv ialltoallw iallgather iallgatherv",
    "NBC_GATHER": "igather igatherv iscatter iscatterv", "NBC_BCAST": "ibcast",
    "NBC_ALL_REDUCE": "iallreduce ireduce_scatter ireduce_scatter_block", "NBC_REDUCE": "ireduce",
    "NBC_NHBR": "ineighbor_allgather ineighbor_allgatherv ineighbor_alltoall ineighbor_alltoallv "
                "ineighbor_alltoallw",
    "ALLTOALL_P": "alltoall_persistent alltoallv_persistent alltoallw_persistent "
                  "allgather_persistent allgatherv_persistent gather_persistent "
                  "gatherv_persistent scatter_persistent scatterv_persistent",
    "BCAST_P": "bcast_persistent", "BARRIER_P": "barrier_persistent",
    "ALL_REDUCE_P": "allreduce_persistent reduce_persistent reduce_scatter_persistent",
    "ONE_SIDED_LAT": "put_latency get_latency acc_latency get_acc_latency fop_latency cas_latency",
    "ONE_SIDED_BW": "put_bw get_bw put_bibw",
    "INIT": "init", "HELLO": "hello",
}
# The letters parbench decides per program (osu/suite.cpp options_not_taken), a value each
# (-s fence: a synchronisation of all nine one-sided tests, put_bibw's too). -m, -i and -x are
# every string's but init's ("I"); -u is refused where taken too (docs/osu.md: not offered), so
# where every program named takes it the refusal is that one, not a missing letter's.
CHECKED_OPTIONS = {"m": ["4"], "i": ["1"], "x": ["0"], "u": ["3"],
                   "T": ["MPI_CHAR"], "l": [], "k": ["rotate"], "b": ["multiple"], "R": ["1"],
                   "p": ["1"], "V": [], "D": ["cont"], "d": ["cuda", "D", "D"],
                   "W": ["2"], "t": ["1"], "q": ["2"], "N": ["cart:1:1"], "s": ["fence"],
                   "w": ["create"], "f": [], "z": ["50"], "c": [], "I": [], "a": ["4"]}
# Where parbench refuses what 7.5 takes, on purpose (docs/osu.md says why): (program, letter,
# accelerator build)
KEPT_DIFFERENCES = (
    # osu_partitioned_latency.c:166, 179-183, 204-217 reads past its buffers under -D
    [("partitioned_latency", "D", accel) for accel in (False, True)] +
    # "Benchmark supports only MPI_CHAR. Continuing with MPI_CHAR." (osu_put_latency.c:70-73, ...)
    [(name, "T", accel) for name in "put_latency get_latency get_acc_latency put_bw get_bw "
     "put_bibw".split() for accel in (False, True)] +
    # osu_init.c times omb_mpi_init (osu_init.c:36-38), MPI_Session_init under -I
    # (osu_util_mpi.c:658-687); parbench's figure is the MPI plugin's MPI_Init_thread
    [("init", "I", False)])


def takes_letters(option_string):
    """The option letters of a getopt string ("+:" and ":" marks dropped); None: every letter."""
    return None if option_string is None else {c for c in option_string if c not in "+:"}


def test_option_acceptance(args):
    """Each of the 78 programs takes exactly OSU 7.5's letters of CHECKED_OPTIONS (its plain
    build's option string; with -d, and for -d itself, its accelerator build's), but
    KEPT_DIFFERENCES: one launch per letter and build names every program (under -d those whose
    string has d:) and must be refused in one line naming exactly those that do not take it."""
    names = {name: cls for cls, programs in OSU75_PROGRAMS.items() for name in programs.split()}
    expect(len(names) == 78, f"OSU 7.5 has 78 MPI programs, the table {len(names)}")
    driver = parbench(args.parbench)
    for accel in (False, True):
        for letter, value in CHECKED_OPTIONS.items():
            if accel and letter == "d":
                continue  # -d is asked of the accelerator build's strings once, below
            build = int(accel or letter == "d")
            takes = {name: takes_letters(OSU75_OPTION_STRINGS[cls][build])
                     for name, cls in names.items()}
            named = [name for name in names if not accel or takes[name] is None or
                     "d" in takes[name]]
            want = sorted(name for name in named if takes[name] is not None and
                          (letter not in takes[name] or (name, letter, accel) in KEPT_DIFFERENCES))
            device = ["-d", "cuda", "D", "D"] if accel else []
            # short runs where a launch is not refused; init, named in every plain launch,
            # refuses -m, -i and -x, so they are given there only as the letter checked
            short = [] if "init" in named else \
                [word for option, v in (("m", "4:4"), ("i", "1"), ("x", "0")) if option != letter
                 for word in (f"-{option}", v)]
            rc, _, err = driver(["run", "osu", *named, f"-{letter}", *value, *device, *short,
                                 "--quiet"], np=1)
            lines = [line for line in err.splitlines() if line.strip()]
            refused_names = []
            if (rc == BAD_INPUT and len(lines) == 1 and lines[0].startswith("parbench:") and
                    f"-{letter}: not " in lines[0]):
                listed = lines[0].split(": not ", 1)[1].split(" on " if " offered on " in lines[0]
                                                              else " of ", 1)[1]
                refused_names = sorted(listed.split(" (", 1)[0].split(", "))
            expect(refused_names == want,
                   f"-{letter}{' under -d' if accel else ''}: refused on {refused_names}, OSU 7.5 "
                   f"refuses {want}: rc {rc}, stderr {err[-600:]!r}")
            # in OSU 7.5's words: osu_init's getopt's where init alone is refused (its string "I"
            # has no leading ':', osu_init.c:29-37), print_bad_usage_message's otherwise
            words = (f"osu_init: invalid option -- '{letter}'" if want == ["init"] else
                     f"Invalid option [-{letter}]")
            expect(not refused_names or " of " not in lines[0] or
                   f"(OSU 7.5 does not take it there: {words}; see docs/osu.md)" in lines[0],
                   f"-{letter}{' under -d' if accel else ''}: OSU 7.5's words {words!r} not in "
                   f"{lines[0]!r}")
    # hello takes and ignores them all (osu_hello.c reads no options): its one line, no device;
    # -c and -z apart (parbench refuses -l, -D and -V with them before it looks at the tests)
    for apart in ("cz", "lDV"):
        rc, out, err = driver(["run", "osu", "hello",
                               *[arg for letter, value in CHECKED_OPTIONS.items()
                                 if letter not in apart for arg in (f"-{letter}", *value)]], np=1)
        expect(rc == 0 and "This is a test with 1 processes\n" in out,
               f"hello with every option but -{' -'.join(apart)}: rc {rc}, {out!r}, {err[-300:]!r}")


def osu_tail_heading(want, unit="Lat(us)"):
    """OSU 7.5's -z headings (osu_util_mpi.c:407-415, 524-533): before each 'P<p> Tail <unit>'
    FIELD_WIDTH (18) - strlen('Px Tail <unit>') - (p > 9) spaces, so P100's is 19 wide."""
    return "".join(" " * (18 - len(f"Px Tail {unit}") - (q > 9)) + f"P{q} Tail {unit}"
                   for q in want)


def tail_columns(out, want):
    """The -z columns of each size row of every table in `out` (the last len(want) fields), after
    checking each table's heading ends in OSU 7.5's 'P<p> Tail Lat(us)' (osu_tail_heading)."""
    heading = osu_tail_heading(want)
    expect(all(line.endswith(heading) for line in out.splitlines() if line.startswith("# Size")),
           f"-z {want}: headings {[line for line in out.splitlines() if line.startswith('# Size')]}"
           f", expected each to end in {heading!r}")
    return {int(line.split()[0]): [float(v) for v in line.split()[-len(want):]]
            for line in out.splitlines() if line.split() and line.split()[0].isdigit()}


def test_tail_latency(args):
    """-z's percentile list (osu_util.c:834-856; default 50,90,99). OSU's tail latency of p is
    element round(n * p / 100) - 1 of the sorted times, n * p / 100 in C's integer division
    (omb_calculate_tail_lat, osu_util_mpi.c:742-750), of one time per timed iteration: a
    collective's mean over the processes (omb_get_stats: MPI_Reduce SUM, then / comm_size,
    osu_util_mpi.c:714-750), process 0's own on the pair tests (osu_latency.c:288). Known answers
    under the oracle, where every other MPI_Allreduce of process 0 costs L more: its calls take
    D0 and D0 + L, process 1's D1, so OSU's means are (D0 + D1) / 2 and (D0 + D1 + L) / 2, half
    each, where the slowest process's times (parbench's samples) are D1 and D0 + L. latency with
    every 65th MPI_Send of process 0 costing L more: process 0's 130 one-way times are 128 of D0
    and 2 of D0 + L / 2 (process 1's are D1): P99 is the 128th, D0, not nearest rank's 129th."""
    extra = 600.0
    low, high = (D0_US + D1_US) / 2, (D0_US + D1_US + extra) / 2
    want = [1, 50, 100]
    p, rows, _ = oracle_run(args, ["allreduce"], ["-m", "8:8", "-i", "100", "-x", "0", "-z",
                                                  ",".join(map(str, want))],
                            oracle_env=[f"PARBENCH_ORACLE_NTH_DELAY_US=MPI_Allreduce:2:{extra},0"])
    got = tail_columns(p.stdout, want)
    expected = [low, low, high]
    expect(list(got) == [8] and all(close(v, e, 1e-4) for v, e in zip(got[8], expected)),
           f"allreduce -z 1,50,100 under the oracle: {got}, expected {expected}")
    # parbench's own samples stay one per call, each the slowest process's
    samples = sorted(rows[0].get("samples_us", [])) if len(rows) == 1 else []
    want_samples = [D1_US] * 50 + [D0_US + extra] * 50
    expect(len(samples) == 100 and all(close(a, b, 1e-4) for a, b in zip(samples, want_samples)),
           f"allreduce -z -i 100: samples {samples[:3]}...{samples[-3:]} ({len(samples)}), "
           f"expected 50 of {D1_US} and 50 of {D0_US + extra}")
    want = [1, 50, 99, 100]
    p, rows, _ = oracle_run(args, ["latency"], ["-m", "4:4", "-i", "130", "-x", "0",
                                                "--tail-lat", ",".join(map(str, want))],
                            oracle_env=[f"PARBENCH_ORACLE_NTH_DELAY_US=MPI_Send:65:{extra},0"])
    got = tail_columns(p.stdout, want)
    expected = [D0_US, D0_US, D0_US, D0_US + extra / 2]
    metrics = rows[0].get("metrics", {}) if len(rows) == 1 else {}
    # Avg Latency(us) is process 0's own time, as OSU prints it (osu_latency.c:277-278): its 130
    # round trips of 2 D0, two of them L more, halved: D0 + L / 130; the slowest process's (the
    # record's t_max_us) is process 1's D1
    avg = D0_US + extra / 130
    cells = [line.split()[1] for line in p.stdout.splitlines() if line.startswith("4 ")]
    expect(cells == [f"{avg:.2f}"] and close(metrics.get("process0_time_us", -1), avg, 1e-6) and
           close(rows[0].get("t_max_us", -1) if rows else -1, D1_US, 1e-6),
           f"latency under the oracle: Avg Latency {cells}, process0_time_us "
           f"{metrics.get('process0_time_us')}, expected {avg:.2f} (process 0's), t_max D1")
    expect(list(got) == [4] and all(close(v, e, 1e-4) for v, e in zip(got[4], expected)) and
           all(close(metrics.get(f"p{q}_latency_us", -1), e, 1e-4)
               for q, e in zip(want, expected)) and
           len(rows[0].get("samples_us", [])) == 130,
           f"latency --tail-lat 1,50,99,100 under the oracle: columns {got}, metrics {metrics}, "
           f"expected {expected}, 130 samples")
    test_tail_bandwidth(args)
    test_tail_nonblocking(args)
    for value, why in [("101", "-z 101: each percentile must be an integer 0 to 100"),
                       ("50,x", "-z 50,x:"),
                       ("1,2,3,4,5,6", "-z 1,2,3,4,5,6: at most 5 percentiles")]:
        refused_early(args, ["latency", "-m", "4:4", "-i", "1", "-z", value], why)


def tail_tables(out, want):
    """The tables of `out` in order, each its -z columns' unit and its rows' -z columns (the last
    len(want) fields by size), after checking its heading ends in OSU 7.5's 'P<p> Tail Lat(us)'
    or, on a bandwidth table, 'P<p> Tail BW(MB/s)' (osu_tail_heading; osu_util_mpi.c:402-416,
    633-647)."""
    tables = []
    for line in out.splitlines():
        if line.startswith("# Size"):
            unit = "BW(MB/s)" if "MB/s" in line.split("Tail")[0] else "Lat(us)"
            heading = osu_tail_heading(want, unit)
            expect(line.endswith(heading),
                   f"-z {want}: heading {line!r}, expected it to end in {heading!r}")
            tables.append((unit, {}))
        elif tables and line.split() and line.split()[0].isdigit():
            tables[-1][1][int(line.split()[0])] = [float(v) for v in line.split()[-len(want):]]
    return tables


def test_tail_bandwidth(args):
    """-z on the bandwidth tests (OSU 7.5's 'P<p> Tail BW(MB/s)'): the same element of the
    sorted MB/s, ascending, of process 0's single windows (omb_lat_arr[i - options.skip] =
    tmp_total / (t_end - t_start), osu_bw.c:269-274, osu_mbw_mr.c:553-557,
    osu_bw_fan_out.c:277-281; bw_fan_in's first child's, sent to process 0,
    osu_bw_fan_in.c:333-343), and on the one-sided tests process 0's times of single iterations
    (osu_put_latency.c:224-225) or MB/s of their W MPI_Put (osu_put_bw.c:232-234). Under the
    oracle every 10th MPI_Recv of a process costs L more: of 20 windows two take (W + 2) D + L,
    18 (W + 2) D (process 0's W MPI_Isend, MPI_Waitall and the reply; bw_fan_in's child's, at
    D1), so sorted ascending the MB/s are two slow and 18 fast: P5 and P10 (elements 0 and 1)
    slow, P15 (element 2) fast. put_latency's iterations are an MPI_Put and an MPI_Win_flush
    (2 D0), every 10th flush L more, so P90 is element 17 (2 D0) and P95 element 18; put_bw's
    64 MPI_Put and a flush (65 D0)."""
    extra, x, w = 600.0, 4096, 4
    want = [5, 10, 15, 50, 100]
    names = ["bw", "mbw_mr", "bw_fan_in", "bw_fan_out"]
    p, rows, _ = oracle_run(args, names, ["-m", f"{x}:{x}", "-i", "20", "-x", "0", "-W", str(w),
                                          "-z", ",".join(map(str, want))],
                            oracle_env=[f"PARBENCH_ORACLE_NTH_DELAY_US=MPI_Recv:10:{extra}"])
    tables = tail_tables(p.stdout, want)
    metrics = {r["benchmark"]: r.get("metrics", {}) for r in rows}
    expect(len(tables) == len(names) and list(metrics) == names,
           f"{names} -z: {len(tables)} tables, records of {list(metrics)}: {p.stdout[-800:]!r}")
    for name, d, (unit, cells) in zip(names, [D0_US, D0_US, D1_US, D0_US], tables):
        fast, slow = w * x / ((w + 2) * d), w * x / ((w + 2) * d + extra)
        expected = [slow, slow, fast, fast, fast]
        expect(unit == "BW(MB/s)" and cells.get(x) == [round(e, 2) for e in expected] and
               all(close(metrics[name].get(f"p{q}_bandwidth_mb_s", -1), e, 1e-6)
                   for q, e in zip(want, expected)),
               f"{name} -z {want} under the oracle: {unit} cells {cells}, metrics "
               f"{metrics[name]}, expected {expected}")
    want = [5, 10, 15, 90, 95]
    names = ["put_latency", "put_bw"]
    p, rows, _ = oracle_run(args, names, ["-m", f"{x}:{x}", "-i", "20", "-x", "0", "-z",
                                          ",".join(map(str, want))],
                            oracle_env=[f"PARBENCH_ORACLE_NTH_DELAY_US=MPI_Win_flush:10:{extra}"])
    tables = tail_tables(p.stdout, want)
    metrics = {r["benchmark"]: r.get("metrics", {}) for r in rows}
    expect(len(tables) == len(names) and list(metrics) == names,
           f"{names} -z: {len(tables)} tables, records of {list(metrics)}: {p.stdout[-800:]!r}")
    fast, slow = 2 * D0_US, 2 * D0_US + extra
    fast_mb, slow_mb = 64 * x / (65 * D0_US), 64 * x / (65 * D0_US + extra)
    for name, (unit, cells), (want_unit, metric, expected) in zip(names, tables, [
            ("Lat(us)", "latency_us", [fast, fast, fast, fast, slow]),
            ("BW(MB/s)", "bandwidth_mb_s", [slow_mb, slow_mb, fast_mb, fast_mb, fast_mb])]):
        expect(unit == want_unit and cells.get(x) == [round(e, 2) for e in expected] and
               all(close(metrics[name].get(f"p{q}_{metric}", -1), e, 1e-6)
                   for q, e in zip(want, expected)),
               f"{name} -z {want} under the oracle: {unit} cells {cells}, metrics "
               f"{metrics[name]}, expected {want_unit} {expected}")


def nbc_tables(out):
    """The nonblocking tables of `out` in order, each its heading line (OSU's '# Size' one, or
    ibarrier's '# Overall(us)' one) and its rows' fields."""
    tables = []
    for line in out.splitlines():
        if line.startswith("# Size") or line.startswith("# Overall(us)"):
            tables.append((line, []))
        elif tables and line.strip() and not line.startswith("#"):
            tables[-1][1].append(line.split())
    return tables


def test_tail_nonblocking(args):
    """-z on the nonblocking tests: OSU 7.5's 'P<p> Tail Lat(us)' after Overlap(%)
    (print_only_header_nbc, osu_util_mpi.c:491-533: '# Size' %-10s, then %18s each), of the
    overall loop's single iterations (omb_lat_arr[i - options.skip] = (t_stop - t_start) * 1e6,
    osu_ialltoall.c:274-275, osu_ibarrier.c:162, osu_ineighbor_alltoall.c:258-259), each
    iteration's mean over the processes (omb_get_stats, osu_util_mpi.c:714-750). Under the
    oracle an overall iteration is the call and MPI_Wait, 2 D (the compute moves no virtual
    clock); every 4th MPI_Ialltoall (MPI_Ineighbor_alltoall, on the graph 0->1, 1->0) of process
    0 costs L more: of -i 40 the pure loop makes calls 1-40, the overall loop 41-80, so 10 of its
    iterations take 2 D0 + L there, 30 2 D0, process 1's 2 D1: OSU's means D0 + D1 (30) and
    D0 + D1 + L / 2 (10); P76 is element floor(40 * 76 / 100) - 1 = 29 (the last of the 30;
    nearest rank's would be the 31st), P78 element 30. ibarrier's every iteration: D0 + D1.
    partitioned_latency (process 0's own one-way times, omb_calculate_tail_lat(omb_lat_arr,
    myid, 1), osu_partitioned_latency.c:520; OSU 7.5 itself never allocates that array,
    docs/osu.md): an overall round trip of process 0 is MPI_Start, q MPI_Pready, MPI_Wait,
    MPI_Start, MPI_Wait, (4 + q) D0, with -q 2 every 4th MPI_Pready of process 0 L more: the
    pure loop's -i 20 make Preadys 1-40, overall iteration k 40 + 2k - 1 and 40 + 2k, so the
    even k (10 of 20) take (6 D0 + L) / 2 one way, the others 3 D0."""
    extra = 600.0
    nbc_columns = "".join(h.rjust(18) for h in ("Compute(us)", "Pure Comm.(us)", "Overlap(%)"))

    def check(label, names, options, function, want, expected):
        with tempfile.TemporaryDirectory() as tmp:
            edges = os.path.join(tmp, "graph.adj")  # OSU's cart:1:1 needs 3 processes
            with open(edges, "w") as f:
                f.write("0,1\n1,0\n")
            p, rows, _ = oracle_run(
                args, names, [o.replace("GRAPH", edges) for o in options] +
                ["-m", "8:8", "-x", "0", "-z", ",".join(map(str, want))],
                oracle_env=[f"PARBENCH_ORACLE_NTH_DELAY_US={function}:4:{extra},0"])
        tables = nbc_tables(p.stdout)
        metrics = {r["benchmark"]: r.get("metrics", {}) for r in rows}
        if not expect(len(tables) == len(names) and list(metrics) == names,
                      f"{label}: {len(tables)} tables, records of {list(metrics)}: "
                      f"{p.stdout[-800:]!r}"):
            return
        for name, (head, cells) in zip(names, tables):
            want_head = ("# Overall(us)" if name == "ibarrier" else
                         "# Size".ljust(10) + "Overall(us)".rjust(18)) + nbc_columns + \
                osu_tail_heading(want)
            got = [float(v) for v in cells[0][-len(want):]] if len(cells) == 1 else []
            expect(head == want_head and got == [round(e, 2) for e in expected[name]] and
                   all(close(metrics[name].get(f"p{q}_latency_us", -1), e, 1e-6)
                       for q, e in zip(want, expected[name])),
                   f"{name} -z {want} under the oracle: heading {head!r} (expected "
                   f"{want_head!r}), cells {got}, metrics {metrics[name]}, expected "
                   f"{expected[name]}")

    fast, slow = D0_US + D1_US, D0_US + D1_US + extra / 2
    want = [1, 75, 76, 78, 100]
    check("ialltoall ibarrier -z", ["ialltoall", "ibarrier"], ["-i", "40"], "MPI_Ialltoall", want,
          {"ialltoall": [fast, fast, fast, slow, slow], "ibarrier": [fast] * 5})
    check("ineighbor_alltoall -z", ["ineighbor_alltoall"], ["-N", "graph:GRAPH", "-i", "40"],
          "MPI_Ineighbor_alltoall", want, {"ineighbor_alltoall": [fast, fast, fast, slow, slow]})
    fast, slow = 3 * D0_US, (6 * D0_US + extra) / 2
    check("partitioned_latency -q 2 -z", ["partitioned_latency"], ["-q", "2", "-i", "20"],
          "MPI_Pready", [5, 50, 55, 100], {"partitioned_latency": [fast, fast, slow, slow]})


def osu_log_block(x, iteration, datatype, mismatches, kind="d"):
    """OSU 7.5's validation_log lines for one failed check (osu_util_mpi.c:2316-2345: positions
    %-10d, values FIELD_WIDTH wide, 18 in OSU's build, configure.ac:402: MPI_CHAR's and MPI_INT's
    %d, kind "d", MPI_FLOAT's %f, kind "f"; as osu_latency -clog writes them): mismatches are
    (position, expected, actual)."""
    return ([f"Size: {x}, Iteration:{iteration}, Datatype: {datatype}",
             f"{'Position':<10}{'Expected':>18}{'Actual':>18}"] +
            [f"{k:<10}{e:>18{kind}}{a:>18{kind}}" for k, e, a in mismatches])


def as_char(byte):
    """A byte as OSU prints an MPI_CHAR element: %d of a (signed, on x86) char."""
    return byte - 256 if byte > 127 else byte


def test_validation_log(args):
    """-clog[:DIR] (OSU 7.5's "c::", osu_util.c:959-1008; its log, osu_util_mpi.c:2297-2348):
    the testing module's put one byte off its section (its X - 1 bytes from origin byte 0 land at
    target byte 1; byte 0 stays the 0 the check cleared) makes process 1's check find X
    mismatching bytes at size X (test_osu_paw.py); -clog appends OSU's lines per such size to
    validation_output/log-1.log (OSU's OMB_VALIDATION_LOG_DIR_PATH, osu_util.h:202): `Size: X,
    Iteration:3, Datatype: MPI_CHAR` (-i 4: the last timed iteration, from 0), the Position /
    Expected / Actual heading and every byte k with the put's byte k, (131 + 7k) mod 256
    (rma/kernels.hpp data_check::pattern of process 0), and the byte found, k - 1's or 0; nothing
    for latency, whose check passes. A DIR that exists is refused with OSU's words before the
    run; a value other than log[:DIR] is refused. The same run has bare -z's headings."""
    names = ["latency", "Test_Corrupt_put"]
    with tempfile.TemporaryDirectory() as tmp:
        p, rows = run(names + ["-m", "2:4", "-i", "4", "-x", "0", "-clog", "-z"], args.np,
                      args.parbench, cwd=tmp)
        if p.returncode == BAD_INPUT and "unknown benchmark" in p.stderr:
            print("skipped -clog's log: plugin built without -Dtest_kernels=true")
            p, rows = run(["latency", "-m", "4:4", "-i", "4", "-x", "0", "-z"], args.np,
                          args.parbench, cwd=tmp)
            tail_columns(p.stdout, [50, 90, 99])
        else:
            # bare -z's columns (50,90,99), then -c's Defects (parbench's, after OSU's)
            heading = "".join(f"{f'P{q} Tail Lat(us)':>18}" for q in (50, 90, 99)) + \
                f"{'Defects':>10}"
            headings = [line for line in p.stdout.split("Test_Corrupt_put")[0].splitlines()
                        if line.startswith("# Size")]
            expect(len(headings) == 1 and headings[0].endswith(heading),
                   f"latency -c -z: headings {headings}, expected one ending in {heading!r}")
            log_dir = os.path.join(tmp, "validation_output")
            logs = {}
            for name in sorted(os.listdir(log_dir)) if os.path.isdir(log_dir) else []:
                with open(os.path.join(log_dir, name)) as f:
                    logs[name] = f.read().splitlines()
            def sent(k):
                return as_char((131 + 7 * k + k // 251) % 256)
            want = {"log-1.log": [line for x in (2, 4) for line in osu_log_block(
                x, 3, "MPI_CHAR", [(k, sent(k), sent(k - 1) if k > 0 else 0)
                                   for k in range(x)])]}
            defects = {(r["benchmark"], r["bytes"]): r["defects"] for r in rows}
            expect(p.returncode == 5 and logs == want and
                   defects == {("latency", 2): 0, ("latency", 4): 0,
                               ("Test_Corrupt_put", 2): 2, ("Test_Corrupt_put", 4): 4},
                   f"-clog: rc {p.returncode}, defects {defects}, logs {logs}, expected {want}: "
                   f"{p.stderr[-300:]}")
        refused_early(args, ["latency", "-m", "4:4", "-i", "1", f"-clog:{tmp}"],
                      f'-clog:{tmp}: "{tmp}" already exists. Set validation log directory using '
                      '"-clog:<dir>"')
    refused_early(args, ["latency", "-m", "4:4", "-i", "1", "-cfoo"],
                  "-cfoo: expected -c, -clog or -clog:DIR")


def test_mbw_mr_options(args):
    """mbw_mr's -R and -p (osu_util.c:803-808, 820-822): -R 0 prints MB/s alone
    (osu_mbw_mr.c:182-191); -p is read and then overwritten by n/2 (osu_mbw_mr.c:56, :73), so
    -p 5 at -n 2 runs, and says, 1 pair as OSU 7.5's build does. -R other than 0 or 1, and -R or -p
    on a test without them, are refused in one line."""
    p, rows = run(["mbw_mr", "-m", "4:8", "-i", "2", "-x", "0", "-W", "2", "-R", "0", "-p", "5"],
                  args.np, args.parbench)
    sized = [line.split() for line in p.stdout.splitlines() if line[:1].isdigit()]
    expect(p.returncode == 0 and f"# [ pairs: {args.np // 2} ] [ window size: 2 ]\n"
           "# Datatype: MPI_CHAR.\n# Size                  MB/s\n" in p.stdout and
           [len(f) for f in sized] == [2, 2] and
           all(abs(float(f[1]) - r["metrics"]["bandwidth_mb_s"]) <= 0.0051
               for f, r in zip(sized, rows)),
           f"mbw_mr -R 0 -p 5: rc {p.returncode}, {p.stdout!r}")
    # -R, -p and -V on the tests that do not take them: test_option_acceptance
    for options, why in [(["mbw_mr", "-R", "2"], "-R 2: expected 0 or 1")]:
        refused_early(args, options + ["-m", "4:4", "-i", "1", "-x", "0"], why)


def test_varied_window(args):
    """mbw_mr -V (osu_mbw_mr.c:157-325): each size at OSU's WINDOW_SIZES 1 to 128
    (osu_util.h:443-447) in turn, printed as OSU 7.5's matrix: '[ window size: varied ]', the
    '# Uni-directional Bandwidth (MB/sec)' title, a heading of windows ("  %10d"), rows "%-7d"
    and "  %10.2f", then '# Message Rate Profile' (not with -R 0). Under the oracle (every call
    D) an iteration of window W is W MPI_Isend + MPI_Waitall + the reply, (W + 2) D, so cell
    (W, X) = pairs W X / ((W + 2) D) MB/s and its rate pairs W / ((W + 2) D) messages/s."""
    windows = [1, 2, 4, 8, 16, 32, 64, 128]
    x = 16384
    pairs = args.np // 2
    p, rows, reports = oracle_run(args, ["mbw_mr"], ["-V", "-m", f"{x}:{x}", "-i", "2", "-x",
                                                     "0"], delays=f"{D0_US},{D0_US}")
    got = [(r["metrics"].get("window_size"), r.get("mode")) for r in rows]
    expect(got == [(w, f"window:{w}") for w in windows], f"-V records' windows {got}")
    mb_s = [pairs * w * x / ((w + 2) * D0_US) for w in windows]
    rates = [pairs * w / ((w + 2) * D0_US * 1e-6) for w in windows]
    heading = "#      " + "".join(f"  {w:>10}" for w in windows)
    want = (f"# [ pairs: {pairs} ] [ window size: varied ]\n\n# Uni-directional Bandwidth "
            f"(MB/sec)\n# Datatype: MPI_CHAR.\n{heading}\n{x:<7}" +
            "".join(f"  {v:>10.2f}" for v in mb_s) + "\n")
    expect(want in p.stdout, f"mbw_mr -V: expected\n{want}in\n{p.stdout}")
    profile = ("\n# Message Rate Profile\n" + heading + f"\n{x:<7}" +
               "".join(f"  {v:>10.2f}" for v in rates) + "\n")
    expect(profile in p.stdout, f"mbw_mr -V: expected\n{profile}in\n{p.stdout}")
    p, rows = run(["mbw_mr", "--vary-window", "-R", "0", "-m", "1:2", "-i", "1", "-x", "0"],
                  args.np, args.parbench)
    sized = [line.split() for line in p.stdout.splitlines() if line[:1].isdigit()]
    expect(p.returncode == 0 and "Message Rate Profile" not in p.stdout and
           [len(f) for f in sized] == [9, 9] and len(rows) == 16,
           f"mbw_mr --vary-window -R 0: rc {p.returncode}, {p.stdout!r}")
    for options, why in [(["mbw_mr", "-V", "-c"], "-V: not offered with -c")]:
        refused_early(args, options + ["-m", "4:4", "-i", "1", "-x", "0"], why)


def test_sessions(args):
    """-I (OSU 7.5's omb_mpi_init, osu_util_mpi.c:658-687): the tests run on a communicator of an
    MPI session's mpi://WORLD: under the oracle every process makes one MPI_Session_init, one
    MPI_Comm_create_from_group of all n processes and one MPI_Session_finalize, and the figures
    are the known answers of the calls (latency: Send + Recv per round trip, halved: D; a
    collective's time per call D); without -I none of them (checked in test_bw_reply's run).
    -I on init is refused."""
    p, rows, reports = oracle_run(args, ["latency", "allreduce"],
                                  ["--session", "-m", "4:4", "-i", "2", "-x", "0"],
                                  delays=f"{D0_US},{D0_US}")
    for rank, rep in reports.items():
        got = (calls(rep, "MPI_Session_init"), operands(rep, "MPI_Comm_create_from_group"),
               calls(rep, "MPI_Session_finalize"))
        want = (1, {f"parbench.osu size {args.np}": 1}, 1)
        expect(got == want, f"-I rank {rank}: (MPI_Session_init, MPI_Comm_create_from_group, "
               f"MPI_Session_finalize) {got}, expected {want}")
    expect([r["benchmark"] for r in rows] == ["latency", "allreduce"] and
           all(close(r["t_avg_us"], D0_US, 1e-6) and close(r["t_max_us"], D0_US, 1e-6)
               for r in rows),
           f"-I: rows {[(r['benchmark'], r['t_avg_us'], r['t_max_us']) for r in rows]}, "
           f"expected D = {D0_US} each")
    refused_early(args, ["init", "-I"], "-I: not offered on init")


def device_log(prefix, rank):
    """The stand-in CUDA runtime's log of one process (tests/mpi/fake_cudart.cpp), split."""
    try:
        with open(f"{prefix}.{rank}") as f:
            return [line.split() for line in f if line.strip()]
    except FileNotFoundError:
        return []


def device_allocations(prefix, rank):
    """The stand-in CUDA runtime's allocations on one process: (function, first address, end
    address) per allocation. The stand-in hands no address out twice in a process, so an address
    lies in one allocation at most (check_placement checks it)."""
    return [(fn, int(address, 16), int(address, 16) + int(size))
            for fn, size, address, *_ in device_log(prefix, rank) if fn != "cudaMemcpy"]


def device_copies(prefix, rank):
    """The stand-in CUDA runtime's copies on one process: (kind, bytes, to, from) per
    cudaMemcpy (kind 1 host to device, 2 device to host)."""
    return [(int(kind), int(size), int(to, 16), int(source, 16))
            for fn, size, to, source, kind in (line for line in device_log(prefix, rank)
                                               if line[0] == "cudaMemcpy")]


def check_through_copies(args, log, preload):
    """-c with device buffers (OSU 7.5 fills and reads them with cudaMemcpy host to device and
    device to host: set_buffer_validation, validate_data, osu_util_mpi.c:1152-1157, :1734-1735):
    latency, put_latency and allreduce under -d cuda D D pass, each process's copies in going
    to its cudaMalloc memory and its copies out coming from it, some of each. With the stand-in's
    PARBENCH_FAKE_CUDA_ZERO_COPIED (a copy in delivers its first byte as 0, a copy out its last)
    a check that filled through copies in and read through copies out finds, at 8 bytes,
    positions 0 and 7 wrong, found 0, and -clog writes OSU's lines: process 0 expected process
    1's bytes 0 and 7 from latency, 1 + 37 = 38 and 1 + 37 + 77 = 115 (check.hpp byte_value);
    process 1 latency's 1 and 78 (process 0's), then put_latency's window bytes 0 and 7,
    131 (-125 as a char) and 131 + 49 = 180 (-76) (rma/kernels.hpp pattern); -i 2: the last
    timed iteration is 1. A fill or read that went around the copies loses one of the two."""
    sized = ["-m", "8:8", "-i", "2", "-x", "0", "-c"]
    names = ["latency", "put_latency", "allreduce"]
    p, rows = run(names + sized + ["-d", "cuda", "D", "D"], args.np, args.parbench,
                  timeout=60, env_args=preload)
    expect(p.returncode == 0 and [(r["benchmark"], r["defects"]) for r in rows] ==
           [(n, 0) for n in names], f"-c -d cuda D D: rc {p.returncode}, rows "
           f"{[(r['benchmark'], r['defects']) for r in rows]}: {p.stderr[-300:]}")
    for rank in (0, 1):
        made = [(low, high) for fn, low, high in device_allocations(log, rank)
                if fn == "cudaMalloc"]
        copies = device_copies(log, rank)

        def on_device(address, n):
            return any(low <= address and address + n <= high for low, high in made)
        expect({kind for kind, _, _, _ in copies} == {1, 2} and
               all(on_device(to if kind == 1 else source, n) for kind, n, to, source in copies),
               f"-c -d cuda D D: process {rank}'s copies {copies} against its device memory "
               f"{made}: expected copies in to it and out of it, and no other")
        os.remove(f"{log}.{rank}")
    with tempfile.TemporaryDirectory() as tmp:
        log_dir = os.path.join(tmp, "v")
        p, rows = run(names[:2] + sized + [f"-clog:{log_dir}", "-d", "cuda", "D", "D"],
                      args.np, args.parbench, timeout=60,
                      env_args=preload + ["PARBENCH_FAKE_CUDA_ZERO_COPIED=1"])
        logs = {}
        for name in sorted(os.listdir(log_dir)) if os.path.isdir(log_dir) else []:
            with open(os.path.join(log_dir, name)) as f:
                logs[name] = f.read().splitlines()
    want = {"log-0.log": osu_log_block(8, 1, "MPI_CHAR", [(0, 38, 0), (7, 115, 0)]),
            "log-1.log": osu_log_block(8, 1, "MPI_CHAR", [(0, 1, 0), (7, 78, 0)]) +
            osu_log_block(8, 1, "MPI_CHAR", [(0, -125, 0), (7, -76, 0)])}
    defects = [(r["benchmark"], r["defects"]) for r in rows]
    expect(p.returncode == 5 and defects == [("latency", 4), ("put_latency", 2)] and logs == want,
           f"-c -d cuda D D, copies' first bytes 0: rc {p.returncode}, defects {defects}, logs "
           f"{logs}, expected {want}: {p.stderr[-300:]}")
    check_typed_log(args, preload)
    for rank in (0, 1):
        if os.path.exists(f"{log}.{rank}"):
            os.remove(f"{log}.{rank}")


def sent_byte(rank, j):
    """Byte j of the message process `rank` sends under -c (check.hpp byte_value)."""
    return 1 + (rank * 37 + j * 11 + (j >> 8)) % 251


def check_typed_log(args, preload):
    """-clog under -T lists elements of the datatype, as OSU 7.5's validation_log does
    (osu_util_mpi.c:2326-2342: the position in elements, %d of an MPI_INT, %f of an MPI_FLOAT).
    The stand-in's copies zero the first byte a copy in delivers and the last a copy out does
    (check_through_copies), so at 8 bytes latency's receiver finds both elements wrong: element
    0 with its byte 0 zero (the sender's fill), element 1 with its byte 3 zero (the receiver's
    read), each 4 bytes of the peer's fill read as the type. The accumulates and atomics list
    theirs too (OSU 7.5 prints its atomics' failures on stderr, osu_util_validation.c:478-500,
    and logs none): after -i 2 timed operations of 1 the target's element should hold 2 and
    the fetched value 1 (rma/kernels.hpp data_check); fop_latency's origin 1 arrives as 0 (its
    low byte), so its window holds 0 and the fetched value is 0; acc_latency -T MPI_INT's
    element 0 likewise (0 for 2), -T MPI_FLOAT's 1.0 keeps its zero low byte and its element 1,
    2.0, loses its high byte on the way out (0.0 for 2.0)."""
    def word(rank, first, zero):
        data = bytes(0 if j == zero else sent_byte(rank, j) for j in range(first, first + 4))
        return int.from_bytes(data, "little", signed=True)

    def real(rank, first, zero):
        data = bytes(0 if j == zero else sent_byte(rank, j) for j in range(first, first + 4))
        return struct.unpack("<f", data)[0]

    def latency(peer, convert):
        return [(0, convert(peer, 0, None), convert(peer, 0, 0)),
                (1, convert(peer, 4, None), convert(peer, 4, 7))]

    sized = ["-m", "8:8", "-i", "2", "-x", "0", "-d", "cuda", "D", "D"]
    runs = [(["latency", "fop_latency", "acc_latency"], "MPI_INT", word, {
        "log-0.log": osu_log_block(8, 1, "MPI_INT", latency(1, word)) +
        osu_log_block(4, 1, "MPI_INT", [(0, 1, 0)]),
        "log-1.log": osu_log_block(8, 1, "MPI_INT", latency(0, word)) +
        osu_log_block(4, 1, "MPI_INT", [(0, 2, 0)]) +
        osu_log_block(8, 1, "MPI_INT", [(0, 2, 0)])}, [("latency", 4), ("fop_latency", 2),
                                                        ("acc_latency", 1)]),
            (["latency", "acc_latency"], "MPI_FLOAT", real, {
        "log-0.log": osu_log_block(8, 1, "MPI_FLOAT", latency(1, real), "f"),
        "log-1.log": osu_log_block(8, 1, "MPI_FLOAT", latency(0, real), "f") +
        osu_log_block(8, 1, "MPI_FLOAT", [(1, 2.0, 0.0)], "f")},
             [("latency", 4), ("acc_latency", 1)])]
    for names, datatype, _, want, want_defects in runs:
        with tempfile.TemporaryDirectory() as tmp:
            log_dir = os.path.join(tmp, "v")
            p, rows = run(names + sized + ["-T", datatype, f"-clog:{log_dir}"], args.np,
                          args.parbench, timeout=60,
                          env_args=preload + ["PARBENCH_FAKE_CUDA_ZERO_COPIED=1"])
            logs = {}
            for name in sorted(os.listdir(log_dir)) if os.path.isdir(log_dir) else []:
                with open(os.path.join(log_dir, name)) as f:
                    logs[name] = f.read().splitlines()
        defects = [(r["benchmark"], r["defects"]) for r in rows]
        expect(p.returncode == 5 and defects == want_defects and logs == want,
               f"-c -T {datatype} -d cuda D D, copies' first bytes 0: rc {p.returncode}, "
               f"defects {defects} (expected {want_defects}), logs {logs}, expected {want}: "
               f"{p.stderr[-300:]}")


def stand_in_cuda(args, log):
    """The oracle's further settings that preload the stand-in CUDA runtime after it, its log of
    allocations at `log`.RANK."""
    return [f"LD_PRELOAD={os.path.abspath(args.oracle)}:{os.path.abspath(args.fake_cudart)}",
            f"PARBENCH_FAKE_CUDA_LOG={log}"]


def check_placement(what, log, reports, want, senders, addresses, count="8", apart=None):
    """Each process's allocations through the stand-in (then removed, for the next run): disjoint
    (the stand-in hands no address out twice), of the kinds `want`[rank]; its `count`-element
    messages (MPI_Send, MPI_Isend, MPI_Send_init) sent from inside allocations of kind
    `senders`[rank] (None: not checked), from `addresses`[rank] distinct addresses, `apart` bytes
    between the first and the last where given."""
    for rank in (0, 1):
        made = sorted(device_allocations(log, rank), key=lambda a: a[1])
        disjoint = all(made[k][2] <= made[k + 1][1] for k in range(len(made) - 1))
        sent = reports.get(rank, {}).get("send_buffers", {}).get(count, {})
        inside = all(any(fn == senders[rank] and low <= sent.get(k, -1) < high
                         for fn, low, high in made) for k in ("min", "max"))
        spread = apart is None or sent.get("max", 0) - sent.get("min", 0) == apart
        expect({fn for fn, _, _ in made} == want[rank] and disjoint and
               (senders[rank] is None or inside) and sent.get("distinct") == addresses[rank] and
               spread,
               f"{what}: process {rank}'s allocations {made} (disjoint: {disjoint}), its "
               f"{count}-element messages sent from {sent}, expected "
               f"{want[rank] or 'no device memory'}, messages from {senders[rank]}, "
               f"{addresses[rank]} addresses{'' if apart is None else f' {apart} bytes apart'}")
        if os.path.exists(f"{log}.{rank}"):
            os.remove(f"{log}.{rank}")


def test_device_buffers(args):
    """-d (OSU 7.5's accelerator and its SRC DST placements, osu_util.c:858-905, 1190-1252):
    process 0's send and receive buffers where SRC says, process 1's where DST says
    (allocate_memory_pt2pt, osu_util_mpi.c:2690-2769; multi_lat and mbw_mr: the first n/2
    processes SRC, the others DST, allocate_memory_pt2pt_mul, :2522-2603; the one-sided tests'
    origin and window memory: allocate_memory_one_sided, :2854-2905); the collectives' on every
    process in -d's memory whatever SRC and DST (allocate_memory_coll(..., options.accel),
    :2359-2400). Through a stand-in CUDA runtime (fake_cudart.cpp: cudaMalloc and
    cudaMallocManaged in host memory, logged per process, and MPICH's MPIX_GPU_query_support
    saying yes) under the oracle, whose report gives every MPI_Send/MPI_Isend/MPI_Send_init
    buffer's address:
    -d managed D MH puts process 0's messages in its cudaMalloc'd memory and process 1's in its
    cudaMallocManaged memory, and gives allreduce and iallreduce cudaMallocManaged memory on
    both; -d cuda H D allocates nothing on process 0 (latency, put_latency); bw_fan_in's and
    bw_fan_out's placement is checked in test_point_to_point_datatypes's run of them. A managed
    SRC or DST makes every message of a window its own buffer (setAccel, osu_util.c:1366-1369;
    osu_mbw_mr.c:131-138 says so, parbench in a warning): mbw_mr's and bw_persistent's W = 64
    messages (OSU's default: latency takes no -W) leave from 64 addresses each beside latency's
    one, and the context's b reads
    multiple. The stand-in never reuses an address, so each process's allocations are disjoint
    and an address tells which one it is in. The banners name the accelerator as 7.5's print_preamble, print_preamble_nbc and print_header_one_sided do
    (osu_util_mpi.c:348-391, :456-483, :561-586; a point-to-point test's D or M placement makes
    it CUDA, setAccel, osu_util.c:1245-1249), the one-sided tests with their placement line.
    Without the stand-in (MPICH 4.0 is not CUDA-aware) D is refused with the library's reason;
    -c, -d on latency_mp (not in 7.5's option string) and bad forms in one line."""
    if args.fake_cudart:
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "cuda")
            preload = stand_in_cuda(args, log)
            cases = [(["latency", "mbw_mr", "bw_persistent", "allreduce", "iallreduce"],
                      ["managed", "D", "MH"],
                      [{"cudaMalloc", "cudaMallocManaged"}, {"cudaMallocManaged"}],
                      ["cudaMalloc", "cudaMallocManaged"], [1 + 2 * 64, 1],
                      # a D or M placement makes the point-to-point tests CUDA's (setAccel)
                      ["\n# OSU MPI-CUDA Latency Test v7.5\n",
                       "\n# OSU MPI-CUDA Bandwidth Persistent Test v7.5\n",
                       "# OSU MPI Multiple Bandwidth / Message Rate Test v7.5\n",
                       "\n# OSU MPI Allreduce Latency Test v7.5\n",
                       "\n# OSU MPI-MANAGED Non-blocking Allreduce Latency Test v7.5\n"]),
                     (["latency", "put_latency"], ["cuda", "H", "D"], [set(), {"cudaMalloc"}],
                      [None, "cudaMalloc"], [1, 1],
                      ["# OSU MPI_Put-CUDA Latency Test v7.5\n# Window creation: "
                       "MPI_Win_allocate\n# Synchronization: MPI_Win_flush\n# Datatype: "
                       "MPI_CHAR.\n# Rank 0 Memory on HOST (H) and Rank 1 Memory on DEVICE (D)"
                       "\n# Size "])]
            # (tests, -d words, the functions each process allocated with, the one its 8-byte
            # messages must come from, how many addresses they leave from, lines the console
            # must have): process 0's 8-byte messages are latency's, mbw_mr's and bw_persistent's
            # (its MPI_Send_init), process 1's latency's
            for names, d, want, senders, addresses, lines in cases:
                p, rows, reports = oracle_run(args, names, ["-m", "8:8", "-i", "2", "-x", "0"] +
                                              ["-d"] + d, oracle_env=preload)
                what = f"{' '.join(names)} -d {' '.join(d)}"
                managed = any(word.startswith("M") for word in d[1:])
                expect([(r["benchmark"], r["bytes"]) for r in rows] == [(n, 8) for n in names]
                       and all(line in p.stdout for line in lines),
                       f"{what}: rows {rows}, console {p.stdout!r}")
                # the buffers of a window: OSU 7.5's buf_num, MULTIPLE under a managed placement
                b = p.plugin_context.get("options", {}).get("b")
                warned = "# WARNING: mbw_mr: Tests involving managed buffers will use multiple " \
                         "buffers by default\n" in p.stdout
                expect(b == ("multiple" if managed else "single") and
                       warned == (managed and "mbw_mr" in names),
                       f"{what}: context b {b}, mbw_mr's warning {warned}: {p.stdout[:400]}")
                check_placement(what, log, reports, want, senders, addresses)
            check_through_copies(args, log, [f"LD_PRELOAD={os.path.abspath(args.fake_cudart)}",
                                             f"PARBENCH_FAKE_CUDA_LOG={log}"])
    for options, why in [(["--accelerator", "cuda", "D", "D"], "-d cuda D D: the MPI library"),
                         (["-d", "managed", "MD", "X"], "buffer placement 'X'"),
                         # OSU's validation warm-up (osu_util.c:1022-1037)
                         (["-c", "--validation-warmup", "3"], "-u 3: not offered")]:
        refused_early(args, ["latency", "-m", "4:4", "-i", "1"] + options, why)
    # -d on latency_mt and latency_mp (no accelerator build, osu_util.c:409-414):
    # test_option_acceptance


def test_neighborhood_datatypes(args):
    """-T on the neighbourhood collectives (OSU 7.5's NHBR option strings have T:,
    osu_util_options.h:85-89, :127-132): every call moves c = X / size(T) elements of T per
    neighbour, the v-displacements k·c elements, alltoallw's k·c·size(T) bytes with one T per
    neighbour (osu_neighbor_alltoallw.c:161-185); sizes without a whole element are skipped.
    On the graph 0->1, 1->0, 0->1 process 0 sends to 1 twice and process 1 receives twice;
    -c finds every block as its source sent it."""
    with tempfile.TemporaryDirectory() as tmp:
        edges = os.path.join(tmp, "graph.adj")
        with open(edges, "w") as f:
            f.write("0,1\n1,0\n0,1\n")
        p, rows, reports = oracle_run(args, ["neighbor_allgatherv", "neighbor_alltoallw",
                                             "ineighbor_alltoall"],
                                      ["-T", "MPI_INT", "-N", f"graph:{edges}", "-m", "2:8",
                                       "-i", "2", "-x", "0", "-c"])
    for rank, rep in reports.items():
        nbrs = " in 1 out 1,1" if rank == 0 else " in 0,0 out 0"
        want = {"MPI_Neighbor_allgatherv": {}, "MPI_Neighbor_alltoallw": {},
                "MPI_Ineighbor_alltoall": {}}
        for x in (4, 8):
            c = x // 4
            if rank == 0:
                gatherv = f"MPI_INT send {c} recv {c} at 0{nbrs}"
                alltoallw = f"MPI_INT send {c},{c} at 0,{4 * c} recv {c} at 0{nbrs}"
            else:
                gatherv = f"MPI_INT send {c} recv {c},{c} at 0,{c}{nbrs}"
                alltoallw = f"MPI_INT send {c} at 0 recv {c},{c} at 0,{4 * c}{nbrs}"
            want["MPI_Neighbor_allgatherv"][gatherv] = 2  # i + x
            want["MPI_Neighbor_alltoallw"][alltoallw] = 2
            want["MPI_Ineighbor_alltoall"][f"MPI_INT x {c}{nbrs}"] = 4  # both loops
        got = {function: operands(rep, function) for function in want}
        expect(got == want, f"neighbourhood -T MPI_INT rank {rank}: {got}, expected {want}")
    expect([(r["benchmark"], r.get("datatype"), r["bytes"]) for r in rows] ==
           [(b, "MPI_INT", x) for b in ("neighbor_allgatherv", "neighbor_alltoallw",
                                        "ineighbor_alltoall") for x in (4, 8)] and
           p.stdout.count("# Datatype: MPI_INT.\n") == 3,
           f"neighbourhood -T MPI_INT records: {rows}")
    # -c on MPI_INT blocks: each block of X / 4 ints from the right source's right part
    expect(p.returncode == 0 and all(r.get("defects") == 0 for r in rows),
           f"neighbourhood -T MPI_INT -c: rc {p.returncode}, "
           f"{[(r['benchmark'], r['bytes'], r.get('defects')) for r in rows]}")


def test_atomic_datatypes(args):
    """-T on OSU 7.5's accumulate and atomics (show_validation gives acc, fop and cas "cT:",
    osu_util.c:589-602; MPI_CHAR by default, :1176-1189): acc_latency sums X / size(T) elements
    of T, fop_latency and cas_latency one element, whose size is the row's (print_latency(rank,
    dtype_size), osu_fop_latency.c:294), under print_header_one_sided's datatype line
    (osu_util_mpi.c:374-376); get_acc_latency sums MPI_CHAR and prints no datatype line
    (osu_get_acc_latency.c:183, :726-745). Under the oracle each iteration is the operation and
    MPI_Win_flush: 2 D. -c checks the sums in every type (in test_point_to_point_datatypes's -c
    run); cas on MPI_FLOAT (which
    MPI_Compare_and_swap does not take) and get_acc_latency -T are refused."""
    d_us = 100.0
    p, rows, reports = oracle_run(args, ["acc_latency", "fop_latency", "cas_latency"],
                                  ["-T", "MPI_INT", "-m", "2:8", "-i", "2", "-x", "0"],
                                  delays=str(d_us))
    want = {"MPI_Accumulate": {"MPI_INT x 1 op MPI_SUM": 2, "MPI_INT x 2 op MPI_SUM": 2},
            "MPI_Fetch_and_op": {"MPI_INT x 1 op MPI_SUM": 2},
            "MPI_Compare_and_swap": {"MPI_INT x 1 to 1 at 0": 2}}
    got = {function: operands(reports.get(0, {}), function) for function in want}
    expect(got == want, f"atomics -T MPI_INT process 0: {got}, expected {want}")
    got = [(r["benchmark"], r["bytes"], r.get("datatype"), r["t_max_us"]) for r in rows]
    expect([g[:3] for g in got] == [("acc_latency", 4, "MPI_INT"), ("acc_latency", 8, "MPI_INT"),
                                    ("fop_latency", 4, "MPI_INT"), ("cas_latency", 4, "MPI_INT")]
           and all(close(g[3], 2 * d_us, 1e-6) for g in got) and
           p.stdout.count("# Synchronization: MPI_Win_flush\n# Datatype: MPI_INT.\n") == 3,
           f"atomics -T MPI_INT rows {got}, expected 2 D = {2 * d_us} us each: {p.stdout!r}")
    p, rows, reports = oracle_run(args, ["get_acc_latency", "fop_latency"],
                                  ["-m", "1:1", "-i", "2", "-x", "0"], delays=str(d_us))
    want = {"MPI_Get_accumulate": {"MPI_CHAR x 1 op MPI_SUM": 2},
            "MPI_Fetch_and_op": {"MPI_CHAR x 1 op MPI_SUM": 2}}
    got = {function: operands(reports.get(0, {}), function) for function in want}
    expect(got == want and [(r["benchmark"], r["bytes"]) for r in rows] ==
           [("get_acc_latency", 1), ("fop_latency", 1)] and
           "# OSU MPI_Get_accumulate latency Test v7.5\n# Window creation: MPI_Win_allocate\n"
           "# Synchronization: MPI_Win_flush\n# Size " in p.stdout and
           "# Synchronization: MPI_Win_flush\n# Datatype: MPI_CHAR.\n# Size " in p.stdout,
           f"get_acc_latency fop_latency without -T: {got}, rows {rows}: {p.stdout!r}")
    refused(args.parbench, "osu", args.np, ["cas_latency", "-T", "all", "-m", "4:4", "-i", "1"],
            "MPI_Compare_and_swap takes integer types only")
    # -c with -T all on acc_latency and fop_latency: test_point_to_point_datatypes's -c run
    # -T on get_acc_latency: test_option_acceptance


def test_derived_datatypes(args):
    """-D (OSU 7.5's --ddt, osu_util.c:1258-1303; the type omb_ddt_assign makes,
    osu_util_mpi.c:2948-3007, recomputed here): every message is one element of a derived
    datatype of its n = X / size(T) elements (omb_ddt_get_size): vect:S:B MPI_Type_vector(n / S,
    B, S, T), cont MPI_Type_contiguous(n, T), indx:FILE MPI_Type_indexed of the file's blocks
    (parbench takes every line; sizes whose message ends before the last block are skipped). The
    Transmit Size column (print_only_header, osu_util_mpi.c:651-653; rows "%*zu",
    osu_latency.c:291-293) is the bytes the type holds, and OSU's MB/s count those bytes
    (osu_bw.c:263-268): under the oracle's D per call, bw's W·T / ((W + 2)·D), mbw_mr's
    pairs·W·T / ((W + 2)·D). Bad values, -c, and tests that do not take it are refused."""
    # -i 2 -x 0; W is OSU's default 64 (latency, latency_persistent and latency_mp, in the same
    # runs as bw, mbw_mr and bw_fan_out, take no -W)
    d_us, w, iterations = 100.0, 64, 2

    def vector(x, stride, block, base="MPI_CHAR"):
        return f"vector({x // stride},{block},{stride},{base}) x 1"

    def sent(rep, function):
        return {k: v for k, v in operands(rep, function).items() if k != "MPI_CHAR x 1"}

    sizes = [1, 2, 4, 8, 16]
    p, rows, reports = oracle_run(args, ["latency", "bw"],
                                  ["-D", "vect:4:3", "-m", "1:16", "-i", "2", "-x", "0"],
                                  delays=str(d_us))
    pingpong, window = {}, {}
    for x in sizes:  # latency: i + x sends per size each way; bw: W (i + x) on process 0
        pingpong[vector(x, 4, 3)] = pingpong.get(vector(x, 4, 3), 0) + iterations
        window[vector(x, 4, 3)] = window.get(vector(x, 4, 3), 0) + w * iterations
    for rank, rep in reports.items():
        expect(sent(rep, "MPI_Send") == pingpong,
               f"-D vect:4:3 rank {rank} MPI_Send {sent(rep, 'MPI_Send')}, expected {pingpong}")
        got = sent(rep, "MPI_Isend" if rank == 0 else "MPI_Irecv")
        expect(got == window, f"-D vect:4:3 rank {rank} bw's window {got}, expected {window}")
    transmit = {x: x // 4 * 3 for x in sizes}
    got = [(r["benchmark"], r["bytes"], r.get("metrics", {}).get("transmit_size_bytes"))
           for r in rows]
    expect(got == [(b, x, transmit[x]) for b in ("latency", "bw") for x in sizes],
           f"-D vect:4:3 records (benchmark, bytes, Transmit Size): {got}")
    for r in rows:
        if r["benchmark"] == "bw":
            want = w * transmit[r["bytes"]] / ((w + 2) * d_us)
            mb_s = r.get("metrics", {}).get("bandwidth_mb_s", -1)
            expect(close(mb_s, want, 1e-6),
                   f"-D vect:4:3 bw at {r['bytes']} B: {mb_s} MB/s, expected W·T/((W+2)·D) = "
                   f"{want} (T = {transmit[r['bytes']]} bytes carried, not {r['bytes']})")
    expect("# Size       Avg Latency(us)     Transmit Size\n" in p.stdout and
           "# Size      Bandwidth (MB/s)     Transmit Size\n" in p.stdout and
           "\n16 " in p.stdout and f"{w * 12 / ((w + 2) * d_us):.2f}{12:>18}\n" in p.stdout,
           f"-D: OSU's Transmit Size column: {p.stdout!r}")
    with tempfile.TemporaryDirectory() as tmp:
        blocks = os.path.join(tmp, "ddt.txt")
        with open(blocks, "w") as f:  # OSU's sample's form: comments, "DISP, LENGTH"
            f.write("#Displacement, Block Length\n20,3\n2, 10\n")
        p, rows, reports = oracle_run(args, ["latency_persistent", "mbw_mr"],
                                      ["-T", "MPI_INT", "-D", f"indx:{blocks}", "-m", "4:128",
                                       "-i", "2", "-x", "0"], delays=str(d_us))
        indexed = "indexed(2,[3@20 10@2],MPI_INT) x 1"
        for rank, rep in reports.items():
            want = {"MPI_Send_init": {indexed: 1}, "MPI_Recv_init": {indexed: 1},
                    "MPI_Isend" if rank == 0 else "MPI_Irecv": {indexed: w * iterations}}
            got = {function: sent(rep, function) for function in want}
            expect(got == want, f"-D indx rank {rank}: {got}, expected {want} (the 23-int type "
                   f"fits 128 bytes alone of 4:128)")
        got = [(r["benchmark"], r["bytes"], r.get("metrics", {}).get("transmit_size_bytes"),
                r.get("metrics", {}).get("bandwidth_mb_s")) for r in rows]
        want = 1 * w * 52 / ((w + 2) * d_us)  # 13 ints carried
        expect(len(got) == 2 and got[0][:3] == ("latency_persistent", 128, 52) and
               got[1][:3] == ("mbw_mr", 128, 52) and close(got[1][3], want, 1e-6),
               f"-D indx records {got}, expected 128 bytes carrying 52, mbw_mr {want} MB/s")
        refused(args.parbench, "osu", args.np, ["latency", "-D", f"indx:{blocks}", "-m", "1:16",
                                                "-i", "1", "-x", "0"], "no message size")
    # cont on latency_mp, bw_fan_out and the neighbourhood collectives (NHBR option strings,
    # osu_util_options.h:85-89, :127-132): counts 1, allgatherv's displacements k extents of the
    # type, alltoallw's blocks X bytes apart; process 1 receives twice on the graph 0->1, 1->0,
    # 0->1 (-N in a run of its own: latency_mp and bw_fan_out take none)
    cont = ["-T", "MPI_FLOAT", "--ddt", "CONT", "-m", "8:8", "-i", "2", "-x", "0"]
    p, rows, reports = oracle_run(args, ["latency_mp", "bw_fan_out"], cont, delays=str(d_us))
    t = "contiguous(2,MPI_FLOAT)"
    for rank, rep in reports.items():
        got = {f: sent(rep, f) for f in ("MPI_Send", "MPI_Isend" if rank == 0 else "MPI_Irecv")}
        want = {"MPI_Send": {f"{t} x 1": iterations},
                "MPI_Isend" if rank == 0 else "MPI_Irecv": {f"{t} x 1": w * iterations}}
        expect(got == want, f"-D cont rank {rank}: {got}, expected {want}")
    with tempfile.TemporaryDirectory() as tmp:
        edges = os.path.join(tmp, "graph.adj")
        with open(edges, "w") as f:
            f.write("0,1\n1,0\n0,1\n")
        p, rows, reports = oracle_run(args, ["neighbor_alltoallw", "ineighbor_allgatherv"],
                                      cont + ["-N", f"graph:{edges}"], delays=str(d_us))
    want = {"MPI_Neighbor_alltoallw": {f"{t} send 1 at 0 recv 1,1 at 0,8 in 0,0 out 0": 2},
            "MPI_Ineighbor_allgatherv": {f"{t} send 1 recv 1,1 at 0,1 in 0,0 out 0": 4}}
    got = {function: operands(reports.get(1, {}), function) for function in want}
    expect(got == want, f"-D cont neighbourhood, process 1: {got}, expected {want}")
    # the blocking and nonblocking collectives that move data (OSU's ALLTOALL, GATHER, SCATTER,
    # BCAST and NBC_* option strings, osu_util_options.h:72-84, :104-117): every block one
    # element of the type of X elements, i + x calls per size (twice that for the nonblocking
    # tests' two loops)
    tests = ["allgatherv", "alltoallw", "bcast", "gather", "scatterv", "iallgatherv", "iscatter",
             "gather_persistent", "alltoallw_persistent"]
    p, rows, reports = oracle_run(args, tests, ["-D", "vect:4:2", "-m", "8:16", "-i", "2", "-x",
                                                "0"], delays=str(d_us))
    for rank, rep in reports.items():
        for function, calls_per_size in [("MPI_Allgatherv", 1), ("MPI_Alltoallw", 1),
                                         ("MPI_Bcast", 1), ("MPI_Gather", 1), ("MPI_Scatterv", 1),
                                         ("MPI_Iallgatherv", 2), ("MPI_Iscatter", 2),
                                         ("MPI_Gather_init", 0), ("MPI_Alltoallw_init", 0)]:
            # a persistent test's one request per size (MPI_ALLTOALL_P, __GATHER_P, :144-154)
            want = {vector(x, 4, 2): calls_per_size * iterations or 1 for x in (8, 16)}
            got = {k: v for k, v in operands(rep, function).items() if k.startswith("vector(")}
            expect(got == want, f"-D vect:4:2 rank {rank} {function}: {got}, expected {want}")
    got = [(r["benchmark"], r["bytes"], r.get("metrics", {}).get("transmit_size_bytes"))
           for r in rows]
    expect(got == [(b, x, x // 4 * 2) for b in tests for x in (8, 16)],
           f"-D vect:4:2 collectives' records (benchmark, bytes, Transmit Size): {got}")
    for options, why in [(["latency", "-D", "vect:8"], "vect takes STRIDE and BLOCK_LENGTH"),
                         (["latency", "-D", "vect:2:3"], "overlap"),
                         # -D on the tests that do not take it: test_option_acceptance
                         (["latency", "-D", "cont", "-c"], "-D: not offered with -c")]:
        refused_early(args, options + ["-m", "4:4", "-i", "1", "-x", "0"], why)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--np", type=int, required=True)
    parser.add_argument("--parbench", required=True)
    parser.add_argument("--oracle", required=True, help="the PMPI oracle library")
    parser.add_argument("--fake-cudart", help="the stand-in CUDA runtime (fake_cudart.cpp)")
    args = parser.parse_args()
    test_per_call_timing(args)
    test_nbc_per_call_timing(args)
    test_mbw_mr_barriers(args)
    test_window_timing(args)
    test_layout(args)
    test_bw_reply(args)
    test_options(args)
    test_root(args)
    test_datatypes(args)
    test_point_to_point_datatypes(args)
    test_in_place(args)
    test_option_refusals(args)
    test_option_acceptance(args)
    test_tail_latency(args)
    test_validation_log(args)
    test_mbw_mr_options(args)
    test_varied_window(args)
    test_sessions(args)
    test_device_buffers(args)
    test_derived_datatypes(args)
    test_atomic_datatypes(args)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
