// Is the osu suite's put_latency as cheap as OSU's own loop? On one window (MPI_Win_allocate,
// rank 1's memory, rank 0 holding MPI_Win_lock(shared) as OSU's default -s flush does), a plain
// loop of n x {MPI_Put; MPI_Win_flush} between two MPI_Wtime calls runs alternately with the
// suite's put_latency method (osu/one_sided.hpp: the same kernel, completion and epoch the suite
// uses) through parbench's phases (prepare once, then per alternation time_iterations and the
// gather the suite runs next, where the target waits while the origin is timed: batched timing). Each alternation gives a ratio parbench / plain of rank 0's time per put.
//
// Long form (the benchmark() target): 8 B, 64 KiB and 4 MiB with OSU's counts (10000, 1000,
// 1000); the median ratio per size must stay within 3 %. Short form (--short, a benchmark() in
// suite bench-short): fewer iterations; fails when a size's 95 % CI of the median ratio lies
// entirely outside [0.90, 1.10] (bench/ratio_rule.hpp). Both fail when a time was not measured.
//
//   mpiexec -n 2 ./osu_put_overhead [ALTERNATIONS] [--short]
#include "osu/one_sided.hpp"
#include "alternation.hpp"
#include "mpi_pair.hpp"
#include "ratio_rule.hpp"

#include <parbench/core/statistics.hpp>
#include <parbench/mpi/environment.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {


// The suite's put_latency definition, as the method table sees it.
struct put_latency_def {
    static constexpr parbench::rma_kernels::rma_op op = parbench::rma_kernels::rma_op::put;
    static constexpr parbench::osu::measures kind = parbench::osu::measures::latency;
    static constexpr bool bidirectional = false;
};
using method = parbench::osu::one_sided_method<put_latency_def, parbench::osu::sync::flush>;

// OSU's loop: rank 0 locks rank 1 once, times n puts each completed by a flush.
double plain_put_us(const parbench::mpi::window_view& v, int rank, int bytes, std::uint64_t n,
                    std::uint64_t skip) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t_us = 0.0;
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, v.win);
        for (std::uint64_t i = 0; i < skip; ++i) {
            MPI_Put(v.origin, bytes, MPI_CHAR, 1, 0, bytes, MPI_CHAR, v.win);
            MPI_Win_flush(1, v.win);
        }
        const double start = MPI_Wtime();
        for (std::uint64_t i = 0; i < n; ++i) {
            MPI_Put(v.origin, bytes, MPI_CHAR, 1, 0, bytes, MPI_CHAR, v.win);
            MPI_Win_flush(1, v.win);
        }
        t_us = (MPI_Wtime() - start) / static_cast<double>(n) * 1e6;
        MPI_Win_unlock(1, v.win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return t_us;
}

}  // namespace

int main(int argc, char** argv) {
    parbench::mpi::environment env(argc, argv);
    const auto started = bench::start_pair("osu_put_overhead", argc, argv, 40);
    if (!started) return 1;
    const int rank = started->rank;
    const int alternations = started->args.alternations;
    const bool short_form = started->args.short_form;
    const bench::time_ratio_rule rule{.short_form = short_form};  // 1.03 long, [0.90, 1.10] short
    namespace mpi = parbench::mpi;
    const mpi::session pair(MPI_COMM_WORLD, 2);
    const auto descriptor = method::descriptor(1);
    if (rank == 0)
        std::printf("# OSU put_latency overhead (%s form): parbench's method vs OSU's Put+flush "
                    "loop on one window, %d alternations\n%10s %8s %14s %14s %14s %10s %10s\n",
                    short_form ? "short" : "long", alternations, "#bytes", "n", "plain[usec]",
                    "parbench[usec]", "median_ratio", "ci95_low", "ci95_high");
    int over = 0;
    for (const std::uint64_t bytes : {std::uint64_t{8}, std::uint64_t{65536}, std::uint64_t{4194304}}) {
        auto counts = parbench::osu::latency_counts;
        if (short_form) counts = {.iterations = 200, .skip = 10, .large_iterations = 20,
                                  .large_skip = 2, .large_bytes = 8192};
        const std::uint64_t n = counts.n_sample(bytes);
        const std::uint64_t skip = counts.warmup(bytes);
        const mpi::kernel_context context = pair.context(bytes, descriptor.pairs);
        mpi::prepared<mpi::rma_window> window = mpi::prepare(
            pair,
            mpi::rma_window({.creation = mpi::window_creation::allocate,
                             .epoch = method::epoch,
                             .bytes = bytes},
                            context),
            0.0);
        auto kernel = method::kernel(context, 1);
        auto completion = method::completion(context);
        mpi::timing_plan<parbench::policy::iterations::fixed_count, parbench::policy::sync::barrier,
                         parbench::policy::aggregation::non_aggregate>
            plan{.iterations = counts};
        const auto parbench_us = [&] {
            const mpi::rank_timing t = mpi::time_iterations(pair, descriptor, window, context,
                                                            kernel, completion, plan, bytes);
            // The phase the suite runs next: the passive target waits in the gather's agreement
            // while the origin is still timed, so a wait there that starves the target's
            // progress engine shows in the origin's time (a sleeping wait: 1 ms per put).
            (void)mpi::gather(pair, t, plan.batching.max_batches);
            MPI_Barrier(MPI_COMM_WORLD);
            return t.total_s / static_cast<double>(t.iterations) * 1e6;
        };
        const auto plain_us = [&] {
            return plain_put_us(window.get().view(), rank, static_cast<int>(bytes), n, skip);
        };
        const auto [plain_all, runner_all, ratios] =
            bench::alternate(alternations, plain_us, parbench_us);
        if (rank == 0)
            over += bench::judge_time_ratio(bytes, n, plain_all, runner_all, ratios, rule) ? 0
                    : 1;
    }
    MPI_Bcast(&over, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        std::printf("# %s\n", over == 0 ? "ok" : "FAILED");
    return over == 0 ? 0 : 1;
}
