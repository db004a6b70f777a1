// pairs: IMB's PingPong between every pair of processes, one pair at a time while the others wait,
// to find a slow link. A note per node (its number, processor name and ranks), one row per pair
// and size (world ranks i < j, their nodes, IMB's figures), then per size a note naming the
// slowest pair and its ratio to the median pair.
//
// The suite is a family for mpi::sweep (pair_family below: the sweep's active sets are the
// pairs, in order 0-1, 0-2, ..., (P-2)-(P-1)), a catalogue of two-process definitions reused from
// IMB-MPI1 (suites/imb/mpi1.hpp), and IMB's console layout with the pair's ranks and nodes as
// declared columns. Options: -sizes A,B,... (bytes; default 0,1048576) or -msglog [MIN:]MAX
// (IMB's sequence), -iter and -time (IMB's), and the driver's -check.
#include "suites/suite.hpp"

#include <parbench/core/clock.hpp>
#include <parbench/core/error.hpp>
#include <parbench/core/names.hpp>
#include <parbench/core/options.hpp>
#include <parbench/core/sizes.hpp>
#include <parbench/core/text.hpp>
#include <parbench/mpi/definition.hpp>
#include <parbench/mpi/deliver.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/mpi/sweep.hpp>
#include <parbench/suites/imb/mpi1.hpp>

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#ifndef PARBENCH_PLUGIN_VERSION
#define PARBENCH_PLUGIN_VERSION "0.0.0"
#endif

