#!/usr/bin/env python3
"""PAW's MPI tests (latency, p2p_*, col_*) through the driver under mpiexec, sized by PAW's
environment variables.

-n 1: latency and the p2p tests refuse with one line and status 2 (exactly two / an even number
of tasks); the collectives run on one task; bad PAW variables are one-line errors.
-n 2: every test at tiny sizes with --check (no defects), PAW's statistics over NREPS
repetitions, the bandwidth and message-rate figures against the formulas worked out here from the
test's definition (bytes and messages one pair moves per iteration) and the record's own mean,
the .dat files PAW names (latency.dat, <stem>_time/_bw/_rate-np_2.dat, collectives' time file)
against the records, and the console summary and one .dat file against golden files (numbers
masked).
-n 4: --check on four tasks (each receiver holds its partner i +- n/2's bytes), the
collectives on four tasks, latency refused.

usage: test_paw_mpi.py --np N --parbench PARBENCH --golden DIR
Set PARBENCH_APPROVE=1 to rewrite the golden files.
"""
import argparse
import os
import sys
import tempfile

BAD_INPUT = 2
WINDOW = 4
NREPS = 3
NLOOP = 4
LOOP = ["--nreps", str(NREPS), "--nloop_max", str(NLOOP), "--nloop_min", str(NLOOP),
        "--min_loop_time", "0"]
SIZES = {"MIN_P2P_SIZE": "1", "MED_P2P_SIZE": "2", "MAX_P2P_SIZE": "8",
         "MIN_COL_SIZE": "2", "MED_COL_SIZE": "2", "MAX_COL_SIZE": "4", "WINDOW_SIZE": str(WINDOW)}
P2P_SIZES = [1, 2, 4, 8]
COL_SIZES = [2, 4]

# What one pair moves per iteration (bytes, messages), from PAW's timed regions (catalogue C.7):
# a ping-pong carries the message there and back, a ping-ping one way, a window WS messages one
# way or 2 WS both ways.
P2P = {
    "p2p_send": ("send", lambda x: (2 * x, None)),
    "p2p_isend": ("isend", lambda x: (2 * x, None)),
    "p2p_isend_bidir": ("isend_bidir", lambda x: (2 * x, None)),
    "p2p_isend_ping": ("isend_ping", lambda x: (x, None)),
    "p2p_mrate": ("mrate", lambda x: (WINDOW * x, WINDOW)),
    "p2p_mrate_bidir": ("mrate_bidir", lambda x: (2 * WINDOW * x, 2 * WINDOW)),
}
COLLECTIVES = ["col_agtr", "col_ardc", "col_a2a", "col_bct", "col_gtr", "col_rdc", "col_sct"]

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir))
from pbtest import mask  # noqa: E402
from pbtest.approve import approve  # noqa: E402
from pbtest.expect import expect, finish  # noqa: E402
from pbtest.run import mpi_suite  # noqa: E402

run = mpi_suite("paw")


def close(a, b, rel=1e-6):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def dat_lines(path):
    if not expect(os.path.exists(path), f"PAW file {os.path.basename(path)} missing"):
        return []
    with open(path) as f:
        return [l.split() for l in f if not l.startswith("#")]


def refused(p, needle, what):
    lines = p.stderr.strip().splitlines()
    expect(p.returncode == BAD_INPUT, f"{what}: rc {p.returncode}, want {BAD_INPUT}")
    expect(len(lines) == 1 and needle in p.stderr, f"{what}: stderr {p.stderr!r}")


def check_statistics(r, what):
    s = r["samples_us"]
    expect(len(s) == NREPS, f"{what}: {len(s)} repetitions, NREPS {NREPS}")
    expect(r["iterations"] == NLOOP, f"{what}: NLOOP {r['iterations']}, want {NLOOP}")
    expect(r.get("defects", 0) == 0, f"{what}: defects {r.get('defects')}")
    if s:
        mean = sum(s) / len(s)
        expect(close(r["t_min_us"], min(s), 1e-9) and close(r["t_max_us"], max(s), 1e-9) and
               close(r["t_avg_us"], mean, 1e-9), f"{what}: t_min/max/avg vs samples {s}")


