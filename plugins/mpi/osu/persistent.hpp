// OSU 7.5's persistent tests as definitions for osu/messages.hpp: the point-to-point ones
// (c/mpi/pt2pt/persistent/osu_latency_persistent.c, osu_bw_persistent.c, osu_bibw_persistent.c)
// and the 14 collective ones (c/mpi/collective/persistent/osu_*_persistent.c).
// Each makes its requests once per size, outside the timed region (request_maker, on the
// session's buffers: mpi/persistent.hpp), and an iteration only starts and completes them:
//
//   latency_persistent  process 0: MPI_Start + MPI_Wait of its send, then of its receive;
//                       process 1 the other way round. One-way latency: half the round trip
//   bw_persistent       the sender MPI_Startall's -W MPI_Send_init requests and MPI_Waitall's
//                       them, then receives a one-MPI_CHAR reply; the receiver the same with
//                       -W MPI_Recv_init requests, then replies. MB/s = W x / t
//   bibw_persistent     both sides MPI_Startall -W receives, then -W sends, MPI_Waitall the
//                       sends, then the receives. MB/s = 2 W x / t
//
// Messages are -T's elements (MPI_CHAR by default: osu/point_to_point.hpp); every request of a
// window is on the same buffer (OSU's -b single), or with -b multiple request w on slot w of
// buffers of W slots (osu_bw_persistent.c:201-224, osu_bibw_persistent.c:201-236), and
// the tags are OSU's. The figures, counts, sizes and checks are those of latency, bw and bibw
// (osu/point_to_point.hpp), whose definitions these extend.
//
// A persistent collective makes one request per size with MPI-4's MPI_<Collective>_init on the
// arguments of the blocking test it extends (osu/collectives.hpp: buffers, counts, root 0,
// MPI_FLOAT sums, -c), and an iteration is MPI_Start and MPI_Wait.
#pragma once

#include "osu/collectives.hpp"
#include "osu/point_to_point.hpp"