namespace parbench::pairs {
namespace pairs_impl {
namespace {

struct options {
    std::vector<std::uint64_t> sizes{0, std::uint64_t{1} << 20};
    bool sizes_given = false;
    policy::iterations::imb_volume iterations{};
    bool check = false;
};

// -sizes A,B,...: whole numbers of bytes, ascending.
std::vector<std::uint64_t> parse_sizes(const std::string& text) {
    std::vector<std::uint64_t> sizes;
    for (const std::string& item : split_commas(text)) {
        std::uint64_t x = 0;
        if (!parse_unsigned(item, x))
            throw input_error("-sizes " + text + ": '" + item + "' " +
                              integer_problem<std::uint64_t>(item, "is not a number of bytes"));
        if (!sizes.empty() && x <= sizes.back())
            throw input_error("-sizes " + text + ": sizes must be ascending");
        sizes.push_back(x);
    }
    return sizes;
}

// Validates the request's options; the same on every rank.
options parse_options(const run_request& request) {
    options o;
    o.check = request.check;
    bool msglog = false;
    for (const auto& [name, value] : request.options) {
        const std::string text = option_text(name, value);
        if (name == "sizes") {
            o.sizes = parse_sizes(text);
            o.sizes_given = true;
        } else if (name == "msglog") {
            o.sizes = imb_sizes(parse_msglog(text));
            msglog = true;
        } else if (name == "iter") {
            o.iterations = policy::iterations::parse_imb_iter(text, o.iterations);
        } else if (name == "time") {
            o.iterations.secs_per_sample = parse_seconds("-time", text);
        } else {
            throw input_error("-" + name + ": not an option of suite pairs");
        }
    }
    if (o.sizes_given && msglog) throw input_error("-sizes and -msglog: give one of them");
    o.sizes_given = o.sizes_given || msglog;
    return o;
}

constexpr parbench_parameter parameter_rows[] = {
    {"sizes", "A,B,...", "message sizes in bytes, ascending", "0,1048576", PARBENCH_ARITY_ONE},
    {"msglog", "[MIN:]MAX", "IMB's sizes 0, 2^MIN, ..., 2^MAX instead of -sizes", nullptr,
     PARBENCH_ARITY_ONE},
    {"iter", "MSGS[,VOL[,NONAGGR]][,POLICY]", "IMB's -iter for each pair", "1000,40,100,dynamic",
     PARBENCH_ARITY_ONE},
    {"time", "SECONDS", "IMB's -time: at most this long per size and pair", "10",
     PARBENCH_ARITY_ONE},
};

// The pairs i < j of P processes, in order; pair k of the sweep is pairs[k].
struct pair {
    int i = 0;
    int j = 1;
};

std::vector<pair> all_pairs(int processes) {
    std::vector<pair> out;
    for (int i = 0; i < processes; ++i)
        for (int j = i + 1; j < processes; ++j) out.push_back({i, j});
    return out;
}

// Where the processes run: each world rank's node, numbered 0, 1, ... by the lowest rank on it
// (MPI_Comm_split_type, not host names), and on world rank 0 each node's processor name.
struct placement {
    std::vector<int> node_of;          // by world rank
    std::vector<std::string> names;    // by node; world rank 0 only
};

// Collective over MPI_COMM_WORLD.
placement place_ranks() {
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    int lowest = rank;
    MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_INT, MPI_MIN, node);
    MPI_Comm_free(&node);
    placement out;
    out.node_of.resize(static_cast<std::size_t>(size));
    MPI_Allgather(&lowest, 1, MPI_INT, out.node_of.data(), 1, MPI_INT, MPI_COMM_WORLD);
    std::vector<int> firsts = out.node_of;
    std::sort(firsts.begin(), firsts.end());
    firsts.erase(std::unique(firsts.begin(), firsts.end()), firsts.end());
    for (int& n : out.node_of)
        n = static_cast<int>(std::lower_bound(firsts.begin(), firsts.end(), n) - firsts.begin());
    std::array<char, MPI_MAX_PROCESSOR_NAME> mine{};
    int length = 0;
    MPI_Get_processor_name(mine.data(), &length);
    std::vector<char> all(rank == 0 ? mine.size() * static_cast<std::size_t>(size) : 0);
    MPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, all.data(),
               static_cast<int>(mine.size()), MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (const int first : firsts)
            out.names.emplace_back(all.data() + static_cast<std::size_t>(first) * mine.size());
    return out;
}

// "node 1 (n2): ranks 2-3,6": one note per node, so that the node columns can be read.
std::vector<std::string> placement_lines(const placement& p) {
    std::vector<std::string> lines;
    for (std::size_t n = 0; n < p.names.size(); ++n) {
        std::string ranks;
        for (int r = 0; r < static_cast<int>(p.node_of.size()); ++r) {
            if (p.node_of[static_cast<std::size_t>(r)] != static_cast<int>(n)) continue;
            int last = r;
            while (last + 1 < static_cast<int>(p.node_of.size()) &&
                   p.node_of[static_cast<std::size_t>(last + 1)] == static_cast<int>(n))
                ++last;
            // fmt, not operator+: GCC 12 warns falsely (-Wrestrict) on "," + std::string.
            ranks += last > r ? fmt::format("{}{}-{}", ranks.empty() ? "" : ",", r, last)
                              : fmt::format("{}{}", ranks.empty() ? "" : ",", r);
            r = last;
        }
        lines.push_back(fmt::format("node {} ({}): ranks {}", n, p.names[n], ranks));
    }
    return lines;
}

// One row of the closing lines: a pair's headline time at one size (world rank 0).
struct pair_time {
    std::uint64_t bytes = 0;
    pair p;
    double t_us = 0.0;
};

// What every benchmark of one run shares.
struct run_state {
    const options* opts = nullptr;
    const plugin::host_channel* host = nullptr;
    std::vector<pair> pairs;
    std::vector<int> nodes;  // by world rank
    int world_rank = 0;
};

// The family for mpi::sweep(): one active set per pair (its index into run.pairs; the pair's two
// processes first in the session's order, the others waiting), the run's sizes, IMB's warm-up
// once per pair, IMB's measurement of one size, and each record with the pair's index (as its
// group), ranks and nodes.
// The headline times are kept for the closing lines.
template <class Def>
struct pair_family {
    const run_state& run;
    std::string_view name;
    std::vector<pair_time>* times;  // world rank 0: every row's headline time

    struct count {
        mpi::session session;
        pair p;
        int index = 0;  // of the pair, in run.pairs
    };

