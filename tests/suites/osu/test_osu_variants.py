#!/usr/bin/env python3
"""OSU 7.5's variants of the latency test in the osu suite (latency_mt, latency_mp,
partitioned_latency), through the driver under mpiexec and the PMPI oracle (each MPI call costs
D on a virtual clock; tests/mpi/oracle/pmpi_oracle.cpp).

Known answers, from OSU 7.5's sources (c/mpi/pt2pt/standard/):
  latency_mt   one sender thread (OSU's default -t 2: 1 sender, 2 receivers): a round trip is
               MPI_Send + MPI_Recv on process 0 (osu_latency_mt.c lines 455-459), so the one-way
               latency is D; the oracle counts i + x MPI_Send of X MPI_CHARs per size on process 0
               and as many MPI_Recv on process 1, shared by its threads. -t 2:3 (several
               senders, tags per iteration) moves as many messages, and a round trip is at least
               D one way. MPI is initialised at MPI_THREAD_MULTIPLE for it (the run's context).
  latency_mp   MPI_Send + MPI_Recv per timed round trip, the MPI_Barrier between them untimed
               (osu_latency_mp.c lines 229-243): D one way, and at least i barriers per size;
               each record says how many forked children each side had alive (-t S:R); the
               run stays at MPI_THREAD_SINGLE (only latency_mt raises the level).
  partitioned_latency  per round trip MPI_Start, q MPI_Pready, MPI_Wait on the send and MPI_Start,
               MPI_Wait on the receive (osu_partitioned_latency.c lines 241-247): pure one way
               (4 + q) D / 2, Overall the same (the compute does not move the virtual clock),
               Coll. Init (2 + q) D / 2, MPI_Wait D, Overlap 0; one MPI_Psend_init and one
               MPI_Precv_init of "MPI_CHAR x X/q partitions q" per size on each process,
               2 (i + x) q MPI_Pready per size (both loops), no MPI_Parrived; sizes below q are
               skipped; -c passes where q does not divide X (only q (X/q) bytes move). Every
               round trip of both loops timed on its own, an untimed MPI_Barrier after each of
               the second loop's alone (lines 234-296, 347-385, 419-457): 4 more timed
               iterations add 4 MPI_Barrier, each alone between two clock readings, and 4 pure
               round trips between two readings; -batched none.
-n 1: `parbench list` names all 78 of OSU 7.5's MPI programs in suite osu.
Each at -n 2 (and -n 4, where processes 2 and 3 wait); -n 1 refuses each in one line; bad -t
and -q values are refused in one line with status 2. At -n 2 a golden of the console (numbers
masked): osu_variants.txt.

usage: test_osu_variants.py --np N --parbench PARBENCH --golden DIR --oracle LIB
Set PARBENCH_APPROVE=1 to rewrite the golden file.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
from pbtest import mask  # noqa: E402
from pbtest.approve import approve  # noqa: E402
from pbtest.expect import close, expect, finish  # noqa: E402
from pbtest.run import mpi_suite  # noqa: E402

BAD_INPUT = 2
D_US = 100.0
run = mpi_suite("osu")

# OSU 7.5's 78 MPI programs: the .c files with a main() under c/mpi/ of the 7.5 sources
# (mjwilkins18/aurora_osu_microbenchmarks), names without osu_.
OSU75_PROGRAMS = [
    "acc_latency", "allgather", "allgather_persistent", "allgatherv", "allgatherv_persistent",
    "allreduce", "allreduce_persistent", "alltoall", "alltoall_persistent", "alltoallv",
    "alltoallv_persistent", "alltoallw", "alltoallw_persistent", "barrier", "barrier_persistent",
    "bcast", "bcast_persistent", "bibw", "bibw_persistent", "bw", "bw_fan_in", "bw_fan_out",
    "bw_persistent", "cas_latency", "fop_latency", "gather", "gather_persistent", "gatherv",
    "gatherv_persistent", "get_acc_latency", "get_bw", "get_latency", "hello", "iallgather",
    "iallgatherv", "iallreduce", "ialltoall", "ialltoallv", "ialltoallw", "ibarrier", "ibcast",
    "igather", "igatherv", "ineighbor_allgather", "ineighbor_allgatherv", "ineighbor_alltoall",
    "ineighbor_alltoallv", "ineighbor_alltoallw", "init", "ireduce", "ireduce_scatter",
    "ireduce_scatter_block", "iscatter", "iscatterv", "latency", "latency_mp", "latency_mt",
    "latency_persistent", "mbw_mr", "multi_lat", "neighbor_allgather", "neighbor_allgatherv",
    "neighbor_alltoall", "neighbor_alltoallv", "neighbor_alltoallw", "partitioned_latency",
    "put_bibw", "put_bw", "put_latency", "reduce", "reduce_persistent", "reduce_scatter",
    "reduce_scatter_block", "reduce_scatter_persistent", "scatter", "scatter_persistent",
    "scatterv", "scatterv_persistent",
]


def oracle_run(args, np, names, options, oracle_env=()):
    """The run under the oracle (with `oracle_env`'s settings too), and each rank's report."""
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "oracle")
        p, rows = run(names + options, np, args.parbench, timeout=300,
                      env={"ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") +
                           ":verify_asan_link_order=0"},
                      env_args=[f"LD_PRELOAD={os.path.abspath(args.oracle)}",
                                f"PARBENCH_ORACLE_DELAY_US={D_US}",
                                "PARBENCH_ORACLE_CLOCK=virtual",
                                f"PARBENCH_ORACLE_REPORT={prefix}", *oracle_env])
        reports = {}
        for rank in range(np):
            if os.path.exists(f"{prefix}.{rank}.json"):
                with open(f"{prefix}.{rank}.json") as f:
                    reports[rank] = json.load(f)
    return p, rows, reports


def operands(report, function):
    return report.get("operands", {}).get(function, {})


def test_latency_mt(args, np):
    iterations, skip, sizes = 6, 2, [0, 1, 2, 4, 8, 16]
    first = None
    for threads in ["2", "2:3"]:
        label = f"latency_mt -t {threads} -n {np}"
        p, rows, reports = oracle_run(args, np, ["latency_mt"],
                                      ["-m", "0:16", "-i", str(iterations), "-x", str(skip),
                                       "-t", threads, "-c"])
        expect(p.returncode == 0 and [r["bytes"] for r in rows] == sizes and len(reports) == np,
               f"{label}: rc {p.returncode}, sizes {[r['bytes'] for r in rows]}, "
               f"{len(reports)} reports: {p.stderr[-400:]}")
        expect(p.plugin_context.get("thread_level") == "MPI_THREAD_MULTIPLE",
               f"{label}: thread level {p.plugin_context.get('thread_level')}")
        senders, receivers = (1, 2) if threads == "2" else (2, 3)
        expect(f"# Number of Sender threads: {senders} \n# Number of Receiver threads: "
               f"{receivers}\n" in p.stdout, f"{label}: header {p.stdout[:300]!r}")
        for r in rows:
            one_way = r["t_avg_us"]
            if senders == 1:  # process 0's clock sees its own two calls per round trip
                expect(close(one_way, D_US, 1e-6) and close(r["t_max_us"], D_US, 1e-6),
                       f"{label} {r['bytes']} B: {one_way} us, expected {D_US}")
            else:  # two sender threads share process 0's virtual clock
                expect(one_way >= D_US * (1 - 1e-6), f"{label} {r['bytes']} B: {one_way} us")
            expect(r["defects"] == 0 and r["iterations"] == iterations,
                   f"{label} {r['bytes']} B: defects {r['defects']}, {r['iterations']} iterations")
            expect(r["metrics"].get("sender_threads") == senders and
                   r["metrics"].get("receiver_threads") == receivers,
                   f"{label}: metrics {r['metrics']}")
        # every iteration is one message each way, whichever thread made it
        want = {f"MPI_CHAR x {x}": iterations + skip for x in sizes}
        sent = {k: v for k, v in operands(reports.get(0, {}), "MPI_Send").items() if k in want}
        received = {k: v for k, v in operands(reports.get(1, {}), "MPI_Recv").items()
                    if k in want}
        expect(sent == want and received == want,
               f"{label}: process 0 sends {sent}, process 1 receives {received}, "
               f"expected {want}")
        first = first or p.stdout
    return first


def test_latency_mp(args, np):
    iterations, skip, sizes = 5, 2, [0, 1, 2, 4]
    first = None
    for threads, forked in [(None, (2, 2)), ("3:1", (3, 1)), ("2", (0, 2))]:
        label = f"latency_mp -t {threads} -n {np}"
        options = ["-m", "0:4", "-i", str(iterations), "-x", str(skip), "-c"] + \
            (["-t", threads] if threads else [])
        p, rows, reports = oracle_run(args, np, ["latency_mp"], options)
        expect(p.returncode == 0 and [r["bytes"] for r in rows] == sizes,
               f"{label}: rc {p.returncode}, sizes {[r['bytes'] for r in rows]}: "
               f"{p.stderr[-400:]}")
        # only latency_mt raises the run's thread level
        expect(p.plugin_context.get("thread_level") == "MPI_THREAD_SINGLE",
               f"{label}: thread level {p.plugin_context.get('thread_level')}")
        expect(f"# Number of forked processes in sender: {forked[0]}\n# Number of forked "
               f"processes in receiver: {forked[1]}\n" in p.stdout,
               f"{label}: header {p.stdout[:300]!r}")
        for r in rows:
            # Send + Recv per round trip, halved; the barrier between round trips is untimed
            expect(close(r["t_avg_us"], D_US, 1e-6) and close(r["t_max_us"], D_US, 1e-6),
                   f"{label} {r['bytes']} B: {r['t_avg_us']} us, expected {D_US}")
            expect(r["defects"] == 0 and r["iterations"] == iterations,
                   f"{label} {r['bytes']} B: defects {r['defects']}")
            alive = (r["metrics"].get("forked_alive_sender"),
                     r["metrics"].get("forked_alive_receiver"))
            expect(alive == forked, f"{label} {r['bytes']} B: children alive {alive}, "
                   f"expected {forked}")
        for rank in (0, 1):
            barriers = reports.get(rank, {}).get("calls", {}).get("MPI_Barrier", 0)
            expect(barriers >= iterations * len(sizes),
                   f"{label} rank {rank}: {barriers} MPI_Barrier, expected at least "
                   f"{iterations * len(sizes)} (one per timed round trip)")
        first = first or p.stdout
    return first


def test_partitioned(args, np):
    iterations, skip = 4, 1
    outputs = []
    for partitions, sizes in [(8, [8, 16, 32]), (3, [4, 8, 16, 32])]:
        label = f"partitioned_latency -q {partitions} -n {np}"
        p, rows, reports = oracle_run(args, np, ["partitioned_latency"],
                                      ["-m", "0:32", "-i", str(iterations), "-x", str(skip),
                                       "-q", str(partitions), "-c"])
        outputs.append(p.stdout)
        expect(p.returncode == 0 and [r["bytes"] for r in rows] == sizes and len(reports) == np,
               f"{label}: rc {p.returncode}, sizes {[r['bytes'] for r in rows]}: "
               f"{p.stderr[-400:]}")
        expect(f"# Partitions: {partitions}\t\n# Datatype: MPI_CHAR.\n" in p.stdout,
               f"{label}: header {p.stdout[:300]!r}")
        one_way = (4 + partitions) * D_US / 2
        for r in rows:
            m = r["metrics"]
            got = (r["t_avg_us"], m.get("pure_comm_us"), m.get("init_us"), m.get("wait_us"))
            want = (one_way, one_way, (2 + partitions) * D_US / 2, D_US)
            expect(all(close(g or 0.0, w, 1e-6) for g, w in zip(got, want)),
                   f"{label} {r['bytes']} B: overall, pure, init, wait {got}, expected {want}")
            expect(abs(m.get("compute_us", 1.0)) < 1e-3 and m.get("test_us") == 0.0 and
                   m.get("overlap_percent") == 0.0 and m.get("partitions") == partitions,
                   f"{label} {r['bytes']} B: metrics {m}")
            expect(r["defects"] == 0, f"{label} {r['bytes']} B: defects {r['defects']}")
        for rank in (0, 1):
            report = reports.get(rank, {})
            want = collections.Counter(f"MPI_CHAR x {x // partitions} partitions {partitions}"
                                       for x in sizes)
            for function in ("MPI_Psend_init", "MPI_Precv_init"):
                expect(operands(report, function) == dict(want),
                       f"{label} rank {rank} {function}: {operands(report, function)}, "
                       f"expected {dict(want)}")
            calls = report.get("calls", {})
            readies = 2 * (iterations + skip) * partitions * len(sizes)
            expect(calls.get("MPI_Pready") == readies and calls.get("MPI_Parrived", 0) == 0,
                   f"{label} rank {rank}: {calls.get('MPI_Pready')} MPI_Pready (expected "
                   f"{readies}), {calls.get('MPI_Parrived')} MPI_Parrived")
    return outputs[0]


def test_partitioned_per_call(args, np):
    """OSU 7.5 reads the clock around every round trip of both loops and puts an untimed
    MPI_Barrier after each round trip of the second loop alone (osu_partitioned_latency.c:234-255,
    275-296 in the first, 347-385, 419-457 in the second): 4 more timed iterations (-i 4 to 8)
    add on processes 0 and 1 4 more MPI_Barrier, each alone between two clock readings (the
    oracle's segments), and 4 more pure round trips between two readings; -batched (parbench's
    loops, timed in batches) no MPI_Barrier (its batches' sizes are the runner's: not asserted)."""
    pure = {0: "MPI_Start MPI_Pready*2 MPI_Wait MPI_Start MPI_Wait",
            1: "MPI_Start MPI_Wait MPI_Start MPI_Pready*2 MPI_Wait"}
    for batched in (False, True):
        label = f"partitioned_latency -q 2{' -batched' if batched else ''} -n {np}"
        got = {}
        for iterations in (4, 8):
            p, rows, reports = oracle_run(
                args, np, ["partitioned_latency"],
                ["-m", "8:8", "-i", str(iterations), "-x", "1", "-q", "2"] +
                (["-batched"] if batched else []), oracle_env=["PARBENCH_ORACLE_SEGMENTS=1"])
            if p.returncode != 0 or len(rows) != 1 or 0 not in reports or 1 not in reports:
                expect(False, f"{label} -i {iterations}: rc {p.returncode}, rows {rows}: "
                       f"{p.stderr[-400:]}")
                return
            got[iterations] = reports
        for rank in (0, 1):
            fewer, more = got[4][rank], got[8][rank]
            barriers = calls_of(more, "MPI_Barrier") - calls_of(fewer, "MPI_Barrier")
            keys = ("MPI_Barrier",) if batched else ("MPI_Barrier", pure[rank])
            segments = {key: more["between_readings"].get(key, 0) -
                        fewer["between_readings"].get(key, 0) for key in keys}
            want = (0, {"MPI_Barrier": 0}) if batched else \
                (4, {"MPI_Barrier": 4, pure[rank]: 4})
            expect((barriers, segments) == want,
                   f"{label} rank {rank}: 4 more timed iterations add {barriers} MPI_Barrier "
                   f"and the segments {segments}, expected {want}")


def calls_of(report, function):
    return report.get("calls", {}).get(function, 0)


def test_golden(args, outputs):
    approve(os.path.join(args.golden, "osu_variants.txt"),
            "\n".join(mask.osu_console(o) for o in outputs))


def refused(p, text=""):
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    return p.returncode == BAD_INPUT and len(lines) == 1 and lines[0].startswith("parbench:") \
        and text in lines[0]


def test_list(args):
    """`parbench list` names every one of OSU 7.5's programs in suite osu."""
    p = subprocess.run([args.parbench, "list"], capture_output=True, text=True, timeout=60)
    listed, in_osu = set(), False
    for line in p.stdout.splitlines():
        if line.startswith("  suite "):
            in_osu = line.startswith("  suite osu ")
        elif in_osu and line.startswith("    ") and line.split():
            listed.add(line.split()[0])
    missing = [n for n in OSU75_PROGRAMS if n not in listed]
    expect(p.returncode == 0 and len(OSU75_PROGRAMS) == 78 and not missing,
           f"parbench list: rc {p.returncode}, OSU 7.5 programs missing from suite osu: {missing}")


def test_refusals_n1(args):
    for name in ["latency_mt", "latency_mp", "partitioned_latency"]:
        p, _ = run([name], 1, args.parbench)
        expect(refused(p, "needs 2 processes"),
               f"osu {name} at -n 1: rc {p.returncode}, stderr {p.stderr!r}")


def test_bad_input(args):
    cases = [
        (["latency_mt", "-t", "0"], "1 to 127 threads"),
        (["latency_mt", "-t", "128"], "1 to 127 threads"),
        (["latency_mt", "-t", "2:0"], "1 to 127 threads"),
        (["latency_mp", "-t", "0:2"], "1 to 127 forked processes"),
        (["latency_mp", "-t", "a:b"], "-t a:b"),
        (["latency_mt", "-t", "1:2:3"], "-t 1:2:3"),
        (["iallreduce", "-t", "2:2"], "MPI_Test calls"),
        (["partitioned_latency", "-q", "0"], "-q 0"),
        (["partitioned_latency", "-q", "x"], "-q x"),
        (["partitioned_latency", "-m", "0:4"], "-q 8"),
    ]
    for options, text in cases:
        p, _ = run(options + ["-i", "1", "-x", "0"], 2, args.parbench)
        expect(refused(p, text), f"osu {' '.join(options)}: rc {p.returncode}, "
               f"stderr {p.stderr!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--np", type=int, required=True)
    parser.add_argument("--parbench", required=True)
    parser.add_argument("--golden", required=True)
    parser.add_argument("--oracle", required=True, help="the PMPI oracle library")
    args = parser.parse_args()
    args.parbench = os.path.abspath(args.parbench)
    if args.np == 1:
        test_list(args)
        test_refusals_n1(args)
        return finish()
    mt = test_latency_mt(args, args.np)
    mp = test_latency_mp(args, args.np)
    part = test_partitioned(args, args.np)
    test_partitioned_per_call(args, args.np)
    if args.np == 2:
        test_bad_input(args)
        test_golden(args, [mt, mp, part])
    return finish()


if __name__ == "__main__":
    sys.exit(main())
