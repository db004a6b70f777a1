// Control for the definition compile-failure tests: a definition that sets its traits with
// designated initialisers, keeps the default check, and yields its catalogue row.
#include <parbench/mpi/definition.hpp>
#include <parbench/mpi/message_buffers.hpp>
#include <parbench/pattern/collective.hpp>

#include <string_view>

struct barrier_like : parbench::mpi::definition_defaults {
    static constexpr parbench::pattern::collective descriptor{};
    static constexpr parbench::mpi::definition_traits traits{.has_bytes = false};
    static parbench::mpi::buffer_layout layout(std::size_t /*x*/, int /*np*/) { return {0, 0}; }
};

static_assert(parbench::mpi::self_contained_definition<barrier_like>);
static_assert(!parbench::mpi::checks_data<barrier_like::verify_check>);
constexpr parbench_benchmark row = parbench::mpi::catalogue_row<barrier_like>("Barrier", "", 0);
static_assert(std::string_view(row.klass) == "collective");

int main() { return barrier_like::traits.has_bytes ? 1 : 0; }
