// Are the osu suite's latency and bw as cheap as OSU's own loops? On the same message buffers
// (one send and one receive buffer from the session's pools, as the suite measures on), a plain
// OSU-style loop between two MPI_Wtime calls runs alternately with the suite's definition
// (osu/point_to_point.hpp: the same kernel and plan the suite uses) through parbench's phases
// (prepare once, time_iterations per alternation: warm-up, barriers, then latency's batched
// timing, bw's window by window):
//
//   latency  n x {MPI_Send; MPI_Recv} on rank 0, {MPI_Recv; MPI_Send} on rank 1, the clock read
//            around the whole loop (osu_latency.c)
//   bw       n x {64 MPI_Isend; MPI_Waitall; MPI_Recv of one MPI_CHAR} on rank 0, the matching
//            {64 MPI_Irecv; MPI_Waitall; MPI_Send} on rank 1, rank 0 reading the clock around
//            each window and summing (osu_bw.c:224-262)
//
// Each alternation gives a ratio parbench / plain of rank 0's time per iteration.
//
// Long form (the benchmark() target): 8 B, 64 KiB and 4 MiB with OSU's counts (latency 10000
// and 1000 above 8 KiB, bw 100 and 20); the median ratio per size must stay within 3 %. Short
// form (--short, a benchmark() in suite bench-short): fewer iterations; fails when a size's
// 95 % CI of the median ratio lies entirely outside [0.90, 1.10] (bench/ratio_rule.hpp). Both
// fail when a time was not measured.
//
//   mpiexec -n 2 ./osu_p2p_overhead [ALTERNATIONS] [--short]
#include "osu/point_to_point.hpp"
#include "osu/messages.hpp"
#include "alternation.hpp"
#include "mpi_pair.hpp"
#include "ratio_rule.hpp"

#include <parbench/core/statistics.hpp>
#include <parbench/mpi/environment.hpp>

#include <array>
#include <cstdio>
#include <vector>

