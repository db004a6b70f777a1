// Misuse: a check that still says `enabled` (every check but no_check is enabled) must not
// compile, and the error names it.
#include <parbench/mpi/definition.hpp>
#include <parbench/pattern/collective.hpp>

struct barrier_like : parbench::mpi::definition_defaults {
    static constexpr parbench::pattern::collective descriptor{};
    struct verify_check {
        static constexpr bool enabled = true;
    };
};

constexpr parbench_benchmark row = parbench::mpi::catalogue_row<barrier_like>("Barrier", "", 0);
