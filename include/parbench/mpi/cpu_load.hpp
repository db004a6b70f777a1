// The MPI side of the CPU load (policy/cpu_load.hpp holds the kernels and the arithmetic):
//
//   calibrate(comm, load, target_s)    collective: every process probes its own rate, the
//                                      processes agree on the target (the largest) and on the
//                                      seconds per pass (the mean), and all set the same number
//                                      of passes — IMB's rule that every process does the same
//                                      work; then every process times that work (the check),
//                                      they agree on the mean time, and all correct the count
//                                      once by it; the agreed Mflop/s is the rate IMB prints
//   test_while_busy(request, seconds)  COMB's NB_active: spin until `seconds` have passed,
//                                      calling MPI_Test on `request` every pass
//
// Calibration is never inside a timed region.
#pragma once

#include <parbench/policy/cpu_load.hpp>

#include <mpi.h>

#include <cstdint>

namespace parbench::mpi {

struct cpu_load_calibration {
    std::uint64_t passes = 0;       // the agreed work, the same on every process
    double target_s = 0.0;          // the agreed target (largest over the processes)
    double seconds_per_pass = 0.0;  // the agreed rate (mean over the processes)
    double rate_mflops = 0.0;       // at that rate, for the header line
    [[nodiscard]] double expected_s() const noexcept {
        return static_cast<double>(passes) * seconds_per_pass;
    }
};

// Collective over `comm`. Sets load.passes() to the agreed work for `target_s` (each process may
// pass its own target; the largest wins). A target of zero or less gives no load. Costs each
// process at most ~60 ms of CPU time (policy::cpu_load::calibration_plan); never inside a timed
// region. `Clock`: the thread's CPU time (the default: a probe another job preempts is not
// counted slow), or a wall clock (IMB's MPI_Wtime, IMB_cpu_exploit.c:106-134: the work then
// takes the target in wall time on the machine as loaded as it is now).
template <clock_source Clock = thread_cpu_clock>
inline cpu_load_calibration calibrate(MPI_Comm comm, policy::matvec_load& load, double target_s,
                                      const policy::cpu_load::calibration_plan& plan = {},
                                      Clock clock = {}) {
    int size = 1;
    MPI_Comm_size(comm, &size);
    double target = target_s;
    MPI_Allreduce(MPI_IN_PLACE, &target, 1, MPI_DOUBLE, MPI_MAX, comm);
    const policy::matvec_calibration mine = policy::calibrate_matvec(load, target, plan, clock);
    double spp_sum = mine.seconds_per_pass;
    MPI_Allreduce(MPI_IN_PLACE, &spp_sum, 1, MPI_DOUBLE, MPI_SUM, comm);
    cpu_load_calibration agreed;
    agreed.target_s = target;
    agreed.seconds_per_pass = spp_sum / static_cast<double>(size);
    agreed.passes = policy::cpu_load::passes_for(target, agreed.seconds_per_pass);
    load.set_passes(agreed.passes);
    // The check: the agreed work (its first max_check_s when longer) timed as it will run, the
    // mean over the processes of each one's fastest run, and one correction of the count (the
    // same on every process: it is computed from agreed figures only).
    if (agreed.passes > 0 && plan.check_runs > 0) {
        const std::uint64_t checked =
            policy::cpu_load::check_passes(agreed.passes, agreed.seconds_per_pass, plan);
        double measured_sum = policy::time_passes(load, checked, plan.check_runs, clock);
        MPI_Allreduce(MPI_IN_PLACE, &measured_sum, 1, MPI_DOUBLE, MPI_SUM, comm);
        const double measured = measured_sum / static_cast<double>(size);
        if (measured > 0.0) {
            agreed.seconds_per_pass = measured / static_cast<double>(checked);
            agreed.passes = policy::cpu_load::corrected_passes(checked, measured, target);
            load.set_passes(agreed.passes);
        }
    }
    agreed.rate_mflops = policy::cpu_load::rate_mflops(1, agreed.seconds_per_pass);
    return agreed;
}

// NB_active's work: spin on MPI_Wtime until `seconds` have passed, testing `request` on every
// pass (a completed request becomes MPI_REQUEST_NULL, whose test is a cheap no-op). Returns the
// number of MPI_Test calls made.
inline std::uint64_t test_while_busy(MPI_Request& request, double seconds) {
    const double start = MPI_Wtime();
    std::uint64_t tests = 0;
    int done = 0;
    do {
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        ++tests;
    } while (MPI_Wtime() - start < seconds);
    return tests;
}

}  // namespace parbench::mpi
