#!/usr/bin/env python3
"""IMB 2021's options of imb-mpi1 through the MPI plugin and the test host, at mpiexec -n 2.

-data_type / -red_data_type / -contig_type: IMB 2021's header fields (MPI_Datatype, MPI_Datatype
for reductions) and the effective options; every value measured: the PMPI oracle's record of the
datatype and count of each call (rank 0) against IMB 2021's rules, written out below from IMB's
source (not from parbench's): lengths are multiples of the datatype's size (msglog sequence from
ceil(2^MIN / size) * size; -msglen lengths rounded up), count = X / size of the predefined type;
`resize` is MPI_Type_create_resized(type, lb = size, extent = 2 size); the *_vec layouts send one
MPI_Type_vector(X / size, 1, 1, type) per message (the element type itself at 0 bytes);
reductions on a derived type use a user-defined op, on a predefined one MPI_SUM. -check finds no
defect for any value (and Test_Corrupt's flipped byte under a resized type, with -Dtest_kernels).
-zero_size off: no 0-byte row and the smallest length 2^MIN; -warm_up off: exactly IMB's
N_WARMUP = 10 fewer MPI_Send calls on rank 0 of PingPong (counted through PMPI); bad values:
BAD_INPUT with one message naming the option (a suite other than imb-mpi1 keeps its types).

usage: test_imb2021.py --host PLUGIN_HOST --plugin PARBENCH_MPI_SO --count-sends LIBCOUNT_SENDS
                       --oracle LIBPARBENCH_PMPI_ORACLE [--test-kernels]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

BAD_INPUT = 2
N_WARMUP = 10  # IMB_settings.h, IMB user guide "Warm-Up Phase"
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
from pbtest.expect import expect, finish  # noqa: E402
from pbtest.run import MPIEXEC, plugin_host, read_json  # noqa: E402


def run(args, options, benchmarks=("PingPong",), preload=None, suite="imb-mpi1", check=False,
        report=None):
    """The request under mpiexec -n 2: (process, events). report: a dict that receives rank 0's
    PMPI oracle report (preload must be the oracle)."""
    request = {"suite": suite, "benchmarks": list(benchmarks), "options": options,
               "check": check}

    def command(tmp):
        command = [MPIEXEC, "-n", "2"]
        if preload:
            command += ["-genv", "LD_PRELOAD", preload]
        if report is not None:
            command += ["-genv", "PARBENCH_ORACLE_REPORT", os.path.join(tmp, "oracle")]
        return command + [args.host, args.plugin]
    r = plugin_host(command, request, timeout=60,
                    collect=lambda tmp: read_json(os.path.join(tmp, "oracle.0.json")))
    if report is not None and r.collected is not None:
        report.update(r.collected)
    return r.process, r.events

def of(events, kind):
    return [e for e in events if e.get("event") == kind]


def sizes_of(events, name):
    return sorted({e["bytes"] for e in of(events, "result") if e["benchmark"] == name})


def test_defaults_and_header(args):
    proc, events = run(args, {"msglog": "0:2", "iter": "20"}, ["PingPong", "Allreduce"])
    start = of(events, "run_start")
    if not expect(proc.returncode == 0 and len(start) == 1, f"default run: rc {proc.returncode}"):
        return
    h, o = start[0]["header"], start[0]["context"]["options"]
    expect(h["datatype"] == "MPI_BYTE" and h["reduction_datatype"] == "MPI_FLOAT"
           and h["reduction_op"] == "MPI_SUM", f"IMB 2021 defaults in the header: {h}")
    expect((o["data_type"], o["red_data_type"], o["contig_type"], o["zero_size"], o["warm_up"])
           == ("byte", "float", "base", True, True), f"effective options: {o}")
    expect(sizes_of(events, "PingPong") == [0, 1, 2, 4], "PingPong sizes 0, 1, 2, 4 by default")
    expect(sizes_of(events, "Allreduce") == [0, 4], "Allreduce sizes 0, 4 (unit sizeof(float))")
    expect(h["min_bytes"] == 0, "minimum length 0 with -zero_size on")
    # IMB 2021.11's methods by default, named in the title line and the context.
    method = start[0]["context"].get("methodology", {})
    expect("(IMB 2021.11 methodology)" in start[0].get("title", "") and
           method.get("name") == "2021" and method.get("mbyte_bytes") == 1e6 and
           method.get("root") == "0" and method.get("window_size") == 256 and
           (o["sync"], o["root_shift"], o["imb_barrier"], o["window_size"]) ==
           (True, False, False, 256),
           f"the default methodology: {start[0].get('title')} {method} {o}")

    # The default values given explicitly run the same way.
    proc, events = run(args, {"msglog": "0:1", "iter": "20", "data_type": "byte",
                              "red_data_type": "float", "contig_type": "base", "zero_size": "on",
                              "warm_up": "yes"})
    expect(proc.returncode == 0 and sizes_of(events, "PingPong") == [0, 1, 2],
           f"explicit defaults: rc {proc.returncode} {proc.stderr[-300:]}")


def test_zero_size(args):
    for value in ("off", "0", "no", "disable"):
        proc, events = run(args, {"msglog": "1:3", "iter": "20", "zero_size": value},
                           ["PingPong", "Allreduce"])
        if not expect(proc.returncode == 0, f"-zero_size {value}: rc {proc.returncode}"):
            continue
        expect(sizes_of(events, "PingPong") == [2, 4, 8],
               f"-zero_size {value}: PingPong sizes {sizes_of(events, 'PingPong')}")
        expect(sizes_of(events, "Allreduce") == [4, 8],
               f"-zero_size {value}: Allreduce sizes {sizes_of(events, 'Allreduce')}")
        h = of(events, "run_start")[0]["header"]
        expect(h["min_bytes"] == 2, f"-zero_size {value}: minimum length 2^1, got {h['min_bytes']}")
        expect(of(events, "run_start")[0]["context"]["options"]["zero_size"] is False,
               "-zero_size off in the effective options")
    # 2^MAX below sizeof(float): IMB 2021 clips a reduction's first length to MAXMSG =
    # 2 / 4 * 4 = 0 and runs it also under -zero_size off (helper_IMB_functions.h:306-322, 756;
    # IMB-MPI1 2021 Reduce Allreduce -msglog 0:1 -zero_size off prints one 0-byte row each).
    proc, events = run(args, {"msglog": "0:1", "iter": "20", "zero_size": "off"},
                       ["PingPong", "Allreduce"])
    expect(proc.returncode == 0 and sizes_of(events, "PingPong") == [1, 2] and
           sizes_of(events, "Allreduce") == [0],
           f"-zero_size off -msglog 0:1: rc {proc.returncode}, PingPong "
           f"{sizes_of(events, 'PingPong')}, Allreduce {sizes_of(events, 'Allreduce')} (want "
           f"[1, 2] and IMB 2021's [0])")


def sends_of(stderr):
    found = dict(re.findall(r"^sends (\d+) (\d+)$", stderr, re.M))
    return int(found["0"]) if "0" in found else None


def test_warm_up(args):
    counts = {}
    for value in ("on", "off"):
        proc, events = run(args, {"msglog": "0:1", "iter": "20", "iter_policy": "off",
                                  "warm_up": value}, preload=args.count_sends)
        iterations = sum(e["iterations"] for e in of(events, "result"))
        counts[value] = (sends_of(proc.stderr), iterations)
        expect(proc.returncode == 0 and counts[value][0] is not None,
               f"-warm_up {value}: rc {proc.returncode}, counter {proc.stderr[-300:]}")
        expect(iterations == 3 * 20, f"-warm_up {value}: 20 timed iterations at 3 sizes")
    (on, it_on), (off, it_off) = counts["on"], counts["off"]
    if on is not None and off is not None:
        # Rank 0 sends once per PingPong iteration: the warm-up adds N_WARMUP sends, nothing else.
        expect(on - off == N_WARMUP, f"-warm_up on sends {on}, off {off}: differ by {N_WARMUP}")
        expect(off >= it_off, f"-warm_up off: at least one send per timed iteration ({off})")


def test_bad_values(args):
    cases = [({"data_type": "long"}, "-data_type long: expected one of byte, char, int"),
             ({"red_data_type": "byte"}, "-red_data_type byte: expected one of char, int"),
             ({"contig_type": "vec"}, "-contig_type vec: expected one of base, base_vec"),
             ({"zero_size": "maybe"}, "-zero_size maybe: expected on (1|enable|yes)"),
             ({"warm_up": "2"}, "-warm_up 2: expected on (1|enable|yes)"),
             # The methodology switch and IMB 2021's -sync and -window_size (-root_shift and
             # -imb_barrier share -sync's parser); parbench's own barrier|window start is
             # -start_sync (its values: test_trust.py).
             ({"methodology": "2020"}, "-methodology 2020: expected 2021"),
             ({"sync": "window"}, "parbench's barrier|window start is -start_sync"),
             ({"window_size": "0"}, "-window_size 0: expected a number of messages"),
             ({"methodology": "4.0", "root_shift": "on"},
              "-root_shift: an IMB 2021 option; -methodology 4.0")]
    only_zero = tempfile.NamedTemporaryFile("w", suffix=".lengths", delete=False)
    only_zero.write("0\n")
    only_zero.close()
    cases.append(({"zero_size": "off", "msglen": only_zero.name},
                  "-zero_size off leaves no message length"))
    for options, needle in cases:
        proc, events = run(args, options)
        expect(proc.returncode == BAD_INPUT, f"{options}: rc {proc.returncode}, expected BAD_INPUT")
        expect(needle in proc.stderr, f"{options}: message lacks '{needle}': {proc.stderr[-300:]}")
        expect(not of(events, "result"), f"{options}: no rows after bad input")
    os.unlink(only_zero.name)
    # IMB 2021 has the datatype options in IMB-MPI1 only: other suites keep theirs, and say so.
    for options, needle in [({"data_type": "int"}, "-data_type int: suite imb-nbc keeps"),
                            ({"contig_type": "resize"}, "-contig_type resize: suite imb-nbc"),
                            ({"window_size": "8"}, "-window_size: an option of IMB-MPI1's")]:
        proc, events = run(args, options, ["Ibcast"], suite="imb-nbc")
        expect(proc.returncode == BAD_INPUT and needle in proc.stderr,
               f"imb-nbc {options}: rc {proc.returncode}, {proc.stderr[-300:]}")
        expect(not of(events, "result"), f"imb-nbc {options}: no rows")
    # imb-io measures by IMB 2021 too (tests/mpi/oracle.py imb2021_io); IMB-IO parses -sync
    # and never reads it: refused, saying why.
    proc, events = run(args, {"sync": "off"}, ["S_Write_indv"], suite="imb-io")
    expect(proc.returncode == BAD_INPUT and
           "-sync: has no effect in suite imb-io" in proc.stderr,
           f"imb-io -sync off: rc {proc.returncode}, {proc.stderr[-300:]}")
    # IMB-RMA parses -sync, -root_shift, -imb_barrier and never reads them; -window_size is
    # IMB-MPI1's: refused, saying why.
    for options, needle in [({"sync": "off"}, "-sync: has no effect in suite imb-rma"),
                            ({"imb_barrier": "on"}, "-imb_barrier: has no effect in suite imb-rma"),
                            ({"window_size": "8"}, "-window_size: an option of IMB-MPI1's")]:
        proc, events = run(args, options, ["One_put_all"], suite="imb-rma")
        expect(proc.returncode == BAD_INPUT and needle in proc.stderr,
               f"imb-rma {options}: rc {proc.returncode}, {proc.stderr[-300:]}")
        expect(not of(events, "result"), f"imb-rma {options}: no rows")


# --- IMB 2021's datatypes, from its source (MPI1_suite.cpp, original_benchmark.h) -----------------
TYPE_BYTES = {"byte": 1, "char": 1, "int": 4, "float": 4, "double": 8}


def imb_lengths(unit, msglog=None, msglen=None):
    """IMB 2021's message lengths for a datatype of `unit` bytes (helper_init_scope)."""
    if msglen is not None:  # each rounded up to a multiple of the unit (parbench drops repeats)
        out = []
        for x in msglen:
            y = (x + unit - 1) // unit * unit
            if not out or out[-1] != y:
                out.append(y)
        return out
    low, high = msglog
    top = (1 << high) // unit * unit
    out, x = [0], ((1 << low) + unit - 1) // unit * unit
    while 0 < x <= top:
        out.append(x)
        x = min(top, 2 * x) if x < top else 0
    return out


