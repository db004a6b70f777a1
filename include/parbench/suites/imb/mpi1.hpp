// The IMB-MPI1 benchmarks as definitions for the runner: pattern, buffer layout per message size,
// kernel (one iteration), the -check fill/verify pair, and the traits the IMB driver reads where a
// benchmark differs from the defaults (parbench/suites/imb/definition_traits.hpp). One struct per benchmark; no
// timing code here — the runner owns the loop — and no test code (fault injection lives in
// plugins/mpi/testing/).
#pragma once

#include <parbench/mpi/check.hpp>
#include <parbench/mpi/message_buffers.hpp>
#include <parbench/mpi/timed_loop.hpp>
#include <parbench/pattern/collective.hpp>
#include <parbench/pattern/exchange.hpp>
#include <parbench/pattern/ping_pong.hpp>

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace parbench::imb_mpi1 {

using mpi::buffer_layout;
using mpi::kernel_context;
namespace check = mpi::check;

inline constexpr int tag_ping = 1001;
inline constexpr int tag_to_left = 1002;
inline constexpr int tag_to_right = 1003;
inline constexpr int tag_window = 1004;
inline constexpr int tag_ack = 1005;
inline constexpr int window_size = 64;  // IMB Uniband/Biband window

[[nodiscard]] inline int count_of(std::size_t bytes) noexcept { return static_cast<int>(bytes); }

// --- check helpers shared by several benchmarks -------------------------------------------

// Every rank sends its own bytes; the receiver expects the bytes of `source(context, last)`.
struct bytes_from_peer {
    void fill_send(const kernel_context& c, std::span<std::byte> slot) const noexcept {
        check::fill_bytes(slot, c.rank);
    }
};

// --- point to point ---------------------------------------------------------------------------

template <bool Specific>
struct ping_pong_def {
    static constexpr pattern::ping_pong descriptor{.specific_source = Specific};
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = count_of(c.bytes);
            if (c.rank == 0) {
                MPI_Send(b.send(i), n, MPI_BYTE, 1, tag_ping, c.comm);
                MPI_Recv(b.recv(i), n, MPI_BYTE, Specific ? 1 : MPI_ANY_SOURCE, tag_ping, c.comm,
                         MPI_STATUS_IGNORE);
            } else if (c.rank == 1) {
                MPI_Recv(b.recv(i), n, MPI_BYTE, Specific ? 0 : MPI_ANY_SOURCE, tag_ping, c.comm,
                         MPI_STATUS_IGNORE);
                MPI_Send(b.send(i), n, MPI_BYTE, 0, tag_ping, c.comm);
            }
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
    struct verify_check : bytes_from_peer {
        static constexpr bool enabled = true;
        [[nodiscard]] std::uint64_t verify(const kernel_context& c, std::uint64_t /*last*/,
                                           std::span<const std::byte> recv) const noexcept {
            return c.rank < 2 ? check::count_byte_defects(recv, 1 - c.rank) : 0;
        }
    };
};

template <bool Specific>
struct ping_ping_def {
    static constexpr pattern::exchange descriptor = pattern::exchange::ping_ping(Specific);
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = count_of(c.bytes);
            MPI_Request request = MPI_REQUEST_NULL;
            MPI_Isend(b.send(i), n, MPI_BYTE, c.peer, tag_ping, c.comm, &request);
            MPI_Recv(b.recv(i), n, MPI_BYTE, Specific ? c.peer : MPI_ANY_SOURCE, tag_ping, c.comm,
                     MPI_STATUS_IGNORE);
            MPI_Wait(&request, MPI_STATUS_IGNORE);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
    struct verify_check : bytes_from_peer {
        static constexpr bool enabled = true;
        [[nodiscard]] std::uint64_t verify(const kernel_context& c, std::uint64_t /*last*/,
                                           std::span<const std::byte> recv) const noexcept {
            return c.peer >= 0 ? check::count_byte_defects(recv, c.peer) : 0;
        }
    };
};

struct sendrecv_def {
    static constexpr pattern::exchange descriptor = pattern::exchange::sendrecv();
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = count_of(c.bytes);
            MPI_Sendrecv(b.send(i), n, MPI_BYTE, c.right, tag_to_right, b.recv(i), n, MPI_BYTE,
                         c.left, tag_to_right, c.comm, MPI_STATUS_IGNORE);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
    struct verify_check : bytes_from_peer {
        static constexpr bool enabled = true;
        [[nodiscard]] std::uint64_t verify(const kernel_context& c, std::uint64_t /*last*/,
                                           std::span<const std::byte> recv) const noexcept {
            return check::count_byte_defects(recv, c.left);
        }
    };
};

// Exchange: separate Isend buffers (the two halves of the send slot: to the left, to the right),
// distinct tags per direction so that the data can be checked even when left == right.
struct exchange_def {
    static constexpr pattern::exchange descriptor = pattern::exchange::left_right();
    static buffer_layout layout(std::size_t x, int /*np*/) { return {2 * x, 2 * x}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = count_of(c.bytes);
            std::array<MPI_Request, 2> requests{};
            std::byte* s = b.send(i);
            std::byte* r = b.recv(i);
            MPI_Isend(s, n, MPI_BYTE, c.left, tag_to_left, c.comm, &requests[0]);
            MPI_Isend(s + c.bytes, n, MPI_BYTE, c.right, tag_to_right, c.comm, &requests[1]);
            MPI_Recv(r, n, MPI_BYTE, c.left, tag_to_right, c.comm, MPI_STATUS_IGNORE);
            MPI_Recv(r + c.bytes, n, MPI_BYTE, c.right, tag_to_left, c.comm, MPI_STATUS_IGNORE);
            MPI_Waitall(2, requests.data(), MPI_STATUSES_IGNORE);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
    struct verify_check : bytes_from_peer {
        static constexpr bool enabled = true;
        [[nodiscard]] std::uint64_t verify(const kernel_context& c, std::uint64_t /*last*/,
                                           std::span<const std::byte> recv) const noexcept {
            const std::size_t x = c.bytes;
            // From the left: what it sent to its right (second half); from the right: first half.
            return check::count_byte_defects(recv.subspan(0, x), c.left, x) +
                   check::count_byte_defects(recv.subspan(x, x), c.right, 0);
        }
    };
};

// Uniband / Biband: pairs (r, r + Q/2) move a window of messages per iteration, then a
// zero-byte acknowledgement closes the window (IMB's windowed bandwidth tests).
template <bool Both>
struct windowed_def {
    static constexpr pattern::exchange descriptor{.klass = benchmark_class::parallel_transfer,
                                               .who = pattern::participants::chain,
                                               .nmsg = window_size * (Both ? 2 : 1),
                                               .pairs = pattern::halves,
                                               .throughput = pattern::throughput_rule::per_pair,
                                               .message_rate = true};
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    [[nodiscard]] static int partner(const kernel_context& c) noexcept {
        const int half = c.size / 2;
        if (c.rank < half) return c.rank + half;
        if (c.rank < 2 * half) return c.rank - half;
        return MPI_PROC_NULL;  // odd group: the last process has no partner
    }
    struct kernel {
        int partner = MPI_PROC_NULL;
        bool sender = false;
        std::array<MPI_Request, 2 * window_size> requests{};
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) {
            const int n = count_of(c.bytes);
            int posted = 0;
            if (Both || !sender) {
                for (int w = 0; w < window_size; ++w)
                    MPI_Irecv(b.recv(i), n, MPI_BYTE, partner, tag_window, c.comm,
                              &requests[static_cast<std::size_t>(posted++)]);
            }
            if (Both || sender) {
                for (int w = 0; w < window_size; ++w)
                    MPI_Isend(b.send(i), n, MPI_BYTE, partner, tag_window, c.comm,
                              &requests[static_cast<std::size_t>(posted++)]);
            }
            MPI_Waitall(posted, requests.data(), MPI_STATUSES_IGNORE);
            if (sender)
                MPI_Recv(nullptr, 0, MPI_BYTE, partner, tag_ack, c.comm, MPI_STATUS_IGNORE);
            else
                MPI_Send(nullptr, 0, MPI_BYTE, partner, tag_ack, c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& c) {
        kernel k;
        k.partner = partner(c);
        k.sender = c.rank < c.size / 2;
        return k;
    }
    struct verify_check : bytes_from_peer {
        static constexpr bool enabled = true;
        [[nodiscard]] std::uint64_t verify(const kernel_context& c, std::uint64_t /*last*/,
                                           std::span<const std::byte> recv) const noexcept {
            const int p = partner(c);
            const bool receives = Both || c.rank >= c.size / 2;
            return p >= 0 && receives ? check::count_byte_defects(recv, p) : 0;
        }
    };
};

// --- collectives ----------------------------------------------------------------------------

inline constexpr pattern::collective plain_collective{};
inline constexpr pattern::collective rooted_collective{.rooted = true};

// Equal counts and displacements for the v-variants.
struct v_counts {
    std::vector<int> counts;
    std::vector<int> displs;
    v_counts(std::size_t x, int np)
        : counts(static_cast<std::size_t>(np), count_of(x)),
          displs(static_cast<std::size_t>(np)) {
        for (int k = 0; k < np; ++k) displs[static_cast<std::size_t>(k)] = k * count_of(x);
    }
};

struct bcast_def {
    static constexpr pattern::collective descriptor = rooted_collective;
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int root = c.root(i);
            MPI_Bcast(c.rank == root ? b.send(i) : b.recv(i), count_of(c.bytes), MPI_BYTE, root,
                      c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
    struct verify_check : bytes_from_peer {
        static constexpr bool enabled = true;
        [[nodiscard]] std::uint64_t verify(const kernel_context& c, std::uint64_t last,
                                           std::span<const std::byte> recv) const noexcept {
            const int root = c.root(last);
            return c.rank == root ? 0 : check::count_byte_defects(recv, root);
        }
    };
};

template <bool Vector>
struct allgather_def {
    static constexpr pattern::collective descriptor = plain_collective;
    static buffer_layout layout(std::size_t x, int np) {
        return {x, x * static_cast<std::size_t>(np)};
    }
    struct kernel {
        v_counts v;
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = count_of(c.bytes);
            if constexpr (Vector)
                MPI_Allgatherv(b.send(i), n, MPI_BYTE, b.recv(i), v.counts.data(),
                               v.displs.data(), MPI_BYTE, c.comm);
            else
                MPI_Allgather(b.send(i), n, MPI_BYTE, b.recv(i), n, MPI_BYTE, c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& c) { return {v_counts(c.bytes, c.size)}; }
    struct verify_check : bytes_from_peer {
        static constexpr bool enabled = true;
        [[nodiscard]] std::uint64_t verify(const kernel_context& c, std::uint64_t /*last*/,
                                           std::span<const std::byte> recv) const noexcept {
            std::uint64_t d = 0;
            for (int k = 0; k < c.size; ++k)
                d += check::count_byte_defects(
                    recv.subspan(static_cast<std::size_t>(k) * c.bytes, c.bytes), k);
            return d;
        }
    };
};

template <bool Vector>
struct scatter_def {
    static constexpr pattern::collective descriptor = rooted_collective;
    static buffer_layout layout(std::size_t x, int np) {
        return {x * static_cast<std::size_t>(np), x};
    }
    struct kernel {
        v_counts v;
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = count_of(c.bytes);
            const int root = c.root(i);
            if constexpr (Vector)
                MPI_Scatterv(b.send(i), v.counts.data(), v.displs.data(), MPI_BYTE, b.recv(i), n,
                             MPI_BYTE, root, c.comm);
            else
                MPI_Scatter(b.send(i), n, MPI_BYTE, b.recv(i), n, MPI_BYTE, root, c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& c) { return {v_counts(c.bytes, c.size)}; }
    struct verify_check : bytes_from_peer {
        static constexpr bool enabled = true;
        [[nodiscard]] std::uint64_t verify(const kernel_context& c, std::uint64_t last,
                                           std::span<const std::byte> recv) const noexcept {
            return check::count_byte_defects(recv, c.root(last),
                                             static_cast<std::uint64_t>(c.rank) * c.bytes);
        }
    };
};

template <bool Vector>
struct gather_def {
    static constexpr pattern::collective descriptor = rooted_collective;
    static buffer_layout layout(std::size_t x, int np) {
        return {x, x * static_cast<std::size_t>(np)};
    }
    struct kernel {
        v_counts v;
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = count_of(c.bytes);
            const int root = c.root(i);
            if constexpr (Vector)
                MPI_Gatherv(b.send(i), n, MPI_BYTE, b.recv(i), v.counts.data(), v.displs.data(),
                            MPI_BYTE, root, c.comm);
            else
                MPI_Gather(b.send(i), n, MPI_BYTE, b.recv(i), n, MPI_BYTE, root, c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& c) { return {v_counts(c.bytes, c.size)}; }
    struct verify_check : bytes_from_peer {
        static constexpr bool enabled = true;
        [[nodiscard]] std::uint64_t verify(const kernel_context& c, std::uint64_t last,
                                           std::span<const std::byte> recv) const noexcept {
            if (c.rank != c.root(last)) return 0;
            std::uint64_t d = 0;
            for (int k = 0; k < c.size; ++k)
                d += check::count_byte_defects(
                    recv.subspan(static_cast<std::size_t>(k) * c.bytes, c.bytes), k);
            return d;
        }
    };
};

template <bool Vector>
struct alltoall_def {
    static constexpr pattern::collective descriptor = plain_collective;
    static buffer_layout layout(std::size_t x, int np) {
        return {x * static_cast<std::size_t>(np), x * static_cast<std::size_t>(np)};
    }
    struct kernel {
        v_counts v;
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = count_of(c.bytes);
            if constexpr (Vector)
                MPI_Alltoallv(b.send(i), v.counts.data(), v.displs.data(), MPI_BYTE, b.recv(i),
                              v.counts.data(), v.displs.data(), MPI_BYTE, c.comm);
            else
                MPI_Alltoall(b.send(i), n, MPI_BYTE, b.recv(i), n, MPI_BYTE, c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& c) { return {v_counts(c.bytes, c.size)}; }
    struct verify_check : bytes_from_peer {
        static constexpr bool enabled = true;
        [[nodiscard]] std::uint64_t verify(const kernel_context& c, std::uint64_t /*last*/,
                                           std::span<const std::byte> recv) const noexcept {
            std::uint64_t d = 0;
            for (int k = 0; k < c.size; ++k)
                d += check::count_byte_defects(
                    recv.subspan(static_cast<std::size_t>(k) * c.bytes, c.bytes), k,
                    static_cast<std::uint64_t>(c.rank) * c.bytes);
            return d;
        }
    };
};

// Reductions: X bytes are X / sizeof(float) MPI_FLOATs summed with MPI_SUM.
struct floats_of_rank {
    void fill_send(const kernel_context& c, std::span<std::byte> slot) const noexcept {
        check::fill_floats(slot, c.rank);
    }
};

[[nodiscard]] inline int float_count(std::size_t bytes) noexcept {
    return static_cast<int>(bytes / sizeof(float));
}

struct reduce_def {
    static constexpr std::uint64_t unit = sizeof(float);
    static constexpr pattern::collective descriptor = rooted_collective;
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            MPI_Reduce(b.send(i), b.recv(i), float_count(c.bytes), MPI_FLOAT, MPI_SUM, c.root(i),
                       c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
    struct verify_check : floats_of_rank {
        static constexpr bool enabled = true;
        [[nodiscard]] std::uint64_t verify(const kernel_context& c, std::uint64_t last,
                                           std::span<const std::byte> recv) const noexcept {
            return c.rank == c.root(last) ? check::count_sum_defects(recv, c.size) : 0;
        }
    };
};

struct allreduce_def {
    static constexpr std::uint64_t unit = sizeof(float);
    static constexpr pattern::collective descriptor = plain_collective;
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            MPI_Allreduce(b.send(i), b.recv(i), float_count(c.bytes), MPI_FLOAT, MPI_SUM, c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
    struct verify_check : floats_of_rank {
        static constexpr bool enabled = true;
        [[nodiscard]] std::uint64_t verify(const kernel_context& c, std::uint64_t /*last*/,
                                           std::span<const std::byte> recv) const noexcept {
            return check::count_sum_defects(recv, c.size);
        }
    };
};

// Reduce_scatter: L = r*np + s floats; rank i receives r + 1 when i < s, r otherwise.
struct reduce_scatter_split {
    std::vector<int> counts;
    std::vector<int> displs;
    reduce_scatter_split(std::size_t x, int np)
        : counts(static_cast<std::size_t>(np)), displs(static_cast<std::size_t>(np)) {
        const int total = float_count(x);
        const int r = total / np;
        const int s = total % np;
        int offset = 0;
        for (int k = 0; k < np; ++k) {
            counts[static_cast<std::size_t>(k)] = r + (k < s ? 1 : 0);
            displs[static_cast<std::size_t>(k)] = offset;
            offset += counts[static_cast<std::size_t>(k)];
        }
    }
};

struct reduce_scatter_def {
    static constexpr std::uint64_t unit = sizeof(float);
    static constexpr pattern::collective descriptor = plain_collective;
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    struct kernel {
        reduce_scatter_split split;
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            MPI_Reduce_scatter(b.send(i), b.recv(i), split.counts.data(), MPI_FLOAT, MPI_SUM,
                               c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& c) {
        return {reduce_scatter_split(c.bytes, c.size)};
    }
    struct verify_check : floats_of_rank {
        static constexpr bool enabled = true;
        [[nodiscard]] std::uint64_t verify(const kernel_context& c, std::uint64_t /*last*/,
                                           std::span<const std::byte> recv) const {
            const reduce_scatter_split split(c.bytes, c.size);
            const auto me = static_cast<std::size_t>(c.rank);
            const auto mine = static_cast<std::size_t>(split.counts[me]) * sizeof(float);
            return check::count_sum_defects(recv.subspan(0, mine), c.size,
                                            static_cast<std::uint64_t>(split.displs[me]));
        }
    };
};

// Reduce_scatter_block (IMB 2021): L = X/sizeof(float)·np floats reduced, each process receiving
// its own block of X/sizeof(float) of them.
struct reduce_scatter_block_def {
    static constexpr std::uint64_t unit = sizeof(float);
    static constexpr pattern::collective descriptor = plain_collective;
    static buffer_layout layout(std::size_t x, int np) {
        return {x * static_cast<std::size_t>(np), x};
    }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            MPI_Reduce_scatter_block(b.send(i), b.recv(i), float_count(c.bytes), MPI_FLOAT,
                                     MPI_SUM, c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
    struct verify_check : floats_of_rank {
        static constexpr bool enabled = true;
        [[nodiscard]] std::uint64_t verify(const kernel_context& c, std::uint64_t /*last*/,
                                           std::span<const std::byte> recv) const noexcept {
            const auto block = static_cast<std::uint64_t>(float_count(c.bytes));
            return check::count_sum_defects(recv.subspan(0, block * sizeof(float)), c.size,
                                            static_cast<std::uint64_t>(c.rank) * block);
        }
    };
};

// Reduce_local (IMB 2021): MPI_Reduce_local of X/sizeof(float) floats on every process, no
// communication: what the library's reduction operator costs. The in/out buffer accumulates over
// the repetitions, so there is no fixed result to check: -check shows no defects column value.
struct reduce_local_def {
    static constexpr std::uint64_t unit = sizeof(float);
    static constexpr pattern::collective descriptor = plain_collective;
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            MPI_Reduce_local(b.send(i), b.recv(i), float_count(c.bytes), MPI_FLOAT, MPI_SUM);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
    struct verify_check : floats_of_rank {
        static constexpr bool enabled = false;
        [[nodiscard]] std::uint64_t verify(const kernel_context& /*c*/, std::uint64_t /*last*/,
                                           std::span<const std::byte> /*recv*/) const noexcept {
            return 0;
        }
    };
};

struct barrier_def {
    static constexpr bool has_bytes = false;
    static constexpr pattern::collective descriptor = plain_collective;
    static buffer_layout layout(std::size_t /*x*/, int /*np*/) { return {0, 0}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t /*i*/, const Buffers& /*b*/) const {
            MPI_Barrier(c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
    struct verify_check {
        static constexpr bool enabled = true;
        void fill_send(const kernel_context& /*c*/, std::span<std::byte> /*slot*/) const noexcept {}
        [[nodiscard]] std::uint64_t verify(const kernel_context& /*c*/, std::uint64_t /*last*/,
                                           std::span<const std::byte> /*recv*/) const noexcept {
            return 0;  // no data: nothing can be wrong but completion, which the loop proves
        }
    };
};

}  // namespace parbench::imb_mpi1
