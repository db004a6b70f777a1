// The per-call timed loop of IMB 2021 (-sync on, its default, for every collective with data:
// IMB_allreduce.c and its siblings) and of OSU 7.5's blocking collectives (osu_allreduce.c:
// t_start, the call, t_stop, MPI_Barrier), measured: IMB-MPI1's Allreduce through parbench's
// runner (mpi::measure with the suite's definition and the per-call sync policy the imb-* and
// osu suites use: one barrier after every timed call, outside the timed part) costs what the
// hand-written loop of the same shape costs
//
//     for i: t0 = MPI_Wtime(); MPI_Allreduce(...); t += MPI_Wtime() - t0; MPI_Barrier(...)
//
// on the same buffers, with the same n. The two alternate (bench/alternation.hpp) at 8 B, 1 KiB
// and 64 KiB; each alternation gives a ratio parbench / plain of the time per call (max over the
// ranks, as IMB reports). Long form: the median ratio of each size must stay within 3 %. Short
// form (--short): fails when a size's 95 % CI of the median ratio lies entirely outside
// [0.90, 1.10] (bench/ratio_rule.hpp).
//
//   mpiexec -n 2 ./percall_overhead [ALTERNATIONS] [--short]
#include "mpi_pair.hpp"
#include "ratio_rule.hpp"

#include <parbench/core/buffers.hpp>
#include <parbench/core/statistics.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/suites/imb/mpi1.hpp>

#include <cstdio>
#include <vector>

namespace {


// The reference: the per-call loop as one would write it by hand (IMB 2021 -sync on, OSU 7.5).
double plain_per_call_us(MPI_Comm comm, const std::byte* send, std::byte* recv, int floats,
                         std::uint64_t n) {
    const auto call = [&] { MPI_Allreduce(send, recv, floats, MPI_FLOAT, MPI_SUM, comm); };
    for (int warm = 0; warm < 5; ++warm) call();
    MPI_Barrier(comm);
    double sum = 0.0;
    for (std::uint64_t i = 0; i < n; ++i) {
        const double start = MPI_Wtime();
        call();
        sum += MPI_Wtime() - start;
        MPI_Barrier(comm);
    }
    double t_us = sum / static_cast<double>(n) * 1e6;
    MPI_Allreduce(MPI_IN_PLACE, &t_us, 1, MPI_DOUBLE, MPI_MAX, comm);
    return t_us;
}

}  // namespace

int main(int argc, char** argv) {
    parbench::mpi::environment env(argc, argv);
    const auto started = bench::start_pair("percall_overhead", argc, argv, 40);
    if (!started) return 1;
    const int rank = started->rank;
    const bench::bench_args& args = started->args;
    const bool short_form = args.short_form;
    const bench::time_ratio_rule rule{.short_form = short_form};  // 1.03 long, [0.90, 1.10] short
    using def = parbench::imb_mpi1::allreduce_def;
    const parbench::mpi::session pair(MPI_COMM_WORLD, 2);
    // IMB 2021's -sync on as the imb-* suites and osu's collectives build it: one barrier before
    // the loop, each call timed on its own, one MPI_Barrier after it.
    parbench::mpi::timing_plan<parbench::policy::iterations::imb_volume,
                               parbench::policy::sync::chosen>
        plan{.sync = {.which = parbench::policy::sync::method::each_call,
                      .barriers = {.count = 1},
                      .after_call = 1}};
    plan.iterations.secs_per_sample = 1e9;  // never cut: the same n for both loops
    if (short_form) plan.iterations.msgs_per_sample = 200;
    const parbench::mpi::record_labels labels{.suite = "bench", .benchmark = "Allreduce"};
    int failed = 0;

    if (rank == 0)
        std::printf("# Allreduce timed per call (%s form): parbench runner vs a plain loop of "
                    "timer, MPI_Allreduce, timer, MPI_Barrier, %d alternations\n"
                    "%10s %8s %14s %14s %14s %10s %10s\n",
                    short_form ? "short" : "long", args.alternations, "#bytes", "n",
                    "plain[usec]", "parbench[usec]", "median_ratio", "ci95_low", "ci95_high");
    for (const std::uint64_t bytes :
         {std::uint64_t{8}, std::uint64_t{1024}, std::uint64_t{65536}}) {
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
                          .kernel = parbench::imb_mpi1::kernel_for<def>(pair.context(bytes)),
                          .plan = plan});
            return m.records.empty() ? 0.0 : m.records.front().t_max_us;  // rank 0 only
        };
        const auto plain_us = [&] {
            return plain_per_call_us(MPI_COMM_WORLD, pair.send_pool().data(),
                                     pair.recv_pool().data(),
                                     static_cast<int>(bytes / sizeof(float)), n);
        };
        const auto [plain_all, runner_all, ratios] =
            bench::alternate(args.alternations, plain_us, parbench_us);
        if (rank == 0)
            failed += bench::judge_time_ratio(bytes, n, plain_all, runner_all, ratios, rule) ? 0
                      : 1;
    }
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) std::printf("# %s\n", failed == 0 ? "ok" : "FAILED");
    return failed == 0 ? 0 : 1;
}
