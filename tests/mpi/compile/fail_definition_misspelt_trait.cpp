// Misuse: a misspelt trait (has_byte for has_bytes) must not compile, and the error names it.
#include <parbench/mpi/definition.hpp>
#include <parbench/pattern/collective.hpp>

struct barrier_like : parbench::mpi::definition_defaults {
    static constexpr parbench::pattern::collective descriptor{};
    static constexpr parbench::mpi::definition_traits traits{.has_byte = false};
};

constexpr parbench_benchmark row = parbench::mpi::catalogue_row<barrier_like>("Barrier", "", 0);
