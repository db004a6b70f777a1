// Control for the compile-failure tests: the same includes and flags, used correctly, compile.
#include <parbench/mpi/runner.hpp>
#include <parbench/pattern/collective.hpp>
#include <parbench/pattern/ping_pong.hpp>

int use(const parbench::mpi::session& s) {
    const auto kernel = [](const parbench::mpi::kernel_context& c, std::uint64_t i,
                           const auto& b) {
        MPI_Send(b.send(i), static_cast<int>(c.bytes), MPI_BYTE, c.peer, 0, c.comm);
    };
    const auto m = parbench::mpi::measure(s, parbench::pattern::ping_pong{}, {}, 8, {8, 8},
                                          kernel, {});
    return parbench::pattern::root_of(parbench::pattern::collective{.rooted = true}, 3, 2) +
           static_cast<int>(m.records.size());
}
