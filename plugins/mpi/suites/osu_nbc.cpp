// osu, part 2: OSU's nonblocking collective latency tests (osu_iallgather ... osu_iscatterv,
// c/mpi/collective/non_blocking/), each the blocking test's definition measured as OSU measures
// a nonblocking collective (osu/nonblocking.hpp), in OSU's order. The catalogue's other parts
// are in suites/osu.cpp.
#include "osu/collectives.hpp"
#include "osu/messages.hpp"
#include "osu/nonblocking.hpp"
#include "osu/suite.hpp"

#include <mpi.h>

#include <array>
#include <cstddef>
#include <vector>

namespace parbench::osu {

std::vector<double> gather_splits(const mpi::session& s, const std::array<double, 4>& mine) {
    std::vector<double> out;
    if (!s.active()) return out;
    const MPI_Comm comm = s.active_comm().get();
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank == 0) out.resize(4 * static_cast<std::size_t>(size));
    MPI_Gather(mine.data(), 4, MPI_DOUBLE, rank == 0 ? out.data() : nullptr, 4, MPI_DOUBLE, 0,
               comm);
    return out;
}

void attach_nbc_figures(std::vector<result_record>& records, const mpi::gathered& pure,
                        const std::vector<double>& splits) {
    if (!pure.root || pure.ranks.empty()) return;
    const double n = static_cast<double>(pure.ranks.size());
    double pure_sum = 0.0;
    double pure_min = 0.0;
    double pure_max = 0.0;
    std::uint64_t pure_defects = 0;
    for (std::size_t k = 0; k < pure.ranks.size(); ++k) {
        const double t = mpi::per_iteration_s(pure.ranks[k]) * 1e6;
        pure_sum += t;
        pure_min = k == 0 ? t : std::min(pure_min, t);
        pure_max = k == 0 ? t : std::max(pure_max, t);
        pure_defects += pure.ranks[k].defects;
    }
    // means over the processes, µs per iteration (calculate_and_print_stats)
    double mean[4] = {};
    for (std::size_t k = 0; k + 3 < splits.size(); k += 4)
        for (std::size_t f = 0; f < 4; ++f) mean[f] += splits[k + f] * 1e6 / n;
    const double compute_us = mean[1] - mean[2];  // print_stats_nbc: cpu_time - test_time
    for (result_record& r : records) {
        const double pure_us = pure_sum / n;
        r.metrics["init_us"] = mean[0];
        r.metrics["compute_us"] = compute_us;
        r.metrics["test_us"] = mean[2];
        r.metrics["wait_us"] = mean[3];
        r.metrics["pure_comm_us"] = pure_us;
        r.metrics["min_comm_us"] = pure_min;
        r.metrics["max_comm_us"] = pure_max;
        r.metrics["overlap_percent"] = osu_overlap_percent(r.t_avg_us, compute_us, pure_us);
        if (r.defects) *r.defects += pure_defects;
    }
}

