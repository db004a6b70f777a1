// Misuse: a kernel must be callable as kernel(context, iteration, buffers); one taking an int
// must not compile.
#include <parbench/mpi/runner.hpp>
#include <parbench/pattern/ping_pong.hpp>

int misuse(const parbench::mpi::session& s) {
    const auto kernel = [](int iteration) { (void)iteration; };
    const auto m = parbench::mpi::measure(
        s, parbench::mpi::measure_config{.pattern = parbench::pattern::ping_pong{},
                                         .bytes = 8,
                                         .resource = parbench::mpi::messages{.layout = {8, 8}},
                                         .kernel = kernel});
    return static_cast<int>(m.records.size());
}
