#!/usr/bin/env python3
"""The links suite (the link matrix: IMB's PingPong on every pair of nodes, or of processes with
-per-rank, in rounds of disjoint pairs) through the driver, on nodes simulated by MPICH's hydra
(-launcher fork -hosts ...: every rank runs here while MPI sees one node per host name).

Known answers come from the PMPI oracle (oracle/pmpi_oracle.cpp) on its virtual clock: every MPI
call of world rank r costs D_r, and a point-to-point call across the slowed link I-J costs L more
(PARBENCH_ORACLE_LINK_DELAY_US). IMB's PingPong is a Send and a Recv per rank per round trip,
reported as half the round trip, so pair i-j's t[usec] (t_max) is max(D_i, D_j) + L_ij. From
those the test computes the median link, the slow links (t > 1.5 x the median) and the slow
nodes (every link slow), and checks them against the suite's matrix and closing lines. The
schedule is checked for what it must be, not for how it is built: every link once, no member in
two pairs of one round, M-1 rounds for M members (M even) or M (odd).

usage: test_links.py --parbench PARBENCH --oracle LIBPARBENCH_PMPI_ORACLE.so
"""
import argparse
import itertools
import os
import re
import statistics
import sys

BAD_INPUT = 2
D_US = 100.0

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
from pbtest.expect import close, expect, finish  # noqa: E402
from pbtest.run import MPIEXEC, driver, mpiexec, parbench, rank_env, run_command  # noqa: E402


def launch(parbench_exe, hosts, args, oracle=None, delays=None, links=None):
    """`parbench run links ARGS` on len(hosts) processes, process r on host hosts[r]."""
    env = []
    if oracle:
        env = [f"LD_PRELOAD={os.path.abspath(oracle)}", "PARBENCH_ORACLE_CLOCK=virtual",
               "PARBENCH_ORACLE_DELAY_US=" + ",".join(f"{d:g}" for d in delays)]
        if links:
            env.append("PARBENCH_ORACLE_LINK_DELAY_US=" +
                       ",".join(f"{i}-{j}:{v:g}" for (i, j), v in links.items()))
    command = [MPIEXEC, "-n", str(len(hosts)), "-launcher", "fork", "-hosts", ",".join(hosts)]
    command += rank_env(len(hosts), env) + [parbench_exe, "run", "links", *args]
    return driver(command, csv_file=True)


def pair_of(row):
    m = row.get("metrics", {})
    return (int(m.get("rank_i", -1)), int(m.get("rank_j", -1)))


def check_schedule(rows, members, what):
    """Every link of `members` once per size; no member twice in a round; the round count."""
    by_size = {}
    for r in rows:
        by_size.setdefault(r["bytes"], []).append(r)
    m = len(members)
    want_rounds = m - 1 if m % 2 == 0 else m
    for x, here in by_size.items():
        got = sorted(pair_of(r) for r in here)
        expect(got == sorted(itertools.combinations(members, 2)),
               f"{what} {x} B: links {got}, want every pair of {members} once")
        rounds = {}
        for r in here:
            rounds.setdefault(int(r["metrics"]["round"]), []).append(pair_of(r))
        expect(sorted(rounds) == list(range(want_rounds)),
               f"{what} {x} B: rounds {sorted(rounds)}, want {want_rounds} for {m} members")
        for k, pairs in rounds.items():
            seen = [p for pair in pairs for p in pair]
            expect(len(seen) == len(set(seen)), f"{what} {x} B: round {k} has a member twice: {pairs}")
        names = [r["name"] for r in here]
        expect(len(set(names)) == len(names), f"{what}: JSON names repeat: {names}")


