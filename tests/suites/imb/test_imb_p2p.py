#!/usr/bin/env python3
"""The imb-p2p suite (IMB 2021.11's IMB-P2P) through the driver under mpiexec -n N.

Known answers come from the PMPI oracle (oracle/pmpi_oracle.cpp): every MPI call of world rank r
costs D_r on a virtual clock, so rank r's timed region lasts D_r x its calls. The calls follow
from IMB-P2P's sources (src_c/P2P/imb_p2p_*.c), not from parbench's code:

  PingPong          Send + Recv                       2 per iteration
  PingPing          Irecv + Send + Wait               3
  Unirandom         P random steps per iteration (IMB-P2P's generator, seed 0): the sender
                    Send, the receiver Recv            1 per step taken part in
  Birandom          both of a step's pair Irecv + Send + Wait   3 per step taken part in
  Corandom          Irecv + Send + Wait               3
  Stencil2D         4 Irecv + 4 Isend + Waitall        9
  SendRecv_Replace  one MPI_Sendrecv_replace          1

With T_r = D_r x calls_r over the n timed iterations, IMB-P2P prints
  t[usec]    = 1e6 sum_r T_r / (M n)  with M = messages per iteration of all processes / P
               (PingPong: its latency divides by 2 P n, i.e. per = 2, msgs = 1)
  Mbytes/sec = msgs P n X / (1e6 max_r T_r),  Msg/sec = msgs P n / max_r T_r
(imb_p2p_*.c, the report at the end of each size). The random steps are replayed here with
IMB-P2P's generator (imb_p2p.h get_next_random) to count each rank's part.

Partners: with PARBENCH_ORACLE_PEERS the oracle counts every point-to-point call by its peer;
each rank's counts (function, peer) over the warm-up and the timed loop must be IMB-P2P's —
r + P/2 for PingPong and PingPing, the replayed random pairs and rings, the grid's neighbours,
r + 1 for SendRecv_Replace.

Barriers: the same runs count IMB-P2P's own barrier (imb_p2p.c:114-129, one zero-byte
MPI_Sendrecv per 2^k < P) — three per size, two for SendRecv_Replace, one before the footer — and
no MPI_Barrier (barrier_sendrecvs).

Also: repetitions by IMB-P2P's -iter rule, -msglog/-msglen/-msgsz sizes, IMB-P2P's "invalid for
N processes" lines (each after an empty line) for defaults that cannot run, the console table
against a golden (numbers masked) and its t[usec] against the oracle, and one `parbench:` line
with exit status 2 for bad input and for a named benchmark the process count does not allow.

usage: test_imb_p2p.py --np N --parbench PARBENCH --golden DIR --oracle LIBPARBENCH_PMPI_ORACLE.so
"""
import argparse
import json
import os
import re
import sys
import tempfile
from collections import Counter

MASK64 = (1 << 64) - 1

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
from pbtest import mask  # noqa: E402
from pbtest.approve import approve  # noqa: E402
from pbtest.expect import close, expect, finish  # noqa: E402
from pbtest.run import mpi_suite, refused  # noqa: E402

run = mpi_suite("imb-p2p")


def oracle_env(oracle, delays):
    return [f"LD_PRELOAD={os.path.abspath(oracle)}",
            "PARBENCH_ORACLE_DELAY_US=" + ",".join(f"{d:g}" for d in delays),
            "PARBENCH_ORACLE_CLOCK=virtual"]


def next_random(seed):
    """imb_p2p.h get_next_random: (new seed, value)."""
    seed = (seed * 7560690468208412377 + 4343336064253945357) & MASK64
    return seed, (seed >> 24) & 0xFFFFFFFF


def random_steps(np, steps):
    """The (sender, receiver) pairs of IMB-P2P's Unirandom/Birandom from seed 0."""
    seed, out = 0, []
    for _ in range(steps):
        seed, v = next_random(seed)
        r0 = v % np
        seed, v = next_random(seed)
        r1 = v % np
        while r1 == r0:
            seed, v = next_random(seed)
            r1 = v % np
        out.append((r0, r1))
    return out


