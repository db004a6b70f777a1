// The smallest user of the installed package, built by the install test with pkg-config's
// flags, CMake's find_package(parbench) and Meson's dependency('parbench-mpi'): it proves that
// each one's flags find parbench's headers (and the generated version.hpp), MPI's mpi.h and
// library, and C++20, without compiling a whole benchmark program (the build tree compiles and
// runs the examples; check_install.py checks that every public header is installed).
#include <parbench/mpi/environment.hpp>
#include <parbench/version.hpp>

#include <cstdio>
#include <span>

int main(int argc, char** argv) {
    static_assert(__cplusplus >= 202002L, "the package's flags must select C++20");
    parbench::mpi::environment mpi(argc, argv);
    int rank = 0;
    int size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int ranks[1] = {rank};
    int sum = 0;
    MPI_Allreduce(std::span(ranks).data(), &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        std::printf("parbench %s, %s: %d processes, sum of ranks %d\n", parbench::version,
                    parbench::mpi::thread_level_name(mpi.thread_level()).data(), size, sum);
    return 0;
}
