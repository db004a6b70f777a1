// Two claims of imb-nbc, measured:
//
// 1. Iallreduce_pure through parbench's runner (mpi::measure with the suite's definition: the
//    batched timed loop, the session's buffers, the same n) costs what a hand-written
//    MPI_Iallreduce + MPI_Wait loop costs. The two alternate (bench/alternation.hpp) at 8 B and
//    64 KiB; each alternation gives a ratio parbench / plain of the time per iteration (max over
//    the ranks, as IMB reports). Long form: the median ratio of each size must stay within 3 %.
//    Short form (--short, a test() in the normal test command): fails when a size's 95 % CI of
//    the median ratio lies entirely outside [0.90, 1.10] (bench/ratio_rule.hpp).
//
// 2. The CPU load calibrated to a target takes that long: mpi::calibrate() to 50 us, 1 ms and
//    10 ms, then the median of repeated runs of the calibrated work on each process, divided by
//    the target, in CPU time (the verdict) and wall time (printed: on a shared machine it adds
//    the time other jobs held the core). Long form: within 5 % on every process; short form:
//    within [0.5, 2] (a wrong flop count or a pass that the compiler removed still fails it).
//
//   mpiexec -n 2 ./nbc_overhead [ALTERNATIONS] [--short]
#include "mpi_pair.hpp"
#include "ratio_rule.hpp"

#include <parbench/core/buffers.hpp>
#include <parbench/core/statistics.hpp>
#include <parbench/mpi/cpu_load.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/suites/imb/nbc.hpp>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <cstdio>
#include <vector>

