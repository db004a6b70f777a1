// The one sweep every MPI-family suite runs a benchmark through: process counts -> (passes ->)
// sizes -> warm-up once per count -> one measurement per size -> records to the host -> the
// count's warnings. A *family* (IMB, OSU, IMB-IO, ...) is the policy type that fills in each
// step; the sweep owns only the order of the steps and the notes of skipped sizes, so that no
// family writes its own loop.
//
//   mpi::sweep(imb::family<Def>{.run = st, .selected = sel, .name = name});
//
// A family F provides:
//   process_counts()        the counts it runs at (any range of int; empty: nothing to run)
//   sizes()                 the sizes of every count (any range of std::uint64_t)
//   open(q) -> F::count     the state of one count: its session and what the warnings need
//   progress(count, x)      before each size (the host's progress, a deadline)
//   measure(count, x)       one size; returns an mpi::measurement. With `passes` (below) it is
//                           measure(count, x, mpi::sweep_pass<P>{}) for P in [0, passes)
//   publish(count, record)  hands one record of the size to the host
//   close(count, notes)     after the count: its warnings, from the sweep's size_notes
// and optionally:
//   passes                  static constexpr: how many times the sizes are swept per count
//                           (IMB-EXT/RMA/IO: one per mode, in the family's order); 1 without it
//   warm_up(count, x)       once per count, after the first size's progress (so that a time
//                           limit covers it) and before its measurement
//   stopped(count) -> bool  after each size's records are published: true ends the count's
//                           sweep there (its remaining sizes, and passes, are not run; close
//                           follows, then the next count). It must be the same on every process
//                           (PAW's per-size budget: the estimate behind it is agreed with
//                           MPI_MAX); without it every size of every pass runs
//   ended(count) -> bool    after each size's records are published: true ends the whole
//                           benchmark there (the count's remaining sizes and passes, and every
//                           later count; close follows for this count). The same on every
//                           process (IMB 2021's -time budget per block: its verdict is agreed
//                           over the world, mpi::end_of_size)
//
// Collective over the families' world: every process makes the same calls in the same order, so
// a skipped size never ends a sweep early (idle processes cannot know of it); only a `stopped`
// that every process agrees on does.
//
// This header includes no MPI and no runner: a family's own header brings what it measures with.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace parbench::mpi {

// The sizes of one process count that were not measured: over the memory cap (from which size,
// and the largest need), or because some process could not allocate.
struct size_notes {
    std::uint64_t first_skipped_bytes = 0;
    std::size_t worst_need_bytes = 0;
    bool allocation_failed = false;

    // Notes one size's measurement (anything with skipped_need_bytes and allocation_failed).
    template <class Measurement>
    void note(std::uint64_t bytes, const Measurement& m) noexcept {
        if (m.skipped_need_bytes > 0 && worst_need_bytes == 0) first_skipped_bytes = bytes;
        if (m.skipped_need_bytes > worst_need_bytes) worst_need_bytes = m.skipped_need_bytes;
        allocation_failed = allocation_failed || m.allocation_failed;
    }
    [[nodiscard]] bool skipped_for_memory() const noexcept { return worst_need_bytes > 0; }
};

// Which pass over the sizes a measurement belongs to: P, from 0.
template <std::size_t P>
struct sweep_pass {};

template <class F>
concept sweep_family = requires(F& f, typename F::count& c, const size_notes& n) {
    f.process_counts();
    f.sizes();
    { f.open(int{}) } -> std::same_as<typename F::count>;
    f.progress(c, std::uint64_t{});
    f.close(c, n);
};

template <class F>
[[nodiscard]] consteval std::size_t passes_of() noexcept {
    if constexpr (requires { F::passes; })
        return F::passes;
    else
        return 1;
}

// Runs one benchmark: see the header comment. Collective over the family's world.
template <class F>
    requires sweep_family<std::remove_cvref_t<F>>  // a named family (an lvalue) too
void sweep(F&& family) {
    using family_type = std::remove_cvref_t<F>;
    constexpr std::size_t passes = passes_of<family_type>();
    const auto counts = family.process_counts();
    const auto sizes = family.sizes();
    bool ended = false;
    for (const int q : counts) {
        typename family_type::count c = family.open(q);
        size_notes notes;
        bool warmed_up = false;
        bool stopped = false;
        const auto one_pass = [&]<std::size_t P>(sweep_pass<P> pass) {
            if (stopped) return;
            for (const std::uint64_t x : sizes) {
                family.progress(c, x);
                if constexpr (requires { family.warm_up(c, x); }) {
                    if (!warmed_up) family.warm_up(c, x);
                }
                warmed_up = true;
                auto m = [&] {
                    if constexpr (passes == 1 && requires { family.measure(c, x); })
                        return family.measure(c, x);
                    else
                        return family.measure(c, x, pass);
                }();
                notes.note(x, m);
                for (auto& r : m.records) family.publish(c, r);
                if constexpr (requires { family.ended(c); }) {
                    if (family.ended(c)) {
                        ended = stopped = true;
                        return;
                    }
                }
                if constexpr (requires { family.stopped(c); }) {
                    if (family.stopped(c)) {
                        stopped = true;
                        return;
                    }
                }
            }
        };
        [&]<std::size_t... P>(std::index_sequence<P...>) {
            (one_pass(sweep_pass<P>{}), ...);
        }(std::make_index_sequence<passes>{});
        family.close(c, notes);
        if (ended) break;
    }
}

}  // namespace parbench::mpi
