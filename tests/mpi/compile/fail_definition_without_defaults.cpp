// Misuse: a definition that does not derive from definition_defaults has no traits and no
// default check; it must not compile, and the error says what to derive from.
#include <parbench/mpi/definition.hpp>
#include <parbench/pattern/collective.hpp>

struct barrier_like {
    static constexpr parbench::pattern::collective descriptor{};
};

constexpr parbench_benchmark row = parbench::mpi::catalogue_row<barrier_like>("Barrier", "", 0);
