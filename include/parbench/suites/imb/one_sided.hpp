// What IMB-EXT and IMB-RMA definitions share: the one-sided operations (one elementary transfer
// each), the -check that validates target memory and fetched data, and transfer_def, which makes
// a benchmark definition from an operation and a shape (pattern, window epoch, completion,
// modes). No timing code: the runner places the completion (mpi/timed_loop.hpp).
#pragma once

#include <parbench/mpi/check.hpp>
#include <parbench/mpi/rma_completion.hpp>
#include <parbench/mpi/rma_window.hpp>
#include <parbench/mpi/timed_loop.hpp>
#include <parbench/pattern/one_sided.hpp>
#include <parbench/mpi/definition.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>

namespace parbench::imb_one_sided {

using mpi::kernel_context;
using mpi::window_view;
namespace check = mpi::check;

[[nodiscard]] inline int count_of(std::size_t bytes) noexcept { return static_cast<int>(bytes); }
[[nodiscard]] inline int floats_of(std::size_t bytes) noexcept {
    return static_cast<int>(bytes / sizeof(float));
}

// How target memory looks after n iterations, and what an origin fetched: the kind of data an
// operation moves decides what -check expects.
enum class effect {
    writes,     // MPI_Put: the target section holds the origin's bytes
    reads,      // MPI_Get: the origin's slot holds the target's bytes
    sums,       // MPI_Accumulate & co.: the target section holds the sum of what every origin added
    swaps_int,  // MPI_Compare_and_swap: the first origin's int replaced the initial zero
};

// --- operations: one elementary transfer to `target`, iteration i ------------------------------

struct put {
    static constexpr effect does = effect::writes;
    static constexpr bool fetches = false;
    static void issue(const kernel_context& c, std::uint64_t i, const window_view& v, int target) {
        MPI_Put(v.local(i), count_of(v.bytes), MPI_BYTE, target, v.displacement(target, i, c.rank),
                count_of(v.bytes), MPI_BYTE, v.win);
    }
};

struct get {
    static constexpr effect does = effect::reads;
    static constexpr bool fetches = false;
    static void issue(const kernel_context& c, std::uint64_t i, const window_view& v, int target) {
        MPI_Get(v.local(i), count_of(v.bytes), MPI_BYTE, target, v.displacement(target, i, c.rank),
                count_of(v.bytes), MPI_BYTE, v.win);
    }
};

struct accumulate {
    static constexpr effect does = effect::sums;
    static constexpr bool fetches = false;
    static void issue(const kernel_context& c, std::uint64_t i, const window_view& v, int target) {
        MPI_Accumulate(v.local(i), floats_of(v.bytes), MPI_FLOAT, target,
                       v.displacement(target, i, c.rank), floats_of(v.bytes), MPI_FLOAT, MPI_SUM,
                       v.win);
    }
};

struct get_accumulate {
    static constexpr effect does = effect::sums;
    static constexpr bool fetches = true;
    static void issue(const kernel_context& c, std::uint64_t i, const window_view& v, int target) {
        const int n = floats_of(v.bytes);
        MPI_Get_accumulate(v.local(i), n, MPI_FLOAT, v.result + v.slot_offset(i), n,
                           MPI_FLOAT, target, v.displacement(target, i, c.rank), n, MPI_FLOAT,
                           MPI_SUM, v.win);
    }
};

struct fetch_and_op {
    static constexpr effect does = effect::sums;
    static constexpr bool fetches = true;
    static void issue(const kernel_context& c, std::uint64_t i, const window_view& v, int target) {
        MPI_Fetch_and_op(v.local(i), v.result + v.slot_offset(i), MPI_FLOAT, target,
                         v.displacement(target, i, c.rank), MPI_SUM, v.win);
    }
};

// Compares with zero, the initial content: the first swap of a section succeeds, later ones
// leave it alone (and fetch what is there).
struct compare_and_swap {
    static constexpr effect does = effect::swaps_int;
    static constexpr bool fetches = true;
    static constexpr int initial = 0;
    static void issue(const kernel_context& c, std::uint64_t i, const window_view& v, int target) {
        MPI_Compare_and_swap(v.local(i), &initial, v.result + v.slot_offset(i), MPI_INT,
                             target, v.displacement(target, i, c.rank), v.win);
    }
};

// --- -check ----------------------------------------------------------------------------------

// The int an origin swaps in: never the initial zero.
[[nodiscard]] constexpr int swap_value(int rank) noexcept { return rank + 1; }

// How many of n iterations went to section s of `sections`.
[[nodiscard]] constexpr std::uint64_t uses_of_section(std::uint64_t n, std::uint64_t sections,
                                                      std::uint64_t s) noexcept {
    return n / sections + (s < n % sections ? 1 : 0);
}

// How many transfers of one iteration origin `origin` addresses to `target` (two where both chain
// neighbours are the same process).
[[nodiscard]] inline int transfers_between(const kernel_context& c, int origin, int target) {
    int k = 0;
    if (!c.pairs.initiator(origin, c.size)) return 0;
    for (int step = 0, n = c.pairs.target_count(origin, c.size); step < n; ++step)
        k += c.pairs.target(origin, c.size, step) == target ? 1 : 0;
    return k;
}

// Fills what is sent, clears what receives, then counts after n iterations the elements of the
// touched sections that differ from what the operation must have left: in the target's window
// for writes, sums and swaps, in the origin's slots for reads (from whichever of its targets).
template <effect Effect>
struct window_contents {
    void prepare(const kernel_context& c, const window_view& v) const {
        const std::size_t region = v.slot_bytes() * v.sections;
        const std::size_t window = region * static_cast<std::size_t>(std::max(1, v.origin_regions));
        const std::span<std::byte> origin(v.origin, region);
        std::memset(v.window, 0, window);
        if constexpr (Effect == effect::reads) {
            check::fill_bytes({v.window, window}, c.rank);
            std::memset(v.origin, 0, region);
        } else if constexpr (Effect == effect::writes) {
            check::fill_bytes(origin, c.rank);
        } else if constexpr (Effect == effect::sums) {
            check::fill_floats(origin, c.rank);
        } else {
            for (std::uint64_t s = 0; s < v.sections; ++s) {
                const int value = swap_value(c.rank);
                std::memcpy(v.local(s), &value, sizeof value);
            }
        }
    }

