// The IMB-MPI4 benchmarks (IMB 2021.11, src_c/IMB_bnames_mpi4.h) as definitions for the runner:
// MPI-4's persistent collectives. Each makes its request once per message size with
// MPI_<Collective>_init, outside the timed region (mpi/persistent.hpp: a resource holding the
// request on the size's buffers), on the arguments of the blocking IMB-MPI1 form it extends
// (buffers, X MPI_BYTEs, X/4 MPI_FLOATs summed, the v-forms' equal counts, Reduce_scatter's
// counts by the methodology), and an iteration starts and completes it. Two definitions per
// collective, as IMB-NBC's:
//
//   pure_def      Xxx_persist_pure: MPI_Start; MPI_Wait — t_min/t_max/t_avg
//   overlap_def   Xxx_persist: t_pure, t_ovrl with the calibrated CPU load between MPI_Start and
//                 MPI_Wait, t_CPU, overlap[%] — mpi::measure_overlap under the methodology's
//                 rules, as imb_nbc::overlap_def
//
// The root is 0 for every iteration: IMB makes the request with root 0 (IMB_bcast.c:418-424,
// IMB_reduce.c: `i % num_procs` with i = 0) and its loop's root_shift never reaches the request,
// so the checks of the rooted forms look at iteration 0's root. A request is bound to one address:
// the buffers never rotate (IMB makes it at offset `0 % s_cache_iter * s_offs`).
//
// No timing code here, and no test code.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/overlap.hpp>
#include <parbench/mpi/persistent.hpp>
#include <parbench/mpi/persistent_collectives.hpp>  // MPI_<Collective>_init on Open MPI 4.1 too
#include <parbench/suites/imb/mpi1.hpp>
#include <parbench/suites/imb/nbc.hpp>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace parbench::imb_mpi4 {

using imb_mpi1::count_of;
using imb_mpi1::float_count;
using mpi::kernel_context;
using persistent_buffers = mpi::message_buffers<mpi::fixed_slots>;

inline constexpr int request_root = 0;  // IMB-MPI4's root for every request

// The one request of a persistent collective, for its _init call.
[[nodiscard]] inline MPI_Request* one_request(std::vector<MPI_Request>& requests) {
    requests.assign(1, MPI_REQUEST_NULL);
    return requests.data();
}

// --- requests: one MPI-4 _init call each, on the size's buffers ----------------------------------
// Each keeps what its call reads for the request's life (counts and displacements).

struct bcast_request {
    int n = 0;
    explicit bcast_request(const kernel_context& c) : n(count_of(c.bytes)) {}
    void operator()(const kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& r) const {
        MPI_Bcast_init(c.rank == request_root ? b.send(0) : b.recv(0), n, MPI_BYTE, request_root,
                       c.comm, MPI_INFO_NULL, one_request(r));
    }
};

// X MPI_BYTEs per process; the v-forms' equal counts at k X.
struct byte_counts {
    int n = 0;
    imb_mpi1::v_counts v;
    explicit byte_counts(const kernel_context& c) : n(count_of(c.bytes)), v(c.bytes, c.size) {}
};

template <bool Vector>
struct allgather_request : byte_counts {
    using byte_counts::byte_counts;
    void operator()(const kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& r) const {
        if constexpr (Vector)
            MPI_Allgatherv_init(b.send(0), n, MPI_BYTE, b.recv(0), v.counts.data(), v.displs.data(),
                                MPI_BYTE, c.comm, MPI_INFO_NULL, one_request(r));
        else
            MPI_Allgather_init(b.send(0), n, MPI_BYTE, b.recv(0), n, MPI_BYTE, c.comm,
                               MPI_INFO_NULL, one_request(r));
    }
};

template <bool Vector>
struct gather_request : byte_counts {
    using byte_counts::byte_counts;
    void operator()(const kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& r) const {
        if constexpr (Vector)
            MPI_Gatherv_init(b.send(0), n, MPI_BYTE, b.recv(0), v.counts.data(), v.displs.data(),
                             MPI_BYTE, request_root, c.comm, MPI_INFO_NULL, one_request(r));
        else
            MPI_Gather_init(b.send(0), n, MPI_BYTE, b.recv(0), n, MPI_BYTE, request_root, c.comm,
                            MPI_INFO_NULL, one_request(r));
    }
};

