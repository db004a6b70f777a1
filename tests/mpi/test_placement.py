"""Where the processes ran, in every MPI run's JSON context (plugin_context.placement), with nodes
as MPI sees them: hydra's fork launcher with `-hosts n1,n2` starts every process on this machine
while MPI sees two nodes (one host name for all), so node identity must come from MPI, not from
gethostname(). The expected placement is hydra's: one slot per listed host, ranks dealt round
robin (rank r on host r mod 2). Also: binding read back per rank (-bind-to core gives each rank
its own CPU), and the BLAS plugin's ranks per node through the same mechanism (it counted host
names before, and said 2 where MPI sees 1). And every row's own placement (its "placement":
the node of each of its processes, per group, and whether they cross a node): expected from
hydra's dealing and IMB's definitions of the active set (the first Q ranks of the order; -map
PxQ orders rank c·P + r at row r, column c; -multi 0 forms groups of consecutive ranks), and
the IMB header's node line on two nodes (none on one node, whose output stays IMB's); the rows
IMB-MT, PAW and OSU (multi_lat, mbw_mr) build themselves, each pair of their pair tests a group
of its own.

Each process's GPU under -accelerator cuda (plugin_context.gpus): the device the plugin selects
(node-local rank mod devices), through a stand-in CUDA runtime (fake_cudart.cpp, preloaded) on
this machine without a GPU.

usage: test_placement.py PARBENCH MPIEXEC [FAKE_CUDART]
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from pbtest.expect import expect, finish, require  # noqa: E402
from pbtest.run import PAW_BLAS, PLUGIN_PATH, driver, rank_env  # noqa: E402

parbench, mpiexec = os.path.abspath(sys.argv[1]), sys.argv[2]
fake_cudart = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else None
two_nodes = [mpiexec, "-launcher", "fork", "-hosts", "n1,n2"]


def on_two_nodes(np):
    """The launcher of `np` processes on the two simulated nodes, with their ranks' environment
    (pbtest.run.rank_env)."""
    return two_nodes + ["-n", str(np), *rank_env(np)]


def placement_of(d, what):
    require(d.returncode == 0 and d.document is not None,
            f"{what}: exit status {d.returncode}", d.stdout[-1500:], d.stderr[-1500:])
    return d.plugin_context["placement"]


# 1. Two simulated nodes, one process each: two nodes, one process per node, rank r on node r.
for np in (2, 4):
    d = driver(on_two_nodes(np) + [parbench, "run", "imb-mpi1", "PingPong", "-msglog", "0:0",
                                   "-iter", "10"])
    p = placement_of(d, f"fork launcher, 2 hosts, -n {np}")
    nodes = [q["node"] for q in p["processes"]]
    expect(p["nodes"] == 2 and nodes == [r % 2 for r in range(np)] and
           p["processes_per_node"] == [np // 2, np // 2],
           f"-n {np} on n1,n2: 2 nodes, rank r on node r mod 2, {np // 2} per node: {p}")
    expect([q["rank"] for q in p["processes"]] == list(range(np)), f"ranks in order: {p}")
    hosts = {q["host"] for q in p["processes"]}
    expect(len(hosts) == 1, f"one host name for both MPI nodes (so names cannot tell): {hosts}")
    # The IMB header's per-node count comes from the same MPI view.
    expect(d.plugin_context["processes_per_node"] == np // 2,
           f"-n {np}: processes_per_node {d.plugin_context['processes_per_node']}")
    expect("gpus" not in d.plugin_context,
           f"-n {np} on host buffers: no GPU named: {d.plugin_context.get('gpus')}")

# 2. One real node, each rank bound to its own core: the binding read back per rank.
cores = len(os.sched_getaffinity(0))
if cores >= 2:
    d = driver([mpiexec, "-bind-to", "core", "-n", "2", parbench, "run", "imb-mpi1", "PingPong",
                "-msglog", "0:0", "-iter", "10"])
    p = placement_of(d, "-bind-to core -n 2")
    cpus = [q["cpus"] for q in p["processes"]]
    expect(p["nodes"] == 1 and p["processes_per_node"] == [2], f"one node of 2: {p}")
    expect(all(c.isdigit() for c in cpus) and len(set(cpus)) == 2,
           f"-bind-to core: each rank bound to one CPU of its own: {cpus}")
    expect(all(q["numa"] != "" for q in p["processes"]), f"a NUMA node per rank: {p}")
else:
    print(f"binding check skipped: this machine lets the test use {cores} CPU")

# 3. The BLAS plugin counts ranks per node the same way (the communication service).
d = driver(two_nodes + ["-n", "2", parbench, "run", "paw", "dgemm", "--sizes", "32", "--nreps",
                        "1", "--threads", "1", "--quiet"], drop=PAW_BLAS + PLUGIN_PATH,
           after=["--dat-dir", "."])
require(d.returncode == 0 and d.document is not None, f"paw under 2 nodes: {d.returncode}",
        d.stderr[-1500:])
expect(d.plugin_context.get("ranks_per_node") == 1,
       f"paw on n1,n2 -n 2: ranks_per_node {d.plugin_context.get('ranks_per_node')} (MPI's "
       "nodes; host names would say 2)")

# 4. Every row says where its processes ran. node_of(r) is hydra's dealing on n1,n2.
def node_of(rank):
    return rank % 2


def rows_of(d, what):
    require(d.returncode == 0 and d.document is not None, f"{what}: exit status {d.returncode}",
            d.stdout[-1500:], d.stderr[-1500:])
    rows = [b for b in d.document["benchmarks"] if b.get("run_type") == "iteration"]
    require(rows, f"{what}: no rows")
    return rows


def expect_rows(rows, groups, span, what):
    want = {"nodes": [[node_of(r) for r in g] for g in groups], "span": span, "run_nodes": 2}
    for r in rows:
        expect(r.get("placement") == want,
               f"{what}: {r['benchmark']} {r['bytes']} B placement {r.get('placement')}, "
               f"want {want}")


pingpong = ["run", "imb-mpi1", "PingPong", "-msglog", "0:1", "-iter", "10"]
d = driver(two_nodes + ["-n", "2", parbench] + pingpong)
expect_rows(rows_of(d, "PingPong on n1,n2"), [[0, 1]], "inter-node", "PingPong -n 2 on n1,n2")
expect("# ( inter-node: nodes 0 1 )" in d.stdout,
       f"PingPong on two nodes: the header names the nodes: {d.stdout[:1500]}")
d = driver([mpiexec, "-n", "2", parbench] + pingpong)
# One real node: MPI's node 0 for both, and IMB's header alone.
for r in rows_of(d, "PingPong on one node"):
    expect(r.get("placement") == {"nodes": [[0, 0]], "span": "intra-node", "run_nodes": 1},
           f"PingPong -n 2 on one node: placement {r.get('placement')}")
expect("-node: nodes" not in d.stdout and "on nodes" not in d.stdout,
       f"one node: no node line in the header: {d.stdout[:1500]}")
# -map 2x2 at -n 4: the order is 0 2 1 3, so the pair is ranks 0 and 2, both on n1.
d = driver(on_two_nodes(4) + [parbench] + pingpong + ["-map", "2x2"])
expect_rows(rows_of(d, "-map 2x2"), [[0, 2]], "intra-node", "PingPong -map 2x2 -n 4")
expect("# ( intra-node: nodes, rank order 0 0 )" in d.stdout,
       f"-map 2x2: the header names the pair's nodes: {d.stdout[:1500]}")
# -multi 0 at -n 4: groups 0 1 and 2 3, each across the two nodes.
d = driver(on_two_nodes(4) + [parbench] + pingpong + ["-multi", "0"])
expect_rows(rows_of(d, "-multi 0"), [[0, 1], [2, 3]], "inter-node", "PingPong -multi 0 -n 4")
expect(re.search(r"^# Group  1:\s+2\s+3   on nodes 0 1$", d.stdout, re.M) is not None,
       f"-multi 0: each group line names its nodes: {d.stdout[:1500]}")
# OSU's rows through the same runner.
d = driver(two_nodes + ["-n", "2", parbench, "run", "osu", "latency", "-m", "1:2", "-i", "10",
                        "-x", "1"])
expect_rows(rows_of(d, "osu latency on n1,n2"), [[0, 1]], "inter-node", "osu latency on n1,n2")
# OSU's tests of every pair at once (r <-> r + n/2) name each pair: at -n 4 on n1,n2 the pairs
# 0-2 and 1-3 each stay within a node.
d = driver(on_two_nodes(4) + [parbench, "run", "osu", "multi_lat", "mbw_mr", "-m", "1:1",
                        "-i", "4", "-x", "1"])  # OSU's window: multi_lat takes no -W
osu_pairs = rows_of(d, "osu multi_lat, mbw_mr -n 4 on n1,n2")
expect(sorted(r["benchmark"] for r in osu_pairs) == ["mbw_mr", "multi_lat"],
       f"osu rows: {osu_pairs}")
expect_rows(osu_pairs, [[0, 2], [1, 3]], "intra-node", "osu multi_lat, mbw_mr -n 4")
# IMB-MT and PAW build their own rows: the same placement. -n 4 on n1,n2 puts ranks 0, 2 on node
# 0 and 1, 3 on node 1. A test of pairs names each pair (IMB-MT's r <-> r + stride, stride P/2 by
# default; PAW's i <-> i + n/2): pairs 0-2 and 1-3, both within a node (one group of all four
# would say inter-node); a collective names every process.
d = driver(on_two_nodes(4) + [parbench, "run", "imb-mt", "PingPongMT", "BcastMT", "-count",
                        "1", "-repeat", "10", "-warmup", "1"], env={"OMP_NUM_THREADS": "1"})
mt = rows_of(d, "imb-mt -n 4 on n1,n2")
expect_rows([r for r in mt if r["benchmark"] == "PingPongMT"], [[0, 2], [1, 3]], "intra-node",
            "imb-mt PingPongMT -n 4")
expect_rows([r for r in mt if r["benchmark"] == "BcastMT"], [[0, 1, 2, 3]], "inter-node",
            "imb-mt BcastMT -n 4")
expect(sorted({r["benchmark"] for r in mt}) == ["BcastMT", "PingPongMT"], f"imb-mt rows: {mt}")
paw_sizes = {k: "1" for k in ("MIN_P2P_SIZE", "MED_P2P_SIZE", "MAX_P2P_SIZE", "MIN_COL_SIZE",
                              "MED_COL_SIZE", "MAX_COL_SIZE")}
d = driver(on_two_nodes(4) + [parbench, "run", "paw", "p2p_send", "col_bct", "--nreps", "2",
                        "--nloop_max", "2", "--nloop_min", "2", "--min_loop_time", "0"],
           env=paw_sizes, drop=PAW_BLAS + PLUGIN_PATH, after=["--dat-dir", "."])
paw = rows_of(d, "paw -n 4 on n1,n2")
expect_rows([r for r in paw if r["benchmark"] == "p2p_send"], [[0, 2], [1, 3]], "intra-node",
            "paw p2p_send -n 4")
expect_rows([r for r in paw if r["benchmark"] == "col_bct"], [[0, 1, 2, 3]], "inter-node",
            "paw col_bct -n 4")
expect(sorted({r["benchmark"] for r in paw}) == ["col_bct", "p2p_send"], f"paw rows: {paw}")

# Each process's GPU where -accelerator cuda gives it one: device = node-local rank mod devices
# (cuda_buffers.hpp), by world rank. The stand-in runtime has 2 devices (or
# PARBENCH_FAKE_CUDA_DEVICES), device D at PCI bus 0000:(0x10 + D):00.0. -n 4 on n1,n2: ranks 0
# and 2 on node 0, 1 and 3 on node 1, so node-local ranks 0, 0, 1, 1; -n 2 on one node: 0, 1.
if fake_cudart is not None:
    def gpus(devices):
        return [{"device": g, "pci_bus_id": f"0000:{0x10 + g:02X}:00.0"} for g in devices]
    for launch, np, devices, count in ((two_nodes, 4, [0, 0, 1, 1], 2), ([mpiexec], 2, [0, 1], 2),
                                       ([mpiexec], 2, [0, 0], 1)):
        what = f"-accelerator cuda -n {np} on {'n1,n2' if launch is two_nodes else 'one node'}, " \
               f"{count} device(s) a node"
        d = driver(launch + ["-n", str(np), *rank_env(np, [f"LD_PRELOAD={fake_cudart}",
                                                           f"PARBENCH_FAKE_CUDA_DEVICES={count}"]),
                             parbench, "run", "imb-mpi1",
                             "PingPong", "-accelerator", "cuda", "-msglog", "0:2", "-iter", "10"])
        require(d.returncode == 0 and d.document is not None, f"{what}: exit {d.returncode}",
                d.stderr[-1500:])
        got = d.plugin_context.get("gpus")
        expect(got == gpus(devices), f"{what}: gpus {got}, want {gpus(devices)}")
        expect(len(rows_of(d, what)) == 4, f"{what}: the rows of 0, 1, 2 and 4 bytes")

sys.exit(finish())
