// Misuse: a sync policy must act on a communicator (before_timing(comm)); passing an iteration
// policy in its place must not compile.
#include <parbench/mpi/runner.hpp>
#include <parbench/pattern/ping_pong.hpp>

int misuse(const parbench::mpi::session& s) {
    const auto kernel = [](const parbench::mpi::kernel_context&, std::uint64_t, const auto&) {};
    const auto m = parbench::mpi::measure(
        s, parbench::mpi::measure_config{
               .pattern = parbench::pattern::ping_pong{},
               .bytes = 8,
               .resource = parbench::mpi::messages{.layout = {8, 8}},
               .kernel = kernel,
               .plan = parbench::mpi::timing_plan<parbench::policy::iterations::imb_volume,
                                                  parbench::policy::iterations::fixed>{}});
    return static_cast<int>(m.records.size());
}
