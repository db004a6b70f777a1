#!/usr/bin/env python3
"""IMB 2021's options of imb-mpi1 through the MPI plugin and the test host, at mpiexec -n 2.

-data_type / -red_data_type / -contig_type: IMB 2021's header fields (MPI_Datatype, MPI_Datatype
for reductions) and the effective options; -zero_size off: no 0-byte row and the smallest length
2^MIN; -warm_up off: exactly IMB's N_WARMUP = 10 fewer MPI_Send calls on rank 0 of PingPong
(counted through PMPI); bad values: BAD_INPUT with one message naming the option.

usage: test_imb2021.py --host PLUGIN_HOST --plugin PARBENCH_MPI_SO --count-sends LIBCOUNT_SENDS
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

BAD_INPUT = 2
N_WARMUP = 10  # IMB_settings.h, IMB user guide "Warm-Up Phase"
failures = []


def expect(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message, flush=True)
    return condition


def run(args, options, benchmarks=("PingPong",), preload=None):
    request = {"suite": "imb-mpi1", "benchmarks": list(benchmarks), "options": options}
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "out")
        env = dict(os.environ)
        command = ["mpiexec", "-n", "2"]
        if preload:
            command += ["-genv", "LD_PRELOAD", preload]
        proc = subprocess.run(command + [args.host, args.plugin, json.dumps(request), prefix],
                              capture_output=True, text=True, timeout=60, env=env)
        events = []
        for path in sorted(glob.glob(prefix + ".*.jsonl")):
            with open(path) as f:
                events += [json.loads(line) for line in f if line.strip()]
    return proc, events


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
             ({"data_type": "int"}, "-data_type int: a valid IMB 2021 value that parbench"),
             ({"contig_type": "resize"}, "-contig_type resize: a valid IMB 2021 value")]
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--count-sends", required=True)
    args = parser.parse_args()
    os.environ.setdefault("PARBENCH_TEST_KERNELS", "0")
    test_defaults_and_header(args)
    test_zero_size(args)
    test_warm_up(args)
    test_bad_values(args)
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("imb2021 options: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