template <bool Vector>
struct scatter_request : byte_counts {
    using byte_counts::byte_counts;
    // MPICH 4.0's persistent MPI_Scatter fails when started a second time on more than 2
    // processes (MPI_Wait: "MPIDU_Sched_progress_state: Invalid communicator"; IMB-MPI4 aborts
    // there), which would end the whole run; its MPI_Scatterv_init is sound.
    [[nodiscard]] static std::string refusal(int processes) requires(!Vector) {
        if (processes <= 2 || !mpi::library_version().starts_with("MPICH Version:\t4.0")) return {};
        return "MPICH 4.0's persistent MPI_Scatter fails when restarted on more than 2 processes "
               "(MPI_Wait: Invalid communicator)";
    }
    void operator()(const kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& r) const {
        if constexpr (Vector)
            MPI_Scatterv_init(b.send(0), v.counts.data(), v.displs.data(), MPI_BYTE, b.recv(0), n,
                              MPI_BYTE, request_root, c.comm, MPI_INFO_NULL, one_request(r));
        else
            MPI_Scatter_init(b.send(0), n, MPI_BYTE, b.recv(0), n, MPI_BYTE, request_root, c.comm,
                             MPI_INFO_NULL, one_request(r));
    }
};

template <bool Vector>
struct alltoall_request : byte_counts {
    using byte_counts::byte_counts;
    void operator()(const kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& r) const {
        if constexpr (Vector)
            MPI_Alltoallv_init(b.send(0), v.counts.data(), v.displs.data(), MPI_BYTE, b.recv(0),
                               v.counts.data(), v.displs.data(), MPI_BYTE, c.comm, MPI_INFO_NULL,
                               one_request(r));
        else
            MPI_Alltoall_init(b.send(0), n, MPI_BYTE, b.recv(0), n, MPI_BYTE, c.comm, MPI_INFO_NULL,
                              one_request(r));
    }
};

// Reductions: X/4 MPI_FLOATs summed.
struct allreduce_request {
    int count = 0;
    explicit allreduce_request(const kernel_context& c) : count(float_count(c.bytes)) {}
    void operator()(const kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& r) const {
        MPI_Allreduce_init(b.send(0), b.recv(0), count, MPI_FLOAT, MPI_SUM, c.comm, MPI_INFO_NULL,
                           one_request(r));
    }
};

struct reduce_request : allreduce_request {
    using allreduce_request::allreduce_request;
    void operator()(const kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& r) const {
        MPI_Reduce_init(b.send(0), b.recv(0), count, MPI_FLOAT, MPI_SUM, request_root, c.comm,
                        MPI_INFO_NULL, one_request(r));
    }
};

// The methodology's counts (imb::methodology::reduce_scatter_whole_x_each), as Reduce_scatter's.
struct reduce_scatter_request {
    imb_mpi1::reduce_scatter_counts receive;
    reduce_scatter_request(const kernel_context& c, const imb::methodology& m)
        : receive(imb_mpi1::reduce_scatter_counts_under(m, float_count(c.bytes), c.size)) {}
    void operator()(const kernel_context& c, const persistent_buffers& b,
                    std::vector<MPI_Request>& r) const {
        MPI_Reduce_scatter_init(b.send(0), b.recv(0), receive.counts.data(), MPI_FLOAT, MPI_SUM,
                                c.comm, MPI_INFO_NULL, one_request(r));
    }
};

struct barrier_request {
    explicit barrier_request(const kernel_context& /*c*/) {}
    void operator()(const kernel_context& c, const persistent_buffers& /*b*/,
                    std::vector<MPI_Request>& r) const {
        MPI_Barrier_init(c.comm, MPI_INFO_NULL, one_request(r));
    }
};

// The "start" of mpi/overlap.hpp on a persistent request: MPI_Start, and the request to wait on
// (a copy of the handle: MPI_Wait leaves a persistent request allocated and inactive).
struct start_request {
    template <class View>
    MPI_Request operator()(const kernel_context& /*c*/, std::uint64_t /*i*/, const View& v) const {
        MPI_Start(v.requests.data());
        return v.requests[0];
    }
};

// --- definitions ---------------------------------------------------------------------------------

