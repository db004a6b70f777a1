// The IMB-MPI1 benchmarks as definitions (parbench/mpi/definition.hpp): pattern, buffer layout per
// message size, kernel (one iteration), the -check fill/verify pair, and traits where a benchmark
// differs from the defaults. One struct per benchmark; no timing code here — the runner owns the
// loop — and no test code (fault injection lives in plugins/mpi/testing/).
//
// Datatypes (IMB 2021's -data_type, -red_data_type, -contig_type; suites/imb/datatypes.hpp):
// make_kernel(c, operands) and verify_check{operands} send, reduce and check the operands of one
// message size; kernel_for<Def>(c) and verify_check{} are IMB 4.0's MPI_BYTE messages and
// MPI_FLOAT reductions, for the suites that reuse these definitions with their fixed types
// (imb-nbc, osu).
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <parbench/mpi/check.hpp>
#include <parbench/mpi/definition.hpp>
#include <parbench/mpi/message_buffers.hpp>
#include <parbench/mpi/timed_loop.hpp>
#include <parbench/pattern/collective.hpp>
#include <parbench/pattern/exchange.hpp>
#include <parbench/pattern/ping_pong.hpp>
#include <parbench/suites/imb/datatypes.hpp>
#include <parbench/suites/imb/methodology.hpp>
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
inline constexpr int window_size = 64;  // IMB 4.0's Uniband/Biband window (IMB 2021: 256)

[[nodiscard]] inline int count_of(std::size_t bytes) noexcept { return static_cast<int>(bytes); }

// The kernel of a definition at IMB 4.0's fixed operands where it takes operands, else its own.
template <class Def>
[[nodiscard]] auto kernel_for(const kernel_context& c) {
    if constexpr (requires { Def::make_kernel(c, fixed_operands(c.bytes)); })
        return Def::make_kernel(c, fixed_operands(c.bytes));
    else
        return Def::make_kernel(c);
}

// --- check helpers shared by several benchmarks -------------------------------------------

// Every rank sends its own bytes; the receiver expects the bytes of `source(context, last)`,
// where the message's datatype puts them.
struct bytes_from_peer {
    check::element_layout layout{};
    bytes_from_peer() = default;
    bytes_from_peer(const sized_operands& o) noexcept : layout(o.data.layout) {}  // NOLINT
    void fill_send(const kernel_context& c, std::span<std::byte> slot) const noexcept {
        check::fill_bytes(layout, slot, c.rank);
    }
    // The bytes from `rank`, message bytes [first, first + length) of its send buffer, found at
    // message byte `at` of this receive buffer (listed at their message byte there).
    [[nodiscard]] check::findings defects(std::span<const std::byte> recv, std::size_t at,
                                          std::size_t length, int rank,
                                          std::uint64_t first = 0) const {
        return check::find_byte_defects(layout, layout.part(recv, at, length), rank, first, at);
    }
};

// --- point to point ---------------------------------------------------------------------------

template <bool Specific>
struct ping_pong_def : mpi::definition_defaults {
    static constexpr pattern::ping_pong descriptor{.specific_source = Specific};
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    struct kernel {
        operand data;
        bool any_source = !Specific;  // the methodology may choose (source_by_methodology)
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            if (c.rank == 0) {
                MPI_Send(b.send(i), data.count, data.type, 1, tag_ping, c.comm);
                MPI_Recv(b.recv(i), data.count, data.type, any_source ? MPI_ANY_SOURCE : 1,
                         tag_ping, c.comm, MPI_STATUS_IGNORE);
            } else if (c.rank == 1) {
                MPI_Recv(b.recv(i), data.count, data.type, any_source ? MPI_ANY_SOURCE : 0,
                         tag_ping, c.comm, MPI_STATUS_IGNORE);
                MPI_Send(b.send(i), data.count, data.type, 0, tag_ping, c.comm);
            }
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, const sized_operands& o) {
        return {o.data};
    }
    struct verify_check : bytes_from_peer {
        [[nodiscard]] check::findings verify(const kernel_context& c, std::uint64_t /*last*/,
                                             std::span<const std::byte> recv) const {
            return c.rank < 2 ? defects(recv, 0, c.bytes, 1 - c.rank) : check::findings{};
        }
    };
};

