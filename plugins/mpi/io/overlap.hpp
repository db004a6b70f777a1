// IMB-IO's nonblocking measurement of one size (catalogue A.6.10), composed from the runner's
// phases (mpi/phases.hpp) like IMB-NBC's (mpi/overlap.hpp) — no timing loop of its own:
//
//   prepare            the file, once for the three timings
//   time  t_pure       the equivalent blocking benchmark (writes: each one completed)
//   reopen             the file closed and opened again, the processes resynchronised
//   calibrate          the guide (4.0): collective, the CPU load of every process set to the
//                      same work, as long as IMB's TARGET_CPU_SECS (not t_pure: IMB-IO's rule,
//                      unlike IMB-NBC's; 0.1 s, imb::methodology::io_cpu_load_s), per size. IMB
//                      2021: none here: the run's work, calibrated once before the first
//                      benchmark (mpi/imb_cpu_work.hpp: 0.01 s of IMB's 10x10 pass, each process
//                      its own)
//   time  t_ovrl       the transfers of one completion epoch begun, each with a request of
//                      its own (the overlapped kernel, into an overlap_epoch); then, as the
//                      epoch's completion (overlapped_completion), the CPU load once per begun
//                      transfer, one MPI_Waitall (MPI_Wait for one) and the configuration's
//                      completion (writes: the assured one) — IMB 2021's aggregate sample
//                      (IMB_write.c:462-501, IMB_read.c:495-558), and per transfer in
//                      non-aggregate mode the guide's begin; work; wait. A kernel that ends its
//                      own transfer (the C_ flavours' split collectives) begins none here
//   time  t_CPU        the CPU load alone (mpi::work_kernel; the guide), or, IMB 2021's tCPU,
//                      world rank 0's one timed run of the run's work at its calibration
//                      (IMB_cpu_exploit.c:121-134, printed for every row, IMB_output.c:337):
//                      not timed here, the same for every size
//   gather, reduce     t_ovrl's record, then mpi::attach_overlap: the three times of the process
//                      with the largest t_ovrl (the guide), or IMB 2021's t_pure and t_ovrl
//                      each the largest over the processes (IMB_output.c:335-336), and
//                      overlap[%] (report/overlap.hpp)
#pragma once

#include <parbench/mpi/imb_cpu_work.hpp>

#include <parbench/mpi/cpu_load.hpp>
#include <parbench/mpi/file_resource.hpp>
#include <parbench/mpi/overlap.hpp>
#include <parbench/mpi/phases.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/policy/cpu_load.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace parbench::mpi_plugin::io {

// The transfers begun since t_ovrl's completion last opened: one request each (IMB 2021's
// REQUESTS[j], IMB_write.c:450-453), and the CPU work to run once per begun transfer.
struct overlap_epoch {
    policy::matvec_load* work = nullptr;
    std::vector<MPI_Request> requests;  // reserved before timing: begun transfers never allocate
};

// t_ovrl's completion: the begun transfers' CPU work (IMB_write.c:489-491), then one MPI_Waitall
// over their requests, MPI_Wait for a single one (:492-495), then the configuration's completion
// (writes: the assured completion, :499-501). With nothing begun (the C_ flavours end each
// transfer in the kernel) only the configuration's completion runs.
template <class Completion>
struct overlapped_completion {
    overlap_epoch* epoch = nullptr;
    Completion* inner = nullptr;
    template <class View>
    void open(const mpi::kernel_context& c, const View& v) {
        epoch->requests.clear();
        inner->open(c, v);
    }
    template <class View>
    void close(const mpi::kernel_context& c, const View& v) {
        std::vector<MPI_Request>& requests = epoch->requests;
        for (std::size_t k = 0; k < requests.size(); ++k) epoch->work->run();
        if (requests.size() == 1)
            v.note(MPI_Wait(requests.data(), MPI_STATUS_IGNORE));
        else if (!requests.empty())
            v.note(MPI_Waitall(static_cast<int>(requests.size()), requests.data(),
                               MPI_STATUSES_IGNORE));
        inner->close(c, v);
    }
};

// What the methodology decides in one nonblocking IMB-IO measurement
// (imb::methodology::io_cpu_load_s, io_calibrates_once_per_run, io_cpu_time_from_calibration).
struct overlap_rule {
    double target_cpu_s = 0.1;  // TARGET_CPU_SECS: the CPU work of one iteration
    // IMB 2021: the run's CPU work (calibrated once, mpi/imb_cpu_work.hpp), and t_CPU its one timed
    // run on world rank 0. nullptr: the guide's, calibrated collectively for this size on the
    // thread's CPU clock (mpi::calibrate), t_CPU timed alone.
    mpi::imb_cpu_work* run_work = nullptr;
    // IMB 2021: t_pure and t_ovrl each the largest over the processes (IMB_output.c:335-336;
    // imb::methodology::io_times_each_their_maximum), not the slowest t_ovrl's process's t_pure.
    bool times_each_their_maximum = false;
};