namespace osu_nbc_impl {
namespace {

// OSU's banners (the BENCHMARK strings of osu_i*.c, without "%s").
constexpr char iallgather_banner[] = "OSU MPI Non-blocking Allgather Latency Test";
constexpr char iallgatherv_banner[] = "OSU MPI Non-blocking Allgatherv Latency Test";
constexpr char iallreduce_banner[] = "OSU MPI Non-blocking Allreduce Latency Test";
// OSU 7.5's own spellings: osu_ialltoall.c has no "Personalized Exchange", osu_ibcast.c
// capitalises "Non-Blocking".
constexpr char ialltoall_banner[] = "OSU MPI Non-blocking All-to-All Latency Test";
constexpr char ialltoallv_banner[] =
    "OSU MPI Non-blocking All-to-Allv Personalized Exchange Latency Test";
constexpr char ialltoallw_banner[] =
    "OSU MPI Non-blocking All-to-Allw Personalized Exchange Latency Test";
constexpr char ibarrier_banner[] = "OSU MPI Non-blocking Barrier Latency Test";
constexpr char ibcast_banner[] = "OSU MPI Non-Blocking Broadcast Latency Test";
constexpr char igather_banner[] = "OSU MPI Non-blocking Gather Latency Test";
constexpr char igatherv_banner[] = "OSU MPI Non-blocking Gatherv Latency Test";
constexpr char ireduce_banner[] = "OSU MPI Non-blocking Reduce Latency Test";
constexpr char ireduce_scatter_banner[] = "OSU MPI Non-blocking Reduce_scatter Latency Test";
constexpr char ireduce_scatter_block_banner[] =
    "OSU MPI Non-blocking Reduce_scatter_block Latency Test";
constexpr char iscatter_banner[] = "OSU MPI Non-blocking Scatter Latency Test";
constexpr char iscatterv_banner[] = "OSU MPI Non-blocking Scatterv Latency Test";
constexpr char float_type[] = "MPI_INT";  // the reductions' default (osu/datatypes.hpp)
constexpr char unused_banner[] = "";

namespace imb = imb_mpi1;

// The blocking tests whose buffers, layout and -c the nonblocking ones share (root 0); `rooted`:
// with -k's root, as OSU 7.5's igather, igatherv, ireduce, iscatter and iscatterv take -k
// (osu_util_options.h:107-123: NBC_GATHER, NBC_SCATTER and NBC_REDUCE end in "k:"; NBC_BCAST
// has none).
template <class Imb, const char* Datatype = nullptr>
using blocking = collective_def<Imb, unused_banner, Datatype>;
template <class Imb, const char* Datatype = nullptr>
using rooted = collective_def<Imb, unused_banner, Datatype, true>;

// ibarrier's table has no size column: "# Overall(us)", values "%13.2f" (print_stats_nbc).
constexpr int barrier_overall_width = 14;

using iallgather = nbc_def<blocking<imb::allgather_def<false>>, nbc_call::allgather,
                           iallgather_banner>;
using iallgatherv = nbc_def<blocking<imb::allgather_def<true>>, nbc_call::allgatherv,
                            iallgatherv_banner>;
using iallreduce = nbc_def<blocking<imb::allreduce_def, float_type>, nbc_call::allreduce,
                           iallreduce_banner>;
using ialltoall = nbc_def<blocking<imb::alltoall_def<false>>, nbc_call::alltoall,
                          ialltoall_banner>;
using ialltoallv = nbc_def<blocking<imb::alltoall_def<true>>, nbc_call::alltoallv,
                           ialltoallv_banner>;
using ialltoallw = nbc_def<blocking<alltoallw_def>, nbc_call::alltoallw, ialltoallw_banner>;
using ibarrier = nbc_def<blocking<imb::barrier_def>, nbc_call::barrier, ibarrier_banner,
                         barrier_overall_width>;
using ibcast = nbc_def<blocking<imb::bcast_def>, nbc_call::bcast, ibcast_banner>;
using igather = nbc_def<rooted<imb::gather_def<false>>, nbc_call::gather, igather_banner>;
using igatherv = nbc_def<rooted<imb::gather_def<true>>, nbc_call::gatherv, igatherv_banner>;
using ireduce = nbc_def<rooted<imb::reduce_def, float_type>, nbc_call::reduce, ireduce_banner>;
using ireduce_scatter = nbc_def<blocking<imb::reduce_scatter_def, float_type>,
                                nbc_call::reduce_scatter, ireduce_scatter_banner>;
using ireduce_scatter_block = nbc_def<blocking<reduce_scatter_block_def, float_type>,
                                      nbc_call::reduce_scatter_block,
                                      ireduce_scatter_block_banner>;
using iscatter = nbc_def<rooted<imb::scatter_def<false>>, nbc_call::scatter, iscatter_banner>;
using iscatterv = nbc_def<rooted<imb::scatter_def<true>>, nbc_call::scatterv,
                          iscatterv_banner>;

constexpr std::uint32_t dflt = PARBENCH_BENCH_DEFAULT;

constexpr benchmark catalogue[] = {
    message_entry<iallgather>("iallgather", "MPI_Iallgather overlapped with OSU's dummy compute",
                              dflt),
    message_entry<iallgatherv>("iallgatherv",
                               "MPI_Iallgatherv (equal counts) overlapped with OSU's compute",
                               dflt),
    message_entry<iallreduce>("iallreduce",
                              "MPI_Iallreduce (MPI_SUM, -T) overlapped with OSU's compute",
                              dflt),
    message_entry<ialltoall>("ialltoall", "MPI_Ialltoall overlapped with OSU's dummy compute",
                             dflt),
    message_entry<ialltoallv>("ialltoallv",
                              "MPI_Ialltoallv (equal counts) overlapped with OSU's compute", dflt),
    message_entry<ialltoallw>("ialltoallw",
                              "MPI_Ialltoallw (equal counts) overlapped with compute",
                              dflt),
    message_entry<ibarrier>("ibarrier", "MPI_Ibarrier overlapped with OSU's dummy compute", dflt),
    message_entry<ibcast>("ibcast", "MPI_Ibcast, root 0, overlapped with OSU's dummy compute",
                          dflt),
    message_entry<igather>("igather", "MPI_Igather, root 0 or -k, overlapped with OSU's compute",
                           dflt),
    message_entry<igatherv>("igatherv", "MPI_Igatherv, root 0 or -k, overlapped with OSU's compute",
                            dflt),
    message_entry<ireduce>("ireduce",
                           "MPI_Ireduce (MPI_SUM, -T), root 0 or -k, overlapped with compute",
                           dflt),
    message_entry<ireduce_scatter>(
        "ireduce_scatter", "MPI_Ireduce_scatter (MPI_SUM, -T) overlapped with compute",
        dflt),
    message_entry<ireduce_scatter_block>(
        "ireduce_scatter_block",
        "MPI_Ireduce_scatter_block (MPI_SUM, -T) overlapped with compute", dflt),
    message_entry<iscatter>("iscatter", "MPI_Iscatter, root 0 or -k, overlapped with OSU's compute",
                            dflt),
    message_entry<iscatterv>("iscatterv", "MPI_Iscatterv, root 0 or -k, overlapped with compute",
                             dflt),
};

}  // namespace
}  // namespace osu_nbc_impl

std::span<const benchmark> nonblocking_catalogue() noexcept { return osu_nbc_impl::catalogue; }

}  // namespace parbench::osu
