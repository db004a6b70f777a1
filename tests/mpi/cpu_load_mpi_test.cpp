// mpi/cpu_load.hpp under mpiexec -n 2: calibrate() makes every process agree on one amount of
// work (the same passes everywhere, the largest target), gives no work for a zero target, and
// test_while_busy spins for its time testing a request. Timing bounds are one-sided (a busy
// machine only makes things slower), so the test does not flake under load.
//
//   mpiexec -n 2 ./cpu_load_mpi_test
#include <parbench/mpi/cpu_load.hpp>
#include <parbench/mpi/environment.hpp>

#include <cstdint>
#include <cstdio>

int main(int argc, char** argv) {
    parbench::mpi::environment env(argc, argv);
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int failed = 0;
    const auto fail = [&](const char* what) {
        std::fprintf(stderr, "rank %d: %s\n", rank, what);
        failed = 1;
    };

    // Each process asks for its own target; the largest (1 ms on the last rank) wins.
    parbench::policy::matvec_load load;
    const double mine_s = rank == size - 1 ? 1e-3 : 0.5e-3;
    const auto c = parbench::mpi::calibrate(MPI_COMM_WORLD, load, mine_s);
    if (c.target_s != 1e-3) fail("the agreed target is not the largest");
    if (load.passes() != c.passes || c.passes == 0) fail("the load does not carry the agreed passes");
    std::uint64_t lowest = c.passes;
    std::uint64_t highest = c.passes;
    MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &highest, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    if (lowest != highest) fail("the processes calibrated different amounts of work");
    if (!(c.rate_mflops > 0.0)) fail("no Mflop/s rate");
    // passes x seconds per pass is the target to within one pass
    if (c.expected_s() < 1e-3 - c.seconds_per_pass || c.expected_s() > 1e-3 + c.seconds_per_pass)
        fail("the agreed passes do not make the target at the agreed rate");

    parbench::policy::matvec_load none;
    if (parbench::mpi::calibrate(MPI_COMM_WORLD, none, 0.0).passes != 0 || none.passes() != 0)
        fail("a zero target gave work");

    // NB_active: an Ibarrier tested while spinning for 2 ms; the wait after it returns at once.
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Ibarrier(MPI_COMM_WORLD, &request);
    const double start = MPI_Wtime();
    const std::uint64_t tests = parbench::mpi::test_while_busy(request, 2e-3);
    const double spent = MPI_Wtime() - start;
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    if (tests == 0) fail("no MPI_Test call");
    if (spent < 2e-3) fail("test_while_busy returned before its time");

    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) std::printf("%s\n", failed != 0 ? "FAIL" : "ok");
    return failed;
}
