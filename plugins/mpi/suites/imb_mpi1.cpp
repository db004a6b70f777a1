// imb-mpi1: the Intel MPI Benchmarks' IMB-MPI1 (point-to-point and collective MPI-1 benchmarks).
#include "suites/suite.hpp"

#include "imb/driver.hpp"
#include "imb/suite.hpp"
#include "testing/fault_kernels.hpp"

#include <parbench/suites/imb/mpi1.hpp>

namespace parbench::mpi_plugin {
namespace imb_mpi1_impl {
namespace {

using namespace imb_mpi1;

constexpr std::uint32_t dflt = PARBENCH_BENCH_DEFAULT;

// IMB 2021 times each collective call on its own, never a pair's or Barrier's: only the former
// compile that loop (imb::sync_for).
static_assert(imb::may_time_each_call<allgather_def<false>> && imb::may_time_each_call<bcast_def>);
static_assert(!imb::may_time_each_call<ping_pong_def<false>> &&
              !imb::may_time_each_call<barrier_def>);

constexpr imb::benchmark catalogue[] = {
    // PingPong/PingPing receive from the source the methodology names (IMB 2021: the partner,
    // IMB 4.0: MPI_ANY_SOURCE); the suffixed names fix it (IMB 2021's MPI1_benchmark.cpp).
    imb::entry<source_by_methodology<ping_pong_def<false>>>(
        "PingPong", "Half round trip of one message between two processes", dflt),
    imb::entry<ping_pong_def<true>>("PingPongSpecificSource",
                                    "PingPong receiving from the explicit source rank", 0),
    imb::entry<ping_pong_def<false>>("PingPongAnySource", "PingPong receiving from MPI_ANY_SOURCE",
                                     0),
    imb::entry<source_by_methodology<ping_ping_def<false>>>(
        "PingPing", "Two processes send to each other at once (obstructed messages)", dflt),
    imb::entry<ping_ping_def<true>>("PingPingSpecificSource",
                                    "PingPing receiving from the explicit source rank", 0),
    imb::entry<ping_ping_def<false>>("PingPingAnySource", "PingPing receiving from MPI_ANY_SOURCE",
                                     0),
    imb::entry<sendrecv_def>("Sendrecv", "MPI_Sendrecv along a periodic chain (nmsg = 2)", dflt),
    imb::entry<exchange_def>("Exchange", "Isend/Recv with both chain neighbours (nmsg = 4)", dflt),
    imb::entry<bcast_def>("Bcast", "MPI_Bcast, root 0 (i % np: -root_shift on)", dflt),
    imb::entry<allgather_def<false>>("Allgather", "MPI_Allgather", dflt),
    imb::entry<allgather_def<true>>("Allgatherv", "MPI_Allgatherv with equal counts", dflt),
    imb::entry<scatter_def<false>>("Scatter", "MPI_Scatter, root 0 (i % np: -root_shift on)", dflt),
    imb::entry<scatter_def<true>>("Scatterv", "MPI_Scatterv, root 0 (i % np: -root_shift on)",
                                  dflt),
    imb::entry<gather_def<false>>("Gather", "MPI_Gather, root 0 (i % np: -root_shift on)", dflt),
    imb::entry<gather_def<true>>("Gatherv", "MPI_Gatherv, root 0 (i % np: -root_shift on)", dflt),
    imb::entry<alltoall_def<false>>("Alltoall", "MPI_Alltoall", dflt),
    imb::entry<alltoall_def<true>>("Alltoallv", "MPI_Alltoallv with equal counts", dflt),
    imb::entry<reduce_def>(
        "Reduce", "MPI_Reduce of MPI_FLOAT with MPI_SUM, root 0 (i % np: -root_shift on)", dflt),
    imb::entry<reduce_local_def>(
        "Reduce_local", "MPI_Reduce_local of MPI_FLOAT with MPI_SUM, no communication", dflt),
    imb::entry<reduce_scatter_def>("Reduce_scatter", "MPI_Reduce_scatter of MPI_FLOAT with MPI_SUM",
                                   dflt),
    imb::entry<reduce_scatter_block_def>(
        "Reduce_scatter_block", "MPI_Reduce_scatter_block of MPI_FLOAT with MPI_SUM", dflt),
    imb::entry<allreduce_def>("Allreduce", "MPI_Allreduce of MPI_FLOAT with MPI_SUM", dflt),
    imb::entry<barrier_def>("Barrier", "MPI_Barrier", dflt),
    imb::entry<windowed_def<false>>(
        "Uniband",
        "Windowed unidirectional bandwidth: a window of Isend then an ack, pairs (r, r+Q/2)", 0),
    imb::entry<windowed_def<true>>(
        "Biband",
        "Windowed bidirectional bandwidth: a window of Isend and Irecv each way, then an ack", 0),
};

const imb::suite& suite() {
    static const imb::suite s(
        {.name = "imb-mpi1",
         .description =
             "Intel MPI Benchmarks IMB-MPI1: point-to-point and collective MPI-1 benchmarks",
         .compatible_with = "IMB-MPI1",
         .part = report::imb_part::mpi1,
         .defaults = {.datatypes = true,
                      .methodology_2021 = true,
                      .collective_switches = true,
                      .window_switch = true}},
        catalogue, testing::imb_mpi1_faults());
    return s;
}

void run(const run_request& request, const plugin::host_channel& host) {
    suite().run(request, host);
}

}  // namespace

}  // namespace imb_mpi1_impl
const hosted_suite suites::imb_mpi1 = {imb_mpi1_impl::suite().info(), &imb_mpi1_impl::run};

}  // namespace parbench::mpi_plugin
