#!/usr/bin/env python3
"""The imb-mt suite (IMB 2021.11's IMB-MT) through the driver under mpiexec -n N.

Known answers come from the PMPI oracle (oracle/pmpi_oracle.cpp) and IMB-MT's sources
(src_cpp/MT/MT_benchmark.cpp, MT_benchmark.h), not from parbench's code.

Figures: every MPI call of world rank r costs D_r on the oracle's virtual clock. With one thread
per process (the oracle's clock is one per process, so several threads would share it), a
participant's time per iteration is D_r x its calls per iteration (the barriers lie outside the
timing), and IMB-MT prints, over the participants M (MT_benchmark.h run()):
  t_min/t_max/t_avg = min/max/mean of D_r x calls / divisor
  #bytes            = count x 4 (MPI_INT) x T threads
  Mbytes/sec        = #bytes x factor / t_max             (PingPong, PingPing, SendRecv, Exchange)
                    = #bytes / T x (|M| / 2) / t_max          (UniBand, BiBand)
  Msg/sec           = floor((|M| / 2) x 1e6 / t_avg)           (UniBand, BiBand)
  #processes        = |M| / T

  benchmark    calls per iteration             divisor    factor
  PingPongMT   Send + Recv                 2   2          1
  PingPingMT   Isend + Recv + Wait         3   1          1
  SendRecvMT   Sendrecv                    1   1          2
  ExchangeMT   2 Isend + 2 Recv + Waitall  5   1          4
  UniBandMT    W Isend|Irecv + Waitall + ack Recv|Send  W + 2    W
  BiBandMT     W Irecv + W Isend + Waitall + ack        2 W + 2  2 W
  BarrierMT, BcastMT, ReduceMT, AllReduceMT: one call, each timed on its own   1

Calls (any clock, two threads): with PARBENCH_ORACLE_PEERS the oracle counts every
point-to-point call by peer and every Bcast/Reduce by root: each thread makes its calls, so a
rank's count is T x (warm-up + repeat) per size — partner r +/- stride, the window's W messages
and one 1-char ack per iteration, root 0. Per size, -barrier on makes one MPI_Barrier before a
point-to-point loop and five after every collective call (warm-up included), on thread 0 only
(omp_aware_barrier); -barrier special makes ceil(log2 P) zero-byte MPI_Sendrecv instead of each.

Also: the thread count from OMP_NUM_THREADS under -thread_level multiple in the header and JSON,
the default's one thread whatever OMP_NUM_THREADS says (IMB-MT's default -thread_level single,
imb.cpp:79, and num_threads = 1 unless mode_multiple, MT_suite.cpp:164-169), -check's zero
defects, --timeout while the threads are inside MPI, IMB-MT's "NO SUCCESSFUL EXECUTIONS" at -n 1,
and one `parbench:` line with exit status 2 for bad input.

usage: test_imb_mt.py --np N --parbench PARBENCH --oracle LIBPARBENCH_PMPI_ORACLE.so
"""
import argparse
import json
import math
import os
import sys
import tempfile
from collections import Counter


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
from pbtest.expect import close, expect, finish  # noqa: E402
from pbtest.run import mpi_suite, parbench, refused  # noqa: E402

run = mpi_suite("imb-mt")
WINDOW = 4
SHORT = ["-repeat", "20", "-warmup", "2"]
MULTIPLE = ["-thread_level", "multiple"]  # T = OMP_NUM_THREADS threads (IMB-MT's default is one)

# name -> (calls per iteration, divisor, bandwidth factor or None, window rates, pairs only)
TABLE = {
    "PingPongMT": (2, 2, 1, False, True),
    "PingPingMT": (3, 1, 1, False, True),
    "SendRecvMT": (1, 1, 2, False, False),
    "ExchangeMT": (5, 1, 4, False, False),
    "UniBandMT": (WINDOW + 2, WINDOW, None, True, True),
    "BiBandMT": (2 * WINDOW + 2, 2 * WINDOW, None, True, True),
    "BarrierMT": (1, 1, None, False, False),
    "BcastMT": (1, 1, None, False, False),
    "ReduceMT": (1, 1, None, False, False),
    "AllReduceMT": (1, 1, None, False, False),
}


def oracle_env(oracle, delays, threads=1, extra=()):
    return [f"LD_PRELOAD={os.path.abspath(oracle)}",
            "PARBENCH_ORACLE_DELAY_US=" + ",".join(f"{d:g}" for d in delays),
            "PARBENCH_ORACLE_CLOCK=virtual", f"OMP_NUM_THREADS={threads}", *extra]