def imb_operand(kind, contig, nbytes):
    """The datatype and count IMB 2021 passes for a message of nbytes, as the oracle spells it."""
    size, name = TYPE_BYTES[kind], "MPI_" + kind.upper()
    base = name if contig in ("base", "base_vec") else f"resized({name},lb {size},extent {2 * size})"
    n = nbytes // size
    if contig in ("base_vec", "resize_vec") and n > 0:
        return f"vector({n},1,1,{base}) x 1"
    return f"{base} x {n}"


def check_datatypes_run(args, data, red, contig, data_benchmarks, red_benchmarks, lengths):
    """One -n 2 run with -check under the oracle: operands of every call, sizes, defects."""
    label = f"-data_type {data} -red_data_type {red} -contig_type {contig}"
    options = {"iter": "10", "iter_policy": "off", "data_type": data, "red_data_type": red,
               "contig_type": contig}
    msglog, msglen = (0, 4), None
    if lengths is not None:
        msglen = lengths
        handle = tempfile.NamedTemporaryFile("w", suffix=".lengths", delete=False)
        handle.write("\n".join(str(x) for x in lengths) + "\n")
        handle.close()
        options["msglen"] = handle.name
    else:
        options["msglog"] = "0:4"
    corrupt = ["Test_Corrupt"] if args.test_kernels else []
    names = [b for b, _ in data_benchmarks] + [b for b, _ in red_benchmarks] + corrupt
    report = {}
    proc, events = run(args, options, names, preload=args.oracle, check=True, report=report)
    if lengths is not None:
        os.unlink(options["msglen"])
    if not expect(proc.returncode == 0 and report, f"{label}: rc {proc.returncode} "
                  f"{proc.stderr[-400:]}"):
        return
    start = of(events, "run_start")[0]
    h, ctx = start["header"], start["context"]
    expect(h["datatype"] == "MPI_" + data.upper() and h["reduction_datatype"] == "MPI_" + red.upper(),
           f"{label}: header {h['datatype']} / {h['reduction_datatype']}")
    described = ctx.get("datatypes", {})
    expect(("resized" in described.get("messages", "")) == contig.startswith("resize") and
           ("vector" in described.get("messages", "")) == contig.endswith("_vec") and
           described.get("reduction_op", "").startswith("MPI_SUM" if contig == "base" else "user"),
           f"{label}: context datatypes {described}")
    data_sizes = imb_lengths(TYPE_BYTES[data], msglog, msglen)
    red_sizes = imb_lengths(TYPE_BYTES[red], msglog, msglen)
    op = " op MPI_SUM" if contig == "base" else " op user"
    for benchmarks, sizes, kind, suffix in ((data_benchmarks, data_sizes, data, ""),
                                             (red_benchmarks, red_sizes, red, op)):
        for name, function in benchmarks:
            expect(sizes_of(events, name) == sizes,
                   f"{label}: {name} lengths {sizes_of(events, name)}, IMB 2021's {sizes}")
            # Reduce_scatter too: IMB 2021 gives every process X / size(type) elements
            # (`reccnt[i] = size / s_size`, IMB_reduce_scatter.c:148-150), not a share of X.
            want = {imb_operand(kind, contig, x) + suffix for x in sizes}
            # Only the benchmark's own element type and op: parbench's bookkeeping calls (its
            # MPI_MAX / MPI_MIN allreduces of counts and times) are not the benchmark's.
            element = re.compile(r"\bMPI_" + kind.upper() + r"\b")
            seen = {k for k in report["operands"].get(function, {})
                    if element.search(k) and not re.search(r" op MPI_M(AX|IN)$", k)}
            expect(seen == want, f"{label}: {name} passes {sorted(seen)} to {function}, IMB 2021 "
                                 f"passes {sorted(want)}")
    rows = of(events, "result")
    for r in rows:
        if r["benchmark"] == "Test_Corrupt" or r["benchmark"] == "Reduce_local":
            continue
        expect(r["defects"] == 0, f"{label}: {r['benchmark']} {r['bytes']} B: {r['defects']} defects")
    corrupted = [r["defects"] for r in rows if r["benchmark"] == "Test_Corrupt" and r["bytes"] > 0]
    if corrupt:
        expect(corrupted and all(d >= 1 for d in corrupted),
               f"{label}: Test_Corrupt's flipped byte found at every size: {corrupted}")


