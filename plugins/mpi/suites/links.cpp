// links: the link matrix. Every pair of nodes (one process each: the lowest rank of the node) or,
// with -per-rank, every pair of processes, timed with IMB's PingPong at a latency size and a
// bandwidth size, in rounds of disjoint pairs timed at the same time (so that P nodes take P-1
// rounds, not P(P-1)/2 turns, and no node is in two pairs at once), then printed per size as a
// matrix with the slow links marked: the slow link or node is what an evaluator hunts.
//
// Rows: one per pair and size (world ranks i < j, their nodes, IMB's figures), as pairs prints
// them; then per size the matrix (t[usec] at 0 bytes, Mbytes/sec above), the slow links (slower
// than -slow times the median link) and the slow nodes (every link of the node slow). The
// schedule and the family are pair_rounds.hpp's, shared with pairs.
#include "suites/suite.hpp"
#include "suites/pair_rounds.hpp"

#include <parbench/suites/imb/mpi1.hpp>

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <system_error>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#ifndef PARBENCH_PLUGIN_VERSION
#define PARBENCH_PLUGIN_VERSION "0.0.0"
#endif

namespace parbench::links {
namespace links_impl {
namespace {

using pair_rounds::pair_time;
using pair_rounds::run_state;

// A larger matrix is not printed (its lines would be wider than any terminal); the slow links
// and nodes still are, and every pair is a row of the table and the JSON.
constexpr std::size_t max_matrix_members = 32;

struct link_options {
    bool per_rank = false;
    double slow_factor = 1.5;
};

// What the matrix is drawn over: nodes (by their first rank) or processes.
struct members {
    std::vector<int> ranks;   // the world rank timed for each member, ascending
    bool nodes = true;        // members are nodes (labelled by node number), else processes
};

// The median of `v` (the mean of the two middle values for an even count); 0 for none.
double median_of(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

// The closing lines of one benchmark at one size (world rank 0): the matrix, the slow links and
// the slow nodes. A link is slow when its t[usec] exceeds `factor` x the median link's (at a
// fixed size, Mbytes/sec below the median / factor is the same test).
std::vector<std::string> matrix_lines(std::string_view name, std::uint64_t bytes,
                                      const std::vector<pair_time>& times, const members& m,
                                      const std::vector<int>& node_of, double factor) {
    std::map<int, std::size_t> index;  // world rank -> member
    for (std::size_t k = 0; k < m.ranks.size(); ++k) index[m.ranks[k]] = k;
    const auto label = [&](std::size_t k) {
        return m.nodes ? node_of[static_cast<std::size_t>(m.ranks[k])] : m.ranks[k];
    };
    std::vector<const pair_time*> here;
    for (const pair_time& t : times)
        if (t.bytes == bytes) here.push_back(&t);
    if (here.empty()) return {};
    std::vector<double> all;
    for (const pair_time* t : here) all.push_back(t->t_us);
    const double median = median_of(all);
    const auto slow = [&](const pair_time& t) { return median > 0.0 && t.t_us > factor * median; };
    const bool bandwidth = bytes > 0;
    const std::string what = m.nodes ? "nodes" : "processes";
    std::vector<std::string> lines;
    lines.push_back(fmt::format(
        "{} {} bytes: {} of each link between {} (row i, column j); * marks a link slower than "
        "{:.2f} x the median link's time ({:.2f} usec)",
        name, bytes, bandwidth ? "Mbytes/sec" : "t[usec]", what, factor, median));
    const std::size_t n = m.ranks.size();
    if (n <= max_matrix_members) {
        std::vector<std::vector<const pair_time*>> cell(n, std::vector<const pair_time*>(n));
        for (const pair_time* t : here) {
            const std::size_t a = index.at(t->p.i);
            const std::size_t b = index.at(t->p.j);
            cell[a][b] = cell[b][a] = t;
        }
        // Each cell is 9 characters and the mark (or a blank).
        std::string top = fmt::format("{:>6}", m.nodes ? "node" : "rank");
        for (std::size_t k = 0; k < n; ++k) top += fmt::format("{:>9} ", label(k));
        lines.push_back(top);
        for (std::size_t a = 0; a < n; ++a) {
            std::string row = fmt::format("{:>6}", label(a));
            for (std::size_t b = 0; b < n; ++b) {
                const pair_time* t = cell[a][b];
                if (t == nullptr) {
                    row += fmt::format("{:>9} ", "-");
                    continue;
                }
                const double v = bandwidth ? t->mib_s : t->t_us;
                row += fmt::format("{:>9.2f}{}", v, slow(*t) ? '*' : ' ');
            }
            lines.push_back(row);
        }
    }
    std::vector<std::string> slow_links;
    std::vector<std::size_t> slow_count(n, 0);
    std::vector<std::size_t> link_count(n, 0);
    for (const pair_time* t : here) {
        const std::size_t a = index.at(t->p.i);
        const std::size_t b = index.at(t->p.j);
        ++link_count[a];
        ++link_count[b];
        if (!slow(*t)) continue;
        ++slow_count[a];
        ++slow_count[b];
        slow_links.push_back(fmt::format("{}-{} ({:.2f} x)", label(a), label(b), t->t_us / median));
    }
    std::string joined;
    for (const std::string& s : slow_links) joined += (joined.empty() ? "" : ", ") + s;
    lines.push_back(fmt::format("{} {} bytes: {} slow link{} of {}{}{}", name, bytes,
                                slow_links.size(), slow_links.size() == 1 ? "" : "s", here.size(),
                                slow_links.empty() ? "" : ": ", joined));
    // A node (or process) all of whose links are slow, when it has at least two: the fault is
    // more likely the node than each of its links.
    for (std::size_t k = 0; k < n; ++k)
        if (link_count[k] >= 2 && slow_count[k] == link_count[k])
            lines.push_back(fmt::format("{} {} bytes: slow {} {}: all its {} links are slow", name,
                                        bytes, m.nodes ? "node" : "process", label(k),
                                        link_count[k]));
    return lines;
}

// The suite's table: two-process definitions of IMB-MPI1.
constexpr pair_rounds::benchmark catalogue[] = {
    {mpi::catalogue_row<imb_mpi1::ping_pong_def<false>>(
         "PingPong", "IMB's PingPong on every link, in rounds of disjoint pairs",
         PARBENCH_BENCH_DEFAULT),
     &pair_rounds::time_rounds<imb_mpi1::ping_pong_def<false>>},
    {mpi::catalogue_row<imb_mpi1::ping_ping_def<false>>(
         "PingPing", "IMB's PingPing on every link, in rounds of disjoint pairs", 0),
     &pair_rounds::time_rounds<imb_mpi1::ping_ping_def<false>>},
};

constexpr std::array<parbench_benchmark, std::size(catalogue)> benchmark_rows = [] {
    std::array<parbench_benchmark, std::size(catalogue)> rows{};
    for (std::size_t n = 0; n < rows.size(); ++n) rows[n] = catalogue[n].info;
    return rows;
}();

constexpr auto parameter_rows = [] {
    std::array<parbench_parameter, pair_rounds::common_parameters.size() + 2> rows{};
    std::copy(pair_rounds::common_parameters.begin(), pair_rounds::common_parameters.end(),
              rows.begin());
    rows[rows.size() - 2] = {"per-rank", nullptr,
                             "every pair of processes, not of nodes (one process per node)",
                             nullptr, PARBENCH_ARITY_FLAG};
    rows[rows.size() - 1] = {"slow", "FACTOR",
                             "a link slower than FACTOR x the median link is marked slow",
                             "1.5", PARBENCH_ARITY_ONE};
    return rows;
}();

// -slow FACTOR: a number above 1.
double parse_factor(const std::string& text) {
    double v = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size() || !(v > 1.0) ||
        v > 1e6)
        throw input_error("-slow " + text + ": the factor must be a number above 1 (e.g. 1.5)");
    return v;
}

void run(const run_request& request, const plugin::host_channel& host) {
    int world = 1;
    int rank = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    link_options lo;
    const pair_rounds::options o =
        pair_rounds::parse_options(request, "links", [&](const std::string& name,
                                                         const std::string& text) {
            if (name == "per-rank") {
                lo.per_rank = true;
            } else if (name == "slow") {
                lo.slow_factor = parse_factor(text);
            } else {
                return false;
            }
            return true;
        });
    const auto chosen = pair_rounds::selected(request, catalogue, "links");
    if (world < 2)
        throw input_error("suite links times every pair of nodes or processes and needs at "
                          "least 2 processes; the run has 1 (mpiexec -n 2 or more)");
    const pair_rounds::placement where = pair_rounds::place_ranks();
    members who;
    const bool one_node = where.nodes() < 2;
    if (lo.per_rank || one_node) {
        who.nodes = false;
        for (int r = 0; r < world; ++r) who.ranks.push_back(r);
    } else {
        who.ranks = where.first_ranks();
    }
    const std::size_t m = who.ranks.size();
    const run_state st{.suite = "links", .opts = &o, .host = &host,
                       .rounds = pair_rounds::round_robin(who.ranks), .nodes = where.node_of,
                       .world_rank = rank, .round_column = true};
    if (rank == 0) {
        run_start start = pair_rounds::pair_run_start(
            "links",
            "parbench " PARBENCH_PLUGIN_VERSION ", the link matrix: every pair of " +
                std::string(who.nodes ? "nodes" : "processes") +
                " in rounds of disjoint pairs (IMB 4.0 methodology)",
            o, chosen, world,
            {{"links", m * (m - 1) / 2},
             {"rounds", st.rounds.size()},
             {"link_members", who.nodes ? "nodes" : "processes"},
             {"link_member_ranks", who.ranks}});
        start.context["options"]["per_rank"] = lo.per_rank;
        start.context["options"]["slow_factor"] = lo.slow_factor;
        host.run_started(start);
        for (const std::string& line : pair_rounds::placement_lines(where)) host.note(line);
        if (one_node && !lo.per_rank)
            host.note("one node: the links are those between its processes (as -per-rank)");
        host.note(fmt::format("{} links between {} {} in {} rounds", m * (m - 1) / 2, m,
                              who.nodes ? "nodes" : "processes", st.rounds.size()));
    }
    for (const pair_rounds::benchmark* b : chosen) {
        const std::vector<pair_time> times = b->time(st, b->info.name);
        if (rank != 0) continue;
        for (const std::uint64_t x : o.sizes)
            for (const std::string& line :
                 matrix_lines(b->info.name, x, times, who, where.node_of, lo.slow_factor))
                host.note(line);
    }
}

const parbench_suite& info() {
    static const parbench_suite s = {
        "links",
        "The link matrix: IMB's PingPong on every pair of nodes (or processes) in rounds of "
        "disjoint pairs, slow links and nodes marked",
        benchmark_rows.data(),
        benchmark_rows.size(),
        parameter_rows.data(),
        parameter_rows.size(),
        PARBENCH_SUITE_NEEDS_MPI};
    return s;
}

}  // namespace
}  // namespace links_impl
}  // namespace parbench::links

namespace parbench::mpi_plugin {
const hosted_suite suites::links = {links::links_impl::info(), &links::links_impl::run};
}  // namespace parbench::mpi_plugin
