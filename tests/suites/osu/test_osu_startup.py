#!/usr/bin/env python3
"""OSU 7.5's start-up programs (init, hello) and congestion tests (bw_fan_in, bw_fan_out) of the
osu suite, through the driver under mpiexec.

-n 1: init and hello run (as OSU's do), the fan tests are refused with one `parbench:` line and
status 2. -n 2 and 4: init's line (nprocs, min <= avg <= max, OSU's whole milliseconds against
the record's exact times) and the JSON context's mpi_init_ms of another suite's run (imb-mpi1);
hello's exact line; bw_fan_in and bw_fan_out under the PMPI oracle (each MPI call costs D on a
virtual clock) on one node, where every process is a node of its own (OSU 7.5 refuses one
node): a fan_in sender makes W MPI_Isend, one MPI_Waitall and one MPI_Recv per iteration
((W + 2) D, osu_bw_fan_in.c lines 229-245), fan_out's root (n - 1) W MPI_Isend, one MPI_Waitall
and n - 1 MPI_Recv (((n - 1)(W + 1) + 1) D, osu_bw_fan_out.c lines 224-255); MB/s =
(n - 1) W X / t. --check (OSU's fan tests take no -c) proves the receivers hold their sender's
bytes. At -n 4 also two simulated nodes of two (hydra's fork launcher): OSU's roles by node, who
sends to whom, and nodes of unequal size refused. At -n 2 a golden of the console (numbers masked).

usage: test_osu_startup.py --np N --parbench PARBENCH --golden DIR --oracle LIB
Set PARBENCH_APPROVE=1 to rewrite the golden files.
"""
import argparse
import json
import os
import tempfile
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
from pbtest import mask  # noqa: E402
from pbtest.approve import approve  # noqa: E402
from pbtest.expect import close, expect, finish  # noqa: E402
from pbtest.run import MPIEXEC, driver, mpi_suite, rank_env, run_command  # noqa: E402

BAD_INPUT = 2
D_US = 100.0  # the oracle's cost of one MPI call
run = mpi_suite("osu")
run_imb = mpi_suite("imb-mpi1")

INIT_LINE = re.compile(r"^nprocs: (\d+), min: (\d+) ms, max: (\d+) ms, avg: (\d+) ms$",
                       re.MULTILINE)


def with_oracle(oracle):
    return {"env": {"ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") +
                    ":verify_asan_link_order=0"},
            "env_args": [f"LD_PRELOAD={os.path.abspath(oracle)}",
                         f"PARBENCH_ORACLE_DELAY_US={D_US}", "PARBENCH_ORACLE_CLOCK=virtual"]}


def test_init_hello(args, np):
    p, rows = run(["init", "hello"], np, args.parbench)
    expect(p.returncode == 0 and [r["benchmark"] for r in rows] == ["init", "hello"],
           f"init hello -n {np}: rc {p.returncode}, {len(rows)} rows: {p.stderr[-400:]}")
    if p.returncode != 0 or len(rows) != 2:
        return
    m = INIT_LINE.search(p.stdout)
    expect(m is not None, f"init -n {np}: no OSU line in {p.stdout!r}")
    init = rows[0]
    if m:
        nprocs, low, high, avg = (int(g) for g in m.groups())
        expect(nprocs == np, f"init -n {np}: nprocs {nprocs}")
        expect(low <= avg <= high, f"init -n {np}: min {low} avg {avg} max {high}")
        # OSU's whole milliseconds: each process's time truncated (osu_init.c lines 40-41),
        # so min and max are the exact extremes truncated; avg, the truncated times' sum divided
        # in integers (line 53), is less than 2 ms below the exact mean
        expect(low == int(init["t_min_us"] / 1e3) and high == int(init["t_max_us"] / 1e3),
               f"init -n {np}: {low}, {high} ms against the record's {init['t_min_us']}, "
               f"{init['t_max_us']} us")
        expect(init["t_avg_us"] / 1e3 - 2.0 < avg <= init["t_avg_us"] / 1e3 + 1e-9,
               f"init -n {np}: avg {avg} ms against the record's {init['t_avg_us']} us")
        expect(init["metrics"]["init_avg_ms"] == avg, f"init -n {np}: {init['metrics']}")
    expect(init["t_min_us"] <= init["t_avg_us"] <= init["t_max_us"] and init["t_min_us"] > 0,
           f"init -n {np}: record times {init['t_min_us']}, {init['t_avg_us']}, "
           f"{init['t_max_us']}")
    context = p.plugin_context.get("mpi_init_ms")
    expect(context is not None and close(context["min"] * 1e3, init["t_min_us"], 1e-9) and
           close(context["max"] * 1e3, init["t_max_us"], 1e-9) and
           close(context["avg"] * 1e3, init["t_avg_us"], 1e-9),
           f"init -n {np}: context.mpi_init_ms {context} against the record")
    hello = [l for l in p.stdout.splitlines() if l.startswith("This is a test")]
    expect(hello == [f"This is a test with {np} processes"], f"hello -n {np}: {hello}")
    expect("# Datatype" not in p.stdout and "# Size" not in p.stdout,
           f"init hello -n {np}: a table's lines in {p.stdout!r}")
    if np == 2:
        approve(os.path.join(args.golden, "osu_startup.txt"),
                re.sub(r"(min|max|avg): \d+ ms", r"\1: <ms> ms", mask.osu_console(p.stdout)))