namespace {

namespace mpi = parbench::mpi;
namespace osu = parbench::osu;

constexpr double tolerated_ratio = 1.03;
constexpr double short_low = 0.90;
constexpr double short_high = 1.10;

struct buffers {
    std::byte* send = nullptr;
    std::byte* recv = nullptr;
};

// OSU's latency loop (osu_latency.c), rank 0's time per round trip.
double plain_latency_us(buffers b, int rank, int bytes, std::uint64_t n, std::uint64_t skip) {
    MPI_Barrier(MPI_COMM_WORLD);
    double start = 0.0;
    for (std::uint64_t i = 0; i < skip + n; ++i) {
        if (i == skip) start = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(b.send, bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(b.recv, bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(b.recv, bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(b.send, bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
        }
    }
    const double t_us = (MPI_Wtime() - start) / static_cast<double>(n) * 1e6;
    MPI_Barrier(MPI_COMM_WORLD);
    return rank == 0 ? t_us : 0.0;
}

// OSU 7.5's bandwidth loop (osu_bw.c:201-262), rank 0's time per window: each window timed on
// its own, the times summed.
double plain_bw_us(buffers b, int rank, int bytes, int window, std::uint64_t n,
                   std::uint64_t skip) {
    std::vector<MPI_Request> requests(static_cast<std::size_t>(window));
    std::array<char, 1> reply{};
    MPI_Barrier(MPI_COMM_WORLD);
    double total = 0.0;
    for (std::uint64_t i = 0; i < skip + n; ++i) {
        if (rank == 0) {
            const double start = i >= skip ? MPI_Wtime() : 0.0;
            for (int w = 0; w < window; ++w)
                MPI_Isend(b.send, bytes, MPI_CHAR, 1, 100, MPI_COMM_WORLD,
                          &requests[static_cast<std::size_t>(w)]);
            MPI_Waitall(window, requests.data(), MPI_STATUSES_IGNORE);
            MPI_Recv(reply.data(), 1, MPI_CHAR, 1, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (i >= skip) total += MPI_Wtime() - start;
        } else {
            for (int w = 0; w < window; ++w)
                MPI_Irecv(b.recv, bytes, MPI_CHAR, 0, 100, MPI_COMM_WORLD,
                          &requests[static_cast<std::size_t>(w)]);
            MPI_Waitall(window, requests.data(), MPI_STATUSES_IGNORE);
            MPI_Send(reply.data(), 1, MPI_CHAR, 0, 101, MPI_COMM_WORLD);
        }
    }
    const double t_us = total / static_cast<double>(n) * 1e6;
    MPI_Barrier(MPI_COMM_WORLD);
    return rank == 0 ? t_us : 0.0;
}

// One test at one size: the suite's definition beside the plain loop on the same buffers,
// alternating; prints a row on rank 0 and says whether the size passes.
template <class Def, class Plain>
bool compare(const char* test, const mpi::session& pair, int rank, std::uint64_t bytes,
             parbench::policy::iterations::fixed_count counts, int alternations, bool short_form,
             Plain&& plain) {
    osu::options o;  // OSU's defaults: -W 64
    const auto descriptor = Def::descriptor(o);
    const mpi::kernel_context context =
        pair.context(static_cast<std::size_t>(bytes), parbench::pattern::pairing_of(descriptor));
    mpi::prepared<mpi::message_resource> ready = mpi::prepare(
        pair,
        mpi::message_resource(Def::layout(static_cast<std::size_t>(bytes), 2),
                              parbench::off_cache{}, pair.send_pool(), pair.recv_pool()),
        0.0);
    buffers b;
    ready.get().visit([&](const auto& view) {
        b.send = view.send(0);
        b.recv = view.recv(0);
    });
    auto kernel = Def::make_kernel(context, o);
    mpi::no_completion completion;
    // the suite's plan of the definition: per window (bw), or batched (latency)
    auto plan = [&] {
        const osu::message_plan batched{.iterations = counts};
        if constexpr (osu::timed_per_call<Def>)
            return osu::per_call_plan_of<Def>(o, batched);
        else
            return batched;
    }();
    const std::uint64_t n = counts.n_sample(bytes);
    const std::uint64_t skip = counts.warmup(bytes);
    const auto parbench_us = [&] {
        const mpi::rank_timing t = mpi::time_iterations(pair, descriptor, ready, context, kernel,
                                                        completion, plan, bytes);
        MPI_Barrier(MPI_COMM_WORLD);
        return rank == 0 ? t.total_s / static_cast<double>(t.iterations) * 1e6 : 0.0;
    };
    const auto plain_us = [&] { return plain(b, n, skip); };
    const auto [plain_all, runner_all, ratios] =
        bench::alternate(alternations, plain_us, parbench_us);
    int ok = 1;
    if (rank == 0) {
        const auto ci = bench::median_with_ci(ratios);
        const bool measured = bench::all_measured(plain_all) && bench::all_measured(runner_all) &&
                              bench::all_measured(ratios);
        ok = measured && (short_form ? bench::ci_within(ci, short_low, short_high)
                                     : ci.median <= tolerated_ratio);
        std::printf("%8s %10llu %8llu %14.3f %14.3f %14.4f %10.4f %10.4f%s\n", test,
                    static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(n),
                    parbench::summarize(plain_all).median, parbench::summarize(runner_all).median,
                    ci.median, ci.low, ci.high,
                    ok != 0          ? ""
                    : !measured      ? "  NOT MEASURED"
                    : short_form     ? "  CI OUTSIDE [0.90, 1.10]"
                                     : "  ABOVE 1.03");
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return ok != 0;
}

}  // namespace

int main(int argc, char** argv) {
    parbench::mpi::environment env(argc, argv);
    const auto started = bench::start_pair("osu_p2p_overhead", argc, argv, 20);
    if (!started) return 1;
    const int rank = started->rank;
    const int alternations = started->args.alternations;
    const bool short_form = started->args.short_form;
    const mpi::session pair(MPI_COMM_WORLD, 2);
    if (rank == 0)
        std::printf("# OSU latency and bw overhead (%s form): the suite's definitions vs OSU's "
                    "plain loops on the same buffers, %d alternations; times per iteration of "
                    "rank 0\n%8s %10s %8s %14s %14s %14s %10s %10s\n",
                    short_form ? "short" : "long", alternations, "#test", "#bytes", "n",
                    "plain[usec]", "parbench[usec]", "median_ratio", "ci95_low", "ci95_high");
    auto latency_counts = osu::latency_counts;
    auto bandwidth_counts = osu::bandwidth_counts;
    if (short_form) {
        latency_counts = {.iterations = 200, .skip = 10, .large_iterations = 20,
                          .large_skip = 2, .large_bytes = 8192};
        bandwidth_counts = {.iterations = 10, .skip = 2, .large_iterations = 4, .large_skip = 1,
                            .large_bytes = 8192};
    }
    int failed = 0;
    for (const std::uint64_t bytes :
         {std::uint64_t{8}, std::uint64_t{65536}, std::uint64_t{4194304}}) {
        const int x = static_cast<int>(bytes);
        failed += compare<osu::latency>(
                      "latency", pair, rank, bytes, latency_counts, alternations, short_form,
                      [&](buffers b, std::uint64_t n, std::uint64_t skip) {
                          return plain_latency_us(b, rank, x, n, skip);
                      })
                      ? 0
                      : 1;
        failed += compare<osu::bw>(
                      "bw", pair, rank, bytes, bandwidth_counts, alternations, short_form,
                      [&](buffers b, std::uint64_t n, std::uint64_t skip) {
                          return plain_bw_us(b, rank, x, 64, n, skip);
                      })
                      ? 0
                      : 1;
    }
    if (rank == 0) std::printf("# %s\n", failed == 0 ? "ok" : "FAILED");
    return failed == 0 ? 0 : 1;
}
