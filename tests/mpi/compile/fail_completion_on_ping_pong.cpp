// Misuse: a completion policy on a pattern without one. A ping-pong completes inside its kernel;
// handing the runner an RMA flush for it must not compile.
#include <parbench/mpi/rma_completion.hpp>
#include <parbench/mpi/rma_window.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/pattern/ping_pong.hpp>

int misuse(const parbench::mpi::session& s) {
    const auto context = s.context(8);
    const auto kernel = [](const parbench::mpi::kernel_context&, std::uint64_t,
                           const parbench::mpi::window_view&) {};
    const auto m = parbench::mpi::measure(
        s, parbench::mpi::measure_config{
               .pattern = parbench::pattern::ping_pong{},
               .bytes = 8,
               .resource = parbench::mpi::rma_window({.bytes = 8}, context),
               .kernel = kernel,
               .completion = parbench::mpi::rma::flush{}});
    return static_cast<int>(m.records.size());
}