# The time file's columns: bytes min max mean stddev, the record's statistics in seconds.
def check_time_file(lines, rows, what):
    expect(len(lines) == len(rows) > 0, f"{what}: {len(lines)} .dat lines, {len(rows)} rows")
    for line, r in zip(lines, rows):
        s = r["samples_us"]
        mean = sum(s) / len(s)
        sd = (sum((v - mean) ** 2 for v in s) / (len(s) - 1)) ** 0.5
        expect(len(line) == 5 and int(line[0]) == r["bytes"] and
               close(float(line[1]), min(s) * 1e-6) and close(float(line[2]), max(s) * 1e-6) and
               close(float(line[3]), mean * 1e-6) and
               abs(float(line[4]) - sd * 1e-6) <= 1e-6 * sd * 1e-6 + 1e-12,
               f"{what}: line {line} vs samples {s}")


def test_one(args):
    p, _ = run(["latency"], 1, args.parbench)
    refused(p, "exactly two tasks", "latency at -n 1")
    p, _ = run(["p2p_send"], 1, args.parbench)
    refused(p, "even number of tasks", "p2p_send at -n 1")
    p, _ = run(["p2p_mrate"], 1, args.parbench, env={"WINDOW_SIZE": "0"})
    refused(p, "WINDOW_SIZE", "WINDOW_SIZE=0")
    p, _ = run(["col_ardc"], 1, args.parbench, env={"MAX_COL_SIZE": "lots"})
    refused(p, "MAX_COL_SIZE", "MAX_COL_SIZE=lots")
    p, _ = run(["col_ardc"], 1, args.parbench, env={"MIN_COL_SIZE": "8", "MAX_COL_SIZE": "4"})
    refused(p, "larger than maximum size", "MIN_COL_SIZE > MAX_COL_SIZE")
    p, _ = run(["col_a2a", "--sizes", "1,4294967296"], 1, args.parbench)
    refused(p, "out of range", "a collective size above MPI's int count")
    p, _ = run(["col_ardc", "--window_size", "0"], 1, args.parbench)
    refused(p, "--window_size", "--window_size 0")
    with tempfile.TemporaryDirectory() as dat:
        p, rows = run(["col_ardc", "col_sct", "--check", "--dat-dir", dat] + LOOP, 1,
                      args.parbench, env=SIZES)
        expect(p.returncode == 0, f"collectives at -n 1: rc {p.returncode}: {p.stderr[-400:]}")
        for name in ["col_ardc", "col_sct"]:
            mine = [r for r in rows if r["benchmark"] == name]
            expect([r["bytes"] for r in mine] == COL_SIZES,
                   f"{name} -n 1 sizes {[r['bytes'] for r in mine]} (MIN/MAX_COL_SIZE)")
            for r in mine:
                check_statistics(r, f"{name} -n 1 {r['bytes']} B")
            check_time_file(dat_lines(os.path.join(dat, f"{name}_time-np_1.dat")), mine, name)