template <bool Specific>
struct ping_ping_def : mpi::definition_defaults {
    static constexpr pattern::exchange descriptor = pattern::exchange::ping_ping(Specific);
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    struct kernel {
        operand data;
        bool any_source = !Specific;  // the methodology may choose (source_by_methodology)
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            MPI_Request request = MPI_REQUEST_NULL;
            MPI_Isend(b.send(i), data.count, data.type, c.peer, tag_ping, c.comm, &request);
            MPI_Recv(b.recv(i), data.count, data.type, any_source ? MPI_ANY_SOURCE : c.peer,
                     tag_ping, c.comm, MPI_STATUS_IGNORE);
            MPI_Wait(&request, MPI_STATUS_IGNORE);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, const sized_operands& o) {
        return {o.data};
    }
    struct verify_check : bytes_from_peer {
        [[nodiscard]] check::findings verify(const kernel_context& c, std::uint64_t /*last*/,
                                             std::span<const std::byte> recv) const {
            return c.peer >= 0 ? defects(recv, 0, c.bytes, c.peer) : check::findings{};
        }
    };
};

// PingPong and PingPing by their plain names: the source the methodology names (IMB 2021: the
// partner, MPI1_benchmark.cpp:64-70 SELECT_SOURCE; IMB 4.0: MPI_ANY_SOURCE). The suffixed names
// (PingPongSpecificSource, PingPongAnySource) keep their fixed source.
template <class Def>
struct source_by_methodology : Def {
    static typename Def::kernel make_kernel(const kernel_context& c, const sized_operands& o,
                                            const imb::methodology& m) {
        typename Def::kernel k = Def::make_kernel(c, o);
        k.any_source = !m.explicit_source();
        return k;
    }
};

struct sendrecv_def : mpi::definition_defaults {
    static constexpr pattern::exchange descriptor = pattern::exchange::sendrecv();
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    struct kernel {
        operand data;
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            MPI_Sendrecv(b.send(i), data.count, data.type, c.right, tag_to_right, b.recv(i),
                         data.count, data.type, c.left, tag_to_right, c.comm, MPI_STATUS_IGNORE);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, const sized_operands& o) {
        return {o.data};
    }
    struct verify_check : bytes_from_peer {
        [[nodiscard]] check::findings verify(const kernel_context& c, std::uint64_t /*last*/,
                                             std::span<const std::byte> recv) const {
            return defects(recv, 0, c.bytes, c.left);
        }
    };
};

// Exchange: separate Isend buffers (the two halves of the send slot: to the left, to the right),
// distinct tags per direction so that the data can be checked even when left == right.
struct exchange_def : mpi::definition_defaults {
    static constexpr pattern::exchange descriptor = pattern::exchange::left_right();
    static buffer_layout layout(std::size_t x, int /*np*/) { return {2 * x, 2 * x}; }
    // IMB 2021's s_len and r_len, whose -off_cache offsets the slots take (SENDBUF_SIZE_2I,
    // RECVBUF_SIZE_I: src_cpp/MPI1/MPI1_benchmark.cpp:152-158; IMB_exchange.c:144-172 receives both
    // messages at the receive slot, parbench into its two halves).
    static buffer_layout imb2021_buffer_lengths(std::size_t x, int /*np*/) { return {2 * x, x}; }
    struct kernel {
        operand data;
        std::size_t half = 0;  // buffer bytes of one message
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = data.count;
            std::array<MPI_Request, 2> requests{};
            std::byte* s = b.send(i);
            std::byte* r = b.recv(i);
            MPI_Isend(s, n, data.type, c.left, tag_to_left, c.comm, &requests[0]);
            MPI_Isend(s + half, n, data.type, c.right, tag_to_right, c.comm, &requests[1]);
            MPI_Recv(r, n, data.type, c.left, tag_to_right, c.comm, MPI_STATUS_IGNORE);
            MPI_Recv(r + half, n, data.type, c.right, tag_to_left, c.comm, MPI_STATUS_IGNORE);
            MPI_Waitall(2, requests.data(), MPI_STATUSES_IGNORE);
        }
    };
    static kernel make_kernel(const kernel_context& c, const sized_operands& o) {
        return {o.data, c.bytes * o.spread};
    }
    struct verify_check : bytes_from_peer {
        [[nodiscard]] check::findings verify(const kernel_context& c, std::uint64_t /*last*/,
                                             std::span<const std::byte> recv) const {
            const std::size_t x = c.bytes;
            // From the left: what it sent to its right (second half); from the right: first half.
            return defects(recv, 0, x, c.left, x) + defects(recv, x, x, c.right, 0);
        }
    };
};