// `make_overlapped(overlap_epoch*)` gives t_ovrl's kernel over the same file view as the
// configuration's (blocking) kernel: it begins iteration i's transfer into the epoch, or (a
// collective split) begins it, runs epoch->work and ends it. The configuration's completion
// (writes: the assured completion) closes each epoch in both timings, where the aggregation
// policy puts it, so t_pure and t_ovrl time the same transfers.
template <pattern::descriptor Pattern, class Kernel, class Completion, class Plan, class Check,
          class MakeOverlapped>
    requires mpi::is_timing_plan<Plan>
[[nodiscard]] mpi::measurement measure_overlap(
    const mpi::session& s,
    mpi::measure_config<Pattern, Kernel, mpi::file_resource, Completion, Plan, Check> config,
    MakeOverlapped make_overlapped, const overlap_rule& rule) {
    Plan& plan = config.plan;
    mpi::measurement out;
    bool timed_out = false;
    {
        mpi::prepared<mpi::file_resource> ready =
            mpi::prepare(s, std::move(config.resource), plan.mem_limit_bytes);
        if (ready.state() == mpi::preparation::over_memory_limit)
            out.skipped_need_bytes = ready.need_bytes();
        if (ready.state() == mpi::preparation::allocation_failed) out.allocation_failed = true;
        if (ready.state() == mpi::preparation::over_storage) out.skipped_storage = ready.storage();
        if (ready.ready()) {
            const std::uint64_t bytes = config.bytes;
            const mpi::kernel_context context = s.context(static_cast<std::size_t>(bytes),
                                                          pattern::pairing_of(config.pattern));
            const mpi::rank_timing t_pure =
                mpi::time_iterations(s, config.pattern, ready, context, config.kernel,
                                     config.completion, plan, bytes, config.check);
            // A size past IMB 2021's block budget is not timed further (mpi::end_of_size).
            timed_out = t_pure.timed_out;
            if (!timed_out) {
                ready.get().reopen();
                MPI_Barrier(s.active_comm().get());
                policy::matvec_load own_load;
                policy::matvec_load& load =
                    rule.run_work != nullptr ? rule.run_work->load : own_load;
                const mpi::cpu_load_calibration calibration =
                    rule.run_work != nullptr
                        ? mpi::cpu_load_calibration{.passes = rule.run_work->mine.passes,
                                                    .target_s = rule.target_cpu_s,
                                                    .seconds_per_pass =
                                                        rule.run_work->mine.probe_s /
                                                        static_cast<double>(std::max<std::uint64_t>(
                                                            1, rule.run_work->mine.probe_passes)),
                                                    .rate_mflops = rule.run_work->mine.mflops()}
                        : mpi::calibrate(s.active_comm().get(), load, rule.target_cpu_s);
                overlap_epoch epoch{.work = &load, .requests = {}};
                epoch.requests.reserve(static_cast<std::size_t>(
                    plan.iterations.n_sample(
                        bytes, std::remove_cvref_t<decltype(plan.aggregation)>::is_aggregate)));
                auto overlapped = make_overlapped(&epoch);
                overlapped_completion<std::remove_cvref_t<decltype(config.completion)>> ends{&epoch,
                                                                        &config.completion};
                const mpi::rank_timing t_ovrl =
                    mpi::time_iterations(s, config.pattern, ready, context, overlapped, ends,
                                         plan, bytes, config.check);
                mpi::rank_timing t_cpu;
                if (rule.run_work != nullptr) {
                    t_cpu.group = t_ovrl.group;
                    t_cpu.iterations = 1;
                    t_cpu.total_s = rule.run_work->t_cpu_s;
                } else {
                    mpi::work_kernel<policy::matvec_load> work_alone{&load};
                    mpi::no_completion none;
                    t_cpu = mpi::time_iterations(s, config.pattern, ready, context, work_alone, none,
                                                 plan, bytes);
                }
                const mpi::gathered ovrl = mpi::gather(s, t_ovrl, plan.batching.max_batches);
                const mpi::gathered pure = mpi::gather(s, t_pure, 0);
                const mpi::gathered cpu = mpi::gather(s, t_cpu, 0);
                out.records = mpi::reduce(config.pattern, config.labels, s.layout(), bytes,
                                          plan.check && mpi::checks_data<Check>, ovrl);
                mpi::attach_overlap(
                    out.records, ovrl, pure, cpu, config.pattern.time_divisor, calibration,
                    mpi::overlap_rule{.times_each_their_maximum = rule.times_each_their_maximum});
                if (rule.run_work != nullptr)
                    mpi::attach_work_spread(s, out.records, rule.run_work->mine.passes);
            }
        }
    }  // the file is closed and deleted here, before the idle processes are released
    out.timed_out = mpi::end_of_size(s, plan.iterations, timed_out || out.skipped_need_bytes > 0);
    return out;
}

}  // namespace parbench::mpi_plugin::io
