// Clock synchronisation for window sync (policy/window.hpp): each process's MPI_Wtime fitted to
// that of rank 0 of a communicator by ping-pong exchanges. Collective over the communicator;
// never inside a timed region.
#pragma once

#include <parbench/mpi/communicator.hpp>
#include <parbench/policy/window.hpp>

#include <mpi.h>

#include <vector>

namespace parbench::mpi {

// A tag no kernel uses; the exchanges complete before any kernel runs.
inline constexpr int clock_sync_tag = 31013;

// One offset fit of this process to rank 0 of `comm` from `exchanges` round trips (the shortest
// kept). Rank 0 answers every other rank in turn and returns the identity fit (offset 0, no
// error) at its own current time.
[[nodiscard]] inline policy::sync::clock_fit fit_to_root(const communicator& comm, int exchanges) {
    const int rank = comm.rank();
    const int size = comm.size();
    const int rounds = exchanges > 0 ? exchanges : 1;
    if (rank == 0) {
        for (int peer = 1; peer < size; ++peer) {
            for (int k = 0; k < rounds; ++k) {
                MPI_Recv(nullptr, 0, MPI_BYTE, peer, clock_sync_tag, comm.get(), MPI_STATUS_IGNORE);
                const double now = MPI_Wtime();
                MPI_Send(&now, 1, MPI_DOUBLE, peer, clock_sync_tag, comm.get());
            }
        }
        return {.local_s = MPI_Wtime(), .offset_s = 0.0, .error_s = 0.0};
    }
    std::vector<policy::sync::exchange> done(static_cast<std::size_t>(rounds));
    for (auto& e : done) {
        e.sent_local_s = MPI_Wtime();
        MPI_Send(nullptr, 0, MPI_BYTE, 0, clock_sync_tag, comm.get());
        MPI_Recv(&e.reference_s, 1, MPI_DOUBLE, 0, clock_sync_tag, comm.get(), MPI_STATUS_IGNORE);
        e.received_local_s = MPI_Wtime();
    }
    return policy::sync::fit_offset(done);
}

// The reference time at which the first call of a round starts: rank 0's clock now plus
// `lead_s`, broadcast. Collective over `comm`.
[[nodiscard]] inline double agree_first_start(const communicator& comm, double lead_s) {
    double start = comm.rank() == 0 ? MPI_Wtime() + lead_s : 0.0;
    MPI_Bcast(&start, 1, MPI_DOUBLE, 0, comm.get());
    return start;
}

}  // namespace parbench::mpi