// Uniband / Biband: pairs (r, r + Q/2) move a window of messages per iteration, then an
// acknowledgement closes the window (IMB's windowed bandwidth tests): the methodology's window
// and acknowledgement (IMB 2021: 256 and one MPI_CHAR; IMB 4.0: 64 and an empty message). Their
// tables (IMB 2021): bandwidth and message rate, no time column.
inline constexpr mpi::table_column windowed_columns[] = {{"mbytes_per_s", "Mbytes/sec"},
                                                         {"messages_per_s", "Msg/sec", 0}};

template <bool Both>
struct windowed_def : mpi::definition_defaults {
    static constexpr mpi::definition_traits traits{.columns = windowed_columns};
    static constexpr pattern::exchange descriptor{.klass = benchmark_class::parallel_transfer,
                                               .who = pattern::participants::chain,
                                               .nmsg = window_size * (Both ? 2 : 1),
                                               .pairs = pattern::halves,
                                               .throughput = pattern::throughput_rule::per_pair,
                                               .message_rate = true};
    // The pattern under the methodology: its window's messages per iteration.
    [[nodiscard]] static constexpr pattern::exchange descriptor_for(const imb::methodology& m) {
        pattern::exchange d = descriptor;
        d.nmsg = m.window() * (Both ? 2 : 1);
        return d;
    }
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    [[nodiscard]] static int partner(const kernel_context& c) noexcept {
        const int half = c.size / 2;
        if (c.rank < half) return c.rank + half;
        if (c.rank < 2 * half) return c.rank - half;
        return MPI_PROC_NULL;  // odd group: the last process has no partner
    }
    struct kernel {
        operand data;
        int partner = MPI_PROC_NULL;
        bool sender = false;
        int window = window_size;
        int ack_bytes = 0;  // 0: an empty MPI_BYTE message; 1: one MPI_CHAR (IMB 2021)
        char ack = 0;
        std::vector<MPI_Request> requests;
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) {
            int posted = 0;
            if (Both || !sender) {
                for (int w = 0; w < window; ++w)
                    MPI_Irecv(b.recv(i), data.count, data.type, partner, tag_window, c.comm,
                              &requests[static_cast<std::size_t>(posted++)]);
            }
            if (Both || sender) {
                for (int w = 0; w < window; ++w)
                    MPI_Isend(b.send(i), data.count, data.type, partner, tag_window, c.comm,
                              &requests[static_cast<std::size_t>(posted++)]);
            }
            MPI_Waitall(posted, requests.data(), MPI_STATUSES_IGNORE);
            const MPI_Datatype ack_type = ack_bytes > 0 ? MPI_CHAR : MPI_BYTE;
            if (sender)
                MPI_Recv(ack_bytes > 0 ? &ack : nullptr, ack_bytes, ack_type, partner, tag_ack,
                         c.comm, MPI_STATUS_IGNORE);
            else
                MPI_Send(ack_bytes > 0 ? &ack : nullptr, ack_bytes, ack_type, partner, tag_ack,
                         c.comm);
        }
    };
    // IMB 4.0's window and empty acknowledgement.
    static kernel make_kernel(const kernel_context& c, const sized_operands& o) {
        kernel k;
        k.data = o.data;
        k.partner = partner(c);
        k.sender = c.rank < c.size / 2;
        k.requests.assign(static_cast<std::size_t>(2 * k.window), MPI_REQUEST_NULL);
        return k;
    }
    static kernel make_kernel(const kernel_context& c, const sized_operands& o,
                              const imb::methodology& m) {
        kernel k = make_kernel(c, o);
        k.window = m.window();
        k.ack_bytes = m.ack_bytes();
        k.requests.assign(static_cast<std::size_t>(2 * k.window), MPI_REQUEST_NULL);
        return k;
    }
    struct verify_check : bytes_from_peer {
        [[nodiscard]] check::findings verify(const kernel_context& c, std::uint64_t /*last*/,
                                             std::span<const std::byte> recv) const {
            const int p = partner(c);
            const bool receives = Both || c.rank >= c.size / 2;
            return p >= 0 && receives ? defects(recv, 0, c.bytes, p) : check::findings{};
        }
    };
};