def grid_2d(n):
    """imb_p2p_stencil2d.c's length_x, length_y (valid when both >= 2 and x y = n)."""
    x = y = 2
    while x * y < n:
        x, y = x + 1, y + 1
    if x * y > n:
        while y > 1 and n % y:
            y -= 1
        x = n // y
    return x, y


# name -> (msgs, per): Mbytes/sec = msgs P X / t_max, t = t_avg / per (IMB-P2P's counts).
FIGURES = {"PingPong": (1, 2), "PingPing": (1, 1), "Unirandom": (1, 1), "Birandom": (2, 2),
           "Corandom": (1, 1), "Stencil2D": (4, 4), "Stencil3D": (6, 6),
           "SendRecv_Replace": (1, 1)}


def runs_on(name, np):
    if name in ("PingPong", "PingPing"):
        return np >= 2 and np % 2 == 0
    if name == "Stencil2D":
        x, y = grid_2d(np)
        return x >= 2 and y >= 2 and x * y == np
    if name == "Stencil3D":
        return False  # needs 8 or more; the tests run at most 4
    return np >= 2


def calls(name, np, n):
    """Each rank's MPI calls over n timed iterations, from IMB-P2P's sources."""
    if name in ("Unirandom", "Birandom"):
        per_step = 1 if name == "Unirandom" else 3
        c = [0] * np
        for r0, r1 in random_steps(np, np * n):
            c[r0] += per_step
            c[r1] += per_step
        return c
    per_iteration = {"PingPong": 2, "PingPing": 3, "Corandom": 3, "Stencil2D": 9,
                     "SendRecv_Replace": 1}[name]
    return [per_iteration * n] * np


def expected(name, np, n, x, delays):
    """The record's figures. Its times are per message, as IMB-P2P's t[usec] (divided by `per`:
    PingPong's half round trip), t_min/t_max/t_avg and the median alike; the rates divide by the
    slowest process's time per iteration (IMB-P2P's max_time / n). Where every iteration makes
    the same calls (not the random pairings), every batch of the slowest process lasts its
    t_max, so the median is t_max too."""
    msgs, per = FIGURES[name]
    t = [delays[r] * c for r, c in enumerate(calls(name, np, n))]  # us
    t_max = max(t) / n
    t_avg = sum(t) / np / n
    out = {"t_max_us": t_max / per, "t_avg_us": t_avg / per, "t_usec": t_avg / per,
           "mbytes_per_s": msgs * np * x / t_max, "messages_per_s": msgs * np * 1e6 / t_max}
    if name not in ("Unirandom", "Birandom"):
        out["median_us"] = t_max / per
    return out


def check_known_answers(np, exe, oracle, delays, what):
    sizes, n = [0, 1024], 20
    d, rows = run(["-msgsz", "0", "1k", "-iter", str(n), "-pause", "0"], np, exe,
                  env_args=oracle_env(oracle, delays))
    if not expect(d.returncode == 0, f"{what}: rc {d.returncode}: {d.stderr[-800:]}"):
        return None
    names = [b for b in FIGURES if runs_on(b, np)]
    got = [(r["benchmark"], r["bytes"]) for r in rows]
    expect(got == [(b, x) for b in names for x in sizes], f"{what}: rows {got}")
    lines = d.stdout.splitlines()
    for b in FIGURES:
        line = f"# !! Benchmark {b} is invalid for {np} processes !!"
        expect((line in lines) == (not runs_on(b, np)),
               f"{what}: '{line}' {'missing' if not runs_on(b, np) else 'printed'}")
        # after an empty line, also right after another such line (imb_p2p_pingpong.c:43-44)
        if line in lines:
            at = lines.index(line)
            expect(at > 0 and lines[at - 1] == "", f"{what}: no empty line before '{line}'")
    for r in rows:
        label = f"{what} {r['benchmark']} {r['bytes']} B"
        want = expected(r["benchmark"], np, n, r["bytes"], delays)
        expect(r["iterations"] == n and r["processes"] == np,
               f"{label}: {r['iterations']} repetitions on {r['processes']}, want {n} on {np}")
        for key, value in want.items():
            have = r.get(key, -1.0) if key.endswith("_us") else r["metrics"].get(key, -1.0)
            expect(close(have, value, 1e-6), f"{label}: {key} {have} != oracle {value}")
    return d


