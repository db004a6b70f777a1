// What the two suites that time pairs of processes share (pairs: every pair of processes, one
// pair at a time; links: every pair of nodes, in rounds of disjoint pairs timed at once): their
// options, where the processes run, the schedule as rounds of disjoint pairs, and the family for
// mpi::sweep that times one round per "process count" with a two-process IMB-MPI1 definition.
//
// A round of one pair is pairs' active set (the pair first in the session's order, the others
// waiting); a round of several is IMB's multiple mode with one group per pair and the processes
// of no pair waiting. Either way each record is one pair's figures, numbered by the pair's index
// in the schedule (its group), with its ranks and nodes as columns.
#pragma once

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
#include <parbench/report/imb_header.hpp>
#include <parbench/report/mpi_suite_context.hpp>
#include <parbench/report/stability.hpp>
#include <parbench/suites/imb/mpi1.hpp>

#include "placement.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::pair_rounds {

// The options both suites take.
struct options {
    std::vector<std::uint64_t> sizes{0, std::uint64_t{1} << 20};
    bool sizes_given = false;
    policy::iterations::imb_volume iterations{};
    bool check = false;
};

// -sizes A,B,...: whole numbers of bytes, ascending.
[[nodiscard]] inline std::vector<std::uint64_t> parse_sizes(const std::string& text) {
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

// Validates the request's options (the same on every rank). `own(name, text)` takes a suite's
// own options and returns false for a name it does not know.
template <class OwnOption>
[[nodiscard]] options parse_options(const run_request& request, std::string_view suite,
                                    OwnOption own) {
    options o;
    o.check = request.check;
    bool msglog = false;
    for (const auto& [name, value] : request.options) {
        const std::string text = value.is_boolean() ? std::string() : option_text(name, value);
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
        } else if (!own(name, text)) {
            throw input_error("-" + name + ": not an option of suite " + std::string(suite));
        }
    }
    if (o.sizes_given && msglog) throw input_error("-sizes and -msglog: give one of them");
    o.sizes_given = o.sizes_given || msglog;
    return o;
}

// The parameter rows of those options, first in each suite's table.
inline constexpr std::array<parbench_parameter, 4> common_parameters = {{
    {"sizes", "A,B,...", "message sizes in bytes, ascending", "0,1048576", PARBENCH_ARITY_ONE},
    {"msglog", "[MIN:]MAX", "IMB's sizes 0, 2^MIN, ..., 2^MAX instead of -sizes", nullptr,
     PARBENCH_ARITY_ONE},
    {"iter", "MSGS[,VOL[,NONAGGR]][,POLICY]", "IMB's -iter for each pair", "1000,40,100,dynamic",
     PARBENCH_ARITY_ONE},
    {"time", "SECONDS", "IMB's -time: at most this long per size and pair", "10",
     PARBENCH_ARITY_ONE},
}};

// Two world ranks, i < j.
struct pair {
    int i = 0;
    int j = 1;
    friend bool operator==(const pair&, const pair&) = default;
};

// Disjoint pairs timed at the same time; a schedule is the rounds in order, and pair k of the
// schedule is the k-th pair met reading the rounds in order.
using round = std::vector<pair>;

// pairs' schedule: every pair i < j of P processes in order 0-1, 0-2, ..., one a round.
[[nodiscard]] inline std::vector<round> one_pair_a_round(int processes) {
    std::vector<round> out;
    for (int i = 0; i < processes; ++i)
        for (int j = i + 1; j < processes; ++j) out.push_back({pair{i, j}});
    return out;
}

// links' schedule: every pair of `members` (world ranks, ascending) exactly once, in rounds in
// which each member is in at most one pair (the circle method of round-robin tournaments: the
// first member stays, the others turn one place a round; with an odd count a "bye" takes the
// empty seat). M members give M-1 rounds of M/2 pairs (M even) or M rounds of (M-1)/2.
[[nodiscard]] inline std::vector<round> round_robin(const std::vector<int>& members) {
    std::vector<int> seats = members;
    if (seats.size() % 2 == 1) seats.push_back(-1);  // the bye
    const std::size_t n = seats.size();
    std::vector<round> out;
    for (std::size_t r = 0; n >= 2 && r + 1 < n; ++r) {
        round this_round;
        for (std::size_t k = 0; k < n / 2; ++k) {
            const int a = seats[k];
            const int b = seats[n - 1 - k];
            if (a >= 0 && b >= 0) this_round.push_back({std::min(a, b), std::max(a, b)});
        }
        std::sort(this_round.begin(), this_round.end(),
                  [](const pair& x, const pair& y) { return x.i < y.i; });
        out.push_back(std::move(this_round));
        std::rotate(seats.begin() + 1, seats.end() - 1, seats.end());  // turn one place
    }
    return out;
}

