// imb-nbc: the Intel MPI Benchmarks' IMB-NBC (MPI-3 nonblocking collectives): 13 overlap
// benchmarks (default) with t_ovrl, t_pure, t_CPU and overlap[%], and 13 _pure benchmarks (run by
// name or -include) with bare t_min/t_max/t_avg. The header adds the CPU load's rate and whether
// the MPI library progresses communication asynchronously; the console layout is "imb-nbc"
// (report/imb_nbc_console.hpp); the overlap benchmarks declare their table's columns.
#include <parbench/suites/imb/nbc.hpp>

#include "imb/driver.hpp"
#include "imb/run_header.hpp"
#include "imb/suite.hpp"
#include "suites/suite.hpp"
#include "testing/fault_kernels.hpp"

namespace parbench::mpi_plugin {
namespace imb_nbc_impl {
namespace {

using namespace imb_nbc;

constexpr std::uint32_t dflt = PARBENCH_BENCH_DEFAULT;

constexpr imb::benchmark catalogue[] = {
    imb::entry<ibcast_def>("Ibcast", "MPI_Ibcast overlapped with CPU work, root i % np", dflt),
    imb::entry<iallgather_def>("Iallgather", "MPI_Iallgather overlapped with CPU work", dflt),
    imb::entry<iallgatherv_def>("Iallgatherv", "MPI_Iallgatherv overlapped with CPU work", dflt),
    imb::entry<igather_def>("Igather", "MPI_Igather overlapped with CPU work, root i % np", dflt),
    imb::entry<igatherv_def>("Igatherv", "MPI_Igatherv overlapped with CPU work, root i % np",
                             dflt),
    imb::entry<iscatter_def>("Iscatter", "MPI_Iscatter overlapped with CPU work, root i % np",
                             dflt),
    imb::entry<iscatterv_def>("Iscatterv", "MPI_Iscatterv overlapped with CPU work, root i % np",
                              dflt),
    imb::entry<ialltoall_def>("Ialltoall", "MPI_Ialltoall overlapped with CPU work", dflt),
    imb::entry<ialltoallv_def>("Ialltoallv", "MPI_Ialltoallv overlapped with CPU work", dflt),
    imb::entry<ireduce_def>(
        "Ireduce", "MPI_Ireduce (MPI_FLOAT, MPI_SUM) overlapped with CPU work, root i % np", dflt),
    imb::entry<ireduce_scatter_def>(
        "Ireduce_scatter", "MPI_Ireduce_scatter (MPI_FLOAT, MPI_SUM) overlapped with CPU work",
        dflt),
    imb::entry<iallreduce_def>(
        "Iallreduce", "MPI_Iallreduce (MPI_FLOAT, MPI_SUM) overlapped with CPU work", dflt),
    imb::entry<ibarrier_def>("Ibarrier", "MPI_Ibarrier overlapped with CPU work", dflt),
    imb::entry<ibcast_pure_def>("Ibcast_pure", "MPI_Ibcast + MPI_Wait, root i % np", 0),
    imb::entry<iallgather_pure_def>("Iallgather_pure", "MPI_Iallgather + MPI_Wait", 0),
    imb::entry<iallgatherv_pure_def>("Iallgatherv_pure", "MPI_Iallgatherv + MPI_Wait", 0),
    imb::entry<igather_pure_def>("Igather_pure", "MPI_Igather + MPI_Wait, root i % np", 0),
    imb::entry<igatherv_pure_def>("Igatherv_pure", "MPI_Igatherv + MPI_Wait, root i % np", 0),
    imb::entry<iscatter_pure_def>("Iscatter_pure", "MPI_Iscatter + MPI_Wait, root i % np", 0),
    imb::entry<iscatterv_pure_def>("Iscatterv_pure", "MPI_Iscatterv + MPI_Wait, root i % np", 0),
    imb::entry<ialltoall_pure_def>("Ialltoall_pure", "MPI_Ialltoall + MPI_Wait", 0),
    imb::entry<ialltoallv_pure_def>("Ialltoallv_pure", "MPI_Ialltoallv + MPI_Wait", 0),
    imb::entry<ireduce_pure_def>("Ireduce_pure",
                                 "MPI_Ireduce (MPI_FLOAT, MPI_SUM) + MPI_Wait, root i % np", 0),
    imb::entry<ireduce_scatter_pure_def>("Ireduce_scatter_pure",
                                         "MPI_Ireduce_scatter (MPI_FLOAT, MPI_SUM) + MPI_Wait", 0),
    imb::entry<iallreduce_pure_def>("Iallreduce_pure",
                                    "MPI_Iallreduce (MPI_FLOAT, MPI_SUM) + MPI_Wait", 0),
    imb::entry<ibarrier_pure_def>("Ibarrier_pure", "MPI_Ibarrier + MPI_Wait", 0),
};

const imb::suite& suite() {
    static const imb::suite s(
        {.name = "imb-nbc",
         .description = "Intel MPI Benchmarks IMB-NBC: overlap of nonblocking collectives with "
                        "computation, and their _pure timings",
         .compatible_with = "IMB-NBC",
         .part = report::imb_part::nbc,
         .defaults = {.methodology_2021 = true, .collective_switches = true},
         .extend_run_start = &imb::add_overlap_header},
        catalogue, testing::imb_nbc_faults());
    return s;
}

void run(const run_request& request, const plugin::host_channel& host) {
    suite().run(request, host);
}

}  // namespace

}  // namespace imb_nbc_impl
const hosted_suite suites::imb_nbc = {imb_nbc_impl::suite().info(), &imb_nbc_impl::run};

}  // namespace parbench::mpi_plugin
