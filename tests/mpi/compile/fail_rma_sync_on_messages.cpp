// Misuse: an RMA synchronisation on message buffers. A one-sided pattern whose resource is
// message buffers has no window to flush: the completion must be rejected at compile time.
#include <parbench/mpi/rma_completion.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/pattern/one_sided.hpp>

int misuse(const parbench::mpi::session& s) {
    const auto kernel = [](const parbench::mpi::kernel_context&, std::uint64_t, const auto&) {};
    const auto m = parbench::mpi::measure(
        s, parbench::mpi::measure_config{.pattern = parbench::pattern::one_sided{},
                                         .bytes = 8,
                                         .resource = parbench::mpi::messages{.layout = {8, 8}},
                                         .kernel = kernel,
                                         .completion = parbench::mpi::rma::flush{}});
    return static_cast<int>(m.records.size());
}
