// Aggregation policies: how many transfers one timing covers, and how the timed loop is cut into
// batches for a distribution.
//
//  * aggregate     — IMB's M = n_sample: transfers complete as a whole (MSGSPERSAMPLE rule).
//  * non_aggregate — M = 1: every transfer completes inside its iteration (MSGS_NONAGGR rule).
//  * batched       — the n_sample iterations are timed as up to `max_batches` consecutive
//                    batches, one clock read per boundary: the total is IMB's Δt, the batches
//                    give the distribution, and no barrier or branch enters the timed region.
//                    Each boundary read sits on the critical path of the loop (in a ping-pong
//                    both processes' reads do), so a batch lasts at least `min_batch_s`: with
//                    64 batches a 0.2 us PingPong paid ~1.5 % for its reads; with the 20 us
//                    floor it pays < 0.5 %, and large messages keep all 64 samples.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
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

// How many times an aggregate sample (one epoch of M transfers and one completion) is timed:
// `wanted` epochs (min_ci_samples, for a confidence interval), unless the epochs after the first
// have a budget, `repeats_budget_s` seconds for all of them together: then `wanted` where they
// fit in it beside an epoch of `epoch_s`, and one otherwise. IMB 2021 times one epoch per size;
// the budget keeps parbench's repeats to the sizes where they cost little
// (imb::methodology::aggregate_repeats_budget_s). All or one, so that a row has either a
// confidence interval or the single sample of IMB's method, never a few samples without one.
// An infinite budget or an unknown epoch time (0) gives `wanted`; no budget (0) gives 1.
[[nodiscard]] inline std::uint64_t epochs_within(std::uint64_t wanted, double repeats_budget_s,
                                                 double epoch_s) noexcept {
    if (wanted <= 1 || !(repeats_budget_s > 0.0)) return 1;
    if (!(repeats_budget_s < std::numeric_limits<double>::infinity()) || !(epoch_s > 0.0))
        return wanted;
    return static_cast<double>(wanted - 1) * epoch_s <= repeats_budget_s ? wanted : 1;
}

struct batched {
    std::size_t max_batches = 64;
    double min_batch_s = 20e-6;

    // How many batches n iterations of `iteration_s` seconds each are cut into: at most
    // max_batches and n, and few enough that each lasts min_batch_s (at least one). An unknown
    // iteration time (0) applies no floor.
    [[nodiscard]] std::uint64_t batch_count(std::uint64_t n, double iteration_s = 0.0) const {
        std::uint64_t batches = std::max<std::uint64_t>(1, std::min<std::uint64_t>(n, max_batches));
        if (iteration_s > 0.0 && min_batch_s > 0.0) {
            const double affordable = static_cast<double>(n) * iteration_s / min_batch_s;
            if (affordable < static_cast<double>(batches))
                batches = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(affordable));
        }
        return batches;
    }

    // Iteration index at which each batch ends (exclusive), ascending; the last is n. Batches
    // differ in length by at most one iteration. Every process of a measurement must pass the
    // same iteration_s (the runner passes the estimate agreed with MPI_MAX), so that batch b
    // covers the same iterations everywhere.
    [[nodiscard]] std::vector<std::uint64_t> batch_ends(std::uint64_t n,
                                                        double iteration_s = 0.0) const {
        const std::uint64_t batches = batch_count(n, iteration_s);
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
