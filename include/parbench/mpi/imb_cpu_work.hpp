// IMB 2021's CPU work of a whole run (IMB_cpu_exploit.c): one n x n matrix-vector pass (n =
// IMB's SIZE 10, :88), its rate probed once per run by every process on its own (the probe runs
// only while MFlops < 0, :98-118; no agreement between processes: IMB_cpu_exploit calls no MPI
// but MPI_Wtime), on the wall clock as IMB's MPI_Wtime. Its users:
//
//   imb-io  (methodology::io_calibrates_once_per_run) the work set once for TARGET_CPU_SECS
//           before the first benchmark (IMB_cpu_exploit(TARGET_CPU_SECS, 1) at
//           original_benchmark.h:180-188) and run unchanged by every I-flavour of every size
//           (IMB_write.c:489-491, IMB_read.c:548-551: IMB_cpu_exploit(TARGET_CPU_SECS, 0)); its
//           t_CPU world rank 0's one timed run of it (IMB's tCPU, IMB_output.c:337). The run's
//           header prints rank 0's rate from the same probe (imb/run_header.cpp).
//   imb-nbc, imb-mpi4  (methodology::nbc_calibrates_once_per_run) the work of each size set
//           from this process's own t_pure, IMB_cpu_exploit(t_pure, 1) after the t_pure loop
//           (IMB_reduce.c:188-191, IMB_reduce.c:314-317 for the persistent forms): passes
//           max(1, (int)(t_pure x passes a second)), run once (untimed by the table), then by
//           every overlapped iteration (:207, :337). parbench probes at the run's start, IMB at
//           the first benchmark's first size: the same one probe of each process.
#pragma once

#include <parbench/core/clock.hpp>
#include <parbench/policy/cpu_load.hpp>

#include <mpi.h>

#include <cstddef>

namespace parbench::mpi {

struct imb_cpu_work {
    policy::matvec_load load;
    policy::imb_calibration mine;  // this process's probe and its latest target
    double t_cpu_s = 0.0;          // imb-io: world rank 0's timed run, the same on every process

    // The probe alone (imb-nbc, imb-mpi4): each process on its own, no MPI call.
    explicit imb_cpu_work(std::size_t order) : load(0, order) {
        policy::probe_like_imb(load, mine, monotonic_clock{});
    }
    // The probe and the run's one target (imb-io). Collective over `comm` (one broadcast of rank
    // 0's time; the calibration itself is each process's own, as IMB's).
    imb_cpu_work(MPI_Comm comm, double target_s, std::size_t order) : imb_cpu_work(order) {
        initialize(target_s);
        t_cpu_s = mine.run_s;
        MPI_Bcast(&t_cpu_s, 1, MPI_DOUBLE, 0, comm);
    }
    imb_cpu_work(const imb_cpu_work&) = delete;
    imb_cpu_work& operator=(const imb_cpu_work&) = delete;

    // IMB_cpu_exploit(target_s, 1): the passes for `target_s` at the probed rate set on the load,
    // then run once and timed (mine.run_s). No MPI call.
    void initialize(double target_s) {
        policy::initialize_like_imb(load, mine, target_s, monotonic_clock{});
    }
};

}  // namespace parbench::mpi
