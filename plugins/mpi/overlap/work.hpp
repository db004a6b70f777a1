// The work an overlap iteration does while its collective is in flight: a busy wait on the
// steady clock for a given time, either with no MPI call at all (NB_Sleep: progress only if the
// library has its own progress thread) or calling MPI_Test on every pass (NB_active: the
// application drives progress itself). Blocking and NB_Wait do the same busy wait after the
// collective has completed.
//
// Interim: the CPU-load kernel of issue 7 part 1 (include/parbench/mpi/cpu_load.hpp, IMB's
// calibrated cpu_exploit and these two busy waits) replaces this file when it lands on main.
#pragma once

#include <mpi.h>

#include <chrono>

namespace parbench::overlap::work {

using clock = std::chrono::steady_clock;

[[nodiscard]] inline clock::duration as_duration(double seconds) noexcept {
    return std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(seconds));
}

// Spins until `length` has passed; no MPI call.
inline void busy_wait(clock::duration length) noexcept {
    const auto end = clock::now() + length;
    while (clock::now() < end) {
    }
}

// Spins until `length` has passed, calling MPI_Test on `request` on every pass.
inline void busy_wait_testing(clock::duration length, MPI_Request& request) noexcept {
    const auto end = clock::now() + length;
    int done = 0;
    do {
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    } while (clock::now() < end);
}

}  // namespace parbench::overlap::work
