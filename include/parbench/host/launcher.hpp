// What the launcher tells a process before MPI is initialised (its environment): whether there
// is a launcher, which one, how many processes it started and this process's rank. Decides who
// prints errors found before the MPI plugin runs, whether `--mpi auto` loads MPI at all, and
// lets the MPI plugin refuse a run whose MPI library does not speak the launcher's process
// management interface (it would see 1 process where the launcher started N).
#pragma once

#include <cstdlib>
#include <optional>
#include <parbench/core/text.hpp>
#include <string_view>

namespace parbench {

// The whole non-negative number in environment variable `name`; nothing when unset or not one.
[[nodiscard]] inline std::optional<int> environment_count(const char* name) noexcept {
    const char* value = std::getenv(name);
    int parsed = 0;
    if (value == nullptr || !parse_unsigned(value, parsed)) return {};
    return parsed;
}

// The launcher that started this process, as its environment shows it.
struct launcher_info {
    // "srun" (a Slurm job step), "mpiexec" (MPICH's hydra or another PMI-1/2 launcher),
    // "mpirun (Open MPI)", "pmix" (another PMIx launcher) or "none".
    std::string_view name = "none";
    // How many processes the launcher started, where it says.
    std::optional<int> processes;
};

// Slurm first: under `srun --mpi=pmi2` the PMI variables are Slurm's too. Inside an sbatch
// script, outside any srun, there is no job step (SLURM_STEP_NUM_TASKS is unset): that process
// was not launched as one of N.
[[nodiscard]] inline launcher_info detect_launcher() noexcept {
    if (const auto tasks = environment_count("SLURM_STEP_NUM_TASKS")) return {"srun", tasks};
    if (const auto size = environment_count("OMPI_COMM_WORLD_SIZE"))
        return {"mpirun (Open MPI)", size};
    if (std::getenv("PMI_RANK") != nullptr || std::getenv("PMI_SIZE") != nullptr ||
        std::getenv("MPI_LOCALNRANKS") != nullptr)  // hydra's count per node, not the world's
        return {"mpiexec", environment_count("PMI_SIZE")};
    if (std::getenv("PMIX_RANK") != nullptr) return {"pmix", environment_count("PMIX_SIZE")};
    return {};
}

[[nodiscard]] inline bool launched_by_mpi_launcher() noexcept {
    return detect_launcher().name != "none";
}

// 0 when there is no launcher. SLURM_PROCID last: under `srun --mpi=none` it is the only rank
// there is, and it keeps a refused run's error to one line instead of one per process.
[[nodiscard]] inline int launcher_rank() noexcept {
    for (const char* name : {"PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID"})
        if (const auto rank = environment_count(name)) return *rank;
    return 0;
}

}  // namespace parbench
