// Misuse: an RMA synchronisation on message buffers. A one-sided pattern whose resource is
// message buffers has no window to flush: the completion must be rejected at compile time.
#include <parbench/mpi/rma_completion.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/pattern/one_sided.hpp>

int misuse(const parbench::mpi::session& s) {
    const auto kernel = [](const parbench::mpi::kernel_context&, std::uint64_t, const auto&) {};
    parbench::mpi::timing_plan<> plan;
    const auto m = parbench::mpi::measure(
        s, parbench::pattern::one_sided{}, {}, 8,
        parbench::mpi::message_resource({8, 8}, {}, s.send_pool(), s.recv_pool()), kernel,
        parbench::mpi::rma::flush{}, plan);
    return static_cast<int>(m.records.size());
}