def expected(name, np, count, threads, delays):
    calls, divisor, factor, window, pairs_only = TABLE[name]
    members = [r for r in range(np)] if np >= 2 or not pairs_only else []
    t = [delays[r] * calls / divisor for r in members]
    m = len(members) * threads
    x = count * 4 * threads if name != "BarrierMT" else 0
    out = {"t_min_us": min(t), "t_max_us": max(t), "t_avg_us": sum(t) / len(t),
           "median_us": max(t), "bytes": x, "processes": m // threads}
    if factor is not None:
        out["mbytes_per_s"] = x * factor / max(t)
    if window:
        out["mbytes_per_s"] = x / threads * (m // 2) / max(t)
        out["messages_per_s"] = math.floor((m // 2) * 1e6 / (sum(t) / len(t)))
    return out


def runs_at(name, np):
    return np >= 2 or not TABLE[name][4]


def check_figures(np, exe, oracle):
    """Every benchmark at -n np, one thread, rank r's delay 100 (r + 1) us."""
    delays = [100.0 * (r + 1) for r in range(np)]
    counts = [256]
    # -barrier off: the barriers lie outside the timing, and at -n 4 on two CPUs cost seconds
    d, rows = run([*SHORT, "-count", "256", "-window_size", str(WINDOW), "-barrier", "off"],
                  np, exe,
                  env_args=oracle_env(oracle, delays))
    if not expect(d.returncode == 0, f"figures: rc {d.returncode}: {d.stderr[-800:]}"):
        return
    names = [b for b in TABLE if runs_at(b, np)]
    got = [(r["benchmark"], r["bytes"] or 0) for r in rows]  # BarrierMT has no #bytes
    want = [(b, x) for b in names for x in ([0] if b == "BarrierMT" else [c * 4 for c in counts])]
    expect(got == want, f"figures: rows {got} != {want}")
    lines = d.stdout.splitlines()
    for b in TABLE:
        # IMB-MT's block for a benchmark nobody can run (MT_benchmark.h:462-470), its two lines
        block = [f"# Benchmarking {b}", "# NO SUCCESSFUL EXECUTIONS"]
        shown = any(lines[i:i + 2] == block for i in range(len(lines)))
        expect(shown == (not runs_at(b, np)),
               f"figures: {block} {'missing' if not runs_at(b, np) else 'printed'}")
    for r in rows:
        count = (r["bytes"] or 0) // 4
        label = f"-n {np} {r['benchmark']} count {count}"
        want = expected(r["benchmark"], np, count, 1, delays)
        expect(r["iterations"] == 20, f"{label}: {r['iterations']} repetitions, want 20")
        for key, value in want.items():
            have = r["metrics"].get(key, -1.0) if key.endswith("_per_s") else r.get(key) or 0
            ok = abs(have - value) <= 1 if key == "messages_per_s" else close(have, value, 1e-6)
            expect(ok, f"{label}: {key} {have} != IMB-MT's {value}")


def oracle_report(np, exe, oracle, args, threads, tmp, name):
    prefix = os.path.join(tmp, name)
    d, rows = run(args, np, exe, env_args=oracle_env(
        oracle, [1.0] * np, threads,
        ["PARBENCH_ORACLE_PEERS=1", f"PARBENCH_ORACLE_REPORT={prefix}"]))
    if not expect(d.returncode == 0, f"{args}: rc {d.returncode}: {d.stderr[-800:]}"):
        return None, None
    reports = []
    for r in range(np):
        with open(f"{prefix}.{r}.json") as f:
            reports.append(json.load(f))
    return d, reports


def partner(rank, np, stride):
    stride = stride or np // 2
    return rank + stride if (rank // stride) % 2 == 0 else rank - stride


def check_calls(np, exe, oracle):
    """Two threads per process: each rank's point-to-point calls by peer and count, the roots,
    the window and the ack, the barriers of -barrier on against -barrier special."""
    threads, loops, count = 2, 2 + 20, 3
    stride = 1 if np == 4 else 0  # -n 4: pairs (0,1), (2,3) instead of the default (0,2), (1,3)
    shape = ["-count", str(count), "-window_size", str(WINDOW), "-stride", str(stride)]
    with tempfile.TemporaryDirectory() as tmp:
        d, reports = oracle_report(np, exe, oracle, ["PingPongMT", "UniBandMT", "SendRecvMT",
                                                     "BcastMT", "ReduceMT", *SHORT, *shape,
                                                     "-barrier", "off", *MULTIPLE],
                                   threads, tmp, "calls")
        if reports is None:
            return
        o = d.plugin_context
        expect(o.get("threads") == threads and o.get("threads_from") == "OMP_NUM_THREADS",
               f"JSON context: threads {o.get('threads')} from {o.get('threads_from')}")
        # IMB-MT's block title (MT_benchmark.h:433-435)
        expect("# #processes = 2 (threads: 2)" in d.stdout or np != 2,
               "console: '# #processes = 2 (threads: 2)' missing")
        expect(f"# window_size = {WINDOW}" in d.stdout, "console: '# window_size' missing")
        for r, rep in enumerate(reports):
            p = partner(r, np, stride)
            n = threads * loops
            s = stride or np // 2
            want = Counter({f"MPI_Send {count} {p}": n, f"MPI_Recv {count} {p}": n})
            if (r // s) % 2 == 0:  # UniBand's sender: W Isend and the ack's Recv
                want[f"MPI_Isend {count} {p}"] += WINDOW * n
                want[f"MPI_Recv 1 {p}"] += n
            else:
                want[f"MPI_Irecv {count} {p}"] += WINDOW * n
                want[f"MPI_Send 1 {p}"] += n
            got = Counter({k: v for k, v in rep["peers"].items()
                           if k.split()[1] in (str(count), "1") and
                           k.split()[0] in ("MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv")})
            expect(got == want, f"calls rank {r}: {dict(sorted(got.items()))} != IMB-MT's "
                                f"{dict(sorted(want.items()))}")
            # SendRecvMT (the oracle counts MPI_Sendrecv by operand, not by peer)
            sendrecv = rep["operands"].get("MPI_Sendrecv", {}).get(f"MPI_INT x {count}", 0)
            expect(sendrecv == n, f"rank {r}: {sendrecv} MPI_Sendrecv of {count} MPI_INT, "
                                  f"want {n}")
            roots = {k: v for k, v in rep["roots"].items() if k.split()[1] == str(count)}
            expect(roots == {f"MPI_Bcast {count} 0": n, f"MPI_Reduce {count} 0": n},
                   f"roots rank {r}: {roots}")
        # Barriers: -barrier on against special, the same run otherwise: on's MPI_Barrier
        # where special makes ceil(log2 P) rounds of zero-byte MPI_Sendrecv (thread 0 only;
        # BcastMT's five per call, PingPongMT's one per size). At -n 4 only (two rounds): each
        # run costs seconds on two CPUs.
        if np != 4:
            return
        barriers, loops = {}, 1 + 5
        for mode in ("on", "special"):
            _, reps = oracle_report(np, exe, oracle, ["PingPongMT", "BcastMT", *shape, "-repeat",
                                                      "5", "-warmup", "1", "-barrier", mode,
                                                      *MULTIPLE],
                                    threads, tmp, mode)
            if reps is None:
                return
            barriers[mode] = [(rep["calls"]["MPI_Barrier"], rep["calls"]["MPI_Sendrecv"])
                              for rep in reps]
        extra, rounds = 1 + 5 * loops, math.ceil(math.log2(np))
        for r in range(np):
            on, special = barriers["on"][r], barriers["special"][r]
            expect(on[0] - special[0] == extra and special[1] - on[1] == extra * rounds,
                   f"-barrier rank {r}: on makes {on[0] - special[0]} more MPI_Barrier (want "
                   f"{extra}), special {special[1] - on[1]} more MPI_Sendrecv (want {extra} x "
                   f"{rounds})")


def check_selection(exe):
    """-include, -exclude and IMB's comma lists at -n 1, in IMB 2021's order (imb.cpp:215-233):
    the -include names, then those named (on the command line, then -input) or, without any, the
    defaults in IMB-MT's order (MT_benchmark.cpp's declarations), less the -exclude names; each
    once (parbench runs a name given twice once)."""
    quick = [*SHORT, "-count", "1", "-barrier", "off"]
    pairs = ["PingPongMT", "PingPingMT", "UniBandMT", "BiBandMT"]  # nobody runs them at -n 1
    cases = (
        (["BarrierMT,BcastMT", "ReduceMT", "-include", "AllReduceMT", "-exclude", "BcastMT"],
         ["AllReduceMT", "BarrierMT", "ReduceMT"]),
        (["-include", "reducemt", "-exclude", ",".join(pairs), "SendRecvMT", "ExchangeMT",
          "BarrierMT"], ["ReduceMT", "BcastMT", "AllReduceMT"]),
        (["bcastmt", "BarrierMT", "-include", "BcastMT,SendRecvMT"],
         ["BcastMT", "SendRecvMT", "BarrierMT"]),
    )
    for args, want in cases:
        d, rows = run([*args, *quick], 1, exe)
        if not expect(d.returncode == 0, f"{args}: rc {d.returncode}: {d.stderr[-800:]}"):
            continue
        got = [r["benchmark"] for r in rows]
        listed = [line[2:] for line in d.stdout.splitlines()
                  if line.startswith("# ") and line[2:] in TABLE]
        expect(got == want and listed == want, f"{args}: rows {got}, listed {listed}, "
                                               f"IMB-MT's order {want}")


def bad(exe, np, args, why, env=None):
    refused(exe, "imb-mt", np, args, why, env=env)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--parbench", required=True)
    ap.add_argument("--oracle", required=True)
    a = ap.parse_args()
    np, exe = a.np, a.parbench

    check_figures(np, exe, a.oracle)
    if np == 1:
        bad(exe, 1, ["PingPongMT", *SHORT], "needs at least 2")
        # -input FILE: names after the command line's, '#' lines skipped, each benchmark once
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("# IMB-MT input\nAllReduceMT\nBcastMT extra words\n\nbarriermt\n")
            names = f.name
        d, rows = run(["BcastMT", "-input", names, *SHORT, "-count", "2", "-barrier", "off"], 1,
                      exe)
        os.unlink(names)
        if expect(d.returncode == 0, f"-input: rc {d.returncode}: {d.stderr[-800:]}"):
            got = [r["benchmark"] for r in rows]
            expect(got == ["BcastMT", "AllReduceMT", "BarrierMT"], f"-input: benchmarks {got}")
        check_selection(exe)
        for args, why in ((["-foo", "1"], "-foo"),
                          (["-count", "1,x"], "-count x"),
                          (["-count", "4.5"], "-count 4.5"),
                          (["-repeat", "0"], "-repeat 0"),
                          (["-barrier", "maybe"], "-barrier maybe"),
                          (["-datatype", "char", "-check"], "int only"),
                          (["NoSuchMT"], "NoSuchMT"),
                          (["-input", "/nonexistent/list"], "cannot open"),
                          # IMB-MT's -check on|off: parbench's -check takes no value
                          (["BcastMT", "-check", "on"], "benchmark 'on'"),
                          (["-check", "off", "BcastMT"], "benchmark 'off'"),
                          (["-noheader"], "-noheader"),
                          (["-exclude", "NoSuchMT"], "NoSuchMT"),
                          (["BcastMT,", "BarrierMT"], "empty name"),
                          (["-include", "BcastMT,,BarrierMT"], "empty benchmark name"),
                          (["BcastMT", "-exclude", "bcastmt"], "nothing to run")):
            bad(exe, 1, [*args, *([] if "-repeat" in args else SHORT)], why)
        bad(exe, 1, ["BcastMT", *SHORT, *MULTIPLE], "OMP_NUM_THREADS=two",
            env={"OMP_NUM_THREADS": "two"})
        return finish()
    check_calls(np, exe, a.oracle)
    if np == 2:
        # The default is IMB-MT's: -thread_level single, one thread, OMP_NUM_THREADS unread
        d, rows = run(["BcastMT", "ExchangeMT", *SHORT, "-count", "5", "-check"], np, exe,
                      env_args=["OMP_NUM_THREADS=3"])
        if expect(d.returncode == 0, f"default: rc {d.returncode}: {d.stderr[-800:]}"):
            expect(d.plugin_context.get("threads") == 1 and
                   d.plugin_context.get("threads_from") == "thread level" and
                   "MPI Thread Environment: MPI_THREAD_SINGLE" in d.stdout and
                   "# #processes = 2 (threads: 1)" in d.stdout and
                   [r["bytes"] for r in rows] == [20, 20],
                   f"default thread level: {d.plugin_context.get('threads')} threads from "
                   f"{d.plugin_context.get('threads_from')}, bytes {[r['bytes'] for r in rows]}")
            expect(all(r.get("defects") == 0 for r in rows), f"-check: {rows}")
        # --timeout stops threads that are inside MPI: one line, exit status 3
        rc, _, err = parbench(exe)(["run", "imb-mt", "PingPongMT", "-repeat", "100000000",
                                    "-count", "1", "--timeout", "1", "--quiet", *MULTIPLE], np=np,
                                   env={"OMP_NUM_THREADS": "2"}, timeout=60)
        expect(rc == 3 and "did not finish within 1 s" in err, f"--timeout 1: rc {rc}, {err!r}")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
