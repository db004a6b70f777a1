// Reductions other than IMB's (phases.hpp's reduce: t_max/t_min/t_avg across ranks): how the
// gathered per-rank figures of one measurement become its record.
//
//   reduce_per_repetition       PAW (catalogue C.5, C.6): every task times each repetition, the
//                               repetition's time is the MINIMUM across tasks (MPI_Reduce MIN;
//                               the MAXIMUM for PAW's Bcast and Scatter), and t_min/t_max/t_avg/
//                               stddev are over the NREPS repetitions
//   reduce_min_per_repetition   the same with the minimum
#pragma once

#include <parbench/core/statistics.hpp>
#include <parbench/mpi/active_set.hpp>
#include <parbench/mpi/phases.hpp>
#include <parbench/pattern/pattern.hpp>
#include <parbench/report/result.hpp>

#include <algorithm>
#include <limits>
#include <vector>

namespace parbench::mpi {

// How one repetition's per-task times combine.
enum class across_tasks { minimum, maximum };

// `figures.ranks[k].batch_s` are the repetitions of rank k (seconds per iteration); the record's
// times are µs per iteration divided by the pattern's time_divisor. Empty off the root.
template <pattern::descriptor Pattern>
[[nodiscard]] std::vector<result_record> reduce_per_repetition(
    const Pattern& pattern, const record_labels& labels, const group_layout& layout,
    std::uint64_t bytes, bool check, const gathered& figures, across_tasks combine) {
    std::vector<result_record> records;
    if (!figures.root || figures.ranks.empty()) return records;
    std::size_t reps = std::numeric_limits<std::size_t>::max();
    std::uint64_t n = 1;
    std::uint64_t defects = 0;
    for (const rank_timing& f : figures.ranks) {
        reps = std::min(reps, f.batch_s.size());
        n = std::max(n, f.iterations);
        defects += f.defects;
    }
    const bool minimum = combine == across_tasks::minimum;
    std::vector<double> best_us(reps, minimum ? std::numeric_limits<double>::infinity() : 0.0);
    for (const rank_timing& f : figures.ranks)
        for (std::size_t b = 0; b < reps; ++b) {
            const double us = f.batch_s[b] * 1e6 / pattern.time_divisor;
            best_us[b] = minimum ? std::min(best_us[b], us) : std::max(best_us[b], us);
        }
    result_record r;
    r.suite = labels.suite;
    r.benchmark = labels.benchmark;
    r.klass = pattern::class_in_groups(pattern, layout.groups);
    r.statistics = time_statistics::over_repetitions;
    r.block.title = labels.benchmark;
    r.block.processes = layout.processes;
    r.block.mode = labels.mode;
    // Where the processes ran: a test of pairs (PAW's i <-> i + n/2) names each pair's nodes.
    if constexpr (requires { pattern.pairs; })
        r.placement = pair_placement(layout, [&](int position, int q) {
            return pattern.pairs.partner(position, q);
        });
    else
        r.placement = placement_of(layout, -1);
    r.bytes = bytes;
    r.has_bytes = labels.has_bytes;
    r.iterations = reps > 0 ? n / reps : n;  // NLOOP: calls per repetition
    const summary s = summarize(best_us);
    r.t_min_us = s.min;
    r.t_max_us = s.max;
    r.t_avg_us = s.mean;
    r.distribution_us = s;
    r.samples_us = best_us;
    r.repetitions = repetition_figures{.nreps = reps};
    if (check) r.defects = defects;
    records.push_back(std::move(r));
    return records;
}

template <pattern::descriptor Pattern>
[[nodiscard]] std::vector<result_record> reduce_min_per_repetition(
    const Pattern& pattern, const record_labels& labels, const group_layout& layout,
    std::uint64_t bytes, bool check, const gathered& figures) {
    return reduce_per_repetition(pattern, labels, layout, bytes, check, figures,
                                 across_tasks::minimum);
}

}  // namespace parbench::mpi
