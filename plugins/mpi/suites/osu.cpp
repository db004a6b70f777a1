// osu: the OSU micro-benchmarks (MVAPICH's osu_* executables, names without "osu_"): the
// point-to-point tests (osu/point_to_point.hpp), the blocking collective latency tests and
// bcast_ack (osu/collectives.hpp), the persistent forms of both (osu/persistent.hpp), the
// nonblocking collectives (suites/osu_nbc.cpp) and the one-sided tests (osu/one_sided.hpp).
#include "suites/suite.hpp"

#include "osu/collectives.hpp"
#include "osu/messages.hpp"
#include "osu/one_sided.hpp"
#include "osu/persistent.hpp"
#include "osu/point_to_point.hpp"
#include "osu/suite.hpp"
#include "testing/fault_kernels.hpp"

#include <algorithm>
#include <array>

namespace parbench::osu {
namespace osu_impl {
namespace {

// The -s sets OSU 7 offers: every passive- and active-target method for the latency and
// unidirectional bandwidth tests, only active target for the bidirectional one.
constexpr std::array<sync, 2> active_target = {sync::pscw, sync::fence};

template <rma_op Op, measures M, sync Default = sync::flush, bool Bidirectional = false>
struct one_sided_def : mpi::definition_defaults {
    static constexpr rma_op op = Op;
    static constexpr measures kind = M;
    static constexpr bool bidirectional = Bidirectional;
    static constexpr sync default_sync = Default;
    static constexpr std::span<const sync> syncs =
        Bidirectional ? std::span<const sync>(active_target) : std::span<const sync>(all_syncs);
    static constexpr bool accepts(sync s) {
        return std::find(syncs.begin(), syncs.end(), s) != syncs.end();
    }
};

struct put_latency : one_sided_def<rma_op::put, measures::latency> {
    static constexpr const char* banner = "OSU MPI_Put Latency Test";
    static constexpr const char* datatype = "MPI_CHAR";
};
struct get_latency : one_sided_def<rma_op::get, measures::latency> {
    static constexpr const char* banner = "OSU MPI_Get latency Test";
    static constexpr const char* datatype = "MPI_CHAR";
};
struct put_bw : one_sided_def<rma_op::put, measures::bandwidth> {
    static constexpr const char* banner = "OSU MPI_Put Bandwidth Test";
    static constexpr const char* datatype = "MPI_CHAR";
};
struct get_bw : one_sided_def<rma_op::get, measures::bandwidth> {
    static constexpr const char* banner = "OSU MPI_Get Bandwidth Test";
    static constexpr const char* datatype = "MPI_CHAR";
};
struct put_bibw : one_sided_def<rma_op::put, measures::bandwidth, sync::pscw, true> {
    static constexpr const char* banner = "OSU MPI_Put Bi-directional Bandwidth Test";
    static constexpr const char* datatype = "MPI_CHAR";
};
// The accumulate and the atomics take -T (OSU 7.5: show_validation adds "cT:" to their option
// string, osu_util.c:588-602): X / size(T) elements of T for acc_latency, one element for
// fop_latency and cas_latency, MPI_CHAR by default (osu_util.c:1176-1189), the datatype line
// print_header_one_sided's (osu_util_mpi.c:374-376).
struct acc_latency : one_sided_def<rma_op::accumulate, measures::latency> {
    static constexpr const char* banner = "OSU MPI_Accumulate latency Test";
    static constexpr const char* datatype = "MPI_CHAR";
    static constexpr bool takes_datatype = true;
};
// OSU 7.5 sums MPI_CHAR and prints no datatype line (its own header,
// osu_get_acc_latency.c:726-748; -T is not in its option string).
struct get_acc_latency : one_sided_def<rma_op::get_accumulate, measures::latency> {
    static constexpr const char* banner = "OSU MPI_Get_accumulate latency Test";
    static constexpr const char* datatype = nullptr;
};
struct fop_latency : one_sided_def<rma_op::fetch_and_op, measures::latency> {
    static constexpr const char* banner = "OSU MPI_Fetch_and_op latency Test";
    static constexpr const char* datatype = "MPI_CHAR";
    static constexpr bool takes_datatype = true;
};
struct cas_latency : one_sided_def<rma_op::compare_and_swap, measures::latency> {
    static constexpr const char* banner = "OSU MPI_Compare_and_swap latency Test";
    static constexpr const char* datatype = "MPI_CHAR";
    static constexpr bool takes_datatype = true;
    // MPI_Compare_and_swap takes integer, logical or byte types only (MPI 4.0 §12.3.4, which
    // MPICH enforces); OSU 7.5 passes -T MPI_FLOAT on and aborts in MPI_CHECK
    static std::string refusal_with(const options& o, int /*world_size*/) {
        if (std::find(o.datatypes.begin(), o.datatypes.end(), datatype::mpi_float) ==
            o.datatypes.end())
            return {};
        return "-T MPI_FLOAT: cas_latency: MPI_Compare_and_swap takes integer types only (OSU "
               "7.5 would abort in it)";
    }
};

// OSU 7's banners of the collective tests, and 7.5's of their persistent forms.
constexpr char allgather_banner[] = "OSU MPI Allgather Latency Test";
constexpr char allgatherv_banner[] = "OSU MPI Allgatherv Latency Test";
constexpr char allreduce_banner[] = "OSU MPI Allreduce Latency Test";
constexpr char alltoall_banner[] = "OSU MPI All-to-All Personalized Exchange Latency Test";
constexpr char alltoallv_banner[] = "OSU MPI All-to-Allv Personalized Exchange Latency Test";
constexpr char alltoallw_banner[] = "OSU MPI All-to-Allw Personalized Exchange Latency Test";
constexpr char barrier_banner[] = "OSU MPI Barrier Latency Test";
constexpr char bcast_banner[] = "OSU MPI Broadcast Latency Test";
constexpr char gather_banner[] = "OSU MPI Gather Latency Test";
constexpr char gatherv_banner[] = "OSU MPI Gatherv Latency Test";
constexpr char reduce_banner[] = "OSU MPI Reduce Latency Test";
constexpr char reduce_scatter_banner[] = "OSU MPI Reduce_scatter Latency Test";
constexpr char reduce_scatter_block_banner[] = "OSU MPI Reduce_scatter_block Latency Test";
constexpr char scatter_banner[] = "OSU MPI Scatter Latency Test";
constexpr char scatterv_banner[] = "OSU MPI Scatterv Latency Test";
constexpr char allgather_p_banner[] = "OSU MPI Allgather Persistent Latency Test";
constexpr char allgatherv_p_banner[] = "OSU MPI Allgatherv Persistent Latency Test";
constexpr char allreduce_p_banner[] = "OSU MPI Allreduce Persistent Latency Test";
constexpr char alltoall_p_banner[] =
    "OSU MPI All-to-All Personalized Exchange Persistent Latency Test";
constexpr char alltoallv_p_banner[] =
    "OSU MPI All-to-Allv Personalized Exchange Persistent Latency Test";
constexpr char alltoallw_p_banner[] =
    "OSU MPI All-to-Allw Personalized Exchange Persistent Latency Test";
constexpr char barrier_p_banner[] = "OSU MPI Barrier Persistent Latency Test";
constexpr char bcast_p_banner[] = "OSU MPI Broadcast Persistent Latency Test";
constexpr char gather_p_banner[] = "OSU MPI Gather Persistent Latency Test";
constexpr char gatherv_p_banner[] = "OSU MPI Gatherv Persistent Latency Test";
constexpr char reduce_p_banner[] = "OSU MPI Reduce Persistent Latency Test";
constexpr char reduce_scatter_p_banner[] = "OSU MPI Reduce_scatter Persistent Latency Test";
constexpr char scatter_p_banner[] = "OSU MPI Scatter Persistent Latency Test";
constexpr char scatterv_p_banner[] = "OSU MPI Scatterv Persistent Latency Test";
constexpr char float_type[] = "MPI_INT";  // the reductions' default (osu/datatypes.hpp)

namespace imb = imb_mpi1;

// The blocking collective tests; the persistent ones start the same call's request.
using allgather = collective_def<imb::allgather_def<false>, allgather_banner>;
using allgatherv = collective_def<imb::allgather_def<true>, allgatherv_banner>;
using allreduce = collective_def<imb::allreduce_def, allreduce_banner, float_type>;
using alltoall = collective_def<imb::alltoall_def<false>, alltoall_banner>;
using alltoallv = collective_def<imb::alltoall_def<true>, alltoallv_banner>;
using alltoallw = collective_def<alltoallw_def, alltoallw_banner>;
using barrier = collective_def<imb::barrier_def, barrier_banner>;
using bcast = collective_def<imb::bcast_def, bcast_banner>;
using gather = collective_def<imb::gather_def<false>, gather_banner, nullptr, true>;
using gatherv = collective_def<imb::gather_def<true>, gatherv_banner, nullptr, true>;
using reduce = collective_def<imb::reduce_def, reduce_banner, float_type, true>;
using reduce_scatter = collective_def<imb::reduce_scatter_def, reduce_scatter_banner, float_type>;
using reduce_scatter_block =
    collective_def<reduce_scatter_block_def, reduce_scatter_block_banner, float_type>;
using scatter = collective_def<imb::scatter_def<false>, scatter_banner, nullptr, true>;
using scatterv = collective_def<imb::scatter_def<true>, scatterv_banner, nullptr, true>;

constexpr std::uint32_t dflt = PARBENCH_BENCH_DEFAULT;

constexpr benchmark catalogue[] = {
    message_entry<latency>(
        "latency", "MPI_Send/MPI_Recv ping-pong of processes 0 and 1, one-way latency", dflt),
    message_entry<bw>("bw", "-W MPI_Isend back to back, then a reply: bandwidth (MB/s)", dflt),
    message_entry<bibw>("bibw", "-W MPI_Isend and MPI_Irecv both ways: aggregate bandwidth", dflt),
    message_entry<multi_lat>("multi_lat", "latency in every pair r <-> r + n/2 at once", dflt),
    message_entry<mbw_mr>("mbw_mr", "bw in every pair r <-> r + n/2: MB/s and messages/s", dflt),
    message_entry<latency_persistent>(
        "latency_persistent", "latency on MPI_Send_init/MPI_Recv_init requests (MPI_Start)", dflt),
    message_entry<bw_persistent>(
        "bw_persistent", "bw on -W persistent requests (MPI_Startall), then a reply", dflt),
    message_entry<bibw_persistent>(
        "bibw_persistent", "bibw on -W persistent sends and receives (MPI_Startall)", dflt),
    message_entry<allgather>(
        "allgather", "MPI_Allgather latency", dflt),
    message_entry<allgatherv>(
        "allgatherv", "MPI_Allgatherv latency (equal counts)", dflt),
    message_entry<allreduce>(
        "allreduce", "MPI_Allreduce latency (MPI_SUM, -T)", dflt),
    message_entry<alltoall>(
        "alltoall", "MPI_Alltoall latency", dflt),
    message_entry<alltoallv>(
        "alltoallv", "MPI_Alltoallv latency (equal counts)", dflt),
    message_entry<alltoallw>(
        "alltoallw", "MPI_Alltoallw latency (equal counts, one datatype per process)", dflt),
    message_entry<barrier>("barrier",
                                                                    "MPI_Barrier latency", dflt),
    message_entry<bcast>("bcast",
                                                                "MPI_Bcast latency, root 0", dflt),
    message_entry<gather>(
        "gather", "MPI_Gather latency, root 0", dflt),
    message_entry<gatherv>(
        "gatherv", "MPI_Gatherv latency, root 0", dflt),
    message_entry<reduce>(
        "reduce", "MPI_Reduce latency (MPI_SUM, -T), root 0", dflt),
    message_entry<reduce_scatter>(
        "reduce_scatter", "MPI_Reduce_scatter latency (MPI_SUM, -T)", dflt),
    message_entry<reduce_scatter_block>(
        "reduce_scatter_block", "MPI_Reduce_scatter_block latency (MPI_SUM, -T)", dflt),
    message_entry<scatter>(
        "scatter", "MPI_Scatter latency, root 0", dflt),
    message_entry<scatterv>(
        "scatterv", "MPI_Scatterv latency, root 0", dflt),
    message_entry<persistent_collective<allgather, allgather_requests<false>, allgather_p_banner>>(
        "allgather_persistent", "MPI_Allgather_init once per size, MPI_Start/MPI_Wait", dflt),
    message_entry<persistent_collective<allgatherv, allgather_requests<true>, allgatherv_p_banner>>(
        "allgatherv_persistent", "MPI_Allgatherv_init once per size, MPI_Start/MPI_Wait", dflt),
    message_entry<persistent_collective<allreduce, allreduce_requests, allreduce_p_banner>>(
        "allreduce_persistent", "MPI_Allreduce_init (MPI_SUM, -T), MPI_Start/MPI_Wait",
        dflt),
    message_entry<persistent_collective<alltoall, alltoall_requests<false>, alltoall_p_banner>>(
        "alltoall_persistent", "MPI_Alltoall_init once per size, MPI_Start/MPI_Wait", dflt),
    message_entry<persistent_collective<alltoallv, alltoall_requests<true>, alltoallv_p_banner>>(
        "alltoallv_persistent", "MPI_Alltoallv_init once per size, MPI_Start/MPI_Wait", dflt),
    message_entry<persistent_collective<alltoallw, alltoallw_requests, alltoallw_p_banner>>(
        "alltoallw_persistent", "MPI_Alltoallw_init once per size, MPI_Start/MPI_Wait", dflt),
    message_entry<persistent_collective<barrier, barrier_requests, barrier_p_banner>>(
        "barrier_persistent", "MPI_Barrier_init once, MPI_Start/MPI_Wait", dflt),
    message_entry<persistent_collective<bcast, bcast_requests, bcast_p_banner>>(
        "bcast_persistent", "MPI_Bcast_init (root 0) once per size, MPI_Start/MPI_Wait", dflt),
    message_entry<persistent_collective<gather, gather_requests<false>, gather_p_banner>>(
        "gather_persistent", "MPI_Gather_init (root 0) once per size, MPI_Start/MPI_Wait", dflt),
    message_entry<persistent_collective<gatherv, gather_requests<true>, gatherv_p_banner>>(
        "gatherv_persistent", "MPI_Gatherv_init (root 0) once per size, MPI_Start/MPI_Wait",
        dflt),
    message_entry<persistent_collective<reduce, reduce_requests, reduce_p_banner>>(
        "reduce_persistent", "MPI_Reduce_init (MPI_SUM, -T, root 0), MPI_Start/MPI_Wait",
        dflt),
    message_entry<
        persistent_collective<reduce_scatter, reduce_scatter_requests, reduce_scatter_p_banner>>(
        "reduce_scatter_persistent", "MPI_Reduce_scatter_init (MPI_SUM, -T), MPI_Start/MPI_Wait",
        dflt),
    message_entry<persistent_collective<scatter, scatter_requests<false>, scatter_p_banner>>(
        "scatter_persistent", "MPI_Scatter_init (root 0) once per size, MPI_Start/MPI_Wait", dflt),
    message_entry<persistent_collective<scatterv, scatter_requests<true>, scatterv_p_banner>>(
        "scatterv_persistent", "MPI_Scatterv_init (root 0) once per size, MPI_Start/MPI_Wait",
        dflt),
    message_entry<bcast_ack_def>(
        "bcast_ack",
        "MPI_Bcast then a zero-byte ack from the last process, minus the ack time (OSU 2.0)", 0),
};

// After the nonblocking collectives (suites/osu_nbc.cpp): the one-sided tests.
constexpr benchmark one_sided_catalogue[] = {
    one_sided_entry<put_latency>("put_latency", "MPI_Put latency, completed per transfer (-s)",
                                 dflt),
    one_sided_entry<get_latency>("get_latency", "MPI_Get latency, completed per transfer (-s)",
                                 dflt),
    one_sided_entry<put_bw>(
        "put_bw", "MPI_Put bandwidth: a window of -W puts, then the completion (-s)", dflt),
    one_sided_entry<get_bw>(
        "get_bw", "MPI_Get bandwidth: a window of -W gets, then the completion (-s)", dflt),
    one_sided_entry<put_bibw>(
        "put_bibw", "MPI_Put bidirectional bandwidth: both sides put -W, pscw or fence", dflt),
    one_sided_entry<acc_latency>("acc_latency", "MPI_Accumulate (MPI_SUM) latency", dflt),
    one_sided_entry<get_acc_latency>("get_acc_latency", "MPI_Get_accumulate (MPI_SUM) latency",
                                     dflt),
    one_sided_entry<fop_latency>("fop_latency",
                                 "MPI_Fetch_and_op (MPI_SUM, one -T element) latency", dflt),
    one_sided_entry<cas_latency>("cas_latency", "MPI_Compare_and_swap (one -T element) latency",
                                 dflt),
};

const suite& osu_suite() {
    static const suite s("osu",
                         "OSU micro-benchmarks: point-to-point, collective and one-sided tests",
                         {catalogue, nonblocking_catalogue(), neighborhood_catalogue(),
                          one_sided_catalogue, startup_programs(), latency_variants()},
                         mpi_plugin::testing::osu_faults());
    return s;
}

void run(const run_request& request, const plugin::host_channel& host) {
    osu_suite().run(request, host);
}

}  // namespace
}  // namespace osu_impl
}  // namespace parbench::osu

namespace parbench::mpi_plugin {
const hosted_suite suites::osu = {osu::osu_impl::osu_suite().info(), &osu::osu_impl::run};
}  // namespace parbench::mpi_plugin