def matrix_notes(stdout, name, x):
    """The note lines of one benchmark and size: (heading, matrix rows, summary, slow nodes)."""
    lines = [line[2:] for line in stdout.splitlines() if line.startswith("# ")]
    head = f"{name} {x} bytes: "
    at = [k for k, line in enumerate(lines) if line.startswith(head) and "of each link" in line]
    if not at:
        return None
    k = at[0]
    matrix = []
    k += 1
    while k < len(lines) and not lines[k].startswith(head):
        matrix.append(lines[k])
        k += 1
    summary = lines[k] if k < len(lines) else ""
    slow_nodes = []
    k += 1
    while k < len(lines) and lines[k].startswith(head + "slow "):
        slow_nodes.append(lines[k])
        k += 1
    return lines[at[0]], matrix, summary, slow_nodes


def check_known_answer(parbench_exe, oracle, delays, links, what):
    """Four simulated nodes, one process each: the matrix of t[usec] at 0 B."""
    n = len(delays)
    d = launch(parbench_exe, [f"n{k + 1}" for k in range(n)], ["-sizes", "0", "-iter", "20"],
               oracle, delays, links)
    if not expect(d.returncode == 0, f"{what}: rc {d.returncode}: {d.stderr[-800:]}"):
        return
    check_schedule(d.rows, list(range(n)), what)
    want = {(i, j): max(delays[i], delays[j]) + links.get((i, j), 0.0)
            for i, j in itertools.combinations(range(n), 2)}
    for r in d.rows:
        i, j = pair_of(r)
        expect(close(r["t_max_us"], want[(i, j)], 1e-6),
               f"{what} pair {i}-{j}: t_max {r['t_max_us']} != oracle {want[(i, j)]}")
        expect((r["metrics"]["node_i"], r["metrics"]["node_j"]) == (i, j),
               f"{what} pair {i}-{j}: nodes {r['metrics']}")
    median = statistics.median(want.values())
    slow = sorted(p for p, t in want.items() if t > 1.5 * median)
    slow_nodes = [k for k in range(n) if all(p in slow for p in want if k in p)]
    notes = matrix_notes(d.stdout, "PingPong", 0)
    if not expect(notes is not None, f"{what}: no matrix in\n{d.stdout[-2000:]}"):
        return
    heading, matrix, summary, node_lines = notes
    print(f"{what}: median {median:g}, slow {slow}, slow nodes {slow_nodes}\n  " +
          "\n  ".join([heading, *matrix, summary, *node_lines]))
    expect(f"the median link's time ({median:.2f} usec)" in heading and "between nodes" in heading,
           f"{what}: heading {heading!r}, want the median {median:.2f} and nodes")
    expect(matrix[0].split() == ["node", *map(str, range(n))], f"{what}: matrix top {matrix[0]!r}")
    for i, line in enumerate(matrix[1:]):
        cells = line.split()
        expect(cells[0] == str(i) and len(cells) == n + 1, f"{what}: matrix row {line!r}")
        for j in range(n):
            if j == i:
                expect(cells[j + 1] == "-", f"{what}: diagonal {cells[j + 1]!r}")
                continue
            p = (min(i, j), max(i, j))
            mark = "*" if p in slow else ""
            expect(cells[j + 1] == f"{want[p]:.2f}{mark}",
                   f"{what}: cell {i},{j} {cells[j + 1]!r} != {want[p]:.2f}{mark}")
    listed = re.findall(r"(\d+)-(\d+) \(([\d.]+) x\)", summary)
    expect([(int(a), int(b)) for a, b, _ in listed] == slow and
           all(abs(float(v) - want[(int(a), int(b))] / median) < 0.006 for a, b, v in listed) and
           f": {len(slow)} slow link{'' if len(slow) == 1 else 's'} of {len(want)}" in summary,
           f"{what}: summary {summary!r}, want slow links {slow}")
    expect([int(re.search(r"slow node (\d+)", line)[1]) for line in node_lines] == slow_nodes,
           f"{what}: slow node lines {node_lines}, want {slow_nodes}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--parbench", required=True)
    ap.add_argument("--oracle", required=True)
    a = ap.parse_args()
    rc, out, _ = run_command([MPIEXEC, "--version"])
    if "HYDRA" not in out:
        print("SKIP: mpiexec is not MPICH's hydra, which simulates nodes (-launcher fork -hosts)")
        return 77

    # One slow link among four nodes: it alone is marked, with its ratio to the median.
    check_known_answer(a.parbench, a.oracle, [D_US] * 4, {(1, 2): 300.0}, "slow link 1-2")
    # One slow node: all three of its links slow, and the node named.
    check_known_answer(a.parbench, a.oracle, [D_US, D_US, D_US, 400.0], {}, "slow node 3")

    # Two nodes of two: one link between the nodes' first processes (0 and 2); -per-rank: all
    # six pairs of processes in three rounds, with -check and both default sizes.
    d = launch(a.parbench, ["n1", "n1", "n2", "n2"], ["-iter", "10", "-check"])
    if expect(d.returncode == 0, f"two nodes: rc {d.returncode}: {d.stderr[-800:]}"):
        check_schedule(d.rows, [0, 2], "two nodes")
        expect(sorted({r["bytes"] for r in d.rows}) == [0, 1048576] and
               all(r.get("defects") == 0 for r in d.rows),
               f"two nodes: sizes/defects {[(r['bytes'], r.get('defects')) for r in d.rows]}")
        ctx = d.plugin_context
        expect(ctx.get("link_members") == "nodes" and ctx.get("link_member_ranks") == [0, 2],
               f"two nodes: context {ctx.get('link_members')} {ctx.get('link_member_ranks')}")
        expect("Mbytes/sec of each link between nodes" in d.stdout,
               "two nodes: no bandwidth matrix at 1 MiB")
        csv_pairs = [(dict(kv.split("=") for kv in c["metrics"].split(";")), int(c["bytes"]))
                     for c in d.csv_rows]
        expect(sorted((int(m["rank_i"]), int(m["rank_j"]), x) for m, x in csv_pairs)
               == sorted((*pair_of(r), r["bytes"]) for r in d.rows),
               f"two nodes: CSV rows {d.csv_rows[:3]}")
    d = launch(a.parbench, ["n1", "n1", "n2", "n2"], ["-per-rank", "-sizes", "4", "-iter", "10",
                                                      "-check"])
    if expect(d.returncode == 0, f"-per-rank: rc {d.returncode}: {d.stderr[-800:]}"):
        check_schedule(d.rows, [0, 1, 2, 3], "-per-rank")
        nodes = {pair_of(r): (r["metrics"]["node_i"], r["metrics"]["node_j"]) for r in d.rows}
        expect(nodes == {(i, j): (i // 2, j // 2) for i, j in itertools.combinations(range(4), 2)},
               f"-per-rank: node columns {nodes}")
        expect("between processes" in d.stdout, "-per-rank: the matrix is not between processes")
    # An odd count: three processes on one node (links between processes, as -per-rank), three
    # rounds of one pair.
    d = driver(mpiexec(3) + [a.parbench, "run", "links", "-sizes", "0", "-iter", "10"])
    if expect(d.returncode == 0, f"-n 3: rc {d.returncode}: {d.stderr[-800:]}"):
        check_schedule(d.rows, [0, 1, 2], "-n 3")
        expect("# one node: the links are those between its processes" in d.stdout,
               "-n 3: no note that one node means links between processes")

    for args, np, why in ((["-slow", "1"], 2, "-slow 1: the factor must be a number above 1"),
                          (["-slow", "abc"], 2, "-slow abc"),
                          (["-sizes", "8,4"], 2, "must be ascending"),
                          (["-nosuch", "1"], 2, "nosuch"),
                          (["Bcast"], 2, "Bcast"),
                          ([], 1, "at least 2 processes")):
        rc, out, err = parbench(a.parbench)(["run", "links", *args, "--quiet"], np=np)
        lines = [line for line in err.splitlines() if line.strip()]
        expect(rc == BAD_INPUT and len(lines) == 1 and lines[0].startswith("parbench:") and
               why in lines[0],
               f"{args} at -n {np}: one parbench: line naming '{why}', exit status {BAD_INPUT}: "
               f"rc {rc}, stderr {err!r}")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
