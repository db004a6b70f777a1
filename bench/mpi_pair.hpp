// What the two-process overhead benches share before they measure: exactly two processes (any
// other count: one line on rank 0 and status 1), this process's rank and the bench's command
// line (alternation.hpp). MPI must be up (parbench::mpi::environment in main).
#pragma once

#include "alternation.hpp"

#include <mpi.h>

#include <cstdio>
#include <optional>

namespace bench {

struct mpi_pair {
    int rank = 0;
    bench_args args;
};

// The pair, or nothing (the caller returns 1) when the run has not exactly two processes.
[[nodiscard]] inline std::optional<mpi_pair> start_pair(const char* name, int argc, char** argv,
                                                        int default_alternations) {
    int rank = 0;
    int size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0) std::fprintf(stderr, "%s: run with mpiexec -n 2\n", name);
        return std::nullopt;
    }
    return mpi_pair{rank, parse_bench_args(argc, argv, default_alternations)};
}

}  // namespace bench
