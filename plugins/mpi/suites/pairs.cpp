// pairs: IMB's PingPong between every pair of processes, one pair at a time while the others wait,
// to find a slow link. A note per node (its number, processor name and ranks), one row per pair
// and size (world ranks i < j, their nodes, IMB's figures), then per size a note naming the
// slowest pair and its ratio to the median pair.
//
// The suite is pair_rounds.hpp's family for mpi::sweep with one pair a round (the sweep's active
// sets are the pairs, in order 0-1, 0-2, ..., (P-2)-(P-1)), a catalogue of two-process
// definitions reused from IMB-MPI1 (suites/imb/mpi1.hpp), and IMB's console layout with the
// pair's ranks and nodes as declared columns. Options: -sizes A,B,... (bytes; default 0,1048576) or -msglog [MIN:]MAX
// (IMB's sequence), -iter and -time (IMB's), and the driver's -check.
#include "suites/suite.hpp"
#include "suites/pair_rounds.hpp"

#include <parbench/suites/imb/mpi1.hpp>

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#ifndef PARBENCH_PLUGIN_VERSION
#define PARBENCH_PLUGIN_VERSION "0.0.0"
#endif

namespace parbench::pairs {
namespace pairs_impl {
namespace {

using pair_rounds::pair_time;
using pair_rounds::run_state;

// The closing line of one size: the slowest pair (the first of equal ones) and its ratio to the
// median pair (the mean of the two middle ones for an even number of pairs). World rank 0 only.
std::string slowest_pair_line(std::string_view name, std::uint64_t bytes,
                              const std::vector<pair_time>& times) {
    std::vector<pair_time> here;
    std::copy_if(times.begin(), times.end(), std::back_inserter(here),
                 [&](const pair_time& t) { return t.bytes == bytes; });
    if (here.empty()) return {};
    const auto slowest = std::max_element(
        here.begin(), here.end(), [](const pair_time& a, const pair_time& b) { return a.t_us < b.t_us; });
    std::vector<double> t;
    for (const pair_time& p : here) t.push_back(p.t_us);
    std::sort(t.begin(), t.end());
    const std::size_t n = t.size();
    const double median = n % 2 == 1 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2.0;
    const std::string ratio = median > 0.0 ? fmt::format("{:.2f}", slowest->t_us / median) : "-";
    return fmt::format("{} {} bytes: slowest pair {}-{} t {:.2f} usec, {} x the median pair "
                       "({:.2f} usec, {} pairs)",
                       name, bytes, slowest->p.i, slowest->p.j, slowest->t_us, ratio, median, n);
}

// The suite's table: two-process definitions of IMB-MPI1, timed on every pair.
constexpr pair_rounds::benchmark catalogue[] = {
    {mpi::catalogue_row<imb_mpi1::ping_pong_def<false>>(
         "PingPong", "IMB's PingPong on every pair of processes, one pair at a time",
         PARBENCH_BENCH_DEFAULT),
     &pair_rounds::time_rounds<imb_mpi1::ping_pong_def<false>>},
    {mpi::catalogue_row<imb_mpi1::ping_ping_def<false>>(
         "PingPing", "IMB's PingPing on every pair of processes, one pair at a time", 0),
     &pair_rounds::time_rounds<imb_mpi1::ping_ping_def<false>>},
};

constexpr std::array<parbench_benchmark, std::size(catalogue)> benchmark_rows = [] {
    std::array<parbench_benchmark, std::size(catalogue)> rows{};
    for (std::size_t n = 0; n < rows.size(); ++n) rows[n] = catalogue[n].info;
    return rows;
}();

constexpr auto parameter_rows = pair_rounds::common_parameters;

void run(const run_request& request, const plugin::host_channel& host) {
    int world = 1;
    int rank = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const pair_rounds::options o = pair_rounds::parse_options(
        request, "pairs", [](const std::string&, const std::string&) { return false; });
    const auto chosen = pair_rounds::selected(request, catalogue, "pairs");
    if (world < 2)
        throw input_error("suite pairs times every pair of processes and needs at least 2; the "
                          "run has 1 (mpiexec -n 2 or more)");
    const pair_rounds::placement where = pair_rounds::place_ranks();
    const run_state st{.suite = "pairs", .opts = &o, .host = &host,
                       .rounds = pair_rounds::one_pair_a_round(world), .nodes = where.node_of,
                       .world_rank = rank};
    if (rank == 0) {
        host.run_started(pair_rounds::pair_run_start(
            "pairs",
            "parbench " PARBENCH_PLUGIN_VERSION
            ", every pair of processes in turn (IMB 4.0 methodology)",
            o, chosen, world, {{"pairs", world * (world - 1) / 2}}));
        for (const std::string& line : pair_rounds::placement_lines(where)) host.note(line);
    }
    for (const pair_rounds::benchmark* b : chosen) {
        const std::vector<pair_time> times = b->time(st, b->info.name);
        for (const std::uint64_t x : o.sizes)
            if (const std::string line = slowest_pair_line(b->info.name, x, times); !line.empty())
                host.note(line);
    }
}

const parbench_suite& info() {
    static const parbench_suite s = {
        "pairs",
        "IMB's PingPong between every pair of processes, one pair at a time: finds a slow link",
        benchmark_rows.data(),
        benchmark_rows.size(),
        parameter_rows.data(),
        parameter_rows.size(),
        PARBENCH_SUITE_NEEDS_MPI};
    return s;
}

}  // namespace
}  // namespace pairs_impl
}  // namespace parbench::pairs

namespace parbench::mpi_plugin {
const hosted_suite suites::pairs = {pairs::pairs_impl::info(), &pairs::pairs_impl::run};
}  // namespace parbench::mpi_plugin