// Xxx_persist_pure: the blocking form's pattern, layout and traits; the request made once per
// size by `Request`; MPI_Start + MPI_Wait per iteration.
template <class Blocking, class Request>
struct pure_def : Blocking {
    using kernel = mpi::wait_kernel<start_request>;
    static kernel make_kernel(const kernel_context& /*c*/) { return {}; }
    // The request of the size, by the methodology where its arguments follow a rule of it
    // (Reduce_scatter_persist's counts).
    static Request request_maker(const kernel_context& c, const imb::methodology& m) {
        if constexpr (std::is_constructible_v<Request, const kernel_context&,
                                              const imb::methodology&>)
            return Request(c, m);
        else
            return Request(c);
    }
    // Why the MPI library cannot run it on `processes` (empty: it can).
    [[nodiscard]] static std::string refusal(int processes) requires requires {
        Request::refusal(processes);
    }
    { return Request::refusal(processes); }
    // The blocking form's check at iteration 0's root: the request's.
    struct verify_check : Blocking::verify_check {
        [[nodiscard]] auto verify(const kernel_context& c, std::uint64_t /*last*/,
                                  std::span<const std::byte> recv) const {
            return Blocking::verify_check::verify(c, 0, recv);
        }
    };
};

// Xxx_persist: the same iteration measured three ways and reduced to IMB-NBC's overlap figures,
// by the methodology's t_CPU and overlap[%] rules (IMB 2021 prints IMB-MPI4 with IMB-NBC's code:
// t_CPU read inside the overlapped loop, IMB_bcast.c:437-439; overlap[%] over max(t_pure, t_CPU),
// IMB_output.c:313-319).
template <class Blocking, class Request>
struct overlap_def : pure_def<Blocking, Request> {
    static constexpr mpi::definition_traits traits = [] {
        mpi::definition_traits t = Blocking::traits;
        t.columns = imb_nbc::overlap_columns;
        return t;
    }();
    template <class Config>
    static mpi::measurement measure(const mpi::session& s, Config&& config,
                                    const imb::methodology& m, mpi::imb_cpu_work* run_work) {
        return mpi::measure_overlap(s, std::forward<Config>(config),
                                    imb_nbc::overlap_rule_of(m, run_work));
    }
};

using bcast_pure_def = pure_def<imb_mpi1::bcast_def, bcast_request>;
using allgather_pure_def = pure_def<imb_mpi1::allgather_def<false>, allgather_request<false>>;
using allgatherv_pure_def = pure_def<imb_mpi1::allgather_def<true>, allgather_request<true>>;
using gather_pure_def = pure_def<imb_mpi1::gather_def<false>, gather_request<false>>;
using gatherv_pure_def = pure_def<imb_mpi1::gather_def<true>, gather_request<true>>;
using scatter_pure_def = pure_def<imb_mpi1::scatter_def<false>, scatter_request<false>>;
using scatterv_pure_def = pure_def<imb_mpi1::scatter_def<true>, scatter_request<true>>;
using alltoall_pure_def = pure_def<imb_mpi1::alltoall_def<false>, alltoall_request<false>>;
using alltoallv_pure_def = pure_def<imb_mpi1::alltoall_def<true>, alltoall_request<true>>;
using reduce_pure_def = pure_def<imb_mpi1::reduce_def, reduce_request>;
using reduce_scatter_pure_def = pure_def<imb_mpi1::reduce_scatter_def, reduce_scatter_request>;
using allreduce_pure_def = pure_def<imb_mpi1::allreduce_def, allreduce_request>;
using barrier_pure_def = pure_def<imb_mpi1::barrier_def, barrier_request>;

using bcast_def = overlap_def<imb_mpi1::bcast_def, bcast_request>;
using allgather_def = overlap_def<imb_mpi1::allgather_def<false>, allgather_request<false>>;
using allgatherv_def = overlap_def<imb_mpi1::allgather_def<true>, allgather_request<true>>;
using gather_def = overlap_def<imb_mpi1::gather_def<false>, gather_request<false>>;
using gatherv_def = overlap_def<imb_mpi1::gather_def<true>, gather_request<true>>;
using scatter_def = overlap_def<imb_mpi1::scatter_def<false>, scatter_request<false>>;
using scatterv_def = overlap_def<imb_mpi1::scatter_def<true>, scatter_request<true>>;
using alltoall_def = overlap_def<imb_mpi1::alltoall_def<false>, alltoall_request<false>>;
using alltoallv_def = overlap_def<imb_mpi1::alltoall_def<true>, alltoall_request<true>>;
using reduce_def = overlap_def<imb_mpi1::reduce_def, reduce_request>;
using reduce_scatter_def = overlap_def<imb_mpi1::reduce_scatter_def, reduce_scatter_request>;
using allreduce_def = overlap_def<imb_mpi1::allreduce_def, allreduce_request>;
using barrier_def = overlap_def<imb_mpi1::barrier_def, barrier_request>;

}  // namespace parbench::imb_mpi4
