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
#include <vector>

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
// `part`: the part of the section the transfer uses (window_view::parts; 0 where there is one).

struct put {
    static constexpr effect does = effect::writes;
    static constexpr bool fetches = false;
    static void issue(const kernel_context& c, std::uint64_t i, const window_view& v, int target,
                      int part = 0) {
        MPI_Put(v.local(i, part), count_of(v.bytes), MPI_BYTE, target,
                v.displacement(target, i, c.rank, part), count_of(v.bytes), MPI_BYTE, v.win);
    }
};

struct get {
    static constexpr effect does = effect::reads;
    static constexpr bool fetches = false;
    static void issue(const kernel_context& c, std::uint64_t i, const window_view& v, int target,
                      int part = 0) {
        MPI_Get(v.local(i, part), count_of(v.bytes), MPI_BYTE, target,
                v.displacement(target, i, c.rank, part), count_of(v.bytes), MPI_BYTE, v.win);
    }
};

struct accumulate {
    static constexpr effect does = effect::sums;
    static constexpr bool fetches = false;
    static void issue(const kernel_context& c, std::uint64_t i, const window_view& v, int target,
                      int /*part*/ = 0) {
        MPI_Accumulate(v.local(i), floats_of(v.bytes), MPI_FLOAT, target,
                       v.displacement(target, i, c.rank), floats_of(v.bytes), MPI_FLOAT, MPI_SUM,
                       v.win);
    }
};

struct get_accumulate {
    static constexpr effect does = effect::sums;
    static constexpr bool fetches = true;
    static void issue(const kernel_context& c, std::uint64_t i, const window_view& v, int target,
                      int /*part*/ = 0) {
        const int n = floats_of(v.bytes);
        MPI_Get_accumulate(v.local(i), n, MPI_FLOAT, v.result + v.slot_offset(i), n,
                           MPI_FLOAT, target, v.displacement(target, i, c.rank), n, MPI_FLOAT,
                           MPI_SUM, v.win);
    }
};

struct fetch_and_op {
    static constexpr effect does = effect::sums;
    static constexpr bool fetches = true;
    static void issue(const kernel_context& c, std::uint64_t i, const window_view& v, int target,
                      int /*part*/ = 0) {
        MPI_Fetch_and_op(v.local(i), v.result + v.slot_offset(i), MPI_FLOAT, target,
                         v.displacement(target, i, c.rank), MPI_SUM, v.win);
    }
};

