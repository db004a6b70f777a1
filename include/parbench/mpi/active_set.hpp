// Which processes are active (IMB's active process sets Q, -npmin), in what order (-map PxQ),
// and how they split into groups in multiple mode. Pure arithmetic on ranks: no MPI calls here.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/sizes.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace parbench::mpi {

// IMB's process counts: first, 2*first, 4*first, ..., the largest 2^x*first < P, then P.
// `first` is -npmin (IMB-MPI1 starts at 2 by default; 1 where meaningful). P < first yields {P}.
[[nodiscard]] inline std::vector<int> process_counts(int world_size, int first) {
    std::vector<int> counts;
    if (world_size <= 0) return counts;
    if (first <= 0) first = 1;
    if (first >= world_size) return {world_size};
    for (long q = first; q < world_size; q *= 2) counts.push_back(static_cast<int>(q));
    counts.push_back(world_size);
    return counts;
}

// -map PxQ: the matrix shape.
struct rank_map {
    int rows = 0;     // P
    int columns = 0;  // Q
    [[nodiscard]] bool enabled() const noexcept { return rows > 0 && columns > 0; }
};

[[nodiscard]] inline rank_map parse_map(std::string_view text) {
    const std::string shown(text);
    const auto x = text.find_first_of("xX");
    rank_map map{};
    if (x == std::string_view::npos || !parbench::parse_unsigned(text.substr(0, x), map.rows) ||
        !parbench::parse_unsigned(text.substr(x + 1), map.columns) || map.rows <= 0 ||
        map.columns <= 0)
        throw input_error("-map " + shown + ": expected PxQ with positive integers, e.g. 2x3");
    return map;
}

// The world ranks in mapped order: position k of the renumbered processes is world rank
// order[k]. With a PxQ map the positions run along the rows of the matrix whose row r holds
// r, P+r, 2P+r, ...; without a map, the identity. Position 0 is always world rank 0.
[[nodiscard]] inline std::vector<int> mapped_order(int world_size, rank_map map) {
    std::vector<int> order;
    order.reserve(static_cast<std::size_t>(world_size));
    if (!map.enabled()) {
        for (int r = 0; r < world_size; ++r) order.push_back(r);
        return order;
    }
    if (static_cast<long>(map.rows) * map.columns != world_size)
        throw input_error("-map " + std::to_string(map.rows) + "x" + std::to_string(map.columns) +
                          ": " + std::to_string(map.rows) + " x " + std::to_string(map.columns) +
                          " processes do not match the " + std::to_string(world_size) +
                          " processes of this run");
    for (int r = 0; r < map.rows; ++r)
        for (int c = 0; c < map.columns; ++c) order.push_back(c * map.rows + r);
    return order;
}

// The active processes for one run at Q processes per group.
struct group_layout {
    int processes = 0;  // Q
    int groups = 1;
    int waiting = 0;    // processes idle in MPI_Barrier
    std::vector<std::vector<int>> group_ranks;  // world ranks per group (position order)
    std::vector<std::vector<int>> rank_order;   // -map: the active ranks as matrix rows
    // The node of each rank of group_ranks (mpi/node.hpp's numbering); empty where the run's
    // nodes are not known (name_nodes was not given them)
    std::vector<std::vector<int>> group_nodes;
    int run_nodes = 1;  // the nodes of the whole run, where known

    // Names the node of every grouped rank from `node_of_rank` (by world rank); leaves the
    // layout without nodes if it does not cover every rank.
    void name_nodes(const std::vector<int>& node_of_rank) {
        group_nodes.clear();
        run_nodes = node_of_rank.empty()
                        ? 1
                        : 1 + *std::max_element(node_of_rank.begin(), node_of_rank.end());
        for (const auto& ranks : group_ranks) {
            std::vector<int> nodes;
            for (const int r : ranks) {
                if (r < 0 || static_cast<std::size_t>(r) >= node_of_rank.size()) {
                    group_nodes.clear();
                    return;
                }
                nodes.push_back(node_of_rank[static_cast<std::size_t>(r)]);
            }
            group_nodes.push_back(std::move(nodes));
        }
    }
};

// `multiple`: split into floor(P/Q) disjoint groups (one when Q > P/2, which equals the standard
// mode), or at most `group_limit` of them when it is > 0. `map_columns` > 0 lays the active ranks
// out in rows of that width for the header.
[[nodiscard]] inline group_layout layout_groups(const std::vector<int>& order, int processes,
                                                bool multiple, int map_columns = 0,
                                                int group_limit = 0) {
    const int world = static_cast<int>(order.size());
    group_layout g;
    g.processes = processes;
    g.groups = multiple && processes > 0 ? std::max(1, world / processes) : 1;
    if (group_limit > 0) g.groups = std::min(g.groups, group_limit);
    const int active = g.groups * processes;
    g.waiting = world - active;
    for (int k = 0; k < g.groups; ++k) {
        g.group_ranks.emplace_back(order.begin() + k * processes,
                                   order.begin() + (k + 1) * processes);
    }
    if (map_columns > 0) {
        for (int k = 0; k < active; k += map_columns) {
            const int end = std::min(active, k + map_columns);
            g.rank_order.emplace_back(order.begin() + k, order.begin() + end);
        }
    }
    return g;
}

}  // namespace parbench::mpi
