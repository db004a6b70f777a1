// What the MPI launcher tells a process before MPI is initialised (its environment): whether
// there is a launcher, and this process's rank. Decides who prints errors found before the MPI
// plugin runs, and whether `--mpi auto` loads MPI at all.
#pragma once

#include <cstdlib>

namespace parbench {

[[nodiscard]] inline bool launched_by_mpi_launcher() noexcept {
    for (const char* name :
         {"PMI_RANK", "PMI_SIZE", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS"})
        if (std::getenv(name) != nullptr) return true;
    return false;
}

// 0 when there is no launcher.
[[nodiscard]] inline int launcher_rank() noexcept {
    for (const char* name : {"PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK"})
        if (const char* value = std::getenv(name)) return std::atoi(value);
    return 0;
}

}  // namespace parbench