#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/message_buffers.hpp>
#include <parbench/mpi/persistent_collectives.hpp>  // MPI_<Collective>_init on Open MPI 4.1 too
#include <parbench/mpi/timed_loop.hpp>

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace parbench::osu {

using persistent_buffers = mpi::message_buffers<mpi::fixed_slots>;

inline constexpr int tag_latency_persistent = 1;  // osu_latency_persistent.c
inline constexpr int tag_window_to_1 = 100;       // osu_bw/bibw_persistent.c: 0 -> 1
inline constexpr int tag_window_to_0 = 101;       // 1 -> 0, and bw's reply

// One ping-pong of requests[0] (the send) and requests[1] (the receive).
struct persistent_ping_pong_kernel {
    template <class View>
    void operator()(const mpi::kernel_context& c, std::uint64_t /*i*/, const View& v) const {
        if (c.peer == MPI_PROC_NULL) return;
        MPI_Request* send = &v.requests[0];
        MPI_Request* recv = &v.requests[1];
        if (c.initiator) {
            MPI_Start(send);
            MPI_Wait(send, MPI_STATUS_IGNORE);
            MPI_Start(recv);
            MPI_Wait(recv, MPI_STATUS_IGNORE);
        } else {
            MPI_Start(recv);
            MPI_Wait(recv, MPI_STATUS_IGNORE);
            MPI_Start(send);
            MPI_Wait(send, MPI_STATUS_IGNORE);
        }
    }
};

// One window: bw's -W requests (sends on the initiator, receives on the other) and the reply;
// bibw's -W receives (requests[0, W)) and -W sends (requests[W, 2W)).
struct persistent_window_kernel {
    bool both = false;
    int window = 64;
    char reply = 0;

    template <class View>
    void operator()(const mpi::kernel_context& c, std::uint64_t /*i*/, const View& v) {
        if (c.peer == MPI_PROC_NULL) return;
        MPI_Request* requests = v.requests.data();
        if (both) {
            MPI_Startall(window, requests);
            MPI_Startall(window, requests + window);
            MPI_Waitall(window, requests + window, MPI_STATUSES_IGNORE);
            MPI_Waitall(window, requests, MPI_STATUSES_IGNORE);
            return;
        }
        MPI_Startall(window, requests);
        MPI_Waitall(window, requests, MPI_STATUSES_IGNORE);
        if (c.initiator)
            MPI_Recv(&reply, 1, MPI_CHAR, c.peer, tag_window_to_0, c.comm, MPI_STATUS_IGNORE);
        else
            MPI_Send(&reply, 1, MPI_CHAR, c.peer, tag_window_to_0, c.comm);
    }
};

// latency_persistent's requests: [0] the send, [1] the receive.
struct ping_pong_requests {
    message_elements elements;
    void operator()(const mpi::kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& requests) const {
        if (c.peer == MPI_PROC_NULL) return;
        const int n = elements.count(c.bytes);
        const MPI_Datatype type = elements.type;
        requests.assign(2, MPI_REQUEST_NULL);
        MPI_Send_init(b.send(0), n, type, c.peer, tag_latency_persistent, c.comm,
                      requests.data());
        MPI_Recv_init(b.recv(0), n, type, c.peer, tag_latency_persistent, c.comm,
                      requests.data() + 1);
    }
};

// A window's requests: bw's -W sends (initiator) or receives; bibw's -W receives, then -W sends.
struct window_requests {
    bool both = false;
    int window = 64;
    bool multiple = false;  // -b multiple (or a managed SRC or DST): request w on slot w
    message_elements elements;
    void operator()(const mpi::kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& requests) const {
        if (c.peer == MPI_PROC_NULL) return;
        const int n = elements.count(c.bytes);
        const MPI_Datatype type = elements.type;
        const int w = window;
        // OSU's process 0 is the lower rank of the pair: it sends on 100 and receives on 101
        const bool first = c.rank < c.peer;
        const int out = first ? tag_window_to_1 : tag_window_to_0;
        const int in = first ? tag_window_to_0 : tag_window_to_1;
        requests.assign(static_cast<std::size_t>(both ? 2 * w : w), MPI_REQUEST_NULL);
        MPI_Request* r = requests.data();
        for (int j = 0; j < w; ++j) {
            const std::size_t slot = multiple ? static_cast<std::size_t>(j) * c.bytes : 0;
            if (both) {
                MPI_Recv_init(b.recv(0) + slot, n, type, c.peer, in, c.comm, r + j);
                MPI_Send_init(b.send(0) + slot, n, type, c.peer, out, c.comm, r + w + j);
            } else if (c.initiator) {
                MPI_Send_init(b.send(0) + slot, n, type, c.peer, out, c.comm, r + j);
            } else {
                MPI_Recv_init(b.recv(0) + slot, n, type, c.peer, in, c.comm, r + j);
            }
        }
    }
};

struct latency_persistent : latency_def<false>, takes_message_datatype,
                            takes_latency_buffers {
    static constexpr block_text text{.banner = "OSU MPI Latency Persistent Test",
                                     // process 0's (osu_latency_persistent.c:290-291)
                                     .figures = {{{.heading = avg_latency_figure.heading,
                                                   .source = process0_time_metric}}},
                                     .latency = true};
    static ping_pong_requests request_maker(const mpi::kernel_context& c, const options& o) {
        return {.elements = message_elements::of(o, c.bytes)};
    }
    static persistent_ping_pong_kernel make_kernel(const mpi::kernel_context& /*c*/,
                                                   const options& /*o*/) {
        return {};
    }
};

template <window_test T>
struct window_persistent : window_def<T> {
    static constexpr bool both = window_def<T>::both;
    // -b as bw's and bibw's (OMBOP__PT2PT__BW, osu_util_options.h:66-67): window_def's W slots
    static constexpr block_text text{
        .banner = both ? "OSU MPI Bi-Directional Bandwidth Persistent Test"
                       : "OSU MPI Bandwidth Persistent Test",
        .figures = {{bandwidth_figure}}};
    static window_requests request_maker(const mpi::kernel_context& c, const options& o) {
        return {.both = both,
                .window = static_cast<int>(o.window_size),
                .multiple = o.multiple_buffers,
                .elements = message_elements::of(o, c.bytes)};
    }
    static persistent_window_kernel make_kernel(const mpi::kernel_context& /*c*/,
                                                const options& o) {
        return {.both = both, .window = static_cast<int>(o.window_size)};
    }
};

using bw_persistent = window_persistent<window_test::bw>;
using bibw_persistent = window_persistent<window_test::bibw>;

// --- collectives ---------------------------------------------------------------------------

// One iteration of a persistent collective.
struct start_wait_kernel {
    template <class View>
    void operator()(const mpi::kernel_context& /*c*/, std::uint64_t /*i*/, const View& v) const {
        MPI_Start(v.requests.data());
        MPI_Wait(v.requests.data(), MPI_STATUS_IGNORE);
    }
};

// The one request of a persistent collective, for its _init call.
[[nodiscard]] inline MPI_Request* one_request(std::vector<MPI_Request>& requests) {
    requests.assign(1, MPI_REQUEST_NULL);
    return requests.data();
}

// Each request maker holds what its call reads for the request's life (counts, displacements,
// datatypes), from the context of the size; `Vector`: the v-variant with equal counts.
// The elements of -T's datatype (osu/datatypes.hpp): X / size(type) of them per process.
// -l: the buffer the request is made on is MPI_IN_PLACE where the maker's `in_place` says (the
// blocking test's place, osu/collectives.hpp; root 0).
// -D: each block one element of the derived type of the X / size(type) elements, held as long as
// the maker (the request's life).
struct char_requests {
    std::shared_ptr<const derived_message_type> derived;  // -D's type, or none
    MPI_Datatype type = MPI_CHAR;
    int n = 0;                  // X / size(type) elements, or 1 of -D's type
    imb_mpi1::v_counts v;       // n each, at k n
    bool in_place_on = false;   // -l
    char_requests(const mpi::kernel_context& c, const options& o)
        : derived(o.ddt.given() ? std::make_shared<const derived_message_type>(
                                      o.ddt, mpi_datatype(o.table_datatype, false),
                                      static_cast<int>(c.bytes / element_bytes(o.table_datatype)))
                                : nullptr),
          type(derived ? derived->get() : mpi_datatype(o.table_datatype, false)),
          n(derived ? 1 : static_cast<int>(c.bytes / element_bytes(o.table_datatype))),
          v(n, c.size),
          in_place_on(o.in_place) {}
    [[nodiscard]] void* send_of(const persistent_buffers& b) const {
        return in_place_on ? MPI_IN_PLACE : static_cast<void*>(b.send(0));
    }
    [[nodiscard]] void* root_recv_of(const mpi::kernel_context& c,
                                     const persistent_buffers& b) const {
        return in_place_on && c.rank == 0 ? MPI_IN_PLACE : static_cast<void*>(b.recv(0));
    }
};

template <bool Vector>
struct allgather_requests : char_requests {
    static constexpr in_place_use in_place = in_place_use::send;  // osu_allgather_persistent.c:96
    using char_requests::char_requests;
    void operator()(const mpi::kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& r) const {
        if constexpr (Vector)
            MPI_Allgatherv_init(send_of(b), n, type, b.recv(0), v.counts.data(),
                                v.displs.data(), type, c.comm, MPI_INFO_NULL, one_request(r));
        else
            MPI_Allgather_init(send_of(b), n, type, b.recv(0), n, type, c.comm,
                               MPI_INFO_NULL, one_request(r));
    }
};

template <bool Vector>
struct alltoall_requests : char_requests {
    static constexpr in_place_use in_place = in_place_use::send;
    using char_requests::char_requests;
    void operator()(const mpi::kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& r) const {
        if constexpr (Vector)
            MPI_Alltoallv_init(send_of(b), v.counts.data(), v.displs.data(), type, b.recv(0),
                               v.counts.data(), v.displs.data(), type, c.comm, MPI_INFO_NULL,
                               one_request(r));
        else
            MPI_Alltoall_init(send_of(b), n, type, b.recv(0), n, type, c.comm,
                              MPI_INFO_NULL, one_request(r));
    }
};

struct alltoallw_requests : char_requests {
    static constexpr in_place_use in_place = in_place_use::send;
    std::vector<MPI_Datatype> types;
    alltoallw_requests(const mpi::kernel_context& c, const options& o)
        : char_requests(c, o), types(static_cast<std::size_t>(c.size), type) {
        for (int k = 0; k < c.size; ++k)  // byte displacements, as osu_alltoallw_persistent.c
            v.displs[static_cast<std::size_t>(k)] = k * static_cast<int>(c.bytes);
    }
    void operator()(const mpi::kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& r) const {
        MPI_Alltoallw_init(send_of(b), v.counts.data(), v.displs.data(), types.data(), b.recv(0),
                           v.counts.data(), v.displs.data(), types.data(), c.comm, MPI_INFO_NULL,
                           one_request(r));
    }
};

template <bool Vector>
struct gather_requests : char_requests {
    using char_requests::char_requests;
    void operator()(const mpi::kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& r) const {
        if constexpr (Vector)
            MPI_Gatherv_init(b.send(0), n, type, b.recv(0), v.counts.data(), v.displs.data(),
                             type, 0, c.comm, MPI_INFO_NULL, one_request(r));
        else
            MPI_Gather_init(b.send(0), n, type, b.recv(0), n, type, 0, c.comm,
                            MPI_INFO_NULL, one_request(r));
    }
};

template <bool Vector>
struct scatter_requests : char_requests {
    // osu_scatter_persistent.c:148-153: the root's receive buffer
    static constexpr in_place_use in_place = in_place_use::receive_at_root;
    using char_requests::char_requests;
    // MPICH 4.0's persistent MPI_Scatter fails when started a second time on more than 2
    // processes (MPI_Wait: "MPIDU_Sched_progress_state: Invalid communicator"), which would abort
    // the whole run; its MPI_Scatterv_init is sound.
    [[nodiscard]] static std::string refusal(int world_size)
        requires(!Vector)
    {
        if (world_size <= 2 || !mpi::library_version().starts_with("MPICH Version:\t4.0"))
            return {};
        return "scatter_persistent: MPICH 4.0's persistent MPI_Scatter fails when restarted on "
               "more than 2 processes (MPI_Wait: Invalid communicator); the run has " +
               std::to_string(world_size);
    }
    void operator()(const mpi::kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& r) const {
        if constexpr (Vector)
            MPI_Scatterv_init(b.send(0), v.counts.data(), v.displs.data(), type,
                              root_recv_of(c, b), n,
                              type, 0, c.comm, MPI_INFO_NULL, one_request(r));
        else
            MPI_Scatter_init(b.send(0), n, type, root_recv_of(c, b), n, type, 0, c.comm,
                             MPI_INFO_NULL, one_request(r));
    }
};

struct bcast_requests : char_requests {
    using char_requests::char_requests;
    void operator()(const mpi::kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& r) const {
        MPI_Bcast_init(c.rank == 0 ? b.send(0) : b.recv(0), n, type, 0, c.comm, MPI_INFO_NULL,
                       one_request(r));
    }
};

struct barrier_requests {
    barrier_requests(const mpi::kernel_context& /*c*/, const options& /*o*/) {}
    void operator()(const mpi::kernel_context& c, const persistent_buffers& /*b*/,
                    std::vector<MPI_Request>& r) const {
        MPI_Barrier_init(c.comm, MPI_INFO_NULL, one_request(r));
    }
};

// Reductions: X / size(type) elements of -T's datatype summed (a reduction's MPI_CHAR as
// MPI_SIGNED_CHAR; reduce at root 0; reduce_scatter split as the blocking test splits it).
struct allreduce_requests {
    MPI_Datatype type = MPI_INT;
    int count = 0;
    allreduce_requests(const mpi::kernel_context& c, const options& o)
        : type(mpi_datatype(o.table_datatype, true)),
          count(static_cast<int>(c.bytes / element_bytes(o.table_datatype))) {}
    void operator()(const mpi::kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& r) const {
        MPI_Allreduce_init(b.send(0), b.recv(0), count, type, MPI_SUM, c.comm, MPI_INFO_NULL,
                           one_request(r));
    }
};

struct reduce_requests : allreduce_requests {
    using allreduce_requests::allreduce_requests;
    void operator()(const mpi::kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& r) const {
        MPI_Reduce_init(b.send(0), b.recv(0), count, type, MPI_SUM, 0, c.comm, MPI_INFO_NULL,
                        one_request(r));
    }
};

struct reduce_scatter_requests {
    static constexpr in_place_use in_place = in_place_use::send;  // ..._persistent.c:174-176
    MPI_Datatype type = MPI_INT;
    imb_mpi1::reduce_scatter_split split;
    bool in_place_on = false;  // -l
    reduce_scatter_requests(const mpi::kernel_context& c, const options& o)
        : type(mpi_datatype(o.table_datatype, true)),
          split(static_cast<int>(c.bytes / element_bytes(o.table_datatype)), c.size),
          in_place_on(o.in_place) {}
    void operator()(const mpi::kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& r) const {
        MPI_Reduce_scatter_init(in_place_on ? MPI_IN_PLACE : static_cast<void*>(b.send(0)),
                                b.recv(0), split.counts.data(), type, MPI_SUM,
                                c.comm, MPI_INFO_NULL, one_request(r));
    }
};

// A persistent collective: the blocking test `Blocking` (a collective_def: buffers, pattern,
// counts, sizes, -c) with its request made by `Requests` and started each iteration.
template <class Blocking, class Requests, const char* Banner>
struct persistent_collective : Blocking {
    // -D where the blocking test takes it (OMBOP__COLLECTIVE__ALLTOALL_P, __GATHER_P,
    // __SCATTER_P, __BCAST_P have D:, osu_util_options.h:144-154; the reductions' none): the
    // request made on one element of the derived type per block (char_requests)
    static constexpr bool takes_ddt = Blocking::takes_ddt;
    static constexpr block_text text = [] {
        block_text t = Blocking::text;
        t.banner = Banner;
        return t;
    }();
    // OSU 7.5's persistent collectives take -T and -l (osu_util_options.h:144-164), no -k. -l
    // where the blocking test takes it (ALLTOALL_P, GATHER_P, SCATTER_P, ALL_REDUCE_P, REDUCE_P,
    // REDUCE_SCATTER_P have l; BCAST_P and BARRIER_P none); the request is made in place where
    // the program reads -l (its request maker's `in_place`): osu_allreduce_persistent.c,
    // osu_reduce_persistent.c, osu_gather_persistent.c and osu_gatherv_persistent.c take it and
    // never read it, and neither does parbench there.
    static constexpr bool takes_in_place = Blocking::takes_in_place;
    static constexpr bool takes_root = false;
    static Requests request_maker(const mpi::kernel_context& c, const options& o) {
        return Requests(c, o);
    }
    [[nodiscard]] static std::string refusal(int world_size)
        requires requires { Requests::refusal(world_size); }
    {
        return Requests::refusal(world_size);
    }
    static start_wait_kernel make_kernel(const mpi::kernel_context& /*c*/, const options& /*o*/) {
        return {};
    }
    // Its request is made at root 0: OSU 7.5's persistent collectives take no -k.
    static typename Blocking::verify_check make_check(const options& o) {
        options at_root_0 = o;
        at_root_0.root = {};
        return Blocking::make_check(at_root_0);
    }
};

}  // namespace parbench::osu
