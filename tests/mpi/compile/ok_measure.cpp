// Control for the compile-failure tests: the same includes and flags, used correctly, compile.
#include <parbench/mpi/rma_completion.hpp>
#include <parbench/mpi/rma_window.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/pattern/collective.hpp>
#include <parbench/pattern/one_sided.hpp>
#include <parbench/pattern/ping_pong.hpp>

int use(const parbench::mpi::session& s) {
    const auto kernel = [](const parbench::mpi::kernel_context& c, std::uint64_t i,
                           const auto& b) {
        MPI_Send(b.send(i), static_cast<int>(c.bytes), MPI_BYTE, c.peer, 0, c.comm);
    };
    const auto m = parbench::mpi::measure(
        s, parbench::mpi::measure_config{.pattern = parbench::pattern::ping_pong{},
                                         .bytes = 8,
                                         .resource = parbench::mpi::messages{.layout = {8, 8}},
                                         .kernel = kernel});
    // A one-sided put with a flush on an RMA window: the forms the two fail_* RMA tests misuse.
    const auto context = s.context(8);
    const auto put = [](const parbench::mpi::kernel_context& c, std::uint64_t i,
                        const parbench::mpi::window_view& w) {
        MPI_Put(w.local(i), static_cast<int>(c.bytes), MPI_BYTE, c.peer, w.displacement(c.peer, i),
                static_cast<int>(c.bytes), MPI_BYTE, w.win);
    };
    const auto rma = parbench::mpi::measure(
        s, parbench::mpi::measure_config{
               .pattern = parbench::pattern::one_sided{},
               .bytes = 8,
               .resource = parbench::mpi::rma_window(
                   {.epoch = parbench::mpi::window_epoch::lock, .bytes = 8}, context),
               .kernel = put,
               .completion = parbench::mpi::rma::flush{},
               .plan = parbench::mpi::timing_plan<>{}});
    return parbench::pattern::root_of(parbench::pattern::collective{.rooted = true}, 3, 2) +
           static_cast<int>(m.records.size() + rma.records.size());
}