// --- collectives ----------------------------------------------------------------------------

inline constexpr pattern::collective plain_collective{};
inline constexpr pattern::collective rooted_collective{.rooted = true};

// Equal counts and displacements for the v-variants: `per_process` items each (X MPI_BYTEs).
struct v_counts {
    std::vector<int> counts;
    std::vector<int> displs;
    v_counts(std::size_t x, int np) : v_counts(count_of(x), np) {}
    v_counts(int per_process, int np)
        : counts(static_cast<std::size_t>(np), per_process),
          displs(static_cast<std::size_t>(np)) {
        for (int k = 0; k < np; ++k) displs[static_cast<std::size_t>(k)] = k * per_process;
    }
};

struct bcast_def : mpi::definition_defaults {
    static constexpr pattern::collective descriptor = rooted_collective;
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    struct kernel {
        operand data;
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int root = c.root(i);
            MPI_Bcast(c.rank == root ? b.send(i) : b.recv(i), data.count, data.type, root,
                      c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, const sized_operands& o) {
        return {o.data};
    }
    struct verify_check : bytes_from_peer {
        [[nodiscard]] check::findings verify(const kernel_context& c, std::uint64_t last,
                                             std::span<const std::byte> recv) const {
            const int root = c.root(last);
            return c.rank == root ? check::findings{} : defects(recv, 0, c.bytes, root);
        }
    };
};

template <bool Vector>
struct allgather_def : mpi::definition_defaults {
    static constexpr pattern::collective descriptor = plain_collective;
    static buffer_layout layout(std::size_t x, int np) {
        return {x, x * static_cast<std::size_t>(np)};
    }
    struct kernel {
        operand data;
        v_counts v;
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = data.count;
            if constexpr (Vector)
                MPI_Allgatherv(b.send(i), n, data.type, b.recv(i), v.counts.data(),
                               v.displs.data(), data.type, c.comm);
            else
                MPI_Allgather(b.send(i), n, data.type, b.recv(i), n, data.type, c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& c, const sized_operands& o) {
        return {o.data, v_counts(o.data.count, c.size)};
    }
    struct verify_check : bytes_from_peer {
        [[nodiscard]] check::findings verify(const kernel_context& c, std::uint64_t /*last*/,
                                             std::span<const std::byte> recv) const {
            check::findings d;
            for (int k = 0; k < c.size; ++k)
                d += defects(recv, static_cast<std::size_t>(k) * c.bytes, c.bytes, k);
            return d;
        }
    };
};

template <bool Vector>
struct scatter_def : mpi::definition_defaults {
    static constexpr pattern::collective descriptor = rooted_collective;
    static buffer_layout layout(std::size_t x, int np) {
        return {x * static_cast<std::size_t>(np), x};
    }
    struct kernel {
        operand data;
        v_counts v;
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = data.count;
            const int root = c.root(i);
            if constexpr (Vector)
                MPI_Scatterv(b.send(i), v.counts.data(), v.displs.data(), data.type, b.recv(i),
                             n, data.type, root, c.comm);
            else
                MPI_Scatter(b.send(i), n, data.type, b.recv(i), n, data.type, root, c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& c, const sized_operands& o) {
        return {o.data, v_counts(o.data.count, c.size)};
    }
    struct verify_check : bytes_from_peer {
        [[nodiscard]] check::findings verify(const kernel_context& c, std::uint64_t last,
                                             std::span<const std::byte> recv) const {
            return defects(recv, 0, c.bytes, c.root(last),
                           static_cast<std::uint64_t>(c.rank) * c.bytes);
        }
    };
};

template <bool Vector>
struct gather_def : mpi::definition_defaults {
    static constexpr pattern::collective descriptor = rooted_collective;
    static buffer_layout layout(std::size_t x, int np) {
        return {x, x * static_cast<std::size_t>(np)};
    }
    struct kernel {
        operand data;
        v_counts v;
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = data.count;
            const int root = c.root(i);
            if constexpr (Vector)
                MPI_Gatherv(b.send(i), n, data.type, b.recv(i), v.counts.data(), v.displs.data(),
                            data.type, root, c.comm);
            else
                MPI_Gather(b.send(i), n, data.type, b.recv(i), n, data.type, root, c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& c, const sized_operands& o) {
        return {o.data, v_counts(o.data.count, c.size)};
    }
    struct verify_check : bytes_from_peer {
        [[nodiscard]] check::findings verify(const kernel_context& c, std::uint64_t last,
                                             std::span<const std::byte> recv) const {
            if (c.rank != c.root(last)) return {};
            check::findings d;
            for (int k = 0; k < c.size; ++k)
                d += defects(recv, static_cast<std::size_t>(k) * c.bytes, c.bytes, k);
            return d;
        }
    };
};

template <bool Vector>
struct alltoall_def : mpi::definition_defaults {
    static constexpr pattern::collective descriptor = plain_collective;
    static buffer_layout layout(std::size_t x, int np) {
        return {x * static_cast<std::size_t>(np), x * static_cast<std::size_t>(np)};
    }
    struct kernel {
        operand data;
        v_counts v;
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = data.count;
            if constexpr (Vector)
                MPI_Alltoallv(b.send(i), v.counts.data(), v.displs.data(), data.type, b.recv(i),
                              v.counts.data(), v.displs.data(), data.type, c.comm);
            else
                MPI_Alltoall(b.send(i), n, data.type, b.recv(i), n, data.type, c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& c, const sized_operands& o) {
        return {o.data, v_counts(o.data.count, c.size)};
    }
    struct verify_check : bytes_from_peer {
        [[nodiscard]] check::findings verify(const kernel_context& c, std::uint64_t /*last*/,
                                             std::span<const std::byte> recv) const {
            check::findings d;
            for (int k = 0; k < c.size; ++k)
                d += defects(recv, static_cast<std::size_t>(k) * c.bytes, c.bytes, k,
                             static_cast<std::uint64_t>(c.rank) * c.bytes);
            return d;
        }
    };
};

// Reductions: X bytes are X / size(type) elements of the reduction datatype (MPI_FLOAT unless
// -red_data_type says otherwise), summed. `unit` is IMB 4.0's length unit for the suites that
// reuse these definitions with MPI_FLOAT; the IMB driver takes the datatype's size instead.
struct values_of_rank {
    operand reduction = floats_of(0);
    values_of_rank() = default;
    values_of_rank(const sized_operands& o) noexcept : reduction(o.reduction) {}  // NOLINT
    void fill_send(const kernel_context& c, std::span<std::byte> slot) const noexcept {
        check::fill_reduction(reduction.layout, slot, c.rank);
    }
    // The sums of message bytes [0, length) of this receive buffer, elements from `first`
    // (listed at their element of this buffer).
    [[nodiscard]] check::findings defects(std::span<const std::byte> recv, std::size_t length,
                                          int processes, std::uint64_t first = 0) const {
        return check::find_reduction_defects(reduction.layout,
                                             reduction.layout.part(recv, 0, length), processes,
                                             first);
    }
};

[[nodiscard]] inline int float_count(std::size_t bytes) noexcept {
    return static_cast<int>(bytes / sizeof(float));
}

// The operation and operand of a reduction kernel.
struct reduction_call {
    operand data = floats_of(0);
    MPI_Op op = MPI_SUM;
    static reduction_call of(const sized_operands& o) noexcept { return {o.reduction, o.op}; }
};

struct reduce_def : mpi::definition_defaults {
    static constexpr mpi::definition_traits traits{.unit = sizeof(float), .reduction = true};
    static constexpr pattern::collective descriptor = rooted_collective;
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    struct kernel {
        reduction_call r;
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            MPI_Reduce(b.send(i), b.recv(i), r.data.count, r.data.type, r.op, c.root(i), c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, const sized_operands& o) {
        return {reduction_call::of(o)};
    }
    struct verify_check : values_of_rank {
        [[nodiscard]] check::findings verify(const kernel_context& c, std::uint64_t last,
                                             std::span<const std::byte> recv) const {
            return c.rank == c.root(last) ? defects(recv, c.bytes, c.size) : check::findings{};
        }
    };
};

struct allreduce_def : mpi::definition_defaults {
    static constexpr mpi::definition_traits traits{.unit = sizeof(float), .reduction = true};
    static constexpr pattern::collective descriptor = plain_collective;
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    struct kernel {
        reduction_call r;
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            MPI_Allreduce(b.send(i), b.recv(i), r.data.count, r.data.type, r.op, c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, const sized_operands& o) {
        return {reduction_call::of(o)};
    }
    struct verify_check : values_of_rank {
        [[nodiscard]] check::findings verify(const kernel_context& c, std::uint64_t /*last*/,
                                             std::span<const std::byte> recv) const {
            return defects(recv, c.bytes, c.size);
        }
    };
};

// What each process receives of a Reduce_scatter: counts[k] elements, from element displs[k] of
// the reduced vector.
struct reduce_scatter_counts {
    std::vector<int> counts;
    std::vector<int> displs;
};

// The IMB 4.0 guide's split of X (and OSU's): L = r*np + s items; rank i receives r + 1 when
// i < s, r otherwise.
struct reduce_scatter_split : reduce_scatter_counts {
    reduce_scatter_split(std::size_t x, int np) : reduce_scatter_split(float_count(x), np) {}
    reduce_scatter_split(int total, int np)
        : reduce_scatter_counts{std::vector<int>(static_cast<std::size_t>(np)),
                                std::vector<int>(static_cast<std::size_t>(np))} {
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

// IMB 2021's Reduce_scatter (imb::methodology::reduce_scatter_whole_x_each): the `items` of X to
// every process, block k of np·items.
[[nodiscard]] inline reduce_scatter_counts reduce_scatter_whole_x(int items, int np) {
    reduce_scatter_counts out{std::vector<int>(static_cast<std::size_t>(np), items),
                              std::vector<int>(static_cast<std::size_t>(np))};
    for (int k = 0; k < np; ++k) out.displs[static_cast<std::size_t>(k)] = k * items;
    return out;
}

// What each process receives of a Reduce_scatter of `items` elements per X under the methodology.
[[nodiscard]] inline reduce_scatter_counts reduce_scatter_counts_under(const imb::methodology& m,
                                                                       int items, int np) {
    if (m.reduce_scatter_whole_x_each()) return reduce_scatter_whole_x(items, np);
    return reduce_scatter_split(items, np);
}

// Reduce_scatter: IMB 2021's np·X bytes reduced, X to each process, or the IMB 4.0 guide's X split
// over the processes, as the methodology says. layout() and make_kernel(c, o), the split, are
// what the osu suite's reduce_scatter reuses (OSU 7.5 splits X too).
struct reduce_scatter_def : mpi::definition_defaults {
    static constexpr mpi::definition_traits traits{.unit = sizeof(float), .reduction = true};
    static constexpr pattern::collective descriptor = plain_collective;
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    static buffer_layout layout_for(std::size_t x, int np, const imb::methodology& m) {
        return m.reduce_scatter_whole_x_each() ? buffer_layout{x * static_cast<std::size_t>(np), x}
                                               : layout(x, np);
    }
    struct kernel {
        reduction_call r;
        reduce_scatter_counts receive;
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            MPI_Reduce_scatter(b.send(i), b.recv(i), receive.counts.data(), r.data.type, r.op,
                               c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& c, const sized_operands& o) {
        return {reduction_call::of(o), reduce_scatter_split(o.reduction.count, c.size)};
    }
    static kernel make_kernel(const kernel_context& c, const sized_operands& o,
                              const imb::methodology& m) {
        return {reduction_call::of(o), reduce_scatter_counts_under(m, o.reduction.count, c.size)};
    }
    struct verify_check : values_of_rank {
        // Whose counts to expect: the split unless the imb family says otherwise (follow).
        imb::methodology method{.name = imb::methodology_name::imb40};
        void follow(const imb::methodology& m) noexcept { method = m; }
        [[nodiscard]] check::findings verify(const kernel_context& c, std::uint64_t /*last*/,
                                             std::span<const std::byte> recv) const {
            // Items from the message length (a default-constructed check has no count).
            const auto items = static_cast<int>(c.bytes / reduction.layout.size /
                                                static_cast<std::size_t>(reduction.elements_per_item));
            const reduce_scatter_counts receive = reduce_scatter_counts_under(method, items, c.size);
            const auto me = static_cast<std::size_t>(c.rank);
            const auto per_item = static_cast<std::uint64_t>(reduction.elements_per_item);
            return defects(recv, reduction.bytes_of_items(static_cast<std::uint64_t>(receive.counts[me])),
                           c.size, static_cast<std::uint64_t>(receive.displs[me]) * per_item);
        }
    };
};

// Reduce_scatter_block (IMB 2021): X/size(type)·np elements reduced, each process receiving its
// own block of X/size(type) of them.
struct reduce_scatter_block_def : mpi::definition_defaults {
    static constexpr mpi::definition_traits traits{.unit = sizeof(float), .reduction = true};
    static constexpr pattern::collective descriptor = plain_collective;
    static buffer_layout layout(std::size_t x, int np) {
        return {x * static_cast<std::size_t>(np), x};
    }
    struct kernel {
        reduction_call r;
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            MPI_Reduce_scatter_block(b.send(i), b.recv(i), r.data.count, r.data.type, r.op,
                                     c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, const sized_operands& o) {
        return {reduction_call::of(o)};
    }
    struct verify_check : values_of_rank {
        [[nodiscard]] check::findings verify(const kernel_context& c, std::uint64_t /*last*/,
                                             std::span<const std::byte> recv) const {
            const std::uint64_t elements = c.bytes / reduction.layout.size;
            return defects(recv, c.bytes, c.size, static_cast<std::uint64_t>(c.rank) * elements);
        }
    };
};

// Reduce_local (IMB 2021): MPI_Reduce_local of X/size(type) elements on every process, no
// communication: what the library's reduction operator costs. The in/out buffer accumulates over
// the repetitions, so there is no fixed result to check: -check shows no defects column value.
struct reduce_local_def : mpi::definition_defaults {
    static constexpr mpi::definition_traits traits{.unit = sizeof(float), .reduction = true};
    static constexpr pattern::collective descriptor = plain_collective;
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    struct kernel {
        reduction_call r;
        template <class Buffers>
        void operator()(const kernel_context& /*c*/, std::uint64_t i, const Buffers& b) const {
            MPI_Reduce_local(b.send(i), b.recv(i), r.data.count, r.data.type, r.op);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, const sized_operands& o) {
        return {reduction_call::of(o)};
    }
};

struct barrier_def : mpi::definition_defaults {
    static constexpr mpi::definition_traits traits{.has_bytes = false};
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
        void fill_send(const kernel_context& /*c*/, std::span<std::byte> /*slot*/) const noexcept {}
        [[nodiscard]] std::uint64_t verify(const kernel_context& /*c*/, std::uint64_t /*last*/,
                                           std::span<const std::byte> /*recv*/) const noexcept {
            return 0;  // no data: nothing can be wrong but completion, which the loop proves
        }
    };
};

}  // namespace parbench::imb_mpi1