// Where the processes run: each world rank's node, numbered 0, 1, ... by the lowest rank on it
// (MPI_Comm_split_type, not host names), and on world rank 0 each node's processor name.
struct placement {
    std::vector<int> node_of;          // by world rank
    std::vector<std::string> names;    // by node; world rank 0 only

    [[nodiscard]] int nodes() const {
        return node_of.empty() ? 0 : *std::max_element(node_of.begin(), node_of.end()) + 1;
    }
    // The lowest world rank of each node, by node.
    [[nodiscard]] std::vector<int> first_ranks() const {
        std::vector<int> out(static_cast<std::size_t>(nodes()), -1);
        for (int r = static_cast<int>(node_of.size()) - 1; r >= 0; --r)
            out[static_cast<std::size_t>(node_of[static_cast<std::size_t>(r)])] = r;
        return out;
    }
};

// Collective over MPI_COMM_WORLD. Node numbers are mpi/node.hpp's index_of_node, as the run's
// placement record's, so that the two agree.
[[nodiscard]] inline placement place_ranks() {
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    placement out;
    out.node_of = mpi::nodes_of_ranks(MPI_COMM_WORLD);
    std::array<char, MPI_MAX_PROCESSOR_NAME> name{};
    int length = 0;
    MPI_Get_processor_name(name.data(), &length);
    std::vector<char> all(rank == 0 ? name.size() * static_cast<std::size_t>(size) : 0);
    MPI_Gather(name.data(), static_cast<int>(name.size()), MPI_CHAR, all.data(),
               static_cast<int>(name.size()), MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (const int first : out.first_ranks())
            out.names.emplace_back(all.data() + static_cast<std::size_t>(first) * name.size());
    return out;
}

// "node 1 (n2): ranks 2-3,6": one note per node, so that the node columns can be read.
[[nodiscard]] inline std::vector<std::string> placement_lines(const placement& p) {
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

// One pair's headline figures at one size (world rank 0), for the closing lines.
struct pair_time {
    std::uint64_t bytes = 0;
    pair p;
    double t_us = 0.0;
    double mib_s = 0.0;
};

// What every benchmark of one run shares.
struct run_state {
    std::string_view suite;
    const options* opts = nullptr;
    const plugin::host_channel* host = nullptr;
    std::vector<round> rounds;
    std::vector<int> nodes;  // by world rank
    int world_rank = 0;
    bool round_column = false;  // each row's metrics carry its round ("round")
};

// The family for mpi::sweep(): one "process count" per round (its index into run.rounds), the
// run's sizes, IMB's warm-up once per round, IMB's measurement of one size, and each record as
// one pair's (its index in the schedule as its group, its ranks and nodes). The headline
// figures are kept for the closing lines.
template <class Def>
struct round_family {
    const run_state& run;
    std::string_view name;
    std::vector<pair_time>* times;  // world rank 0: every row's headline figures

    struct count {
        mpi::session session;
        const round* pairs = nullptr;
        int index = 0;        // of the round, in run.rounds
        int first_index = 0;  // the schedule's index of the round's first pair
    };

    [[nodiscard]] std::vector<int> process_counts() const {
        std::vector<int> k(run.rounds.size());
        for (std::size_t n = 0; n < k.size(); ++n) k[n] = static_cast<int>(n);
        return k;
    }
    [[nodiscard]] const std::vector<std::uint64_t>& sizes() const { return run.opts->sizes; }
    [[nodiscard]] count open(int k) const {
        const round& pairs = run.rounds[static_cast<std::size_t>(k)];
        int first = 0;
        for (int r = 0; r < k; ++r) first += static_cast<int>(run.rounds[static_cast<std::size_t>(r)].size());
        std::vector<int> order;
        for (const pair& p : pairs) order.insert(order.end(), {p.i, p.j});
        for (int r = 0; r < static_cast<int>(run.nodes.size()); ++r)
            if (std::find(order.begin(), order.end(), r) == order.end()) order.push_back(r);
        const bool several = pairs.size() > 1;
        return {mpi::session(MPI_COMM_WORLD, 2, several, std::move(order), 0, nullptr,
                             static_cast<int>(pairs.size())),
                &pairs, k, first};
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
                .labels = {.suite = std::string(run.suite),
                           .benchmark = std::string(name),
                           .per_group = true},
                .bytes = x,
                .resource = mpi::messages{.layout = Def::layout(bytes, 2)},
                .kernel = imb_mpi1::kernel_for<Def>(c.session.context(bytes)),
                .plan = mpi::timing_plan<>{.iterations = run.opts->iterations,
                                           .check = run.opts->check},
                .check = typename Def::verify_check{}});
        mpi::deliver_to_world_root(c.session, m);  // records are on the round's first process
        return m;
    }
    void publish(const count& c, result_record& r) const {
        // One pair's row, whether its round timed it alone or beside others (IMB's multiple
        // mode): the class and throughput of one group, and the pair's index as its group (as
        // a group of -multi 1 is): the table shows it and the JSON name
        // (SUITE/PingPong/np:2/group:K/bytes:X) tells the pairs apart, so that parbench compare
        // matches each pair with itself.
        const int in_round = std::max(0, r.block.group);
        const pair p = (*c.pairs)[static_cast<std::size_t>(in_round)];
        if (r.block.groups > 1) {
            const auto one = pattern::throughput_factor(Def::descriptor, 2, 1);
            const auto all = pattern::throughput_factor(Def::descriptor, 2, r.block.groups);
            if (one && all && *all > 0.0 && r.throughput_mib_s) *r.throughput_mib_s *= *one / *all;
            r.klass = pattern::class_in_groups(Def::descriptor, 1);
            r.block.groups = 1;
            r.block.group_ranks.clear();
        }
        r.block.group = c.first_index + in_round;
        r.metrics["rank_i"] = p.i;
        r.metrics["rank_j"] = p.j;
        r.metrics["node_i"] = run.nodes[static_cast<std::size_t>(p.i)];
        r.metrics["node_j"] = run.nodes[static_cast<std::size_t>(p.j)];
        if (run.round_column) r.metrics["round"] = c.index;
        times->push_back({r.bytes, p, r.headline_time_us(), r.throughput_mib_s.value_or(0.0)});
        run.host->result(r);
    }
    void close(const count& c, const mpi::size_notes& notes) const {
        if (notes.allocation_failed && run.world_rank == 0)
            run.host->warning(fmt::format("{} round of pair {}-{}: some sizes not run: a process "
                                          "could not allocate its message buffers",
                                          name, c.pairs->front().i, c.pairs->front().j));
    }
};