namespace {

double thread_cpu_seconds() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

constexpr double tolerated_ratio = 1.03;
constexpr double short_low = 0.90;
constexpr double short_high = 1.10;

// The reference: what one would write by hand, IMB-style (N_BARR barriers, then the loop).
double plain_iallreduce_us(MPI_Comm comm, std::byte* send, std::byte* recv, int floats,
                           std::uint64_t n) {
    const auto once = [&] {
        MPI_Request request = MPI_REQUEST_NULL;
        MPI_Iallreduce(send, recv, floats, MPI_FLOAT, MPI_SUM, comm, &request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    };
    for (int warm = 0; warm < 5; ++warm) once();
    MPI_Barrier(comm);
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    for (std::uint64_t i = 0; i < n; ++i) once();
    double t_us = (MPI_Wtime() - start) / static_cast<double>(n) * 1e6;
    MPI_Allreduce(MPI_IN_PLACE, &t_us, 1, MPI_DOUBLE, MPI_MAX, comm);
    return t_us;
}

}  // namespace

int main(int argc, char** argv) {
    parbench::mpi::environment env(argc, argv);
    const auto started = bench::start_pair("nbc_overhead", argc, argv, 40);
    if (!started) return 1;
    const int rank = started->rank;
    const bench::bench_args& args = started->args;
    const bool short_form = args.short_form;
    using def = parbench::imb_nbc::iallreduce_pure_def;
    const parbench::mpi::session pair(MPI_COMM_WORLD, 2);
    parbench::mpi::timing_plan<> plan;
    plan.iterations.secs_per_sample = 1e9;  // never cut: the same n for both loops
    if (short_form) plan.iterations.msgs_per_sample = 200;
    const parbench::mpi::record_labels labels{.suite = "bench", .benchmark = "Iallreduce_pure"};
    int failed = 0;

    if (rank == 0)
        std::printf("# Iallreduce_pure overhead (%s form): parbench runner vs a plain "
                    "MPI_Iallreduce + MPI_Wait loop, %d alternations\n"
                    "%10s %8s %14s %14s %14s %10s %10s\n",
                    short_form ? "short" : "long", args.alternations, "#bytes", "n",
                    "plain[usec]", "parbench[usec]", "median_ratio", "ci95_low", "ci95_high");
    for (const std::uint64_t bytes : {std::uint64_t{8}, std::uint64_t{65536}}) {
        const std::uint64_t n = plan.iterations.n_sample(bytes);
        for (parbench::aligned_buffer* pool : {&pair.send_pool(), &pair.recv_pool()})
            if (pool->size() < bytes || pool->data() == nullptr)
                *pool = parbench::aligned_buffer(bytes);
        const auto parbench_us = [&] {
            const auto m = parbench::mpi::measure(
                pair, parbench::mpi::measure_config{
                          .pattern = def::descriptor,
                          .labels = labels,
                          .bytes = bytes,
                          .resource = parbench::mpi::messages{.layout = def::layout(bytes, 2)},
                          .kernel = def::make_kernel(pair.context(bytes)),
                          .plan = plan});
            return m.records.empty() ? 0.0 : m.records.front().t_max_us;  // rank 0 only
        };
        const auto plain_us = [&] {
            return plain_iallreduce_us(MPI_COMM_WORLD, pair.send_pool().data(),
                                       pair.recv_pool().data(),
                                       static_cast<int>(bytes / sizeof(float)), n);
        };
        const auto [plain_all, runner_all, ratios] =
            bench::alternate(args.alternations, plain_us, parbench_us);
        if (rank == 0) {
            const auto ci = bench::median_with_ci(ratios);
            const bool measured = bench::all_measured(plain_all) &&
                                  bench::all_measured(runner_all) && bench::all_measured(ratios);
            const bool ok = measured && (short_form ? bench::ci_within(ci, short_low, short_high)
                                                    : ci.median <= tolerated_ratio);
            failed += ok ? 0 : 1;
            std::printf("%10llu %8llu %14.3f %14.3f %14.4f %10.4f %10.4f%s\n",
                        static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(n),
                        parbench::summarize(plain_all).median,
                        parbench::summarize(runner_all).median, ci.median, ci.low, ci.high,
                        ok ? "" : !measured ? "  NOT MEASURED" : "  OUT OF BOUNDS");
        }
    }

    // The CPU load's calibrated time against its target, on every process: the median wall time
    // of repeated runs, and the median CPU time of the same runs (the wall time less the time the
    // process was descheduled, which is what another job on the machine adds). The verdict is on
    // the CPU time; the wall time is printed beside it.
    const double low = short_form ? 0.5 : 0.95;
    const double high = short_form ? 2.0 : 1.05;
    if (rank == 0)
        std::printf("# CPU load: calibrated time / target (median of repeated runs), bounds "
                    "[%.2f, %.2f] on the CPU time\n%12s %10s %10s %12s %12s %12s %12s\n",
                    low, high, "target[usec]", "passes", "Mflop/s", "rank0_cpu", "rank1_cpu",
                    "rank0_wall", "rank1_wall");
    for (const double target_s : {50e-6, 1e-3, 10e-3}) {
        parbench::policy::matvec_load load;
        const auto c = parbench::mpi::calibrate(MPI_COMM_WORLD, load, target_s);
        const int runs = std::max(5, static_cast<int>(std::min(200.0, 0.2 / target_s)));
        std::vector<double> wall;
        std::vector<double> cpu;
        load.run();
        for (int k = 0; k < runs; ++k) {
            const double cpu_start = thread_cpu_seconds();
            const double start = MPI_Wtime();
            load.run();
            wall.push_back(MPI_Wtime() - start);
            cpu.push_back(thread_cpu_seconds() - cpu_start);
        }
        const double mine[2] = {parbench::summarize(cpu).median / target_s,
                                parbench::summarize(wall).median / target_s};
        double all[4] = {0.0, 0.0, 0.0, 0.0};  // rank 0 cpu, wall; rank 1 cpu, wall
        MPI_Gather(mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            const auto within = [&](double r) { return std::isfinite(r) && r >= low && r <= high; };
            const bool ok = within(all[0]) && within(all[2]) && all[1] > 0.0 && all[3] > 0.0;
            failed += ok ? 0 : 1;
            std::printf("%12.1f %10llu %10.0f %12.4f %12.4f %12.4f %12.4f%s\n", target_s * 1e6,
                        static_cast<unsigned long long>(c.passes), c.rate_mflops, all[0], all[2],
                        all[1], all[3], ok ? "" : "  OUT OF BOUNDS");
        }
    }
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) std::printf("# %s\n", failed == 0 ? "ok" : "FAILED");
    return failed == 0 ? 0 : 1;
}