def test_two(args):
    names = ["latency"] + list(P2P) + COLLECTIVES
    with tempfile.TemporaryDirectory() as dat:
        p, rows = run(names + ["--check", "--dat-dir", dat] + LOOP, 2, args.parbench, env=SIZES,
                      timeout=400)
        expect(p.returncode == 0, f"paw at -n 2: rc {p.returncode}: {p.stderr[-400:]}")
        # The context's MPI part (report::mpi_suite_context, report::paw_context's processes).
        ctx = p.plugin_context
        expect(ctx.get("processes") == 2 and str(ctx.get("mpi_library") or "").strip() != "",
               f"paw context: processes {ctx.get('processes')}, library "
               f"{str(ctx.get('mpi_library'))[:40]!r}")
        for r in rows:
            check_statistics(r, f"{r['benchmark']} -n 2 {r['bytes']} B")
            expect(r["processes"] == 2, f"{r['benchmark']}: {r['processes']} processes")
        # latency: one size of one byte, PAW's latency.dat, no rate
        lat = [r for r in rows if r["benchmark"] == "latency"]
        expect([r["bytes"] for r in lat] == [1], f"latency sizes {[r['bytes'] for r in lat]}")
        check_time_file(dat_lines(os.path.join(dat, "latency.dat")), lat, "latency.dat")
        # point to point: bandwidth (GB/s = 10^9 B/s) and message rate from the formulas above
        for name, (stem, work) in P2P.items():
            mine = [r for r in rows if r["benchmark"] == name]
            expect([r["bytes"] for r in mine] == P2P_SIZES,
                   f"{name} sizes {[r['bytes'] for r in mine]} (MIN/MAX_P2P_SIZE)")
            check_time_file(dat_lines(os.path.join(dat, f"{stem}_time-np_2.dat")), mine, name)
            kind = "rate" if work(1)[1] else "bw"
            other = "bw" if kind == "rate" else "rate"
            expect(not os.path.exists(os.path.join(dat, f"{stem}_{other}-np_2.dat")),
                   f"{name} wrote a {other} file")
            rates = dat_lines(os.path.join(dat, f"{stem}_{kind}-np_2.dat"))
            expect(len(rates) == len(mine), f"{name}: {len(rates)} {kind} lines")
            for r, line in zip(mine, rates):
                nbytes, messages = work(r["bytes"])
                t_mean_s = r["t_avg_us"] * 1e-6
                gb_s = nbytes / t_mean_s / 1e9
                what = f"{name} {r['bytes']} B"
                expect(close(r["metrics"]["bytes_per_iteration"], nbytes),
                       f"{what}: bytes per iteration {r['metrics'].get('bytes_per_iteration')}, "
                       f"want {nbytes}")
                expect(close(r["metrics"]["gb_per_s_mean"], gb_s), f"{what}: GB/s {r['metrics']}")
                want = messages / t_mean_s if messages else gb_s
                expect(int(line[0]) == r["bytes"] and close(float(line[3]), want),
                       f"{what}: {kind} file mean {line}, want {want}")
                # min rate is the work over the slowest repetition
                slow = r["t_max_us"] * 1e-6
                want_min = messages / slow if messages else nbytes / slow / 1e9
                expect(close(float(line[1]), want_min), f"{what}: {kind} file min {line}")
                if messages:
                    expect(close(r["metrics"]["messages_per_s_mean"], messages / t_mean_s),
                           f"{what}: messages/s {r['metrics']}")
        # collectives: the COL sizes, a time file only
        for name in COLLECTIVES:
            mine = [r for r in rows if r["benchmark"] == name]
            expect([r["bytes"] for r in mine] == COL_SIZES,
                   f"{name} sizes {[r['bytes'] for r in mine]} (MIN/MAX_COL_SIZE)")
            check_time_file(dat_lines(os.path.join(dat, f"{name}_time-np_2.dat")), mine, name)
            expect(sorted(f for f in os.listdir(dat) if f.startswith(name)) ==
                   [f"{name}_time-np_2.dat"], f"{name}: files {os.listdir(dat)}")
    # golden console summary and .dat layout, fixed NLOOP and NREPS
    with tempfile.TemporaryDirectory() as dat:
        p, _ = run(["latency", "p2p_send", "p2p_mrate", "col_bct", "--dat-dir", dat] + LOOP, 2,
                   args.parbench, env=SIZES)
        expect(p.returncode == 0, f"golden run: rc {p.returncode}: {p.stderr[-400:]}")
        approve(os.path.join(args.golden, "paw_mpi_console.txt"),
                mask.paw_console(p.stdout, args.parbench))
        with open(os.path.join(dat, "mrate_rate-np_2.dat")) as f:
            approve(os.path.join(args.golden, "paw_mrate_rate-np_2.dat"),
                    mask.paw_dat(f.read()))


def test_four(args):
    p, _ = run(["latency"], 4, args.parbench)
    refused(p, "exactly two tasks", "latency at -n 4")
    loop = ["--nreps", "2", "--nloop_max", "2", "--nloop_min", "2", "--min_loop_time", "0"]
    sizes = dict(SIZES, MAX_P2P_SIZE="2", MAX_COL_SIZE="2")
    with tempfile.TemporaryDirectory() as dat:
        names = ["p2p_send", "p2p_isend_ping", "col_ardc", "col_bct"]
        p, rows = run(names + ["--check", "--dat-dir", dat] + loop, 4, args.parbench, env=sizes,
                      timeout=400)
        expect(p.returncode == 0, f"paw at -n 4: rc {p.returncode}: {p.stderr[-400:]}")
        for name in names:
            mine = [r for r in rows if r["benchmark"] == name]
            expect(len(mine) > 0 and all(r["processes"] == 4 and r["defects"] == 0 for r in mine),
                   f"{name} at -n 4: {[(r['processes'], r.get('defects')) for r in mine]}")
        for f in ["send_time-np_4.dat", "send_bw-np_4.dat", "isend_ping_bw-np_4.dat",
                  "col_ardc_time-np_4.dat", "col_bct_time-np_4.dat"]:
            expect(os.path.exists(os.path.join(dat, f)), f"-n 4: {f} missing")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--np", type=int, required=True)
    parser.add_argument("--parbench", required=True)
    parser.add_argument("--golden", required=True)
    args = parser.parse_args()
    args.parbench = os.path.abspath(args.parbench)
    {1: test_one, 2: test_two, 4: test_four}[args.np](args)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