def grid_neighbours(np, rank):
    """imb_p2p_stencil2d.c's neighbours: -x, +x, -y, +y with wrap-around, x fastest."""
    lx, ly = grid_2d(np)
    x, y = rank % lx, rank // lx
    return [lx * y + (x - 1) % lx, lx * y + (x + 1) % lx,
            lx * ((y - 1) % ly) + x, lx * ((y + 1) % ly) + x]


def peer_calls(name, np, count, loops):
    """{rank: Counter("FUNCTION COUNT PEER" -> calls)} of IMB-P2P's kernel over `loops`, one
    entry per loop of iterations, each starting from seed 0 (the warm-up, then the timing)."""
    out = {r: Counter() for r in range(np)}

    def add(rank, fn, peer, calls=1):
        out[rank][f"{fn} {count} {peer}"] += calls
    for n in loops:
        if name in ("PingPong", "PingPing"):
            for r in range(np):
                p = (r + np // 2) % np
                if name == "PingPong":
                    add(r, "MPI_Send", p, n)
                    add(r, "MPI_Recv", p, n)
                else:
                    add(r, "MPI_Irecv", p, n)
                    add(r, "MPI_Send", p, n)
        elif name in ("Unirandom", "Birandom"):
            for a, b in random_steps(np, np * n):
                if name == "Unirandom":
                    add(a, "MPI_Send", b)
                    add(b, "MPI_Recv", a)
                else:
                    for me, other in ((a, b), (b, a)):
                        add(me, "MPI_Irecv", other)
                        add(me, "MPI_Send", other)
        elif name == "Corandom":
            seed, ring = 0, list(range(np))
            for _ in range(n):
                for i in range(np):
                    seed, v = next_random(seed)
                    j = v % np
                    ring[i], ring[j] = ring[j], ring[i]
                for at, r in enumerate(ring):
                    add(r, "MPI_Irecv", ring[(at - 1) % np])
                    add(r, "MPI_Send", ring[(at + 1) % np])
        elif name == "Stencil2D":
            for r in range(np):
                for p in grid_neighbours(np, r):
                    add(r, "MPI_Irecv", p, n)
                    add(r, "MPI_Isend", p, n)
        elif name == "SendRecv_Replace":
            for r in range(np):
                add(r, "MPI_Sendrecv_replace", (r + 1) % np, n)
    return out


def barrier_sendrecvs(np, name, sizes):
    """IMB-P2P's zero-byte MPI_Sendrecv calls on each rank over a run of `name` at `sizes`: its
    barrier (imb_p2p.c:114-129) is one MPI_Sendrecv per mask 1, 2, 4, ... < P, made per size
    before the warm-up, before the timed loop (not SendRecv_Replace's:
    imb_p2p_sendrecv_replace.c:61-70) and after the timing, and once before the footer (:630)."""
    per_barrier = len([m for m in (1 << k for k in range(np.bit_length())) if m < np])
    return per_barrier * (1 + sizes * (2 if name == "SendRecv_Replace" else 3))


def check_partners(np, exe, oracle):
    """Who each rank sends to and receives from, call by call, against IMB-P2P's pairings: the
    oracle counts each point-to-point call by its peer (PARBENCH_ORACLE_PEERS). 1000 bytes,
    -iter 20: 2 warm-up iterations, then 20 timed, each loop from seed 0. The same runs count
    IMB-P2P's barriers (barrier_sendrecvs), and no MPI_Barrier: IMB-P2P calls none."""
    count = 1000
    for name in (b for b in FIGURES if runs_on(b, np)):
        with tempfile.TemporaryDirectory() as tmp:
            prefix = os.path.join(tmp, "oracle")
            d, _ = run([name, "-msgsz", str(count), "-iter", "20", "-pause", "0"], np, exe,
                       env_args=oracle_env(oracle, [1.0] * np) +
                       ["PARBENCH_ORACLE_PEERS=1", f"PARBENCH_ORACLE_REPORT={prefix}"])
            if not expect(d.returncode == 0, f"partners {name}: rc {d.returncode}"):
                continue
            want = peer_calls(name, np, count, [2, 20])
            for r in range(np):
                with open(f"{prefix}.{r}.json") as f:
                    report = json.load(f)
                peers = report["peers"]
                got = Counter({k: v for k, v in peers.items() if k.split()[1] == str(count)})
                expect(got == want[r], f"partners {name} rank {r}: {dict(sorted(got.items()))} "
                                       f"!= IMB-P2P's {dict(sorted(want[r].items()))}")
                barriers = {"MPI_Sendrecv": report["operands"].get("MPI_Sendrecv", {}),
                            "MPI_Barrier": report["calls"].get("MPI_Barrier", 0)}
                want_barriers = {"MPI_Sendrecv": {"MPI_BYTE x 0": barrier_sendrecvs(np, name, 1)},
                                 "MPI_Barrier": 0}
                expect(barriers == want_barriers, f"barriers {name} rank {r}: {barriers} != "
                                                  f"IMB-P2P's {want_barriers}")


def console_rows(stdout, name):
    """The numbers of `name`'s table: [[bytes, reps, t, mbytes, msgs, t_median], ...]."""
    block = re.split(r"# Benchmarking " + re.escape(name) + r"\b[^\n]*\n", stdout)
    if len(block) < 2:
        return []
    out = []
    for line in block[1].split("\n# Benchmarking")[0].splitlines():
        if re.match(r"^\s+\d", line):
            out.append([float(f) for f in line.split()[:6]])
    return out


def bad(exe, np, args, why):
    refused(exe, "imb-p2p", np, args, why)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--parbench", required=True)
    ap.add_argument("--golden", required=True)
    ap.add_argument("--oracle", required=True)
    a = ap.parse_args()
    np, exe = a.np, a.parbench

    if np == 1:
        bad(exe, 1, ["-pause", "0"], "at least 2")
        return finish()

    # Every rank its own delay, so that t (the mean) and Mbytes/sec (the slowest) differ.
    delays = [100.0 * (r + 1) for r in range(np)]
    check_partners(np, exe, a.oracle)
    d = check_known_answers(np, exe, a.oracle, delays, "per-rank D")
    check_known_answers(np, exe, a.oracle, [100.0] * np, "uniform D")
    if d is not None:
        for name in (b for b in FIGURES if runs_on(b, np)):
            table = console_rows(d.stdout, name)
            want = [(x, 20, expected(name, np, 20, x, delays)) for x in (0, 1024)]
            expect([(f[0], f[1]) for f in table] == [(x, n) for x, n, _ in want],
                   f"console {name}: rows {table}")
            for f, (x, _, e) in zip(table, want):
                expect(abs(f[2] - e["t_usec"]) <= 0.006 and abs(f[3] - e["mbytes_per_s"]) <= 0.006
                       and abs(f[4] - e["messages_per_s"]) <= 0.6,
                       f"console {name} {x} B: {f[2:5]} != {e}")
                # parbench's t_median[usec], after IMB-P2P's columns: per message like t[usec]
                if "median_us" in e:
                    expect(abs(f[5] - e["median_us"]) <= 0.006,
                           f"console {name} {x} B: t_median {f[5]} != {e['median_us']}")
        if np == 4:
            expect("# Benchmarking Stencil2D (2 x 2)" in d.stdout, "Stencil2D's title (2 x 2)")
            approve(os.path.join(a.golden, "imb_p2p_console-np_4.txt"),
                    re.sub(r"--json \S+", "--json JSON", mask.imb_console(d.stdout, exe)))

    if np == 2:
        # IMB-P2P's -iter rule: n = round(NUMERATOR MiB / X) within [1, MAX], MAX at X = 0.
        d, rows = run(["SendRecv_Replace", "-msgsz", "0", "3000", "4096", "2m", "-iter",
                       "1000,1", "-pause", "0"], np, exe)
        if expect(d.returncode == 0, f"-iter 1000,1: rc {d.returncode}: {d.stderr[-800:]}"):
            got = [(r["bytes"], r["iterations"]) for r in rows]
            want = [(0, 1000), (3000, 350), (4096, 256), (2 << 20, 1)]
            expect(got == want, f"-iter 1000,1: (bytes, repetitions) {got} != {want}")
        # The defaults (imb_p2p.c loading()) and IMB-P2P's words for off.
        for args, want in (([], {"msgwr": True, "msgrd": True, "pause_us": 100000}),
                           (["-msgwr", "off", "-msgrd", "No", "-pause", "-1"],
                            {"msgwr": False, "msgrd": False, "pause_us": -1})):
            d, rows = run(["SendRecv_Replace", "-msgsz", "8m", *args], np, exe)
            if expect(d.returncode == 0, f"{args}: rc {d.returncode}: {d.stderr[-800:]}"):
                ctx = d.plugin_context  # its MPI part: report::mpi_suite_context
                expect(ctx.get("processes") == np and
                       str(ctx.get("mpi_library") or "").strip() != "",
                       f"imb-p2p context: processes {ctx.get('processes')}, library "
                       f"{str(ctx.get('mpi_library'))[:40]!r}")
                o = ctx.get("options", {})
                got = {k: o.get(k) for k in want}
                expect(got == want, f"{args}: options {got} != {want}")
                if not args:
                    expect(o.get("iter_max") == 100000 and
                           o.get("iter_numerator_bytes") == 800 << 20 and
                           [r["iterations"] for r in rows] == [100],
                           f"defaults: -iter {o.get('iter_max')},{o.get('iter_numerator_bytes')}"
                           f", repetitions at 8 MiB {[r['iterations'] for r in rows]} (want "
                           f"800 MiB / 8 MiB = 100)")
        for args, sizes in ((["-msglog", "3"], [0, 1, 2, 4, 8]), (["-msglog", "2:4"], [4, 8, 16])):
            d, rows = run(["Corandom", *args, "-iter", "5", "-pause", "0"], np, exe)
            if expect(d.returncode == 0, f"{args}: rc {d.returncode}: {d.stderr[-800:]}"):
                expect([r["bytes"] for r in rows] == sizes, f"{args}: sizes {rows}")
                expect(f"# Maximum message length in bytes:   {sizes[-1]}" in d.stdout,
                       f"{args}: header's maximum")
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("# lengths\n4k\n1\n2M\n")
            lengths = f.name
        d, rows = run(["Unirandom", "-msglen", lengths, "-iter", "3", "-pause", "0"], np, exe)
        if expect(d.returncode == 0, f"-msglen: rc {d.returncode}: {d.stderr[-800:]}"):
            expect([r["bytes"] for r in rows] == [4096, 1, 2 << 20], f"-msglen: sizes {rows}")
        with open(lengths, "w") as f:
            f.write("4k\n12x\n")
        for args, why in ((["-time", "1"], "-time: IMB-P2P has no time limit"),
                          (["-mem", "1"], "-mem: IMB-P2P has no memory limit"),
                          (["-iter_policy", "off"], "-iter_policy: IMB-P2P has one"),
                          (["-off_cache", "16"], "-off_cache"),
                          (["-list"], "parbench list"),
                          (["-msglog", "5:3"], "-msglog 5:3"),
                          (["-msgsz", "12x"], "-msgsz 12x"),
                          (["-msglen", lengths], "line 2"),
                          (["-msglen", lengths + ".none"], "cannot open"),
                          (["-msgwr", "maybe"], "-msgwr maybe"),
                          (["-iter", "0"], "-iter 0"),
                          (["-msglog", "3", "-msgsz", "4"], "give one of them"),
                          (["NoSuchBenchmark"], "NoSuchBenchmark"),
                          (["Stencil2D"], "Stencil2D needs"),
                          (["Stencil3D"], "Stencil3D needs")):
            bad(exe, np, args, why)
        os.unlink(lengths)
    if np == 3:
        bad(exe, np, ["PingPong"], "even number")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