// Times every round of the run with Def; returns (on world rank 0) each row's figures.
template <class Def>
[[nodiscard]] std::vector<pair_time> time_rounds(const run_state& st, std::string_view name) {
    static_assert(mpi::check_definition<Def>() && mpi::self_contained_definition<Def> &&
                  pattern::fixed_group_processes(Def::descriptor) == 2);
    std::vector<pair_time> times;
    mpi::sweep(round_family<Def>{.run = st, .name = name, .times = &times});
    return times;
}

// A suite's table: two-process definitions of IMB-MPI1, each timed by time_rounds<Def>.
struct benchmark {
    parbench_benchmark info;
    std::vector<pair_time> (*time)(const run_state&, std::string_view);
};

// The benchmarks a request names (the defaults without names).
[[nodiscard]] inline std::vector<const benchmark*> selected(const run_request& request,
                                                            std::span<const benchmark> catalogue,
                                                            std::string_view suite) {
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
        if (std::none_of(catalogue.begin(), catalogue.end(),
                         [&](const benchmark& b) { return same_name(n, b.info.name); }))
            throw input_error("suite " + std::string(suite) + " has no benchmark '" + n + "'");
    return out;
}

// The run header both suites print (IMB's layout with the pair's ranks and nodes as columns);
// `context` adds the suite's own keys to the JSON context.
[[nodiscard]] inline run_start pair_run_start(std::string_view suite, std::string title,
                                              const options& o,
                                              const std::vector<const benchmark*>& chosen,
                                              int world, nlohmann::json context) {
    int thread_level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&thread_level);
    const auto clock = measure_clock(mpi::wtime_clock{});
    std::vector<std::string> names;
    for (const benchmark* b : chosen) names.emplace_back(b->info.name);
    run_start start;
    start.suite = std::string(suite);
    start.layout = "imb";
    start.title = std::move(title);
    start.benchmarks = names;
    start.header = report::imb_header{
        .mpi_version = mpi::standard_version(),
        .mpi_thread_environment = std::string(mpi::thread_level_name(thread_level)),
        .min_bytes = o.sizes.front(),
        .max_bytes = o.sizes.back(),
        .benchmark_list = names,
        .lengths_user_defined = o.sizes_given,
        .check = o.check};
    const std::vector<column> columns = {{"rank_i", "rank_i", 0, 8},
                                         {"rank_j", "rank_j", 0, 8},
                                         {"node_i", "node_i", 0, 8},
                                         {"node_j", "node_j", 0, 8},
                                         {"t_max_us", "t[usec]"},
                                         {"throughput_mib_s", "Mbytes/sec"}};
    for (const std::string& n : names) start.columns[n] = columns;
    start.context =
        report::mpi_suite_context{.mpi_library = mpi::library_version(), .processes = world};
    start.context.update({{"thread_level", std::string(mpi::thread_level_name(thread_level))},
                          {"timer", "MPI_Wtime"},
                          {"options",
                           {{"sizes", o.sizes},
                            {"msgs_per_sample", o.iterations.msgs_per_sample},
                            {"overall_vol_bytes", o.iterations.overall_vol_bytes},
                            {"time_s", o.iterations.secs_per_sample},
                            {"check", o.check}}}});
    start.context.update(nlohmann::json(report::timer_limits::of(clock)));
    start.context.update(context);
    return start;
}

}  // namespace parbench::pair_rounds