def test_init_context_of_another_suite(args, np):
    p, rows = run_imb(["PingPong", "-msglog", "0:1", "-iter", "10"], np, args.parbench)
    context = p.plugin_context.get("mpi_init_ms")
    expect(p.returncode == 0 and rows, f"imb-mpi1 -n {np}: rc {p.returncode}: {p.stderr[-400:]}")
    expect(isinstance(context, dict) and 0 < context["min"] <= context["avg"] <= context["max"],
           f"imb-mpi1 -n {np}: context.mpi_init_ms {context}")


def fan_calls(name, np, window):
    """MPI calls per iteration of the process OSU times."""
    if name == "bw_fan_in":  # a sender: W Isend, Waitall, Recv of the reply
        return window + 2
    return (np - 1) * (window + 1) + 1  # the root: (n-1) W Isend, Waitall, n-1 Recv


def test_fan_oracle(args, np):
    window = 4
    names = ["bw_fan_in", "bw_fan_out"]
    # parbench's --check: OSU 7.5's congestion tests take no -c (OMBOP__PT2PT__CONG_BW)
    p, rows = run(names + ["-m", "1:8", "-i", "5", "-x", "1", "-W", str(window), "--check"], np,
                  args.parbench, timeout=300, **with_oracle(args.oracle))
    expect(p.returncode == 0 and len(rows) == 8,
           f"fan oracle -n {np}: rc {p.returncode}, {len(rows)} rows: {p.stderr[-400:]}")
    for r in rows:
        name, x = r["benchmark"], r["bytes"]
        t = fan_calls(name, np, window) * D_US
        expect(close(r["t_avg_us"], t, 1e-6) and close(r["t_max_us"], t, 1e-6),
               f"fan oracle -n {np} {name} {x} B: t_avg {r['t_avg_us']} t_max {r['t_max_us']} "
               f"us, expected {t}")
        moved = (np - 1) * window * x
        expect(close(r["metrics"]["bandwidth_mb_s"], moved / t, 1e-6),
               f"fan oracle -n {np} {name} {x} B: {r['metrics']['bandwidth_mb_s']} MB/s, "
               f"expected {moved / t}")
        expect(r.get("defects") == 0, f"fan oracle -n {np} {name} {x} B: defects {r.get('defects')}")
        expect(r["iterations"] == 5, f"fan oracle -n {np} {name}: {r['iterations']} iterations")
    console = [l.split()[1] for l in p.stdout.splitlines() if re.match(r"\d+ ", l)]
    expect(console == [f"{r['metrics']['bandwidth_mb_s']:.2f}" for r in rows],
           f"fan oracle -n {np}: console {console}")
    if np == 2:
        approve(os.path.join(args.golden, "osu_fan.txt"), mask.osu_console(p.stdout))


def fan_nodes_run(args, hosts, names, options, report=None):
    """The osu suite at one process per entry of `hosts` under hydra's fork launcher (every rank
    here, MPI's nodes one per host name: ARCHITECTURE.md), under the oracle (every call D on a
    virtual clock; with `report`, each rank's calls by peer at REPORT.RANK.json)."""
    env_args = with_oracle(args.oracle)["env_args"] + (
        ["PARBENCH_ORACLE_PEERS=1", f"PARBENCH_ORACLE_REPORT={report}"] if report else [])
    np = len(hosts.split(","))
    return driver([MPIEXEC, "-n", str(np), "-launcher", "fork", "-hosts", hosts,
                   *rank_env(np, env_args), args.parbench, "run", "osu", *names, *options],
                  env=with_oracle(args.oracle)["env"], timeout=300)


