// Aggregation policies: how many transfers one timing covers, and how the timed loop is cut into
// batches for a distribution.
//
//  * aggregate     — IMB's M = n_sample: transfers complete as a whole (MSGSPERSAMPLE rule).
//  * non_aggregate — M = 1: every transfer completes inside its iteration (MSGS_NONAGGR rule).
//  * batched       — the n_sample iterations are timed as up to `max_batches` consecutive
//                    batches, one clock read per boundary: the total is IMB's Δt, the batches
//                    give the distribution, and no barrier or branch enters the timed region.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace parbench::policy::aggregation {

struct aggregate {
    static constexpr bool is_aggregate = true;
    static constexpr std::string_view mode = "aggregate";
};

struct non_aggregate {
    static constexpr bool is_aggregate = false;
    static constexpr std::string_view mode = "non_aggregate";
};

struct batched {
    std::size_t max_batches = 64;

    // Iteration index at which each batch ends (exclusive), ascending; the last is n. Batches
    // differ in length by at most one iteration.
    [[nodiscard]] std::vector<std::uint64_t> batch_ends(std::uint64_t n) const {
        const std::uint64_t batches =
            std::max<std::uint64_t>(1, std::min<std::uint64_t>(n, max_batches));
        std::vector<std::uint64_t> ends(static_cast<std::size_t>(batches));
        for (std::uint64_t b = 0; b < batches; ++b) ends[b] = (b + 1) * n / batches;
        return ends;
    }
};

}  // namespace parbench::policy::aggregation

namespace parbench::policy {

template <class Aggregation>
concept aggregation_policy = requires {
    { Aggregation::is_aggregate } -> std::convertible_to<bool>;
    { Aggregation::mode } -> std::convertible_to<std::string_view>;
};

}  // namespace parbench::policy