// Compares with zero, the initial content: the first swap of a section succeeds, later ones
// leave it alone (and fetch what is there).
struct compare_and_swap {
    static constexpr effect does = effect::swaps_int;
    static constexpr bool fetches = true;
    // IMB 2021 sizes its receive buffer, and so its -off_cache offsets, as three elements
    // (RECVBUF_SIZE_3I, src_cpp/RMA/RMA_benchmark.cpp:278; IMB_rma_atomic.c:254-272).
    static constexpr std::uint64_t imb2021_lengths = 3;
    static constexpr int initial = 0;
    static void issue(const kernel_context& c, std::uint64_t i, const window_view& v, int target,
                      int /*part*/ = 0) {
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

// The part of a section the transfer of step `step` of `steps` uses (window_view::parts, IMB
// 2021's Exchange_*): the data that moves towards the left neighbour in the first part, towards
// the right one in the second, so that a put to the left (step 0) and a get from the right (the
// last step) use part 0 (IMB_rma_put.c:345-352, IMB_rma_get.c:369-377).
[[nodiscard]] constexpr int part_of(effect does, int step, int steps) noexcept {
    return does == effect::reads ? steps - 1 - step : step;
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

// The bytes of section s of this process's window that no transfer writing there left: each
// origin's step k writes its part k (part_of) at window_view::offset; where several land on one
// place (IMB 2021's All_put_all, one region for all origins), each byte must be one of theirs.
[[nodiscard]] inline std::uint64_t written_defects(const kernel_context& c, const window_view& v,
                                                   std::uint64_t s) {
    struct writer {
        std::size_t at;      // where it lands in this window
        int rank;            // whose bytes
        std::size_t source;  // the offset of its local slot part (its fill's index)
    };
    std::vector<writer> writers;
    for (int r = 0; r < c.size; ++r) {
        if (!c.pairs.initiator(r, c.size)) continue;
        for (int step = 0, n = c.pairs.target_count(r, c.size); step < n; ++step)
            if (c.pairs.target(r, c.size, step) == c.rank) {
                const int part = part_of(effect::writes, step, n);
                writers.push_back({v.offset(s, r, part), r, v.slot_offset(s) + v.part_offset(part)});
            }
    }
    std::sort(writers.begin(), writers.end(),
              [](const writer& a, const writer& b) { return a.at < b.at; });
    std::uint64_t defects = 0;
    for (std::size_t first = 0, last = 0; first < writers.size(); first = last) {
        while (last < writers.size() && writers[last].at == writers[first].at) ++last;
        const std::byte* place = v.window + writers[first].at;
        if (last - first == 1) {
            defects += check::count_byte_defects({place, v.bytes}, writers[first].rank,
                                                 writers[first].source);
            continue;
        }
        for (std::size_t j = 0; j < v.bytes; ++j) {
            bool theirs = false;
            for (std::size_t w = first; w < last && !theirs; ++w)
                theirs = place[j] == check::byte_value(writers[w].rank, writers[w].source + j);
            defects += theirs ? 0 : 1;
        }
    }
    return defects;
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
            for (std::uint64_t s = 0; s < touched && v.parts > 1; ++s) {
                // Each part from its own neighbour, at its part of the section.
                for (int step = 0, steps = c.target_count(); step < steps; ++step) {
                    const int part = part_of(Effect, step, steps);
                    defects += check::count_byte_defects({v.local(s, part), v.bytes},
                                                         c.target(step),
                                                         v.offset(s, c.rank, part));
                }
            }
            for (std::uint64_t s = 0; s < touched && v.parts <= 1; ++s) {
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
            for (std::uint64_t s = 0; s < touched; ++s) defects += written_defects(c, v, s);
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

// The regions of a window: one shared by all origins, or, where several address one target, one
// per origin under the IMB 4.0 guide (All_*_all, Exchange_*; rma_window.hpp) and IMB 2021's
// layout under 2021 (transfer_def::window): one region for All_*_all (`per_origin`), sections of
// two parts for Exchange_* (`per_neighbour`).
enum class regions { shared, per_origin, per_neighbour };

// A benchmark definition from an operation and a Shape that provides:
//   descriptor (pattern::one_sided), epoch (mpi::window_epoch), completion (a type of
//   mpi::rma), traits (their modes), window_regions (regions); a shape derives from
//   mpi::definition_defaults
// The kernel issues the operation to each of the initiator's targets in pairing order; the
// completion is where the runner places it.
template <class Operation, class Shape>
struct transfer_def : Shape {
    using completion = typename Shape::completion;
    // IMB 2021's buffer lengths in units of X, from which its -off_cache offsets are taken (its
    // r_len: RECVBUF_SIZE_2I for Exchange_*, src_cpp/RMA/RMA_benchmark.cpp:219-232, 3I for
    // Compare_and_swap, the rest I).
    static constexpr std::uint64_t imb2021_lengths = [] {
        if constexpr (requires { Operation::imb2021_lengths; })
            return Operation::imb2021_lengths;
        else
            return Shape::window_regions == regions::per_neighbour ? std::uint64_t{2}
                                                                   : std::uint64_t{1};
    }();
    // `imb2021`: where several origins address one target, IMB 2021's layout (one region for
    // All_*_all, two parts per section for Exchange_*) instead of a region per origin.
    static mpi::window_plan window(std::size_t x, std::uint64_t sections, int np,
                                   bool imb2021 = false) {
        const bool several = Shape::window_regions != regions::shared;
        return {.creation = mpi::window_creation::create,
                .epoch = Shape::epoch,
                .bytes = x,
                .sections = sections,
                .origin_regions = several && !imb2021 ? np : 1,
                .parts = imb2021 && Shape::window_regions == regions::per_neighbour ? 2 : 1,
                .result_bytes = Operation::fetches ? x * sections : 0};
    }
    struct kernel {
        void operator()(const kernel_context& c, std::uint64_t i, const window_view& v) const {
            for (int step = 0, n = c.target_count(); step < n; ++step)
                Operation::issue(c, i, v, c.target(step), part_of(Operation::does, step, n));
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
    using verify_check = window_contents<Operation::does>;
};

}  // namespace parbench::imb_one_sided
