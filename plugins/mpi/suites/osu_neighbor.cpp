// osu, part 3: OSU 7.5's neighbourhood collective tests (c/mpi/collective/neighborhood/), their
// catalogue entries: the definitions (neighbor_def, measured as OSU's blocking collectives, and
// ineighbor_def, measured as OSU's nonblocking collectives, on -N's topology) are in
// osu/neighborhood.hpp.
#include "osu/messages.hpp"
#include "osu/neighborhood.hpp"
#include "osu/suite.hpp"

#include <cstdint>
#include <span>

namespace parbench::osu {
namespace osu_neighbor_impl {
namespace {

// OSU's banners (the BENCHMARK strings of osu_neighbor_*.c and osu_ineighbor_*.c, without
// "%s"); osu_neighbor_alltoallw.c:1 prints the blocking alltoallw's banner.
constexpr char allgather_banner[] = "OSU MPI Neighborhood Allgather Latency Test";
constexpr char allgatherv_banner[] = "OSU MPI Neighborhood Allgatherv Latency Test";
constexpr char alltoall_banner[] = "OSU MPI Neighborhood Alltoall Latency Test";
constexpr char alltoallv_banner[] = "OSU MPI Neighborhood All-to-Allv Latency Test";
constexpr char alltoallw_banner[] = "OSU MPI All-to-Allw Personalized Exchange Latency Test";
constexpr char iallgather_banner[] = "OSU MPI Non-blocking Neighborhood Allgather Latency Test";
constexpr char iallgatherv_banner[] = "OSU MPI Non-blocking Neighborhood Allgatherv Latency Test";
constexpr char ialltoall_banner[] = "OSU MPI Non-blocking Neighborhood Alltoall Latency Test";
constexpr char ialltoallv_banner[] = "OSU MPI Non-blocking Neighborhood Alltoallv Latency Test";
constexpr char ialltoallw_banner[] = "OSU MPI Non-blocking Neighborhood Alltoallw Latency Test";

using nc = neighbor_call;
constexpr std::uint32_t dflt = PARBENCH_BENCH_DEFAULT;

constexpr benchmark catalogue[] = {
    message_entry<neighbor_def<nc::allgather, allgather_banner>>(
        "neighbor_allgather", "MPI_Neighbor_allgather on OSU's -N topology (default cart:1:1)",
        dflt),
    message_entry<neighbor_def<nc::allgatherv, allgatherv_banner>>(
        "neighbor_allgatherv", "MPI_Neighbor_allgatherv (equal counts) on OSU's -N topology", dflt),
    message_entry<neighbor_def<nc::alltoall, alltoall_banner>>(
        "neighbor_alltoall", "MPI_Neighbor_alltoall on OSU's -N topology", dflt),
    message_entry<neighbor_def<nc::alltoallv, alltoallv_banner>>(
        "neighbor_alltoallv", "MPI_Neighbor_alltoallv (equal counts) on OSU's -N topology", dflt),
    message_entry<neighbor_def<nc::alltoallw, alltoallw_banner>>(
        "neighbor_alltoallw",
        "MPI_Neighbor_alltoallw (one -T type per neighbour) on OSU's -N topology", dflt),
    message_entry<ineighbor_def<nc::allgather, iallgather_banner>>(
        "ineighbor_allgather", "MPI_Ineighbor_allgather overlapped with OSU's dummy compute", dflt),
    message_entry<ineighbor_def<nc::allgatherv, iallgatherv_banner>>(
        "ineighbor_allgatherv", "MPI_Ineighbor_allgatherv overlapped with OSU's dummy compute",
        dflt),
    message_entry<ineighbor_def<nc::alltoall, ialltoall_banner>>(
        "ineighbor_alltoall", "MPI_Ineighbor_alltoall overlapped with OSU's dummy compute", dflt),
    message_entry<ineighbor_def<nc::alltoallv, ialltoallv_banner>>(
        "ineighbor_alltoallv", "MPI_Ineighbor_alltoallv overlapped with OSU's dummy compute", dflt),
    message_entry<ineighbor_def<nc::alltoallw, ialltoallw_banner>>(
        "ineighbor_alltoallw", "MPI_Ineighbor_alltoallw overlapped with OSU's dummy compute", dflt),
};

}  // namespace
}  // namespace osu_neighbor_impl

std::span<const benchmark> neighborhood_catalogue() noexcept {
    return osu_neighbor_impl::catalogue;
}

}  // namespace parbench::osu