def test_datatypes(args):
    # Every value of each option at least once, reductions and point-to-point in each run.
    check_datatypes_run(args, "int", "double", "base",
                        [("PingPong", "MPI_Send"), ("Scatter", "MPI_Scatter"),
                         ("Alltoallv", "MPI_Alltoallv")],
                        [("Reduce", "MPI_Reduce"), ("Reduce_scatter_block", "MPI_Reduce_scatter_block"),
                         ("Reduce_local", "MPI_Reduce_local")],
                        lengths=[0, 3, 5, 16])
    check_datatypes_run(args, "char", "float", "resize_vec",
                        [("Exchange", "MPI_Isend"), ("Gatherv", "MPI_Gatherv")],
                        [("Allreduce", "MPI_Allreduce")],
                        lengths=None)
    check_datatypes_run(args, "double", "char", "base_vec",
                        [("Sendrecv", "MPI_Sendrecv"), ("Allgather", "MPI_Allgather"),
                         ("Uniband", "MPI_Isend")],
                        [("Reduce", "MPI_Reduce"), ("Reduce_scatter", "MPI_Reduce_scatter")],
                        lengths=None)
    check_datatypes_run(args, "float", "int", "resize",
                        [("PingPing", "MPI_Isend"), ("Alltoall", "MPI_Alltoall"),
                         ("Scatterv", "MPI_Scatterv"), ("Bcast", "MPI_Bcast")],
                        [("Allreduce", "MPI_Allreduce"), ("Reduce_scatter_block", "MPI_Reduce_scatter_block"),
                         # 1, 2, 4 ints to each process, where a split of X gives 1, 1, 2
                         ("Reduce_scatter", "MPI_Reduce_scatter")],
                        lengths=None)