    [[nodiscard]] std::vector<int> process_counts() const {
        std::vector<int> k(run.pairs.size());
        for (std::size_t n = 0; n < k.size(); ++n) k[n] = static_cast<int>(n);
        return k;
    }
    [[nodiscard]] const std::vector<std::uint64_t>& sizes() const { return run.opts->sizes; }
    [[nodiscard]] count open(int k) const {
        const pair p = run.pairs[static_cast<std::size_t>(k)];
        std::vector<int> order{p.i, p.j};
        for (int r = 0; r < static_cast<int>(run.nodes.size()); ++r)
            if (r != p.i && r != p.j) order.push_back(r);
        return {mpi::session(MPI_COMM_WORLD, 2, false, std::move(order)), p, k};
    }
    void progress(const count& /*c*/, std::uint64_t x) const { run.host->progress(name, x, 2); }
    void warm_up(const count& c, std::uint64_t /*x*/) const {
        const std::size_t small = 4;
        mpi::warm_up(c.session, small, Def::layout(small, 2),
                     imb_mpi1::kernel_for<Def>(c.session.context(small)),
                     std::min(mpi::n_warmup, run.opts->iterations.msgs_per_sample));
    }
    [[nodiscard]] mpi::measurement measure(const count& c, std::uint64_t x) const {
        const auto bytes = static_cast<std::size_t>(x);
        mpi::measurement m = mpi::measure(
            c.session,
            mpi::measure_config{
                .pattern = Def::descriptor,
                .labels = {.suite = "pairs", .benchmark = std::string(name)},
                .bytes = x,
                .resource = mpi::messages{.layout = Def::layout(bytes, 2)},
                .kernel = imb_mpi1::kernel_for<Def>(c.session.context(bytes)),
                .plan = mpi::timing_plan<>{.iterations = run.opts->iterations,
                                           .check = run.opts->check},
                .check = typename Def::verify_check{}});
        mpi::deliver_to_world_root(c.session, m);  // pair i-j's records are on world rank i
        return m;
    }
    void publish(const count& c, result_record& r) const {
        // The pair is the record's group (as a group of -multi 1 is): the table shows its index
        // and the JSON name (pairs/PingPong/np:2/group:K/bytes:X) tells the pairs apart, so
        // that parbench compare matches each pair with itself.
        r.block.group = c.index;
        r.metrics["rank_i"] = c.p.i;
        r.metrics["rank_j"] = c.p.j;
        r.metrics["node_i"] = run.nodes[static_cast<std::size_t>(c.p.i)];
        r.metrics["node_j"] = run.nodes[static_cast<std::size_t>(c.p.j)];
        times->push_back({r.bytes, c.p, r.headline_time_us()});
        run.host->result(r);
    }
    void close(const count& c, const mpi::size_notes& notes) const {
        if (notes.allocation_failed && run.world_rank == 0)
            run.host->warning(fmt::format("{} pair {}-{}: some sizes not run: a process could "
                                          "not allocate its message buffers",
                                          name, c.p.i, c.p.j));
    }
};

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

template <class Def>
void run_benchmark(const run_state& st, std::string_view name) {
    static_assert(mpi::check_definition<Def>() && mpi::self_contained_definition<Def> &&
                  pattern::fixed_group_processes(Def::descriptor) == 2);
    std::vector<pair_time> times;
    mpi::sweep(pair_family<Def>{.run = st, .name = name, .times = &times});
    for (const std::uint64_t x : st.opts->sizes)
        if (const std::string line = slowest_pair_line(name, x, times); !line.empty())
            st.host->note(line);
}

// The suite's table: two-process definitions of IMB-MPI1, timed on every pair.
struct benchmark {
    parbench_benchmark info;
    void (*run)(const run_state&, std::string_view);
};

constexpr benchmark catalogue[] = {
    {mpi::catalogue_row<imb_mpi1::ping_pong_def<false>>(
         "PingPong", "IMB's PingPong on every pair of processes, one pair at a time",
         PARBENCH_BENCH_DEFAULT),
     &run_benchmark<imb_mpi1::ping_pong_def<false>>},
    {mpi::catalogue_row<imb_mpi1::ping_ping_def<false>>(
         "PingPing", "IMB's PingPing on every pair of processes, one pair at a time", 0),
     &run_benchmark<imb_mpi1::ping_ping_def<false>>},
};

constexpr std::array<parbench_benchmark, std::size(catalogue)> benchmark_rows = [] {
    std::array<parbench_benchmark, std::size(catalogue)> rows{};
    for (std::size_t n = 0; n < rows.size(); ++n) rows[n] = catalogue[n].info;
    return rows;
}();

// The benchmarks a request names (the defaults without names).
std::vector<const benchmark*> selected(const run_request& request) {
    std::vector<const benchmark*> out;
    for (const benchmark& b : catalogue) {
        const bool wanted =
            request.benchmarks.empty()
                ? (b.info.flags & PARBENCH_BENCH_DEFAULT) != 0
                : std::any_of(request.benchmarks.begin(), request.benchmarks.end(),
                              [&](const std::string& n) { return same_name(n, b.info.name); });
        if (wanted) out.push_back(&b);
    }
    for (const std::string& n : request.benchmarks)
        if (std::none_of(std::begin(catalogue), std::end(catalogue),
                         [&](const benchmark& b) { return same_name(n, b.info.name); }))
            throw input_error("suite pairs has no benchmark '" + n + "'");
    return out;
}

run_start make_run_start(const options& o, const std::vector<const benchmark*>& chosen,
                         int world) {
    int thread_level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&thread_level);
    const auto clock = measure_clock(mpi::wtime_clock{});
    std::vector<std::string> names;
    for (const benchmark* b : chosen) names.emplace_back(b->info.name);
    run_start start;
    start.suite = "pairs";
    start.layout = "imb";
    start.title = "parbench " PARBENCH_PLUGIN_VERSION
                  ", every pair of processes in turn (IMB 4.0 methodology)";
    start.benchmarks = names;
    start.header = {{"mpi_version", mpi::standard_version()},
                    {"mpi_thread_environment", std::string(mpi::thread_level_name(thread_level))},
                    {"lengths_user_defined", o.sizes_given},
                    {"min_bytes", o.sizes.front()},
                    {"max_bytes", o.sizes.back()},
                    {"benchmark_list", names},
                    {"check", o.check}};
    const std::vector<column> columns = {{"rank_i", "rank_i", 0, 8},
                                         {"rank_j", "rank_j", 0, 8},
                                         {"node_i", "node_i", 0, 8},
                                         {"node_j", "node_j", 0, 8},
                                         {"t_max_us", "t[usec]"},
                                         {"throughput_mib_s", "Mbytes/sec"}};
    for (const std::string& n : names) start.columns[n] = columns;
    start.context = {{"mpi_library", mpi::library_version()},
                     {"processes", world},
                     {"pairs", world * (world - 1) / 2},
                     {"thread_level", std::string(mpi::thread_level_name(thread_level))},
                     {"timer", "MPI_Wtime"},
                     {"timer_resolution_s", clock.resolution_s},
                     {"timer_overhead_s", clock.overhead_s},
                     {"options",
                      {{"sizes", o.sizes},
                       {"msgs_per_sample", o.iterations.msgs_per_sample},
                       {"overall_vol_bytes", o.iterations.overall_vol_bytes},
                       {"time_s", o.iterations.secs_per_sample},
                       {"check", o.check}}}};
    return start;
}

void run(const run_request& request, const plugin::host_channel& host) {
    int world = 1;
    int rank = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const options o = parse_options(request);
    const std::vector<const benchmark*> chosen = selected(request);
    if (world < 2)
        throw input_error("suite pairs times every pair of processes and needs at least 2; the "
                          "run has 1 (mpiexec -n 2 or more)");
    const placement where = place_ranks();
    const run_state st{.opts = &o, .host = &host, .pairs = all_pairs(world),
                       .nodes = where.node_of, .world_rank = rank};
    if (rank == 0) {
        host.run_started(make_run_start(o, chosen, world));
        for (const std::string& line : placement_lines(where)) host.note(line);
    }
    for (const benchmark* b : chosen) b->run(st, b->info.name);
}

const parbench_suite& info() {
    static const parbench_suite s = {
        "pairs",
        "IMB's PingPong between every pair of processes, one pair at a time: finds a slow link",
        benchmark_rows.data(),
        benchmark_rows.size(),
        parameter_rows,
        std::size(parameter_rows),
        PARBENCH_SUITE_NEEDS_MPI};
    return s;
}

}  // namespace
}  // namespace pairs_impl
}  // namespace parbench::pairs

namespace parbench::mpi_plugin {
const hosted_suite suites::pairs = {pairs::pairs_impl::info(), &pairs::pairs_impl::run};
}  // namespace parbench::mpi_plugin
