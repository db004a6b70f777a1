// Two claims of imb-nbc, measured:
//
// 1. Iallreduce_pure through parbench's runner (mpi::measure with the suite's definition: the
//    batched timed loop, the session's buffers, the same n) costs what a hand-written
//    MPI_Iallreduce + MPI_Wait loop costs. The two alternate (bench/alternation.hpp) at 8 B and
//    64 KiB; each alternation gives a ratio parbench / plain of the time per iteration (max over
//    the ranks, as IMB reports). Long form: the median ratio of each size must stay within 3 %.
//    Short form (--short, a benchmark() in suite bench-short): fails when a size's 95 % CI of
//    the median ratio lies entirely outside [0.90, 1.10] (bench/ratio_rule.hpp).
//
// 2. The CPU load calibrated to a target takes that long. Per target (50 us, 1 ms, 10 ms; long
//    form also 100 ms), several independent calibrations (mpi::calibrate), each followed by
//    repeated runs of the calibrated work; a calibration's ratio is the median run's thread CPU
//    time over the target, averaged over the processes (they do the same work at their own
//    speeds; the agreement aims the mean at the target). The wall-time ratio is printed beside
//    it: on a shared machine it adds the time other jobs held the core, which no calibration
//    can foresee. Long form: the median ratio over the calibrations within [0.95, 1.05]; short
//    form: fails when the 95 % CI of that median lies entirely outside [0.75, 1.33]
//    (bench/ratio_rule.hpp; a wrong flop count, a pass the compiler removed or a calibration on
//    the wrong clock still fails it).
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
#include <cstdio>
#include <vector>

namespace {

constexpr double load_tolerance = 0.05;
constexpr double load_short_low = 0.75;
constexpr double load_short_high = 1.33;

// One calibration to `target_s` and `runs` runs of its work on every process: the ratios
// (median run / target) in CPU and wall time, averaged over the processes, on every rank.
struct calibrated_ratio {
    double cpu = 0.0;
    double wall = 0.0;
    std::uint64_t passes = 0;
    double rate_mflops = 0.0;
    double calibration_s = 0.0;  // wall time of the calibration itself (its cost)
};

calibrated_ratio calibrate_and_time(MPI_Comm comm, double target_s, int runs) {
    parbench::policy::matvec_load load;
    MPI_Barrier(comm);
    const double calibration_start = MPI_Wtime();
    const auto c = parbench::mpi::calibrate(comm, load, target_s);
    const double calibration_s = MPI_Wtime() - calibration_start;
    std::vector<double> wall;
    std::vector<double> cpu;
    for (int k = 0; k < runs; ++k) {
        const double cpu_start = parbench::thread_cpu_clock::now();
        const double start = MPI_Wtime();
        load.run();
        wall.push_back(MPI_Wtime() - start);
        cpu.push_back(parbench::thread_cpu_clock::now() - cpu_start);
    }
    double sums[3] = {parbench::summarize(cpu).median / target_s,
                      parbench::summarize(wall).median / target_s, calibration_s};
    MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_DOUBLE, MPI_SUM, comm);
    int size = 1;
    MPI_Comm_size(comm, &size);
    const double n = static_cast<double>(size);
    return {sums[0] / n, sums[1] / n, c.passes, c.rate_mflops, sums[2] / n};
}

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
    const bench::time_ratio_rule rule{.short_form = short_form};  // 1.03 long, [0.90, 1.10] short
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
        if (rank == 0)
            failed += bench::judge_time_ratio(bytes, n, plain_all, runner_all, ratios, rule) ? 0
                      : 1;
    }

    // The CPU load's calibrated time against its target (see the head of this file).
    const int calibrations = short_form ? 7 : 11;
    if (rank == 0)
        std::printf("# CPU load: calibrated time / target, thread CPU time of the median run "
                    "(mean over the processes), median of %d calibrations; %s\n"
                    "%12s %10s %10s %12s %10s %10s %12s %14s\n",
                    calibrations,
                    short_form ? "fails when its 95 % CI lies outside [0.75, 1.33]"
                               : "bounds [0.95, 1.05]",
                    "target[usec]", "passes", "Mflop/s", "cpu_ratio", "ci95_low", "ci95_high",
                    "wall_ratio", "calib[msec]");
    std::vector<double> targets{50e-6, 1e-3, 10e-3};
    if (!short_form) targets.push_back(100e-3);
    for (const double target_s : targets) {
        const int runs = std::max(5, static_cast<int>(std::min(50.0, 0.05 / target_s)));
        std::vector<double> cpu;
        std::vector<double> wall;
        std::vector<double> passes;
        std::vector<double> rates;
        std::vector<double> cost;
        for (int k = 0; k < calibrations; ++k) {
            const calibrated_ratio r = calibrate_and_time(MPI_COMM_WORLD, target_s, runs);
            cpu.push_back(r.cpu);
            wall.push_back(r.wall);
            passes.push_back(static_cast<double>(r.passes));
            rates.push_back(r.rate_mflops);
            cost.push_back(r.calibration_s);
        }
        if (rank == 0) {
            const auto ci = bench::median_with_ci(cpu);
            const bool measured = bench::all_measured(cpu) && bench::all_measured(wall);
            const bool ok = measured && (short_form
                                             ? bench::ci_within(ci, load_short_low, load_short_high)
                                             : std::abs(ci.median - 1.0) <= load_tolerance);
            failed += ok ? 0 : 1;
            std::printf("%12.1f %10.0f %10.0f %12.4f %10.4f %10.4f %12.4f %14.2f%s\n",
                        target_s * 1e6, parbench::summarize(passes).median,
                        parbench::summarize(rates).median, ci.median, ci.low, ci.high,
                        parbench::summarize(wall).median, parbench::summarize(cost).median * 1e3,
                        ok ? "" : !measured ? "  NOT MEASURED" : "  OUT OF BOUNDS");
        }
    }
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) std::printf("# %s\n", failed == 0 ? "ok" : "FAILED");
    return failed == 0 ? 0 : 1;
}
