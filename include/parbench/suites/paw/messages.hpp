// TACC PAW's message-passing tests (catalogue C.4, C.6, C.7) as definitions for the runner: the
// pattern, the buffer layout per message size, the kernel (one iteration, exactly the calls of
// PAW's timed region for each half of the tasks) and the -check fill/verify pair
// (parbench/mpi/definition.hpp). No timing code
// here: the runner's phases time them with PAW's NLOOP/NREPS policy (plugins/mpi/suites/paw.cpp).
//
// Pairing is PAW's i <-> i + n/2 (pattern/pairing.hpp `halves`): the first half of the tasks are
// the context's initiators. Sizes are bytes. What PAW leaves open, parbench fixes here:
//   * the time of one iteration is the whole exchange (a round trip for the ping-pongs, the
//     whole window for the message-rate tests); `bytes_per_iteration` and
//     `messages_per_iteration` give what one pair moves in it, so bandwidth and rate follow;
//   * collectives use root 0, MPI_BYTE for data movement and MPI_UNSIGNED_CHAR with MPI_SUM for
//     the reductions, so every size, 1 byte included, moves exactly that many bytes per task.
#pragma once

#include <parbench/mpi/check.hpp>
#include <parbench/mpi/definition.hpp>
#include <parbench/mpi/message_buffers.hpp>
#include <parbench/mpi/timed_loop.hpp>
#include <parbench/pattern/collective.hpp>
#include <parbench/pattern/exchange.hpp>
#include <parbench/pattern/ping_pong.hpp>

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace parbench::paw_mpi {

using mpi::buffer_layout;
using mpi::kernel_context;
namespace check = mpi::check;

inline constexpr int tag_there = 2001;
inline constexpr int tag_back = 2002;
inline constexpr int default_window_size = 128;  // PAW's DEFAULT_WINDOW_SIZE

// How a definition's work per iteration is counted (per pair; 0 = not reported).
struct work {
    double bytes_per_iteration = 0.0;
    double messages_per_iteration = 0.0;
};

[[nodiscard]] inline int count_of(std::size_t bytes) noexcept { return static_cast<int>(bytes); }

// --- -check: every task sends its own bytes; receivers expect their partner's -----------------

// Ping-ping and mrate: the first half only sends, so only the second half has received.
template <bool FirstHalfReceives = true>
struct bytes_from_partner {
    void fill_send(const kernel_context& c, std::span<std::byte> slot) const noexcept {
        check::fill_bytes(slot, c.rank);
    }
    [[nodiscard]] std::uint64_t verify(const kernel_context& c, std::uint64_t /*last*/,
                                       std::span<const std::byte> recv) const noexcept {
        if (c.peer == MPI_PROC_NULL || (c.initiator && !FirstHalfReceives)) return 0;
        return check::count_byte_defects(recv.subspan(0, c.bytes), c.peer);
    }
};

// --- point to point (C.4, C.7) ----------------------------------------------------------------

// p2p_send (and latency, at 1 byte): first half MPI_Send; MPI_Recv, second half MPI_Recv; MPI_Send.
struct send_recv : mpi::definition_defaults {
    static constexpr pattern::exchange descriptor{.klass = benchmark_class::parallel_transfer,
                                                  .nmsg = 2,
                                                  .pairs = pattern::halves,
                                                  .throughput = pattern::throughput_rule::none};
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    static work work_of(std::size_t x, int /*window*/) { return {2.0 * double(x), 0.0}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = count_of(c.bytes);
            if (c.initiator) {
                MPI_Send(b.send(i), n, MPI_BYTE, c.peer, tag_there, c.comm);
                MPI_Recv(b.recv(i), n, MPI_BYTE, c.peer, tag_back, c.comm, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(b.recv(i), n, MPI_BYTE, c.peer, tag_there, c.comm, MPI_STATUS_IGNORE);
                MPI_Send(b.send(i), n, MPI_BYTE, c.peer, tag_back, c.comm);
            }
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, int /*window*/) { return {}; }
    using verify_check = bytes_from_partner<>;
};

// PAW's latency: p2p_send's round trip at 1 byte between exactly two tasks; a single transfer.
struct latency : send_recv {
    static constexpr pattern::exchange descriptor{.klass = benchmark_class::single_transfer,
                                                  .who = pattern::participants::pair,
                                                  .nmsg = 2,
                                                  .pairs = pattern::halves,
                                                  .throughput = pattern::throughput_rule::none};
    static work work_of(std::size_t /*x*/, int /*window*/) { return {}; }  // time only
};

// p2p_isend: first half MPI_Isend; MPI_Wait; MPI_Irecv; MPI_Wait, second half the reverse.
struct isend_pong : mpi::definition_defaults {
    static constexpr pattern::exchange descriptor = send_recv::descriptor;
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    static work work_of(std::size_t x, int /*window*/) { return {2.0 * double(x), 0.0}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = count_of(c.bytes);
            MPI_Request request = MPI_REQUEST_NULL;
            if (c.initiator) {
                MPI_Isend(b.send(i), n, MPI_BYTE, c.peer, tag_there, c.comm, &request);
                MPI_Wait(&request, MPI_STATUS_IGNORE);
                MPI_Irecv(b.recv(i), n, MPI_BYTE, c.peer, tag_back, c.comm, &request);
                MPI_Wait(&request, MPI_STATUS_IGNORE);
            } else {
                MPI_Irecv(b.recv(i), n, MPI_BYTE, c.peer, tag_there, c.comm, &request);
                MPI_Wait(&request, MPI_STATUS_IGNORE);
                MPI_Isend(b.send(i), n, MPI_BYTE, c.peer, tag_back, c.comm, &request);
                MPI_Wait(&request, MPI_STATUS_IGNORE);
            }
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, int /*window*/) { return {}; }
    using verify_check = bytes_from_partner<>;
};

// p2p_isend_bidir: both halves send and receive at once; MPI_Waitall completes both.
struct isend_bidir : mpi::definition_defaults {
    static constexpr pattern::exchange descriptor = send_recv::descriptor;
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    static work work_of(std::size_t x, int /*window*/) { return {2.0 * double(x), 0.0}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = count_of(c.bytes);
            MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
            if (c.initiator) {
                MPI_Isend(b.send(i), n, MPI_BYTE, c.peer, tag_there, c.comm, &requests[0]);
                MPI_Irecv(b.recv(i), n, MPI_BYTE, c.peer, tag_back, c.comm, &requests[1]);
            } else {
                MPI_Irecv(b.recv(i), n, MPI_BYTE, c.peer, tag_there, c.comm, &requests[1]);
                MPI_Isend(b.send(i), n, MPI_BYTE, c.peer, tag_back, c.comm, &requests[0]);
            }
            MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, int /*window*/) { return {}; }
    using verify_check = bytes_from_partner<>;
};

// p2p_isend_ping: a true one-directional ping-ping (the catalogue's reading of PAW's prose): the
// first half only MPI_Isend; MPI_Wait, the second half only MPI_Irecv; MPI_Wait. The NLOOP
// messages stream; the minimum across tasks is the faster side's time per message.
struct isend_ping : mpi::definition_defaults {
    static constexpr pattern::exchange descriptor{.klass = benchmark_class::parallel_transfer,
                                                  .nmsg = 1,
                                                  .pairs = pattern::halves,
                                                  .throughput = pattern::throughput_rule::none};
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    static work work_of(std::size_t x, int /*window*/) { return {double(x), 0.0}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = count_of(c.bytes);
            MPI_Request request = MPI_REQUEST_NULL;
            if (c.initiator)
                MPI_Isend(b.send(i), n, MPI_BYTE, c.peer, tag_there, c.comm, &request);
            else
                MPI_Irecv(b.recv(i), n, MPI_BYTE, c.peer, tag_there, c.comm, &request);
            MPI_Wait(&request, MPI_STATUS_IGNORE);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, int /*window*/) { return {}; }
    using verify_check = bytes_from_partner<false>;
};

// p2p_mrate / p2p_mrate_bidir: a window of WINDOW_SIZE messages per iteration, one MPI_Waitall.
// Unidirectional: the first half posts WS MPI_Isend, the second half WS MPI_Irecv; bidirectional:
// every task posts WS pairs of both. The window's messages share one buffer, as OSU's and IMB's
// windowed tests do.
template <bool Bidirectional>
struct message_window : mpi::definition_defaults {
    static constexpr pattern::exchange descriptor{.klass = benchmark_class::parallel_transfer,
                                                  .nmsg = 1,
                                                  .pairs = pattern::halves,
                                                  .throughput = pattern::throughput_rule::none};
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    static work work_of(std::size_t x, int window) {
        const double messages = double(window) * (Bidirectional ? 2.0 : 1.0);
        return {messages * double(x), messages};
    }
    struct kernel {
        int window = default_window_size;
        std::vector<MPI_Request> requests;
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) {
            const int n = count_of(c.bytes);
            MPI_Request* r = requests.data();
            int posted = 0;
            for (int k = 0; k < window; ++k) {
                if (Bidirectional && c.initiator) {
                    MPI_Isend(b.send(i), n, MPI_BYTE, c.peer, tag_there, c.comm, &r[posted++]);
                    MPI_Irecv(b.recv(i), n, MPI_BYTE, c.peer, tag_back, c.comm, &r[posted++]);
                } else if (Bidirectional) {
                    MPI_Irecv(b.recv(i), n, MPI_BYTE, c.peer, tag_there, c.comm, &r[posted++]);
                    MPI_Isend(b.send(i), n, MPI_BYTE, c.peer, tag_back, c.comm, &r[posted++]);
                } else if (c.initiator) {
                    MPI_Isend(b.send(i), n, MPI_BYTE, c.peer, tag_there, c.comm, &r[posted++]);
                } else {
                    MPI_Irecv(b.recv(i), n, MPI_BYTE, c.peer, tag_there, c.comm, &r[posted++]);
                }
            }
            MPI_Waitall(posted, r, MPI_STATUSES_IGNORE);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, int window) {
        kernel k;
        k.window = window;
        k.requests.assign(static_cast<std::size_t>(2 * window), MPI_REQUEST_NULL);
        return k;
    }
    using verify_check = bytes_from_partner<Bidirectional>;
};

// --- collectives (C.6): root 0, every task times --------------------------------------------

inline constexpr pattern::collective paw_collective{};

// The expected byte j of a sum over ranks 0..np-1 of their bytes (unsigned char arithmetic).
[[nodiscard]] inline std::byte byte_sum(int processes, std::uint64_t j) noexcept {
    unsigned sum = 0;
    for (int r = 0; r < processes; ++r) sum += std::to_integer<unsigned>(check::byte_value(r, j));
    return static_cast<std::byte>(sum & 0xffu);
}

struct own_bytes {
    static void fill_send(const kernel_context& c, std::span<std::byte> slot) noexcept {
        check::fill_bytes(slot, c.rank);
    }
};

// col_bct: MPI_Bcast from task 0.
struct bcast : mpi::definition_defaults {
    static constexpr pattern::collective descriptor = paw_collective;
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    static work work_of(std::size_t /*x*/, int /*window*/) { return {}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            MPI_Bcast(c.rank == 0 ? b.send(i) : b.recv(i), count_of(c.bytes), MPI_BYTE, 0, c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, int /*window*/) { return {}; }
    struct verify_check : own_bytes {
        [[nodiscard]] static std::uint64_t verify(const kernel_context& c, std::uint64_t /*last*/,
                                                  std::span<const std::byte> recv) noexcept {
            return c.rank == 0 ? 0 : check::count_byte_defects(recv, 0);
        }
    };
};

// col_sct: MPI_Scatter from task 0, x bytes to every task.
struct scatter : mpi::definition_defaults {
    static constexpr pattern::collective descriptor = paw_collective;
    static buffer_layout layout(std::size_t x, int np) { return {x * std::size_t(np), x}; }
    static work work_of(std::size_t /*x*/, int /*window*/) { return {}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = count_of(c.bytes);
            MPI_Scatter(b.send(i), n, MPI_BYTE, b.recv(i), n, MPI_BYTE, 0, c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, int /*window*/) { return {}; }
    struct verify_check : own_bytes {
        [[nodiscard]] static std::uint64_t verify(const kernel_context& c, std::uint64_t /*last*/,
                                                  std::span<const std::byte> recv) noexcept {
            return check::count_byte_defects(recv.subspan(0, c.bytes), 0,
                                             std::uint64_t(c.rank) * c.bytes);
        }
    };
};

// col_gtr: MPI_Gather to task 0, x bytes from every task.
struct gather : mpi::definition_defaults {
    static constexpr pattern::collective descriptor = paw_collective;
    static buffer_layout layout(std::size_t x, int np) { return {x, x * std::size_t(np)}; }
    static work work_of(std::size_t /*x*/, int /*window*/) { return {}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = count_of(c.bytes);
            MPI_Gather(b.send(i), n, MPI_BYTE, b.recv(i), n, MPI_BYTE, 0, c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, int /*window*/) { return {}; }
    struct verify_check : own_bytes {
        [[nodiscard]] static std::uint64_t verify(const kernel_context& c, std::uint64_t /*last*/,
                                                  std::span<const std::byte> recv) noexcept {
            if (c.rank != 0) return 0;
            std::uint64_t d = 0;
            for (int k = 0; k < c.size; ++k)
                d += check::count_byte_defects(recv.subspan(std::size_t(k) * c.bytes, c.bytes), k);
            return d;
        }
    };
};

// col_agtr: MPI_Allgather, x bytes from every task to every task.
struct allgather : mpi::definition_defaults {
    static constexpr pattern::collective descriptor = paw_collective;
    static buffer_layout layout(std::size_t x, int np) { return {x, x * std::size_t(np)}; }
    static work work_of(std::size_t /*x*/, int /*window*/) { return {}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = count_of(c.bytes);
            MPI_Allgather(b.send(i), n, MPI_BYTE, b.recv(i), n, MPI_BYTE, c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, int /*window*/) { return {}; }
    struct verify_check : own_bytes {
        [[nodiscard]] static std::uint64_t verify(const kernel_context& c, std::uint64_t /*last*/,
                                                  std::span<const std::byte> recv) noexcept {
            std::uint64_t d = 0;
            for (int k = 0; k < c.size; ++k)
                d += check::count_byte_defects(recv.subspan(std::size_t(k) * c.bytes, c.bytes), k);
            return d;
        }
    };
};

// col_a2a: MPI_Alltoall, x bytes from every task to every task, block k of the send buffer to k.
struct alltoall : mpi::definition_defaults {
    static constexpr pattern::collective descriptor = paw_collective;
    static buffer_layout layout(std::size_t x, int np) {
        return {x * std::size_t(np), x * std::size_t(np)};
    }
    static work work_of(std::size_t /*x*/, int /*window*/) { return {}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = count_of(c.bytes);
            MPI_Alltoall(b.send(i), n, MPI_BYTE, b.recv(i), n, MPI_BYTE, c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, int /*window*/) { return {}; }
    struct verify_check : own_bytes {
        [[nodiscard]] static std::uint64_t verify(const kernel_context& c, std::uint64_t /*last*/,
                                                  std::span<const std::byte> recv) noexcept {
            std::uint64_t d = 0;
            for (int k = 0; k < c.size; ++k)
                d += check::count_byte_defects(recv.subspan(std::size_t(k) * c.bytes, c.bytes), k,
                                               std::uint64_t(c.rank) * c.bytes);
            return d;
        }
    };
};

// col_rdc / col_ardc: MPI_Reduce to task 0 / MPI_Allreduce, MPI_SUM over unsigned chars.
template <bool All>
struct reduce : mpi::definition_defaults {
    static constexpr pattern::collective descriptor = paw_collective;
    static buffer_layout layout(std::size_t x, int /*np*/) { return {x, x}; }
    static work work_of(std::size_t /*x*/, int /*window*/) { return {}; }
    struct kernel {
        template <class Buffers>
        void operator()(const kernel_context& c, std::uint64_t i, const Buffers& b) const {
            const int n = count_of(c.bytes);
            if constexpr (All)
                MPI_Allreduce(b.send(i), b.recv(i), n, MPI_UNSIGNED_CHAR, MPI_SUM, c.comm);
            else
                MPI_Reduce(b.send(i), b.recv(i), n, MPI_UNSIGNED_CHAR, MPI_SUM, 0, c.comm);
        }
    };
    static kernel make_kernel(const kernel_context& /*c*/, int /*window*/) { return {}; }
    struct verify_check : own_bytes {
        [[nodiscard]] static std::uint64_t verify(const kernel_context& c, std::uint64_t /*last*/,
                                                  std::span<const std::byte> recv) noexcept {
            if (!All && c.rank != 0) return 0;
            std::uint64_t d = 0;
            for (std::size_t j = 0; j < c.bytes; ++j) d += recv[j] != byte_sum(c.size, j) ? 1 : 0;
            return d;
        }
    };
};

}  // namespace parbench::paw_mpi