def names_of(events):
    return sorted({e["benchmark"] for e in of(events, "result")})


def test_lists_and_options(args):
    """IMB 2021's comma lists (positional, -include, -exclude), -msgsize, -iter_policy auto's
    repetitions, -aggregate_mode, -msg_pause, -list; IMB-EXT's 4-byte lengths;
    Truly_passive_put's column order."""
    small = {"msglog": "0:0", "iter": "2"}
    # (with -msg_pause on, which runs and is recorded; its sleep is not timed here)
    proc, events = run(args, dict(small, include="Bcast,Barrier", exclude=["Allreduce"],
                                  msg_pause="on"), ["PingPong,Allreduce"])
    start = of(events, "run_start")
    expect(proc.returncode == 0 and names_of(events) == ["Barrier", "Bcast", "PingPong"] and
           start and start[0]["context"]["options"]["msg_pause"] is True,
           f"PingPong,Allreduce -include Bcast,Barrier -exclude Allreduce -msg_pause on: ran "
           f"{names_of(events)} rc {proc.returncode} {proc.stderr[-300:]}")
    # -msgsize a,b,c: exactly those lengths, rounded up to the datatype's size where IMB does.
    proc, events = run(args, {"msgsize": "1,5,1024", "iter": "2"}, ["PingPong", "Allreduce"])
    expect(proc.returncode == 0 and sizes_of(events, "PingPong") == [1, 5, 1024] and
           sizes_of(events, "Allreduce") == [4, 8, 1024],
           f"-msgsize 1,5,1024: PingPong {sizes_of(events, 'PingPong')}, Allreduce "
           f"{sizes_of(events, 'Allreduce')} rc {proc.returncode} {proc.stderr[-300:]}")
    # -iter_policy auto: IMB 2021's hyperbola for a benchmark with a root (Bcast).
    # helper_IMB_functions.h:409-421 at np = 2, msgspersample 100, 2^max_log = 16:
    # tmp = (int)(100 * 16 / (2 * max(X, 4) + 16) + 0.5) = 67, 50, 33 for X <= 4, 8, 16, rounded
    # down to multiples of 2: 66, 50, 32 (no volume rule, no -time cap; the 4.0 rule gives 100).
    # Where the dynamic calibration is skipped IMB 2021 runs the whole count once, untimed,
    # before the timed run (helper_IMB_functions.h:691-694), so each size makes 2 n MPI_Bcast
    # calls (the oracle's count on rank 0, by operand), and 10 more at 4 B: the warm-up once per
    # process count (N_WARMUP at 4 bytes). The volume rule's warm-up would give n + 5.
    report = {}
    proc, events = run(args, {"msglog": "0:4", "iter": "100", "iter_policy": "auto",
                              "time": "600"}, ["Bcast"], preload=args.oracle, report=report)
    reps = {n: [e["iterations"] for e in sorted(of(events, "result"), key=lambda e: e["bytes"])
                if e["benchmark"] == n] for n in ("Bcast",)}
    want = {"Bcast": [66, 66, 66, 66, 50, 32]}
    expect(proc.returncode == 0 and reps == want,
           f"-iter 100 -iter_policy auto -msglog 0:4: repetitions {reps}, want {want} "
           f"rc {proc.returncode} {proc.stderr[-300:]}")
    calls = {x: report.get("operands", {}).get("MPI_Bcast", {}).get(f"MPI_BYTE x {x}", 0)
             for x in (0, 1, 2, 4, 8, 16)}
    want_calls = {x: 2 * n + (N_WARMUP if x == 4 else 0)
                  for x, n in zip((0, 1, 2, 4, 8, 16), want["Bcast"])}
    expect(calls == want_calls, f"-iter_policy auto: MPI_Bcast calls by length {calls}, want "
                                f"{want_calls} (IMB 2021's untimed run of n, then n timed)")
    # -iter_policy off takes the same branch (helper_IMB_functions.h:690-694) with n =
    # msgspersample (:407-408): 20 at every size, so 2 x 20 calls, 10 more at 4 B. parbench's
    # warm-up of max(ceil(20 / 20), 3) gave n + 3.
    report = {}
    proc, events = run(args, {"msglog": "0:2", "iter": "20", "iter_policy": "off",
                              "time": "600"}, ["Bcast"], preload=args.oracle, report=report)
    calls = {x: report.get("operands", {}).get("MPI_Bcast", {}).get(f"MPI_BYTE x {x}", 0)
             for x in (0, 1, 2, 4)}
    want_calls = {x: 2 * 20 + (N_WARMUP if x == 4 else 0) for x in (0, 1, 2, 4)}
    expect(proc.returncode == 0 and calls == want_calls,
           f"-iter 20 -iter_policy off: MPI_Bcast calls by length {calls}, want {want_calls} "
           f"(IMB 2021's untimed run of n, then n timed) rc {proc.returncode} "
           f"{proc.stderr[-300:]}")
    # -aggregate_mode: one mode of the benchmarks that have both (IMB-RMA's Unidir_put); and
    # Truly_passive_put's columns: t_pure before t_ovrl under 2021 (IMB_output.c:423).
    for mode, method, want in (("aggregate", "2021", ["t_pure_us", "t_ovrl_us"]),
                               ("non_aggregate", "4.0", ["t_ovrl_us", "t_pure_us"])):
        proc, events = run(args, dict(small, aggregate_mode=mode, methodology=method),
                           ["Unidir_put", "Truly_passive_put"], suite="imb-rma")
        modes = sorted({e["block"]["mode"] for e in of(events, "result")
                        if e["benchmark"] == "Unidir_put"})
        expect(proc.returncode == 0 and modes == [mode],
               f"imb-rma -aggregate_mode {mode}: modes {modes} rc {proc.returncode}")
        start = of(events, "run_start")
        declared = start[0].get("columns", {}).get("Truly_passive_put", []) if start else []
        got = [c.get("source") if isinstance(c, dict) else c[0] for c in declared]
        expect(got == want, f"Truly_passive_put -methodology {method}: columns {got}, want {want}")
    # IMB-EXT: lengths in multiples of 4 under 2021 (helper_IMB_functions.h:743-744, 322), and
    # -msglog's first length capped at sizeof(assign_type) = 4, doubled up to 2^MAX (:309-313:
    # IMB-EXT 2021 -msglog 10:12 prints 4, 8, ..., 4096); a -msgsize list is taken as given
    # (:298-299); the guide starts at 2^MIN.
    for method, msgsize, msglog, want in (
            ("2021", None, "0:3", [0, 4, 8]), ("4.0", None, "0:3", [0, 1, 2, 4, 8]),
            ("2021", "1,6", None, [4, 8]),
            ("2021", None, "10:12", [0] + [2 ** k for k in range(2, 13)]),
            ("4.0", None, "10:12", [0, 1024, 2048, 4096]),
            ("2021", "1024,4096", None, [1024, 4096])):
        options = {"iter": "2", "methodology": method}
        options.update({"msgsize": msgsize} if msgsize else {"msglog": msglog})
        proc, events = run(args, options, ["Unidir_Put"], suite="imb-ext")
        expect(proc.returncode == 0 and sizes_of(events, "Unidir_Put") == want,
               f"imb-ext {options}: sizes {sizes_of(events, 'Unidir_Put')}, want {want} "
               f"{proc.stderr[-300:]}")
    for options, benchmarks, suite, needle in [
            ({"msgsize": "1,,2"}, ["PingPong"], "imb-mpi1", "-msgsize 1,,2: an empty length"),
            ({"msgsize": "1,2", "msglog": "0:1"}, ["PingPong"], "imb-mpi1",
             "-msgsize and -msglog both set"),
            ({"list": True}, ["PingPong"], "imb-mpi1", "-list: parbench lists"),
            ({"thread_level": "nompiinit"}, ["PingPong"], "imb-mpi1",
             "-thread_level nompiinit: IMB 2021's value"),
            ({"include": "PingPong,,Bcast"}, ["PingPong"], "imb-mpi1",
             "-include 'PingPong,,Bcast': an empty benchmark name"),
            ({}, ["PingPong,"], "imb-mpi1", "benchmark list 'PingPong,': an empty name"),
            ({"aggregate_mode": "both"}, ["Unidir_put"], "imb-rma",
             "-aggregate_mode both: expected multi"),
            ({"aggregate_mode": "aggregate"}, ["PingPong"], "imb-mpi1",
             "-aggregate_mode: suite imb-mpi1 has no aggregate mode")]:
        proc, events = run(args, options, benchmarks, suite=suite)
        expect(proc.returncode == BAD_INPUT and needle in proc.stderr,
               f"{suite} {benchmarks} {options}: rc {proc.returncode}, {proc.stderr[-300:]}")
    # Through the driver, whose host checks the names before the plugin sees them.
    if args.parbench:
        plugins = os.path.dirname(os.path.dirname(args.plugin))
        for names, rc, needle in (("PingPong,Barrier", 0, None),
                                  ("PingPong,,Barrier", BAD_INPUT, "an empty name between commas")):
            p = subprocess.run([MPIEXEC, "-n", "2", args.parbench, "run", "imb-mpi1", names,
                                "-msglog", "0:0", "-iter", "2", "--plugin-path", plugins],
                               capture_output=True, text=True, timeout=60)
            ok = p.returncode == rc and (needle in p.stderr if needle else
                                         "Benchmarking PingPong" in p.stdout and
                                         "Benchmarking Barrier" in p.stdout)
            expect(ok, f"parbench run imb-mpi1 {names}: rc {p.returncode} (want {rc}) "
                       f"{p.stderr[-300:]}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--count-sends", required=True)
    parser.add_argument("--oracle", required=True)
    parser.add_argument("--test-kernels", action="store_true")
    parser.add_argument("--parbench", default=None)
    args = parser.parse_args()
    os.environ.setdefault("PARBENCH_TEST_KERNELS", "1" if args.test_kernels else "0")
    test_defaults_and_header(args)
    test_zero_size(args)
    test_warm_up(args)
    test_bad_values(args)
    test_lists_and_options(args)
    test_datatypes(args)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
