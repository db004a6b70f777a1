// imb-mpi1: the Intel MPI Benchmarks' IMB-MPI1 (point-to-point and collective MPI-1 benchmarks).
#include "suites/suite.hpp"

#include "imb/driver.hpp"
#include "imb/suite.hpp"
#include "testing/fault_kernels.hpp"

#include <parbench/suites/imb/mpi1.hpp>

namespace parbench::mpi_plugin {
namespace {

using namespace imb_mpi1;
using imb::run_benchmark;

constexpr std::uint32_t dflt = PARBENCH_BENCH_DEFAULT;

// IMB 2021's Uniband/Biband tables: bandwidth and message rate, no time column.
constexpr imb::table_column windowed_columns[] = {{"throughput_mib_s", "Mbytes/sec"},
                                                  {"messages_per_s", "Msg/sec", 0}};

constexpr imb::benchmark catalogue[] = {
    {{"PingPong", "Half round trip of one message between two processes", "single_transfer", dflt},
     &run_benchmark<ping_pong_def<false>>},
    {{"PingPongSpecificSource", "PingPong receiving from the explicit source rank",
      "single_transfer", 0},
     &run_benchmark<ping_pong_def<true>>},
    {{"PingPing", "Two processes send to each other at once (obstructed messages)",
      "single_transfer", dflt},
     &run_benchmark<ping_ping_def<false>>},
    {{"PingPingSpecificSource", "PingPing receiving from the explicit source rank",
      "single_transfer", 0},
     &run_benchmark<ping_ping_def<true>>},
    {{"Sendrecv", "MPI_Sendrecv along a periodic chain (nmsg = 2)", "parallel_transfer", dflt},
     &run_benchmark<sendrecv_def>},
    {{"Exchange", "Isend/Recv with both chain neighbours (nmsg = 4)", "parallel_transfer", dflt},
     &run_benchmark<exchange_def>},
    {{"Bcast", "MPI_Bcast, root i % np", "collective", dflt}, &run_benchmark<bcast_def>},
    {{"Allgather", "MPI_Allgather", "collective", dflt}, &run_benchmark<allgather_def<false>>},
    {{"Allgatherv", "MPI_Allgatherv with equal counts", "collective", dflt},
     &run_benchmark<allgather_def<true>>},
    {{"Scatter", "MPI_Scatter, root i % np", "collective", dflt},
     &run_benchmark<scatter_def<false>>},
    {{"Scatterv", "MPI_Scatterv, root i % np", "collective", dflt},
     &run_benchmark<scatter_def<true>>},
    {{"Gather", "MPI_Gather, root i % np", "collective", dflt}, &run_benchmark<gather_def<false>>},
    {{"Gatherv", "MPI_Gatherv, root i % np", "collective", dflt},
     &run_benchmark<gather_def<true>>},
    {{"Alltoall", "MPI_Alltoall", "collective", dflt}, &run_benchmark<alltoall_def<false>>},
    {{"Alltoallv", "MPI_Alltoallv with equal counts", "collective", dflt},
     &run_benchmark<alltoall_def<true>>},
    {{"Reduce", "MPI_Reduce of MPI_FLOAT with MPI_SUM, root i % np", "collective", dflt},
     &run_benchmark<reduce_def>},
    {{"Reduce_local", "MPI_Reduce_local of MPI_FLOAT with MPI_SUM, no communication",
      "collective", dflt},
     &run_benchmark<reduce_local_def>},
    {{"Reduce_scatter", "MPI_Reduce_scatter of MPI_FLOAT with MPI_SUM", "collective", dflt},
     &run_benchmark<reduce_scatter_def>},
    {{"Reduce_scatter_block", "MPI_Reduce_scatter_block of MPI_FLOAT with MPI_SUM", "collective",
      dflt},
     &run_benchmark<reduce_scatter_block_def>},
    {{"Allreduce", "MPI_Allreduce of MPI_FLOAT with MPI_SUM", "collective", dflt},
     &run_benchmark<allreduce_def>},
    {{"Barrier", "MPI_Barrier", "collective", dflt}, &run_benchmark<barrier_def>},
    {{"Uniband", "Windowed unidirectional bandwidth: 64 Isend then an ack, pairs (r, r+Q/2)",
      "parallel_transfer", 0},
     &run_benchmark<windowed_def<false>>, windowed_columns},
    {{"Biband", "Windowed bidirectional bandwidth: 64 Isend and 64 Irecv each way, then an ack",
      "parallel_transfer", 0},
     &run_benchmark<windowed_def<true>>, windowed_columns},
};

const imb::suite& suite() {
    static const imb::suite s(
        {.name = "imb-mpi1",
         .description =
             "Intel MPI Benchmarks IMB-MPI1: point-to-point and collective MPI-1 benchmarks",
         .compatible_with = "IMB-MPI1",
         .part = "MPI-1 part",
         .defaults = {.datatypes = true}},
        catalogue, testing::imb_mpi1_faults());
    return s;
}

void run(const run_request& request, const plugin::host_channel& host) {
    suite().run(request, host);
}

}  // namespace

const hosted_suite suites::imb_mpi1 = {suite().info(), &run};

}  // namespace parbench::mpi_plugin
