"""parbench under srun on a real one-node Slurm (pbtest/slurm.py starts it and stops it on every
path): MPICH's suites through Slurm's PMI-2 at 2 and 4 tasks with -check, the launcher recorded in
the JSON, an sbatch job script as docs/user-guide.md shows it, and the one-line refusal of a run
whose MPI does not speak the launcher's PMI (srun --mpi=none starts N singletons); where the Open
MPI plugin is built, Open MPI through Slurm's PMIx (srun --mpi=pmix), chosen by the launcher.

usage: test_srun.py PARBENCH
Exit status 77 (Meson's skip) with the reason when no test Slurm can start here (not root, or
Slurm not installed: scripts/setup.sh installs it)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
from pbtest import slurm as test_slurm  # noqa: E402
from pbtest.expect import expect, finish, require  # noqa: E402
from pbtest.run import iteration_rows, read_json  # noqa: E402

parbench = os.path.abspath(sys.argv[1])
why_not = test_slurm.unavailable()
if why_not:
    print("SKIP:", why_not)
    sys.exit(77)


def rows_of(document, benchmark):
    return [r for r in iteration_rows(document) if r["benchmark"] == benchmark]


with test_slurm.test_slurm(cpus=4) as slurm:
    scratch = slurm.directory

    # 1. The documented way, a job script: its srun inherits the allocation's 2 tasks and runs
    #    them through PMI-2, measured and checked, with srun named in the context.
    out = os.path.join(scratch, "n2.json")
    job, job_out = os.path.join(scratch, "job.sh"), os.path.join(scratch, "job.out")
    with open(job, "w") as f:
        f.write(f"""#!/bin/bash
#SBATCH --ntasks=2
#SBATCH --time=5
set -e
srun --mpi=pmi2 {parbench} run imb-mpi1 PingPong Allreduce -msglog 0:2 -iter 40 -check \\
    --json {out}
""")
    state, exit_code = slurm.batch(job, job_out)
    text = open(job_out).read() if os.path.exists(job_out) else ""
    require(state == "COMPLETED" and exit_code == "0:0" and os.path.exists(out),
            f"the job ended {state}, exit code {exit_code}", text, slurm.log())
    expect("# Benchmarking PingPong" in text, "the job's output holds the PingPong table:\n" + text)
    document = read_json(out)
    context = document["context"]["parbench"]
    expect(context["launcher"] == {"name": "srun", "processes": 2},
           f"the launcher in the JSON context: {context['launcher']}")
    expect(context["processes"] == 2, f"context.processes: {context['processes']}")
    # -msglog 0:2 is 0, 1, 2 and 4 bytes; Allreduce's MPI_FLOAT elements leave 0 and 4.
    for benchmark, sizes in (("PingPong", [0, 1, 2, 4]), ("Allreduce", [0, 4])):
        rows = rows_of(document, benchmark)
        expect(sorted(r["bytes"] for r in rows) == sizes,
               f"{benchmark} sizes under srun -n 2: {[r['bytes'] for r in rows]}")
        expect(all(r["processes"] == 2 and r["defects"] == 0 for r in rows if r["bytes"] > 0),
               f"{benchmark}: every checked row at 2 processes with no defects: "
               f"{[(r['bytes'], r['processes'], r['defects']) for r in rows]}")

    # 2. Four tasks on the node that claims 4 CPUs: every process in the collective.
    out = os.path.join(scratch, "n4.json")
    rc, stdout, stderr = slurm.run(
        ["srun", "--mpi=pmi2", "-n", "4", parbench, "run", "imb-mpi1", "Allreduce", "-npmin", "4",
         "-msglog", "2:3", "-iter", "20", "-check", "--json", out])
    require(rc == 0, f"srun -n 4 exited {rc}", stdout[-2000:], stderr[-2000:], slurm.log())
    document = read_json(out)
    rows = rows_of(document, "Allreduce")
    expect(sorted(r["bytes"] for r in rows) == [0, 4, 8] and
           all(r["processes"] == 4 and r["defects"] == 0 for r in rows),
           "Allreduce at 4 tasks: 0 (IMB's zero size), 4 and 8 bytes, 4 processes, no defects: "
           f"{[(r['bytes'], r['processes'], r['defects']) for r in rows]}")
    expect(document["context"]["parbench"]["launcher"] == {"name": "srun", "processes": 4},
           f"launcher at -n 4: {document['context']['parbench']['launcher']}")

    # 3. srun without the PMI MPICH speaks: every task is a singleton. Refused before any suite
    #    runs, in one line that says what to pass; with --kill-on-bad-exit (docs/user-guide.md)
    #    Slurm ends the other task once the first has said it.
    rc, stdout, stderr = slurm.run(["srun", "--mpi=none", "--kill-on-bad-exit=1", "-n", "2",
                                    parbench, "run", "imb-mpi1", "PingPong", "-msglog", "0:1"])
    errors = [line for line in stderr.splitlines() if line.startswith("parbench: error:")]
    expect(rc != 0, f"srun --mpi=none: exit status {rc}, expected non-zero")
    expect(len(errors) == 1 and "srun started 2 processes but MPI" in errors[0] and
           "sees 1" in errors[0] and "--mpi=pmi2" in errors[0],
           "srun --mpi=none: the launcher mismatch named, with --mpi=pmi2 as the remedy:\n" +
           stderr)
    expect("Traceback" not in stderr and "Benchmarking" not in stdout,
           "srun --mpi=none: nothing measured, no traceback:\n" + stdout + stderr)

    # 4. Open MPI through Slurm's PMIx, where the Open MPI plugin is built: srun's PMIx marks the
    #    tasks as Open MPI's, and parbench loads that plugin by itself.
    listed = subprocess.run([parbench, "list"], capture_output=True, text=True).stdout
    if "plugin mpi-openmpi " not in listed:
        print("NOTE: no Open MPI plugin in this build: srun --mpi=pmix is not tried")
    else:
        out = os.path.join(scratch, "pmix.json")
        rc, stdout, stderr = slurm.run(
            ["srun", "--mpi=pmix", "-n", "2", parbench, "run", "imb-mpi1", "PingPong",
             "Allreduce", "-msglog", "0:2", "-iter", "20", "-check", "--json", out])
        require(rc == 0, f"srun --mpi=pmix -n 2 exited {rc}", stdout[-2000:], stderr[-2000:],
                slurm.log())
        document = read_json(out)
        context = document["context"]["parbench"]
        expect(context.get("mpi", {}).get("family") == "openmpi" and
               context["launcher"] == {"name": "srun", "processes": 2},
               f"srun --mpi=pmix: the Open MPI plugin ran under srun: {context.get('mpi')}, "
               f"{context['launcher']}")
        rows = rows_of(document, "Allreduce")
        expect(sorted(r["bytes"] for r in rows) == [0, 4] and
               all(r["processes"] == 2 and r["defects"] == 0 for r in rows),
               "Allreduce under srun --mpi=pmix: 0 and 4 bytes, 2 processes, no defects: "
               f"{[(r['bytes'], r['processes'], r['defects']) for r in rows]}")

sys.exit(finish())
