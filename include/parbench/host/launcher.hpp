// What the launcher tells a process before MPI is initialised (its environment): whether there
// is a launcher, which one, how many processes it started and this process's rank. Decides who
// prints errors found before the MPI plugin runs, whether `--mpi auto` loads MPI at all, and
// lets the MPI plugin refuse a run whose MPI library does not speak the launcher's process
// management interface (it would see 1 process where the launcher started N), and tells the
// driver which MPI plugin to load: each launcher starts the processes of one MPI family.
#pragma once

#include <cstdlib>
#include <optional>
#include <parbench/core/text.hpp>
#include <string>
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
    // The MPI family whose processes this launcher starts (host/mpi_family.hpp): "mpich" (hydra;
    // srun --mpi=pmi2), "openmpi" (Open MPI's mpirun; srun --mpi=pmix, another PMIx launcher),
    // or "" where the environment does not say (no launcher, srun --mpi=none).
    std::string_view mpi_family;
    // Whether that family is the only one that can run under it: hydra and Open MPI's mpirun
    // each speak their own MPI's wire-up alone, while under srun the PMI is an option of srun's
    // (--mpi) and an MPI may speak several.
    bool only_that_family = false;
};

// Slurm first: under `srun --mpi=pmi2` the PMI variables are Slurm's too. Inside an sbatch
// script, outside any srun, there is no job step (SLURM_STEP_NUM_TASKS is unset): that process
// was not launched as one of N.
// Under srun the PMI is read from what Slurm's mpi plugin sets: PMIX_RANK for pmix, PMI_RANK
// (with PMI_FD) for pmi2.
[[nodiscard]] inline launcher_info detect_launcher() noexcept {
    const bool pmix = std::getenv("PMIX_RANK") != nullptr;
    const bool pmi = std::getenv("PMI_RANK") != nullptr || std::getenv("PMI_SIZE") != nullptr;
    if (const auto tasks = environment_count("SLURM_STEP_NUM_TASKS"))
        return {"srun", tasks, pmix ? "openmpi" : pmi ? "mpich" : "", false};
    if (const auto size = environment_count("OMPI_COMM_WORLD_SIZE"))
        return {"mpirun (Open MPI)", size, "openmpi", true};
    // MPI_LOCALNRANKS: hydra's count per node, not the world's.
    if (pmi || std::getenv("MPI_LOCALNRANKS") != nullptr)
        return {"mpiexec", environment_count("PMI_SIZE"), "mpich", true};
    if (pmix) return {"pmix", environment_count("PMIX_SIZE"), "openmpi", false};
    return {};
}

[[nodiscard]] inline bool launched_by_mpi_launcher() noexcept {
    return detect_launcher().name != "none";
}

// The environment variable that gives this process its rank ("PMI_RANK", ...); "" when there is
// no launcher. SLURM_PROCID last: under `srun --mpi=none` it is the only rank there is, and it
// keeps a refused run's error to one line instead of one per process.
[[nodiscard]] inline std::string_view launcher_rank_variable() noexcept {
    for (const char* name : {"PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID"})
        if (environment_count(name)) return name;
    return "";
}

// Whether every process of the launch runs on this node, where the launcher says (hydra's
// MPI_LOCALNRANKS, Open MPI's OMPI_COMM_WORLD_LOCAL_SIZE, Slurm's SLURM_STEP_NUM_NODES); false
// when it does not.
[[nodiscard]] inline bool launch_on_one_node() noexcept {
    if (const auto nodes = environment_count("SLURM_STEP_NUM_NODES")) return *nodes == 1;
    const auto world = detect_launcher().processes;
    for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"})
        if (const auto local = environment_count(name)) return world && *local == *world;
    return false;
}

// 0 when there is no launcher.
[[nodiscard]] inline int launcher_rank() noexcept {
    const std::string_view name = launcher_rank_variable();
    if (name.empty()) return 0;
    return environment_count(std::string(name).c_str()).value_or(0);
}

}  // namespace parbench
