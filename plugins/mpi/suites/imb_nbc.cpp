// imb-nbc: the Intel MPI Benchmarks' IMB-NBC (MPI-3 nonblocking collectives): 13 overlap
// benchmarks (default) with t_ovrl, t_pure, t_CPU and overlap[%], and 13 _pure benchmarks (run by
// name or -include) with bare t_min/t_max/t_avg. The header adds the CPU load's rate and whether
// the MPI library progresses communication asynchronously; the console layout is "imb-nbc"
// (report/imb_nbc_console.hpp); the overlap benchmarks declare their table's columns.
#include "suites/suite.hpp"

#include "imb/driver.hpp"
#include "imb/suite.hpp"
#include "testing/fault_kernels.hpp"

#include <parbench/mpi/async_progress.hpp>
#include <parbench/policy/cpu_load.hpp>
#include <parbench/suites/imb/nbc.hpp>

namespace parbench::mpi_plugin {
namespace {

using namespace imb_nbc;
using imb::run_benchmark;

constexpr std::uint32_t dflt = PARBENCH_BENCH_DEFAULT;
constexpr const char* collective = "collective";

// IMB-NBC's overlap table (catalogue A.7.2): the record's typed overlap figures.
constexpr imb::table_column overlap_columns[] = {{"t_ovrl_us", "t_ovrl[usec]"},
                                                 {"t_pure_us", "t_pure[usec]"},
                                                 {"t_cpu_us", "t_CPU[usec]"},
                                                 {"overlap_percent", "overlap[%]"}};

constexpr imb::benchmark catalogue[] = {
    {{"Ibcast", "MPI_Ibcast overlapped with CPU work, root i % np", collective, dflt},
     &run_benchmark<ibcast_def>, overlap_columns},
    {{"Iallgather", "MPI_Iallgather overlapped with CPU work", collective, dflt},
     &run_benchmark<iallgather_def>, overlap_columns},
    {{"Iallgatherv", "MPI_Iallgatherv overlapped with CPU work", collective, dflt},
     &run_benchmark<iallgatherv_def>, overlap_columns},
    {{"Igather", "MPI_Igather overlapped with CPU work, root i % np", collective, dflt},
     &run_benchmark<igather_def>, overlap_columns},
    {{"Igatherv", "MPI_Igatherv overlapped with CPU work, root i % np", collective, dflt},
     &run_benchmark<igatherv_def>, overlap_columns},
    {{"Iscatter", "MPI_Iscatter overlapped with CPU work, root i % np", collective, dflt},
     &run_benchmark<iscatter_def>, overlap_columns},
    {{"Iscatterv", "MPI_Iscatterv overlapped with CPU work, root i % np", collective, dflt},
     &run_benchmark<iscatterv_def>, overlap_columns},
    {{"Ialltoall", "MPI_Ialltoall overlapped with CPU work", collective, dflt},
     &run_benchmark<ialltoall_def>, overlap_columns},
    {{"Ialltoallv", "MPI_Ialltoallv overlapped with CPU work", collective, dflt},
     &run_benchmark<ialltoallv_def>, overlap_columns},
    {{"Ireduce", "MPI_Ireduce (MPI_FLOAT, MPI_SUM) overlapped with CPU work, root i % np",
      collective, dflt},
     &run_benchmark<ireduce_def>, overlap_columns},
    {{"Ireduce_scatter", "MPI_Ireduce_scatter (MPI_FLOAT, MPI_SUM) overlapped with CPU work",
      collective, dflt},
     &run_benchmark<ireduce_scatter_def>, overlap_columns},
    {{"Iallreduce", "MPI_Iallreduce (MPI_FLOAT, MPI_SUM) overlapped with CPU work", collective,
      dflt},
     &run_benchmark<iallreduce_def>, overlap_columns},
    {{"Ibarrier", "MPI_Ibarrier overlapped with CPU work", collective, dflt},
     &run_benchmark<ibarrier_def>, overlap_columns},
    {{"Ibcast_pure", "MPI_Ibcast + MPI_Wait, root i % np", collective, 0},
     &run_benchmark<ibcast_pure_def>},
    {{"Iallgather_pure", "MPI_Iallgather + MPI_Wait", collective, 0},
     &run_benchmark<iallgather_pure_def>},
    {{"Iallgatherv_pure", "MPI_Iallgatherv + MPI_Wait", collective, 0},
     &run_benchmark<iallgatherv_pure_def>},
    {{"Igather_pure", "MPI_Igather + MPI_Wait, root i % np", collective, 0},
     &run_benchmark<igather_pure_def>},
    {{"Igatherv_pure", "MPI_Igatherv + MPI_Wait, root i % np", collective, 0},
     &run_benchmark<igatherv_pure_def>},
    {{"Iscatter_pure", "MPI_Iscatter + MPI_Wait, root i % np", collective, 0},
     &run_benchmark<iscatter_pure_def>},
    {{"Iscatterv_pure", "MPI_Iscatterv + MPI_Wait, root i % np", collective, 0},
     &run_benchmark<iscatterv_pure_def>},
    {{"Ialltoall_pure", "MPI_Ialltoall + MPI_Wait", collective, 0},
     &run_benchmark<ialltoall_pure_def>},
    {{"Ialltoallv_pure", "MPI_Ialltoallv + MPI_Wait", collective, 0},
     &run_benchmark<ialltoallv_pure_def>},
    {{"Ireduce_pure", "MPI_Ireduce (MPI_FLOAT, MPI_SUM) + MPI_Wait, root i % np", collective, 0},
     &run_benchmark<ireduce_pure_def>},
    {{"Ireduce_scatter_pure", "MPI_Ireduce_scatter (MPI_FLOAT, MPI_SUM) + MPI_Wait", collective,
      0},
     &run_benchmark<ireduce_scatter_pure_def>},
    {{"Iallreduce_pure", "MPI_Iallreduce (MPI_FLOAT, MPI_SUM) + MPI_Wait", collective, 0},
     &run_benchmark<iallreduce_pure_def>},
    {{"Ibarrier_pure", "MPI_Ibarrier + MPI_Wait", collective, 0},
     &run_benchmark<ibarrier_pure_def>},
};

// Rank 0: the CPU load's rate on this process (IMB prints it once, at the start) and the
// asynchronous-progress setting, in the header and the context; the imb-nbc console layout.
void extend_run_start(run_start& start) {
    start.layout = "imb-nbc";
    policy::matvec_load load;
    const policy::matvec_calibration c = policy::calibrate_matvec(load, 0.0);
    const double rate = policy::cpu_load::rate_mflops(1, c.seconds_per_pass);
    const mpi::async_progress progress = mpi::detect_async_progress();
    start.header["cpu_load"] = {{"kernel", "100x100 single-precision matrix-vector product"},
                                {"rate_mflops", rate}};
    start.header["async_progress"] = mpi::describe(progress);
    start.context["async_progress"] = mpi::to_json(progress);
    start.context["cpu_load_rate_mflops"] = rate;
}

const imb::suite& suite() {
    static const imb::suite s(
        {.name = "imb-nbc",
         .description = "Intel MPI Benchmarks IMB-NBC: overlap of nonblocking collectives with "
                        "computation, and their _pure timings",
         .compatible_with = "IMB-NBC",
         .part = "NBC part",
         .extend_run_start = &extend_run_start},
        catalogue, testing::imb_nbc_faults());
    return s;
}

void run(const run_request& request, const plugin::host_channel& host) {
    suite().run(request, host);
}

}  // namespace

const hosted_suite suites::imb_nbc = {suite().info(), &run};

}  // namespace parbench::mpi_plugin
