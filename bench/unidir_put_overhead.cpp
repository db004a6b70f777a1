// Is IMB-RMA's Unidir_put through parbench's runner as cheap as a hand-written loop? A plain
// loop (lock outside timing, two barriers, MPI_Wtime, n x {MPI_Put; MPI_Win_flush}, MPI_Wtime,
// unlock) runs alternately with the plugin's Unidir_put definition through the runner's public
// phases (non-aggregate: the flush after each put), on the same window, the same origin buffer
// and the same n, at 8 B, 64 KiB and 4 MiB. Each alternation gives a ratio parbench / plain of
// the time per put (max over the two ranks, as IMB reports).
//
// Long form (benchmark()): the median ratio per size must stay within 3 %. Short form (--short,
// a benchmark() in suite bench-short): fails when a size's 95 % CI of the median ratio lies entirely outside
// [0.90, 1.10] (bench/ratio_rule.hpp). Both fail when a time was not measured.
//
//   mpiexec -n 2 ./unidir_put_overhead [ALTERNATIONS] [--short]
#include "mpi_pair.hpp"
#include "ratio_rule.hpp"

#include <parbench/core/statistics.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/phases.hpp>
#include <parbench/suites/imb/rma.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using def = parbench::imb_rma::unidir_put_def;

[[nodiscard]] double max_over_ranks(double value) {
    MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return value;
}

// The reference, IMB-style, on the runner's window: rank 0 puts to rank 1.
double plain_put_us(const parbench::mpi::window_view& v, int rank, std::uint64_t n) {
    const int count = static_cast<int>(v.bytes);
    if (rank == 0) MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, v.win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    if (rank == 0) {
        for (std::uint64_t i = 0; i < n; ++i) {
            MPI_Put(v.origin, count, MPI_BYTE, 1, 0, count, MPI_BYTE, v.win);
            MPI_Win_flush(1, v.win);
        }
    }
    const double t_us = (MPI_Wtime() - start) / static_cast<double>(n) * 1e6;
    if (rank == 0) MPI_Win_unlock(1, v.win);
    return max_over_ranks(t_us);
}

}  // namespace

int main(int argc, char** argv) {
    parbench::mpi::environment env(argc, argv);
    const auto started = bench::start_pair("unidir_put_overhead", argc, argv, 60);
    if (!started) return 1;
    const int rank = started->rank;
    const bench::bench_args& args = started->args;
    const int alternations = args.alternations;
    const bool short_form = args.short_form;
    const bench::time_ratio_rule rule{.short_form = short_form};  // 1.03 long, [0.90, 1.10] short
    const parbench::mpi::session pair(MPI_COMM_WORLD, 2);
    parbench::mpi::timing_plan<parbench::policy::iterations::imb_volume,
                               parbench::policy::sync::barrier,
                               parbench::policy::aggregation::non_aggregate>
        plan;
    plan.iterations.secs_per_sample = 1e9;  // never cut: the same n for both loops
    plan.iterations.msgs_nonaggr = short_form ? 200 : 1000;
    if (rank == 0)
        std::printf("# Unidir_put overhead (%s form): parbench runner vs a plain MPI_Put + "
                    "MPI_Win_flush loop, %d alternations\n%10s %8s %14s %14s %14s %10s %10s\n",
                    short_form ? "short" : "long", alternations, "#bytes", "n", "plain[usec]",
                    "parbench[usec]", "median_ratio", "ci95_low", "ci95_high");
    int over = 0;
    for (const std::uint64_t bytes : {std::uint64_t{8}, std::uint64_t{65536}, std::uint64_t{4} << 20}) {
        const std::uint64_t n = plan.iterations.n_sample(bytes, false);
        const auto x = static_cast<std::size_t>(bytes);
        const parbench::mpi::kernel_context context =
            pair.context(x, parbench::pattern::pairing_of(def::descriptor));
        parbench::mpi::prepared<parbench::mpi::rma_window> ready =
            parbench::mpi::prepare(pair, parbench::mpi::rma_window(def::window(x, 1, 2), context), 0.0);
        auto kernel = def::make_kernel(context);
        def::completion completion;
        const auto parbench_us = [&] {
            const auto mine = parbench::mpi::time_iterations(pair, def::descriptor, ready, context,
                                                             kernel, completion, plan, bytes);
            return max_over_ranks(mine.total_s / static_cast<double>(mine.iterations) * 1e6);
        };
        const auto plain_us = [&] { return plain_put_us(ready.get().view(), rank, n); };
        const auto [plain_all, runner_all, ratios] =
            bench::alternate(alternations, plain_us, parbench_us);
        if (rank == 0)
            over += bench::judge_time_ratio(bytes, n, plain_all, runner_all, ratios, rule) ? 0
                    : 1;
    }
    MPI_Bcast(&over, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) std::printf("# %s\n", over == 0 ? "ok" : "FAILED");
    return over == 0 ? 0 : 1;
}
