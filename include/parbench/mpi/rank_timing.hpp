// One process's figures for one timing (mpi/phases.hpp's time phase), and the row of doubles
// they travel in when the gather phase collects them on the first active process. The row's
// layout comes from one field table, rank_timing_fields: writing and reading a row walk the same
// table, so a field added to rank_timing and to the table travels, and no slot number is written
// twice. No MPI here: the row is plain data (tests/unit/mpi/rank_timing_test.cpp).
#pragma once

#include <parbench/mpi/check.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <type_traits>
#include <vector>

namespace parbench::mpi {

struct rank_timing {
    int group = -1;
    std::uint64_t iterations = 0;
    double total_s = 0.0;           // IMB's Δt: the whole timed loop
    double cpu_s = 0.0;             // process CPU time over the timed loop
    std::uint64_t defects = 0;      // -check
    std::vector<double> batch_s;    // per-iteration time of each batch (window sync: each call)
    // Window sync (the same on every process): calls kept and dropped for a late start.
    bool windowed = false;
    std::uint64_t valid_calls = 0;
    std::uint64_t invalid_calls = 0;
    double window_s = 0.0;
    // Confidence stopping (the same on every process): the target, the verdict, the rounds.
    double ci_target = 0.0;
    int ci_verdict = 0;             // policy::iterations::confidence_verdict
    int rounds = 1;
    // An aggregate completion: the epoch (M iterations, one completion) timed this many times,
    // each a sample; `iterations` counts all of them, M is iterations / epochs. 0: no epochs
    // (the iterations complete one by one, or in batches).
    std::uint64_t epochs = 0;
    // IMB 2021's block budget ran out before this timing (policy/imb_block_budget.hpp): nothing
    // was timed. Agreed by every active process, so it is not gathered.
    bool timed_out = false;
    // -check: what this process's check found (its count is `defects`, the first mismatching
    // elements listed) and the timed iteration whose data it read (the last one, from 0). Not
    // gathered: they stay on the process that found them (OSU's -clog log).
    check::findings found{};
    std::uint64_t checked_iteration = 0;

    friend bool operator==(const rank_timing&, const rank_timing&) = default;
};

// One scalar field of rank_timing as a slot of the gathered row: written as a double, read back
// into the field's own type (counts below 2^53 travel exactly).
struct rank_timing_field {
    const char* name;
    double (*write)(const rank_timing&);
    void (*read)(rank_timing&, double);
};

namespace detail {

template <auto Member>
[[nodiscard]] constexpr rank_timing_field scalar_field(const char* name) noexcept {
    return {name, [](const rank_timing& t) { return static_cast<double>(t.*Member); },
            [](rank_timing& t, double v) {
                using type = std::remove_cvref_t<decltype(t.*Member)>;
                if constexpr (std::is_same_v<type, bool>)
                    t.*Member = v != 0.0;
                else
                    t.*Member = static_cast<type>(v);
            }};
}

}  // namespace detail

// Every scalar field of rank_timing, in row order; batch_s follows them (its length first).
inline constexpr rank_timing_field rank_timing_fields[] = {
    detail::scalar_field<&rank_timing::group>("group"),
    detail::scalar_field<&rank_timing::iterations>("iterations"),
    detail::scalar_field<&rank_timing::total_s>("total_s"),
    detail::scalar_field<&rank_timing::cpu_s>("cpu_s"),
    detail::scalar_field<&rank_timing::defects>("defects"),
    detail::scalar_field<&rank_timing::windowed>("windowed"),
    detail::scalar_field<&rank_timing::valid_calls>("valid_calls"),
    detail::scalar_field<&rank_timing::invalid_calls>("invalid_calls"),
    detail::scalar_field<&rank_timing::window_s>("window_s"),
    detail::scalar_field<&rank_timing::ci_target>("ci_target"),
    detail::scalar_field<&rank_timing::ci_verdict>("ci_verdict"),
    detail::scalar_field<&rank_timing::rounds>("rounds"),
    detail::scalar_field<&rank_timing::epochs>("epochs"),
};

// The slots before the batch times: every scalar field, then the number of batches the row holds.
inline constexpr std::size_t rank_row_header = std::size(rank_timing_fields) + 1;

// The row of `t` with its first `batches` batch times: rank_row_header + batches doubles, the
// width every process of one gather agrees on (unused batch slots stay 0).
[[nodiscard]] inline std::vector<double> rank_row(const rank_timing& t, std::size_t batches,
                                                  std::size_t width) {
    batches = std::min(batches, t.batch_s.size());
    std::vector<double> row(std::max(width, rank_row_header + batches), 0.0);
    std::size_t slot = 0;
    for (const rank_timing_field& f : rank_timing_fields) row[slot++] = f.write(t);
    row[slot] = static_cast<double>(batches);
    std::copy_n(t.batch_s.begin(), batches, row.begin() + rank_row_header);
    return row;
}

// The figures of one process read back from its row.
[[nodiscard]] inline rank_timing from_rank_row(std::span<const double> row) {
    rank_timing t;
    std::size_t slot = 0;
    for (const rank_timing_field& f : rank_timing_fields) f.read(t, row[slot++]);
    const std::size_t batches = std::min(static_cast<std::size_t>(row[slot]),
                                         row.size() - rank_row_header);
    t.batch_s.assign(row.begin() + rank_row_header, row.begin() + rank_row_header + batches);
    return t;
}

}  // namespace parbench::mpi
