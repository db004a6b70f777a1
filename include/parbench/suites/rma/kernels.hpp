// One-sided operations as kernels on an RMA window (mpi/rma_window.hpp's window_view), and their
// -check, shared by the suites that time single operations between pairs (osu, paw's p2p_get and
// p2p_put). One iteration is:
//
//   transfers<Op>          each initiator issues `window` operations to its peer, into disjoint
//                          sections (OSU's window of back-to-back transfers; 1 for latency);
//                          the completion (flush, unlock, fence, ...) is the runner's
//   fence_round_trip<Op>   OSU's active-target latency with fence: process 0 transfers, fence,
//                          process 1 transfers back, fence (reported as half the round trip)
//   pscw_round_trip<Op>    the same with post/start/complete/wait epochs
//
// Data types: MPI_CHAR for put and get; the accumulates and atomics move `element`s, by default
// MPI_UNSIGNED_CHAR for the accumulates (a type MPI_SUM is defined on) and one MPI_LONG_LONG for
// fetch-and-op and compare-and-swap; the osu suite passes OSU 7.5's -T type instead (one element
// of it for the atomics, X / size of it for the accumulates).
#pragma once

#include <parbench/mpi/rma_window.hpp>
#include <parbench/mpi/timed_loop.hpp>

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>

namespace parbench::rma_kernels {

using mpi::kernel_context;
using mpi::window_view;

enum class rma_op { put, get, accumulate, get_accumulate, fetch_and_op, compare_and_swap };

// Fetch-and-op and compare-and-swap move one 8-byte integer.
inline constexpr std::size_t atomic_bytes = sizeof(long long);

// The element an accumulate or atomic moves: its MPI datatype, size in bytes, and whether it is
// a floating-point type (the check reads its values as such).
struct element {
    MPI_Datatype type = MPI_UNSIGNED_CHAR;
    std::size_t size = 1;
    bool floating = false;
};

[[nodiscard]] inline element default_element(rma_op op) noexcept {
    if (op == rma_op::fetch_and_op || op == rma_op::compare_and_swap)
        return {MPI_LONG_LONG, sizeof(long long), false};
    return {};
}

// One element's value at p as a whole number; a 1-byte integer's modulo 256 (sums of MPI_CHAR and
// MPI_UNSIGNED_CHAR wrap).
[[nodiscard]] inline long long value_at(const std::byte* p, const element& e) noexcept {
    if (e.floating) {
        float f = 0;
        std::memcpy(&f, p, sizeof f);
        return std::llround(f);
    }
    if (e.size == 1) return static_cast<long long>(std::to_integer<unsigned char>(p[0]));
    if (e.size == 4) {
        std::int32_t v = 0;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
    long long v = 0;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// An element's value as the -c log lists it: a float's, a 1-byte integer's as a char (OSU's %d of
// an MPI_CHAR), else the whole number.
[[nodiscard]] inline double listed_value(const std::byte* p, const element& e) noexcept {
    if (e.floating) {
        float f = 0;
        std::memcpy(&f, p, sizeof f);
        return f;
    }
    if (e.size == 1) return mpi::check::char_value(p[0]);
    return static_cast<double>(value_at(p, e));
}

// The whole number `want` as the -c log lists an element that should hold it.
[[nodiscard]] inline double listed_value(long long want, const element& e) noexcept {
    if (e.size == 1 && !e.floating)
        return mpi::check::char_value(static_cast<std::byte>(want & 0xff));
    return static_cast<double>(want);
}

// Whether the element at p holds `want` (modulo 256 for a 1-byte integer).
[[nodiscard]] inline bool holds(const std::byte* p, const element& e, long long want) noexcept {
    return value_at(p, e) == (e.size == 1 && !e.floating ? want & 0xff : want);
}

inline void store(std::byte* p, const element& e, long long value) noexcept {
    if (e.floating) {
        const auto f = static_cast<float>(value);
        std::memcpy(p, &f, sizeof f);
    } else if (e.size == 1) {
        p[0] = static_cast<std::byte>(value & 0xff);
    } else if (e.size == 4) {
        const auto v = static_cast<std::int32_t>(value);
        std::memcpy(p, &v, sizeof v);
    } else {
        std::memcpy(p, &value, sizeof value);
    }
}

[[nodiscard]] constexpr bool fetches(rma_op op) noexcept {
    return op == rma_op::get_accumulate || op == rma_op::fetch_and_op ||
           op == rma_op::compare_and_swap;
}

// The result buffer an operation needs for `window` transfers of `bytes`: fetched data, and
// for compare-and-swap the compare operand after it.
[[nodiscard]] constexpr std::size_t result_bytes(rma_op op, std::size_t bytes,
                                                 std::uint64_t window) noexcept {
    if (op == rma_op::compare_and_swap) return 2 * atomic_bytes;
    return fetches(op) ? bytes * static_cast<std::size_t>(window) : 0;
}

// Section j of the window: local slot j to section j of `target`'s window.
template <rma_op Op>
inline void issue(const kernel_context& c, const window_view& v, int target, std::uint64_t j,
                  const element& e) {
    const int n = static_cast<int>(c.bytes);
    const int elements = static_cast<int>(c.bytes / e.size);
    std::byte* local = v.local(j);
    const MPI_Aint disp = v.displacement(target, j);
    if constexpr (Op == rma_op::put) {
        MPI_Put(local, n, MPI_CHAR, target, disp, n, MPI_CHAR, v.win);
    } else if constexpr (Op == rma_op::get) {
        MPI_Get(local, n, MPI_CHAR, target, disp, n, MPI_CHAR, v.win);
    } else if constexpr (Op == rma_op::accumulate) {
        MPI_Accumulate(local, elements, e.type, target, disp, elements, e.type, MPI_SUM, v.win);
    } else if constexpr (Op == rma_op::get_accumulate) {
        MPI_Get_accumulate(local, elements, e.type, v.result + j * c.bytes, elements, e.type,
                           target, disp, elements, e.type, MPI_SUM, v.win);
    } else if constexpr (Op == rma_op::fetch_and_op) {
        MPI_Fetch_and_op(local, v.result, e.type, target, disp, MPI_SUM, v.win);
    } else {
        MPI_Compare_and_swap(local, v.result + atomic_bytes, v.result, e.type, target, disp,
                             v.win);
    }
}

template <rma_op Op>
struct transfers {
    std::uint64_t window = 1;
    element elem = default_element(Op);
    void operator()(const kernel_context& c, std::uint64_t /*i*/, const window_view& v) const {
        if (!c.initiator) return;
        for (std::uint64_t j = 0; j < window; ++j) issue<Op>(c, v, c.peer, j, elem);
    }
};

template <rma_op Op>
struct fence_round_trip {
    element elem = default_element(Op);
    void operator()(const kernel_context& c, std::uint64_t /*i*/, const window_view& v) const {
        if (c.rank == 0) issue<Op>(c, v, c.peer, 0, elem);
        MPI_Win_fence(0, v.win);
        if (c.rank != 0) issue<Op>(c, v, c.peer, 0, elem);
        MPI_Win_fence(0, v.win);
    }
};

// Process 0 accesses, then exposes; process 1 the other way round. The peer's group is built
// once per size, outside timing (none outside the active set: mpi::group_of).
template <rma_op Op>
class pscw_round_trip {
public:
    explicit pscw_round_trip(const kernel_context& c, element e = default_element(Op))
        : elem_(e) {
        const int peer = c.peer;
        if (peer != MPI_PROC_NULL) peer_ = mpi::group_of(c, std::span<const int>(&peer, 1));
    }
    pscw_round_trip(pscw_round_trip&& other) noexcept
        : elem_(other.elem_), peer_(std::exchange(other.peer_, MPI_GROUP_NULL)) {}
    pscw_round_trip(const pscw_round_trip&) = delete;
    pscw_round_trip& operator=(const pscw_round_trip&) = delete;
    pscw_round_trip& operator=(pscw_round_trip&&) = delete;
    ~pscw_round_trip() {
        int finalised = 0;
        MPI_Finalized(&finalised);
        if (finalised == 0 && peer_ != MPI_GROUP_NULL) MPI_Group_free(&peer_);
    }

    void operator()(const kernel_context& c, std::uint64_t /*i*/, const window_view& v) const {
        if (c.rank == 0) {
            access(c, v);
            expose(v);
        } else {
            expose(v);
            access(c, v);
        }
    }

private:
    void access(const kernel_context& c, const window_view& v) const {
        MPI_Win_start(peer_, 0, v.win);
        issue<Op>(c, v, c.peer, 0, elem_);
        MPI_Win_complete(v.win);
    }
    void expose(const window_view& v) const {
        MPI_Win_post(peer_, 0, v.win);
        MPI_Win_wait(v.win);
    }
    element elem_;
    MPI_Group peer_ = MPI_GROUP_NULL;
};

// -check (mpi/rma_window.hpp's window_check): known bytes in, the expected bytes out after the n
// timed iterations. Puts: the target's sections hold the origin's bytes; gets: the origin's slots
// hold the target's bytes; accumulates of 1: every element of the target counts n (mod 256 for
// 1-byte ones), fetched values n - 1; compare-and-swap of 0 -> 1: the target holds 1 and the last
// fetched value is 1 from the second operation on. `elem`: the accumulates' and atomics' element.
template <rma_op Op>
struct data_check {
    element elem = default_element(Op);

    [[nodiscard]] static std::byte pattern(int rank, std::size_t k) noexcept {
        return static_cast<std::byte>((static_cast<std::size_t>(rank + 1) * 131 + k * 7 + k / 251) & 0xff);
    }

    void prepare(const kernel_context& c, const window_view& v) const {
        const std::size_t region = v.bytes * static_cast<std::size_t>(v.sections);
        const std::size_t window = region * static_cast<std::size_t>(std::max(1, v.origin_regions));
        std::memset(v.window, 0, window);
        std::memset(v.origin, 0, region);
        if constexpr (Op == rma_op::put) {
            for (std::size_t k = 0; k < region; ++k) v.origin[k] = pattern(c.rank, k);
        } else if constexpr (Op == rma_op::get) {
            for (std::size_t k = 0; k < window; ++k) v.window[k] = pattern(c.rank, k);
        } else if constexpr (Op == rma_op::fetch_and_op || Op == rma_op::compare_and_swap) {
            store(v.origin, elem, 1);
            std::memset(v.result, 0xff, atomic_bytes);
            if constexpr (Op == rma_op::compare_and_swap) store(v.result + atomic_bytes, elem, 0);
        } else {
            for (std::size_t k = 0; k + elem.size <= region; k += elem.size)
                store(v.origin + k, elem, 1);
            if constexpr (fetches(Op)) std::memset(v.result, 0xff, region);
        }
    }

    // Puts and gets list each wrong byte (its offset in the window or origin region); the
    // accumulates and atomics each wrong element (its index in the window, then in the result
    // buffer), as its type reads it.
    [[nodiscard]] mpi::check::findings verify(const kernel_context& c, std::uint64_t n,
                                              const window_view& v) const {
        if (n == 0 || c.peer < 0) return {};
        const bool written_by_peer = c.pairs.initiator(c.peer, c.size);
        const std::size_t region = v.bytes * static_cast<std::size_t>(v.sections);
        const auto list_bytes = [&](const std::byte* data) {
            mpi::check::findings found;
            for (std::size_t k = 0; k < region; ++k)
                if (data[k] != pattern(c.peer, k))
                    found.add(k, mpi::check::char_value(pattern(c.peer, k)),
                              mpi::check::char_value(data[k]));
            return found;
        };
        mpi::check::findings found;
        found.floating = elem.floating;
        const auto expect = [&](const std::byte* p, std::uint64_t position, long long want) {
            if (!holds(p, elem, want))
                found.add(position, listed_value(want, elem), listed_value(p, elem));
        };
        if constexpr (Op == rma_op::put) {
            if (written_by_peer) return list_bytes(v.window);
        } else if constexpr (Op == rma_op::get) {
            if (c.initiator) return list_bytes(v.origin);
        } else if constexpr (Op == rma_op::fetch_and_op || Op == rma_op::compare_and_swap) {
            constexpr bool sum = Op == rma_op::fetch_and_op;
            const long long target_value = sum ? static_cast<long long>(n) : 1;
            const long long fetched_value = sum ? static_cast<long long>(n) - 1 : (n > 1 ? 1 : 0);
            if (written_by_peer) expect(v.window, 0, target_value);
            if (c.initiator) expect(v.result, 0, fetched_value);
        } else {
            const auto count = static_cast<long long>(n);
            if (written_by_peer)
                for (std::size_t k = 0; k + elem.size <= region; k += elem.size)
                    expect(v.window + k, k / elem.size, count);
            if constexpr (fetches(Op)) {
                if (c.initiator)
                    for (std::size_t k = 0; k + elem.size <= region; k += elem.size)
                        expect(v.result + k, k / elem.size, count - 1);
            }
        }
        return found;
    }
};

static_assert(mpi::window_check<data_check<rma_op::put>>);

}  // namespace parbench::rma_kernels
