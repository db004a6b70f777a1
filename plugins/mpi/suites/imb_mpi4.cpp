// imb-mpi4: the Intel MPI Benchmarks' IMB-MPI4 (IMB 2021.11, MPI-4 persistent collectives): 13
// overlap benchmarks Xxx_persist (default but Allgather_persist, as IMB-MPI4's) with t_ovrl,
// t_pure, t_CPU and overlap[%], and 13 Xxx_persist_pure (run by name or -include) with bare
// t_min/t_max/t_avg, in IMB-MPI4's order (IMB_bnames_mpi4.h ALLC). Each makes its request once per size (MPI_<Collective>_init with
// root 0) and an iteration is MPI_Start and MPI_Wait (suites/imb/mpi4.hpp). The console and
// header are imb-nbc's (IMB prints both components alike: IMB_output.c `NBC || MPI4`).
#include <parbench/suites/imb/mpi4.hpp>

#include "imb/driver.hpp"
#include "imb/run_header.hpp"
#include "imb/suite.hpp"
#include "suites/suite.hpp"

namespace parbench::mpi_plugin {
namespace imb_mpi4_impl {
namespace {

using namespace imb_mpi4;

constexpr std::uint32_t dflt = PARBENCH_BENCH_DEFAULT;

constexpr imb::benchmark catalogue[] = {
    imb::entry<bcast_def>("Bcast_persist", "MPI_Bcast_init, MPI_Start overlapped with CPU work",
                          dflt),
    imb::entry<bcast_pure_def>("Bcast_persist_pure", "MPI_Bcast_init; MPI_Start + MPI_Wait", 0),
    // Not in IMB-MPI4's default run: its DEFAULT flag is commented out (MPI4_benchmark.cpp:86),
    // and the default list is the benchmarks with that flag (MPI4_suite.cpp:606-620), though
    // IMB_bnames_mpi4.h:52 names it in DEFC.
    imb::entry<allgather_def>("Allgather_persist",
                              "MPI_Allgather_init, MPI_Start overlapped with CPU work", 0),
    imb::entry<allgather_pure_def>("Allgather_persist_pure",
                                   "MPI_Allgather_init; MPI_Start + MPI_Wait", 0),
    imb::entry<allgatherv_def>("Allgatherv_persist",
                               "MPI_Allgatherv_init, MPI_Start overlapped with CPU work", dflt),
    imb::entry<allgatherv_pure_def>("Allgatherv_persist_pure",
                                    "MPI_Allgatherv_init; MPI_Start + MPI_Wait", 0),
    imb::entry<gather_def>("Gather_persist", "MPI_Gather_init, MPI_Start overlapped with CPU work",
                           dflt),
    imb::entry<gather_pure_def>("Gather_persist_pure", "MPI_Gather_init; MPI_Start + MPI_Wait", 0),
    imb::entry<gatherv_def>("Gatherv_persist",
                            "MPI_Gatherv_init, MPI_Start overlapped with CPU work", dflt),
    imb::entry<gatherv_pure_def>("Gatherv_persist_pure", "MPI_Gatherv_init; MPI_Start + MPI_Wait",
                                 0),
    imb::entry<scatter_def>("Scatter_persist",
                            "MPI_Scatter_init, MPI_Start overlapped with CPU work", dflt),
    imb::entry<scatter_pure_def>("Scatter_persist_pure", "MPI_Scatter_init; MPI_Start + MPI_Wait",
                                 0),
    imb::entry<scatterv_def>("Scatterv_persist",
                             "MPI_Scatterv_init, MPI_Start overlapped with CPU work", dflt),
    imb::entry<scatterv_pure_def>("Scatterv_persist_pure",
                                  "MPI_Scatterv_init; MPI_Start + MPI_Wait", 0),
    imb::entry<alltoall_def>("Alltoall_persist",
                             "MPI_Alltoall_init, MPI_Start overlapped with CPU work", dflt),
    imb::entry<alltoall_pure_def>("Alltoall_persist_pure",
                                  "MPI_Alltoall_init; MPI_Start + MPI_Wait", 0),
    imb::entry<alltoallv_def>("Alltoallv_persist",
                              "MPI_Alltoallv_init, MPI_Start overlapped with CPU work", dflt),
    imb::entry<alltoallv_pure_def>("Alltoallv_persist_pure",
                                   "MPI_Alltoallv_init; MPI_Start + MPI_Wait", 0),
    imb::entry<reduce_def>(
        "Reduce_persist",
        "MPI_Reduce_init (MPI_FLOAT, MPI_SUM), MPI_Start overlapped with CPU work", dflt),
    imb::entry<reduce_pure_def>("Reduce_persist_pure",
                                "MPI_Reduce_init (MPI_FLOAT, MPI_SUM); MPI_Start + MPI_Wait", 0),
    imb::entry<reduce_scatter_def>(
        "Reduce_scatter_persist",
        "MPI_Reduce_scatter_init (MPI_FLOAT, MPI_SUM), MPI_Start overlapped with CPU work", dflt),
    imb::entry<reduce_scatter_pure_def>(
        "Reduce_scatter_persist_pure",
        "MPI_Reduce_scatter_init (MPI_FLOAT, MPI_SUM); MPI_Start + MPI_Wait", 0),
    imb::entry<allreduce_def>(
        "Allreduce_persist",
        "MPI_Allreduce_init (MPI_FLOAT, MPI_SUM), MPI_Start overlapped with CPU work", dflt),
    imb::entry<allreduce_pure_def>("Allreduce_persist_pure",
                                   "MPI_Allreduce_init (MPI_FLOAT, MPI_SUM); MPI_Start + MPI_Wait",
                                   0),
    imb::entry<barrier_def>("Barrier_persist",
                            "MPI_Barrier_init, MPI_Start overlapped with CPU work", dflt),
    imb::entry<barrier_pure_def>("Barrier_persist_pure", "MPI_Barrier_init; MPI_Start + MPI_Wait",
                                 0),
};

const imb::suite& suite() {
    static const imb::suite s({.name = "imb-mpi4",
                               .description = "Intel MPI Benchmarks IMB-MPI4: MPI-4 persistent "
                                              "collectives overlapped with computation, and their "
                                              "_persist_pure timings",
                               .compatible_with = "IMB-MPI4",
                               .part = report::imb_part::mpi4,
                               // IMB-MPI4 exists in IMB 2021 only: its methods by default
                               // (-sync, -root_shift, -imb_barrier as IMB-NBC's collectives)
                               .defaults = {.methodology_2021 = true, .collective_switches = true},
                               .extend_run_start = &imb::add_overlap_header},
                              catalogue);
    return s;
}

void run(const run_request& request, const plugin::host_channel& host) {
    suite().run(request, host);
}

}  // namespace

}  // namespace imb_mpi4_impl
const hosted_suite suites::imb_mpi4 = {imb_mpi4_impl::suite().info(), &imb_mpi4_impl::run};

}  // namespace parbench::mpi_plugin
