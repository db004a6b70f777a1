// The timed region. n iterations run as up to a few dozen consecutive batches with one clock
// read at every batch boundary and nothing else: no barrier, no branch on options, no virtual
// call. Completions (mpi/completion.hpp) sit where the aggregation policy puts them. The first and last reads bracket IMB's Δt; the boundaries give the batch times from
// which the distribution is computed.
#pragma once

#include <mpi.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <parbench/mpi/communicator.hpp>
#include <parbench/pattern/pairing.hpp>
#include <span>

namespace parbench::mpi {

// What a kernel knows about its group for one message size.
struct kernel_context {
    MPI_Comm comm = MPI_COMM_NULL;  // the group's communicator (IMB's MY_COMM)
    int rank = 0;                   // in comm
    int size = 1;                   // processes in comm
    int left = 0;                   // periodic chain: (rank - 1 + size) % size
    int right = 0;                  // periodic chain: (rank + 1) % size
    int peer = MPI_PROC_NULL;       // pair patterns: the other process of the pair
    std::size_t bytes = 0;          // message size X
    pattern::pairing pairs{};       // who talks to whom (pattern/pairing.hpp)
    bool initiator = false;         // this process issues the iteration's operations
    bool rotate_root = true;        // rooted collectives: root i % size (IMB 4.0), else 0

    // Rooted collectives: the root of iteration i, i % size, or 0 where the root stays (IMB 2021
    // -root_shift off).
    [[nodiscard]] int root(std::uint64_t i) const noexcept {
        return rotate_root ? static_cast<int>(i % static_cast<std::uint64_t>(size)) : 0;
    }
    // The targets this process addresses in one iteration, by step.
    [[nodiscard]] int target_count() const noexcept { return pairs.target_count(rank, size); }
    [[nodiscard]] int target(int step) const noexcept { return pairs.target(rank, size, step); }
    [[nodiscard]] bool active() const noexcept { return pairs.active(rank, size); }
};

// A kernel performs iteration i: kernel(context, i, buffers).
template <class Kernel, class Buffers>
concept kernel_for = std::invocable<Kernel&, const kernel_context&, std::uint64_t, const Buffers&>;

// MPI_Wtime as a clock source (core/clock.hpp's concept).
struct wtime_clock {
    [[nodiscard]] static double now() noexcept { return MPI_Wtime(); }
};

// Runs iterations [first, first + count) untimed (warm-up and the preparatory estimate), with
// the completion placed as in the timed loop.
template <bool Aggregate, class Kernel, class View, class Completion>
    requires kernel_for<Kernel, View>
inline void run_untimed(Kernel& kernel, const kernel_context& context, const View& view,
                        Completion& completion, std::uint64_t first, std::uint64_t count) {
    if constexpr (Aggregate) {
        completion.open(context, view);
        for (std::uint64_t i = first; i < first + count; ++i) kernel(context, i, view);
        completion.close(context, view);
    } else {
        for (std::uint64_t i = first; i < first + count; ++i) {
            completion.open(context, view);
            kernel(context, i, view);
            completion.close(context, view);
        }
    }
}

// Runs iterations [0, ends.back()) in batches ending at `ends`; stamps[b] is the clock at the
// start of batch b and stamps[ends.size()] at the end of the last. stamps.size() must be
// ends.size() + 1. An aggregate completion opens before the first iteration and closes after
// the last, inside the timed region; the caller passes a single batch for it.
template <bool Aggregate, class Kernel, class View, class Completion>
    requires kernel_for<Kernel, View>
inline void run_timed_batches(Kernel& kernel, const kernel_context& context, const View& view,
                              Completion& completion, std::span<const std::uint64_t> ends,
                              std::span<double> stamps) {
    const std::uint64_t* end = ends.data();
    const std::size_t batches = ends.size();
    double* stamp = stamps.data();
    std::uint64_t i = 0;
    stamp[0] = MPI_Wtime();
    if constexpr (Aggregate) completion.open(context, view);
    for (std::size_t b = 0; b < batches; ++b) {
        const std::uint64_t stop = end[b];
        for (; i < stop; ++i) {
            if constexpr (!Aggregate) completion.open(context, view);
            kernel(context, i, view);
            if constexpr (!Aggregate) completion.close(context, view);
        }
        if constexpr (Aggregate) {
            if (b + 1 == batches) completion.close(context, view);
        }
        stamp[b + 1] = MPI_Wtime();
    }
}

// Calls timed one by one (IMB 2021's collectives, IMB_bcast.c:136-153): the clock is read around
// every call and the differences summed, then `barriers_after` barriers follow the call outside
// the timed part. sums[b] is the summed time of the calls of batch b (ending at ends[b]).
template <class Kernel, class View, class Completion>
requires kernel_for<Kernel, View>
inline void run_each_call_timed(Kernel& kernel, const kernel_context& context, const View& view,
                                Completion& completion, std::span<const std::uint64_t> ends,
                                std::span<double> sums, int barriers_after, bool dissemination) {
    std::uint64_t i = 0;
    for (std::size_t b = 0; b < ends.size(); ++b) {
        double sum = 0.0;
        for (const std::uint64_t stop = ends[b]; i < stop; ++i) {
            const double start = MPI_Wtime();
            completion.open(context, view);
            kernel(context, i, view);
            completion.close(context, view);
            sum += MPI_Wtime() - start;
            barriers(context.comm, barriers_after, dissemination);
        }
        sums[b] = sum;
    }
}

// Window sync's timed region: call i waits until the local clock reaches starts[i] (window
// arithmetic done beforehand, policy/window.hpp), notes whether this process got there late,
// runs one iteration with its completion, and reads the clock. ends[i] − starts[i] is the call's
// time from the common start. All three spans have one entry per call.
template <class Kernel, class View, class Completion>
    requires kernel_for<Kernel, View>
inline void run_windowed_calls(Kernel& kernel, const kernel_context& context, const View& view,
                               Completion& completion, std::span<const double> starts,
                               std::span<double> ends, std::span<unsigned char> late) {
    const std::size_t calls = starts.size();
    for (std::size_t i = 0; i < calls; ++i) {
        const double start = starts[i];
        double now = MPI_Wtime();
        late[i] = now > start ? 1 : 0;
        while (now < start) now = MPI_Wtime();
        completion.open(context, view);
        kernel(context, static_cast<std::uint64_t>(i), view);
        completion.close(context, view);
        ends[i] = MPI_Wtime();
    }
}

}  // namespace parbench::mpi