def test_fan_two_nodes(args):
    """OSU 7.5's roles by node (omb_fan_init, osu_bw_fan_util.c:70-186) on two simulated nodes of
    two (-hosts n1,n1,n2,n2): processes 0 and 1 are the parent node, 2 and 3 the child node, the
    parent node's p-th process paired with the child node's p-th (0-2, 1-3). bw_fan_in: each
    child makes its W MPI_Isend of X bytes to its parent and one MPI_Recv of 1 char from it per
    iteration, the parent as many MPI_Irecv from it and one MPI_Send; no message between the two
    parents or the two children. bw_fan_out the reverse. Timed: fan_in's children, fan_out's
    parents, each (W + 2) D per iteration (nodes - 1 = 1 peer); MB/s = ppn (nodes - 1) W X / t =
    2 W X / ((W + 2) D) (osu_bw_fan_in.c:355-371, osu_bw_fan_out.c:328-340), where one node's
    four processes give 3 W X / t. Three nodes of unequal size (-hosts n1,n1,n2) are refused as
    OSU 7.5 refuses them (:90-107)."""
    rc, out, _ = run_command([MPIEXEC, "--version"])
    if "HYDRA" not in out:
        print("NOTE: mpiexec is not MPICH's hydra: the fan tests' two nodes are not tried")
        return
    window, x, iters = 4, 8, 3
    for name, fan_in in (("bw_fan_in", True), ("bw_fan_out", False)):
        with tempfile.TemporaryDirectory() as tmp:
            prefix = os.path.join(tmp, "oracle")
            d = fan_nodes_run(args, "n1,n1,n2,n2", [name],
                              ["-m", f"{x}:{x}", "-i", str(iters), "-x", "1", "-W", str(window),
                               "--check"], report=prefix)
            reports = {}
            for rank in range(4):
                if os.path.exists(f"{prefix}.{rank}.json"):
                    with open(f"{prefix}.{rank}.json") as f:
                        reports[rank] = json.load(f)
        rows = d.rows
        if not expect(d.returncode == 0 and len(rows) == 1 and len(reports) == 4,
                      f"{name} on two nodes of two: rc {d.returncode}, {len(rows)} rows, "
                      f"{len(reports)} reports: {d.stderr[-600:]}"):
            continue
        parent_of = {2: 0, 3: 1}
        for rank, rep in reports.items():
            peers = rep.get("peers", {})
            # the data messages (X bytes, MPI_CHAR) and the replies (1 char) by peer
            data = {(fn, int(peer)) for key in peers for fn, count, peer in [key.split()]
                    if count == str(x) and fn in ("MPI_Isend", "MPI_Irecv")}
            replies = {(fn, int(peer)) for key in peers for fn, count, peer in [key.split()]
                       if count == "1" and fn in ("MPI_Send", "MPI_Recv")}
            partner = parent_of.get(rank, {0: 2, 1: 3}.get(rank))
            child = rank in parent_of
            sends = child == fan_in
            want_data = {("MPI_Isend" if sends else "MPI_Irecv", partner)}
            want_replies = {("MPI_Recv" if sends else "MPI_Send", partner)}
            expect(data == want_data and replies == want_replies,
                   f"{name} two nodes, rank {rank}: messages {sorted(data)}, replies "
                   f"{sorted(replies)}; expected {want_data}, {want_replies} (peers {peers})")
            counts = [v for key, v in peers.items() if key.split()[1] == str(x)]
            expect(len(counts) == 1 and counts[0] % window == 0,
                   f"{name} two nodes, rank {rank}: {counts} data calls, whole windows of "
                   f"{window} expected")
        r = rows[0]
        t = (window + 2) * D_US
        expect(close(r["t_avg_us"], t, 1e-6),
               f"{name} two nodes: t_avg {r['t_avg_us']} us, expected {t}")
        mb_s = 2 * 1 * window * x / t
        expect(close(r["metrics"]["bandwidth_mb_s"], mb_s, 1e-6),
               f"{name} two nodes: {r['metrics']['bandwidth_mb_s']} MB/s, expected "
               f"ppn 2 x (nodes 2 - 1) x W {window} x {x} B / {t} us = {mb_s}")
        expect(r.get("defects") == 0, f"{name} two nodes --check: defects {r.get('defects')}")
    d = fan_nodes_run(args, "n1,n1,n2", ["bw_fan_in"], ["-m", "8:8", "-i", "1"])
    lines = [l for l in d.stderr.splitlines() if l.strip()]
    expect(d.returncode == BAD_INPUT and len(lines) == 1 and lines[0].startswith("parbench:") and
           "same number of processes on every node" in lines[0] and "have 2, 1" in lines[0],
           f"bw_fan_in on nodes of 2 and 1: rc {d.returncode}, stderr {d.stderr!r}")


def test_refusals(args):
    for name in ["bw_fan_in", "bw_fan_out"]:
        p, _ = run([name], 1, args.parbench)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        expect(p.returncode == BAD_INPUT and len(lines) == 1 and
               lines[0].startswith("parbench:") and "needs 2 processes" in lines[0],
               f"osu {name} at -n 1: rc {p.returncode}, stderr {p.stderr!r}")
    p, _ = run(["bw_fan_in", "-W", "0"], 2, args.parbench)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    expect(p.returncode == BAD_INPUT and len(lines) == 1 and lines[0].startswith("parbench:"),
           f"osu bw_fan_in -W 0: rc {p.returncode}, stderr {p.stderr!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--np", type=int, required=True)
    parser.add_argument("--parbench", required=True)
    parser.add_argument("--golden", required=True)
    parser.add_argument("--oracle", required=True, help="the PMPI oracle library")
    args = parser.parse_args()
    args.parbench = os.path.abspath(args.parbench)
    test_init_hello(args, args.np)
    if args.np == 1:
        test_refusals(args)
    else:
        test_init_context_of_another_suite(args, args.np)
        test_fan_oracle(args, args.np)
        if args.np == 4:
            test_fan_two_nodes(args)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
