// Is PAW's method through parbench's runner as cheap as PAW's own loop? The paw suite's p2p_send
// (include/parbench/suites/paw/messages.hpp timed by mpi::time_iterations with the PAW NLOOP/NREPS policy,
// gathered and reduced MIN across tasks per repetition) runs alternately with a hand-written PAW
// loop (per repetition: barrier, MPI_Wtime, NLOOP x MPI_Send/MPI_Recv, MPI_Wtime; MPI_Reduce MIN
// of every repetition; the mean over the repetitions) on the same buffers with the same NLOOP and
// NREPS, at 8 B, 64 KiB and 1 MiB (PAW's MAX_P2P_SIZE). Each alternation gives a ratio
// parbench / plain of PAW's headline (the mean round-trip time).
//
// Long form (the benchmark() target): the median ratio per size must stay within 3 %. Short form
// (--short): fails when a size's 95 % CI of the median ratio lies entirely above 1.10 or below
// 0.90 (bench/ratio_rule.hpp). Both fail when a time was not measured.
//
//   mpiexec -n 2 ./paw_send_overhead [ALTERNATIONS] [--short]
#include <parbench/suites/paw/messages.hpp>
#include "mpi_pair.hpp"
#include "ratio_rule.hpp"

#include <parbench/core/buffers.hpp>
#include <parbench/core/statistics.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/phases.hpp>
#include <parbench/mpi/reduction.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/policy/paw_repetitions.hpp>

#include <cstdio>
#include <vector>

namespace {


using def = parbench::paw_mpi::send_recv;

// PAW's loop as one would write it by hand: every task times each repetition; the minimum
// across tasks per repetition; the mean over repetitions (µs per round trip, rank 0).
double plain_paw_us(MPI_Comm comm, std::byte* send, std::byte* recv, int bytes,
                    std::uint64_t nloop, std::uint64_t nreps) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const int peer = 1 - rank;
    const auto round_trip = [&] {
        if (rank == 0) {
            MPI_Send(send, bytes, MPI_BYTE, peer, 1, comm);
            MPI_Recv(recv, bytes, MPI_BYTE, peer, 2, comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(recv, bytes, MPI_BYTE, peer, 1, comm, MPI_STATUS_IGNORE);
            MPI_Send(send, bytes, MPI_BYTE, peer, 2, comm);
        }
    };
    for (int warm = 0; warm < 5; ++warm) round_trip();
    MPI_Barrier(comm);
    std::vector<double> rep_us(nreps);
    for (std::uint64_t r = 0; r < nreps; ++r) {
        const double start = MPI_Wtime();
        for (std::uint64_t i = 0; i < nloop; ++i) round_trip();
        rep_us[r] = (MPI_Wtime() - start) / static_cast<double>(nloop) * 1e6;
    }
    std::vector<double> best(nreps);
    MPI_Reduce(rep_us.data(), best.data(), static_cast<int>(nreps), MPI_DOUBLE, MPI_MIN, 0, comm);
    return rank == 0 ? parbench::summarize(best).mean : 0.0;
}

}  // namespace

int main(int argc, char** argv) {
    parbench::mpi::environment env(argc, argv);
    const auto started = bench::start_pair("paw_send_overhead", argc, argv, 40);
    if (!started) return 1;
    const int rank = started->rank;
    const bench::bench_args& args = started->args;
    const bench::time_ratio_rule rule{.short_form = args.short_form};  // 1.03 long, [0.90, 1.10] short
    const std::uint64_t nreps = 10;
    const parbench::mpi::session pair(MPI_COMM_WORLD, 2);
    if (rank == 0)
        std::printf("# PAW p2p_send overhead (%s form): parbench runner vs a plain PAW loop, %d "
                    "alternations, NREPS %llu\n%10s %8s %14s %14s %14s %10s %10s\n",
                    args.short_form ? "short" : "long", args.alternations,
                    static_cast<unsigned long long>(nreps), "#bytes", "NLOOP", "plain[usec]",
                    "parbench[usec]", "median_ratio", "ci95_low", "ci95_high");
    int over = 0;
    for (const std::uint64_t bytes : {std::uint64_t{8}, std::uint64_t{65536}, std::uint64_t{1} << 20}) {
        // Enough round trips for a loop far above the timer, few enough for the short form.
        const std::uint64_t nloop = bytes >= (1u << 20) ? 20 : bytes >= 65536 ? 100 : 400;
        for (parbench::aligned_buffer* pool : {&pair.send_pool(), &pair.recv_pool()})
            if (pool->size() < bytes || pool->data() == nullptr)
                *pool = parbench::aligned_buffer(bytes);
        const parbench::mpi::kernel_context c = pair.context(bytes, def::descriptor.pairs);
        const auto parbench_us = [&] {
            parbench::mpi::timing_plan<parbench::policy::iterations::paw_repetitions,
                                       parbench::policy::sync::barrier,
                                       parbench::policy::aggregation::non_aggregate>
                plan{.iterations = {.method = {.nloop_max = nloop, .nloop_min = nloop,
                                               .nreps = nreps, .min_loop_s = 0.0,
                                               .budget_s = 1e9}},
                     .batching = {.max_batches = 64}};
            auto ready = parbench::mpi::prepare(
                pair,
                parbench::mpi::message_resource(def::layout(bytes, 2), parbench::off_cache{},
                                                pair.send_pool(), pair.recv_pool()),
                0.0);
            auto kernel = def::make_kernel(c, 0);
            parbench::mpi::no_completion completion;
            const auto mine = parbench::mpi::time_iterations(pair, def::descriptor, ready, c,
                                                             kernel, completion, plan, bytes);
            const auto figures = parbench::mpi::gather(pair, mine, plan.batching.max_batches);
            const auto records = parbench::mpi::reduce_per_repetition(
                def::descriptor, {"bench", "p2p_send"}, pair.layout(), bytes, false, figures,
                parbench::mpi::across_tasks::minimum);
            return records.empty() ? 0.0 : records.front().t_avg_us;  // rank 0 only
        };
        const auto plain_us = [&] {
            return plain_paw_us(MPI_COMM_WORLD, pair.send_pool().data(), pair.recv_pool().data(),
                                static_cast<int>(bytes), nloop, nreps);
        };
        const auto [plain_all, runner_all, ratios] =
            bench::alternate(args.alternations, plain_us, parbench_us);
        if (rank == 0)
            over += bench::judge_time_ratio(bytes, nloop, plain_all, runner_all, ratios, rule) ? 0
                    : 1;
    }
    MPI_Bcast(&over, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        std::printf("# %s\n", over == 0 ? "ok" : "FAILED");
    return over == 0 ? 0 : 1;
}
