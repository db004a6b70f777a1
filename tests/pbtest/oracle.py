"""Reading the PMPI oracle's per-process report (tests/mpi/oracle): what the benchmark called,
without the measurement's own agreements.

Between the phases of a measurement (include/parbench/mpi/phases.hpp) the active processes agree
on a few values with an in-place MPI_Iallreduce under MPI_MAX (allocation, the warm-up probe, the
estimate, the samples kept) and send their figures to the first of them with MPI_Igather of a
row of MPI_DOUBLE (and, for osu's -z, two MPI_Ireduce of MPI_DOUBLE under MPI_MAX and MPI_SUM),
nonblocking so that on a node with more processes than CPUs their waits can yield the core
between polls (session::wait_agreement). They are the library's calls, not the benchmark's: a
test that counts a nonblocking collective benchmark's MPI_Iallreduce, MPI_Igather or MPI_Ireduce
reads them through these functions."""
import re

# The agreements' operands, as the oracle names them
_AGREEMENTS = {"MPI_Iallreduce": re.compile(r".* in place op MPI_MAX"),
               "MPI_Igather": re.compile(r"MPI_DOUBLE x \d+"),
               "MPI_Ireduce": re.compile(r"MPI_DOUBLE x \d+ op MPI_(MAX|SUM)")}


def benchmark_operands(report, function):
    """The report's {operand: calls} of `function`, the agreements left out. A report whose maps
    overflowed their caps (dropped_keys) cannot answer: an AssertionError says so."""
    if report.get("dropped_keys"):
        raise AssertionError(f"the oracle left {report['dropped_keys']} keys out of rank "
                             f"{report.get('rank')}'s full maps: its counts are not whole")
    pattern = _AGREEMENTS.get(function)
    got = report.get("operands", {}).get(function, {})
    return {k: v for k, v in got.items() if pattern is None or not pattern.fullmatch(k)}


def benchmark_calls(report, function):
    """The report's calls of `function`, the agreements left out."""
    if function not in _AGREEMENTS:
        return report.get("calls", {}).get(function, 0)
    return sum(benchmark_operands(report, function).values())
