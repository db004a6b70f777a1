// communicator::quiet_barrier waits without holding a core. Rank 0 arrives 400 ms late; every
// other rank measures its own CPU time while it waits. A spinning barrier (MPI_Barrier in MPICH)
// burns about as much CPU as wall time; the quiet one must stay far below half of it. CPU time
// can only fall behind wall time on a busy machine, so the bound does not make the test flaky.
// That no rank leaves before rank 0 arrived is checked by the order of two clock readings (rank
// 0's arrival, broadcast, and the rank's return), not by a minimum wait, which a rank that a busy
// machine starts late would fail.
// It also checks share_of_node and busiest_node against what the test itself can see, that a
// polling quiet_barrier (idle_wait::yielding) waits for rank 0 too, and which of the two a session
// chooses for its idle processes (session::idle_waiting): polling only where the node is known
// to give each process a CPU.
//
//   mpiexec -n 2 ./quiet_barrier_test
#include <parbench/mpi/communicator.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/node.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/mpi/session.hpp>

#include <sched.h>

#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

double wall_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

int main(int argc, char** argv) {
    parbench::mpi::environment env(argc, argv);
    const auto world = parbench::mpi::communicator::borrow(MPI_COMM_WORLD);
    const int rank = world.rank();
    int failed = 0;

    // share_of_node: every process of this single-node test is on the node; the CPUs are at
    // least those this process may run on.
    const auto share = parbench::mpi::share_of_node(MPI_COMM_WORLD);
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof set, &set);
    const auto busiest = parbench::mpi::busiest_node(MPI_COMM_WORLD);
    if (share.processes != world.size() || share.cpus < CPU_COUNT(&set) ||
        share.oversubscribed() != (share.processes > share.cpus) ||
        busiest.processes != share.processes || busiest.cpus != share.cpus) {
        std::fprintf(stderr, "rank %d: share_of_node gave %d processes, %d CPUs (world %d, own "
                     "mask %d)\n", rank, share.processes, share.cpus, world.size(),
                     CPU_COUNT(&set));
        failed = 1;
    }

    world.barrier();
    const double wall_start = wall_seconds();
    const double cpu_start = parbench::mpi::process_cpu_seconds();
    if (rank == 0) std::this_thread::sleep_for(std::chrono::milliseconds(400));
    // When rank 0 arrived, on the node's monotonic clock (one clock for every process of this
    // single-node test): a barrier returns after it, however long the ranks took to get there.
    double arrived_0 = wall_seconds();
    world.quiet_barrier();
    const double returned = wall_seconds();
    const double wall = returned - wall_start;
    const double cpu = parbench::mpi::process_cpu_seconds() - cpu_start;
    MPI_Bcast(&arrived_0, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank != 0) {
        std::printf("rank %d waited %.3f s using %.3f s of CPU\n", rank, wall, cpu);
        if (returned < arrived_0) {
            std::fprintf(stderr, "rank %d: quiet_barrier returned %.3f s before rank 0 "
                         "arrived\n", rank, arrived_0 - returned);
            failed = 1;
        }
        if (cpu > 0.5 * wall) {
            std::fprintf(stderr, "rank %d: quiet_barrier spun: %.3f s CPU in %.3f s\n", rank, cpu,
                         wall);
            failed = 1;
        }
    }

    // Polling: no CPU bound (it spins by design), but still no return before rank 0 arrives.
    world.barrier();
    if (rank == 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    double arrived_0_poll = wall_seconds();
    world.quiet_barrier(parbench::mpi::idle_wait::yielding);
    const double returned_poll = wall_seconds();
    MPI_Bcast(&arrived_0_poll, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank != 0 && returned_poll < arrived_0_poll) {
        std::fprintf(stderr, "rank %d: polling quiet_barrier returned %.3f s before rank 0 "
                     "arrived\n", rank, arrived_0_poll - returned_poll);
        failed = 1;
    }

    // The session's choice, for three shares of this node: a CPU each (poll), more processes
    // than CPUs (sleep), CPUs unknown (sleep).
    using parbench::mpi::idle_wait;
    using parbench::mpi::node_share;
    struct choice {
        node_share share;
        idle_wait want;
        const char* what;
    };
    const int n = world.size();
    const choice choices[] = {{{.processes = n, .cpus = n}, idle_wait::yielding, "a CPU each"},
                              {{.processes = n, .cpus = 1}, idle_wait::sleeping, "oversubscribed"},
                              {{.processes = n, .cpus = 0}, idle_wait::sleeping, "unknown"}};
    for (const choice& c : choices) {
        if (n < 2 && c.share.cpus == 1) continue;  // one process on one CPU is not crowded
        parbench::mpi::world_nodes::set(std::vector<int>(static_cast<std::size_t>(n), 0), c.share);
        const parbench::mpi::session s(MPI_COMM_WORLD, 1);
        if (s.idle_waiting() != c.want) {
            std::fprintf(stderr, "rank %d: %s (%d processes, %d CPUs): the session's idle "
                         "processes %s\n", rank, c.what, c.share.processes, c.share.cpus,
                         s.idle_waiting() == idle_wait::yielding ? "poll" : "sleep");
            failed = 1;
        }
        s.world().quiet_barrier(s.idle_waiting());
    }

    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) std::printf(failed != 0 ? "FAILED\n" : "ok\n");
    return failed;
}
