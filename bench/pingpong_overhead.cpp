// Is parbench's timed loop as cheap as a hand-written one? A plain MPI ping-pong loop (two
// barriers, MPI_Wtime, n x Send/Recv, MPI_Wtime) runs alternately with the plugin's PingPong
// kernel through parbench's runner (batched timing, the same buffers, the same n), at every size
// of IMB's default sequence (0 B, 1 B, 2 B, ..., 4 MiB). The two swap places every alternation so
// that neither always runs on the other's warm caches. Each alternation gives a ratio
// parbench / plain of the half-round-trip time (max over the two ranks, as IMB reports).
//
// Long form (the benchmark() target): every IMB size; the median ratio per size must stay within
// 3 %. Short form (--short, a benchmark() in suite bench-short): 0 B, 1 KiB and 64 KiB, at most
// 200 iterations per measurement; fails when a size's 95 % CI of the median ratio lies entirely
// above 1.10 or below 0.90 (bench/ratio_rule.hpp). Both fail when a time was not measured (zero, NaN, infinite).
//
//   mpiexec -n 2 ./pingpong_overhead [ALTERNATIONS] [--short]
#include "mpi_pair.hpp"
#include "ratio_rule.hpp"

#include <parbench/core/buffers.hpp>
#include <parbench/core/sizes.hpp>
#include <parbench/core/statistics.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/suites/imb/mpi1.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

constexpr double tolerated_ratio = 1.03;
constexpr double short_low = 0.90;
constexpr double short_high = 1.10;

// The reference: what one would write by hand, IMB-style.
double plain_pingpong_us(MPI_Comm comm, std::byte* send, std::byte* recv, int bytes,
                         std::uint64_t n) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const auto round_trip = [&] {
        if (rank == 0) {
            MPI_Send(send, bytes, MPI_BYTE, 1, 7, comm);
            MPI_Recv(recv, bytes, MPI_BYTE, MPI_ANY_SOURCE, 7, comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(recv, bytes, MPI_BYTE, MPI_ANY_SOURCE, 7, comm, MPI_STATUS_IGNORE);
            MPI_Send(send, bytes, MPI_BYTE, 0, 7, comm);
        }
    };
    for (int warm = 0; warm < 5; ++warm) round_trip();
    MPI_Barrier(comm);
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    for (std::uint64_t i = 0; i < n; ++i) round_trip();
    double t_us = (MPI_Wtime() - start) / static_cast<double>(n) / 2.0 * 1e6;
    MPI_Allreduce(MPI_IN_PLACE, &t_us, 1, MPI_DOUBLE, MPI_MAX, comm);
    return t_us;
}

}  // namespace

int main(int argc, char** argv) {
    parbench::mpi::environment env(argc, argv);
    const auto started = bench::start_pair("pingpong_overhead", argc, argv, 100);
    if (!started) return 1;
    const int rank = started->rank;
    const bench::bench_args& args = started->args;
    const int alternations = args.alternations;
    const bool short_form = args.short_form;
    using def = parbench::imb_mpi1::ping_pong_def<false>;
    const parbench::mpi::session pair(MPI_COMM_WORLD, 2);
    parbench::mpi::timing_plan<> plan;
    plan.iterations.secs_per_sample = 1e9;  // never cut: the same n (volume rule) for both loops
    // Short form: 200 iterations per measurement (not 1000), so that one preemption by another
    // job spoils fewer alternations, and more alternations for a narrower CI.
    if (short_form) plan.iterations.msgs_per_sample = 200;
    const parbench::mpi::record_labels labels{.suite = "bench", .benchmark = "PingPong"};

    if (rank == 0)
        std::printf("# PingPong overhead (%s form): parbench runner vs a plain MPI loop, %d "
                    "alternations\n%10s %8s %14s %14s %14s %10s %10s %10s %10s\n",
                    short_form ? "short" : "long", alternations, "#bytes", "n", "plain[usec]",
                    "parbench[usec]", "median_ratio", "ci95_low", "ci95_high", "ratio_p5",
                    "ratio_p95");
    int over = 0;
    const std::vector<std::uint64_t> sizes =
        short_form ? std::vector<std::uint64_t>{0, 1024, 65536}
                   : parbench::imb_sizes(parbench::msglog_range{});
    for (const std::uint64_t bytes : sizes) {
        const std::uint64_t n = plan.iterations.n_sample(bytes);
        // The plain loop sends from and receives into the runner's own message buffers (the
        // session's pools), so both loops time the same memory.
        for (parbench::aligned_buffer* pool : {&pair.send_pool(), &pair.recv_pool()})
            if (pool->size() < bytes || pool->data() == nullptr) *pool = parbench::aligned_buffer(bytes);
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
            return plain_pingpong_us(MPI_COMM_WORLD, pair.send_pool().data(),
                                     pair.recv_pool().data(), static_cast<int>(bytes), n);
        };
        // Only rank 0's figures are real (measure() returns records there).
        const auto [plain_all, runner_all, ratios] =
            bench::alternate(alternations, plain_us, parbench_us);
        if (rank == 0) {
            const auto r = parbench::summarize(ratios);
            const auto ci = bench::median_with_ci(ratios);
            const bool measured = bench::all_measured(plain_all) &&
                                  bench::all_measured(runner_all) && bench::all_measured(ratios);
            const bool ok = measured && (short_form ? bench::ci_within(ci, short_low, short_high)
                                                    : ci.median <= tolerated_ratio);
            over += ok ? 0 : 1;
            const char* verdict = ok ? ""
                                  : !measured ? "  NOT MEASURED (zero, NaN or infinite)"
                                  : short_form ? "  CI OUTSIDE [0.90, 1.10]"
                                               : "  ABOVE 1.03";
            std::printf("%10llu %8llu %14.3f %14.3f %14.4f %10.4f %10.4f %10.4f %10.4f%s\n",
                        static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(n),
                        parbench::summarize(plain_all).median,
                        parbench::summarize(runner_all).median, ci.median, ci.low, ci.high, r.p5,
                        r.p95, verdict);
        }
    }
    MPI_Bcast(&over, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        if (short_form)
            std::printf("# %s: the 95 %% CI of the median ratio meets [%.2f, %.2f] at %s\n",
                        over == 0 ? "ok" : "FAILED", short_low, short_high,
                        over == 0 ? "every size" : "not every size");
        else
            std::printf("# %s: median ratio within %.0f %% at %s\n", over == 0 ? "ok" : "FAILED",
                        (tolerated_ratio - 1.0) * 100.0,
                        over == 0 ? "every size" : "not every size");
    }
    return over == 0 ? 0 : 1;
}