    [[nodiscard]] std::uint64_t verify(const kernel_context& c, std::uint64_t n,
                                       const window_view& v) const {
        const std::uint64_t touched = std::min<std::uint64_t>(n, v.sections);
        std::uint64_t defects = 0;
        if constexpr (Effect == effect::reads) {
            if (c.target_count() == 0) return 0;
            for (std::uint64_t s = 0; s < touched; ++s) {
                const std::span<const std::byte> slot(v.local(s), v.bytes);
                std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
                for (int step = 0; step < c.target_count(); ++step)
                    best = std::min(best, check::count_byte_defects(slot, c.target(step),
                                                                    v.offset(s, c.rank)));
                defects += best;
            }
            return defects;
        }
        if constexpr (Effect == effect::writes) {
            for (int r = 0; r < c.size; ++r) {
                if (transfers_between(c, r, c.rank) == 0) continue;
                for (std::uint64_t s = 0; s < touched; ++s)
                    defects += check::count_byte_defects({v.window + v.offset(s, r), v.bytes}, r,
                                                         v.slot_offset(s));
            }
        }
        if constexpr (Effect == effect::sums) {
            // Every origin adds into the same sections (one region) k times per iteration.
            const std::size_t floats = v.bytes / sizeof(float);
            for (std::uint64_t s = 0; s < touched; ++s) {
                for (std::size_t j = 0; j < floats; ++j) {
                    double want = 0.0;
                    for (int r = 0; r < c.size; ++r)
                        want += transfers_between(c, r, c.rank) *
                                static_cast<double>(uses_of_section(n, v.sections, s)) *
                                check::float_value(r, v.slot_offset(s) / sizeof(float) + j);
                    float got = 0.0f;
                    std::memcpy(&got, v.window + v.offset(s) + j * sizeof(float), sizeof got);
                    defects += got != static_cast<float>(want) ? 1 : 0;
                }
            }
        } else if constexpr (Effect == effect::swaps_int) {
            bool targeted = false;
            for (int r = 0; r < c.size; ++r) targeted |= transfers_between(c, r, c.rank) > 0;
            for (std::uint64_t s = 0; s < touched && targeted; ++s) {
                int got = 0;
                std::memcpy(&got, v.window + v.offset(s), sizeof got);
                bool from_an_origin = false;
                for (int r = 0; r < c.size; ++r)
                    from_an_origin |= transfers_between(c, r, c.rank) > 0 && got == swap_value(r);
                defects += from_an_origin ? 0 : 1;
            }
        }
        return defects;
    }
};

// --- definitions -------------------------------------------------------------------------------

// The regions of a window: one shared by all origins, or one per origin where several write
// into one target (All_*_all, Exchange_*; rma_window.hpp).
enum class regions { shared, per_origin };

// A benchmark definition from an operation and a Shape that provides:
//   descriptor (pattern::one_sided), epoch (mpi::window_epoch), completion (a type of
//   mpi::rma), traits (their modes), window_regions (regions); a shape derives from
//   mpi::definition_defaults
// The kernel issues the operation to each of the initiator's targets in pairing order; the
// completion is where the runner places it.
template <class Operation, class Shape>
struct transfer_def : Shape {
    using completion = typename Shape::completion;
    static mpi::window_plan window(std::size_t x, std::uint64_t sections, int np) {
        return {.creation = mpi::window_creation::create,
                .epoch = Shape::epoch,
                .bytes = x,
                .sections = sections,
                .origin_regions = Shape::window_regions == regions::per_origin ? np : 1,
                .result_bytes = Operation::fetches ? x * sections : 0};
    }
    struct kernel {
        void operator()(const kernel_context& c, std::uint64_t i, const window_view& v) const {
            for (int step = 0, n = c.target_count(); step < n; ++step)
                Operation::issue(c, i, v, c.target(step));
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
    using verify_check = window_contents<Operation::does>;
};

}  // namespace parbench::imb_one_sided
