// Misuse: a trait written as a loose member (the shape before traits{}) would be ignored by every
// driver; it must not compile, and the error names it.
#include <parbench/mpi/definition.hpp>
#include <parbench/pattern/collective.hpp>

struct barrier_like : parbench::mpi::definition_defaults {
    static constexpr parbench::pattern::collective descriptor{};
    static constexpr bool has_bytes = false;
};

constexpr parbench_benchmark row = parbench::mpi::catalogue_row<barrier_like>("Barrier", "", 0);
