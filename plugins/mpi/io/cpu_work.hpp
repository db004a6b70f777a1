// IMB-IO's CPU work of a whole run under IMB 2021 (imb::methodology::io_calibrates_once_per_run):
// calibrated once, before the first benchmark of a run with nonblocking benchmarks, by every
// process on its own (policy::calibrate_like_imb: IMB_cpu_exploit(TARGET_CPU_SECS, 1) at
// original_benchmark.h:180-188, IMB_cpu_exploit.c:98-134), on the wall clock as IMB's MPI_Wtime,
// with IMB's 10x10 matrix (methodology::io_cpu_load_order). Every I-flavour of every size then
// runs that work (IMB_write.c:489-491, IMB_read.c:548-551: IMB_cpu_exploit(TARGET_CPU_SECS, 0))
// and reports as t_CPU world rank 0's one timed run of it (IMB's tCPU, printed by rank 0 for
// every row, IMB_output.c:337). The run's header prints rank 0's rate from the same probe
// (imb/run_header.cpp).
#pragma once

#include <parbench/core/clock.hpp>
#include <parbench/policy/cpu_load.hpp>

#include <mpi.h>

#include <cstddef>

namespace parbench::mpi_plugin::io {

struct run_cpu_work {
    policy::matvec_load load;
    policy::imb_calibration mine;  // this process's calibration
    double t_cpu_s = 0.0;          // world rank 0's timed run, the same on every process

    // Collective over `comm` (one broadcast of rank 0's time; the calibration itself is each
    // process's own, as IMB's).
    run_cpu_work(MPI_Comm comm, double target_s, std::size_t order)
        : load(0, order), mine(policy::calibrate_like_imb(load, target_s, monotonic_clock{})),
          t_cpu_s(mine.run_s) {
        MPI_Bcast(&t_cpu_s, 1, MPI_DOUBLE, 0, comm);
    }
    run_cpu_work(const run_cpu_work&) = delete;
    run_cpu_work& operator=(const run_cpu_work&) = delete;
};

}  // namespace parbench::mpi_plugin::io
