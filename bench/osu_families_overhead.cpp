// Do the OSU 7.5 families the osu suite gained cost what OSU's own loops cost? One program, one
// comparison per family, each the suite's own definition run through the suite's own phases
// beside a plain loop of OSU 7.5's shape on the same buffers (the session's pools, sized once
// for the largest message so that both attach to the same memory), alternating
// (bench/alternation.hpp):
//
//   latency_persistent    osu/persistent.hpp through osu::measure_message_size (mpi::measure:
//                         requests made once per size outside the timing, the batched loop)
//                         beside osu_latency_persistent.c:176-257: MPI_Send_init/MPI_Recv_init
//                         once, then per iteration on process 0 MPI_Start + MPI_Wait of the send,
//                         then of the receive, the clock read around each round trip and summed;
//                         the figure one way, process 0's: t / (2 n)
//   allreduce_persistent  the same path (OSU 7.5's per-call method: one barrier, then each
//                         MPI_Start + MPI_Wait timed alone with an MPI_Barrier after it) beside
//                         osu_allreduce_persistent.c:142-188: MPI_Allreduce_init (MPI_INT,
//                         MPI_SUM), MPI_Barrier, then t_start, MPI_Start, MPI_Wait, t_stop,
//                         MPI_Barrier per iteration; the figure the mean over the processes
//   neighbor_allgather    osu/neighborhood.hpp through the same path as allreduce_persistent
//                         (per call, MPI_Barrier after) on -N graph's edges 0,1 and 1,0 (OSU's
//                         default cart:1:1 needs 3 processes: on 2 OSU stops and the suite
//                         refuses it) beside osu_neighbor_allgather.c:103-189:
//                         MPI_Dist_graph_create_adjacent once, then t_start,
//                         MPI_Neighbor_allgather, t_stop, MPI_Barrier per iteration; the figure
//                         the mean over the processes
//   iallreduce (pure)     the pure-communication phase of osu/nonblocking.hpp's measure_nbc
//                         (prepare, then mpi::time_iterations of mpi::wait_kernel on the suite's
//                         nbc_start: MPI_Iallreduce + MPI_Wait, each call timed on its own
//                         with an MPI_Barrier after it, osu::per_call_plan)
//                         beside osu_iallreduce.c:150-199's first loop: t_start, MPI_Iallreduce,
//                         MPI_Wait, t_stop, MPI_Barrier per iteration; the figure the mean over
//                         the processes (Pure Comm.)
//
//   partitioned_latency   the pure loop of its measure_size (osu/partitioned.hpp: MPI_Psend_init
//   (pure)                and MPI_Precv_init of -q 8 partitions made once per size, then
//                         mpi::time_iterations of partitioned_pure_kernel, each round trip
//                         timed on its own, no barrier between: osu::per_call_plan(o, plan, 0))
//                         beside osu_partitioned_latency.c:203-330's first loop: on each process
//                         the clock read around each round trip (MPI_Start, MPI_Pready of every
//                         partition, MPI_Wait; MPI_Start and MPI_Wait of the receive) and summed;
//                         the figure t / (2 n), the mean over the processes (Pure Comm.)
//
//   latency_mt            osu/latency_mt.hpp's measure_size (its own per-thread buffers, threads
//                         made per size after an MPI_Barrier) with OSU's default -t 1:2 beside
//                         osu_latency_mt.c:286-310, 431-479: one sender thread on process 0, two
//                         receiver threads on process 1 sharing the iterations round-robin, tags
//                         1 out and 2 back, each round trip timed on its own and summed; the
//                         figure process 0's: t / (2 n). MPI is initialised at
//                         MPI_THREAD_MULTIPLE for the whole bench (latency_mt needs it; every
//                         row's two loops run under the same level).
//
// Each alternation gives a ratio parbench / plain of the figure the suite prints and OSU prints.
//
// Long form (the benchmark() target): 8 B, 1 KiB and 64 KiB with OSU's counts (latency 10000
// and 1000 above 8 KiB, collectives 1000 and 100); the median ratio per size must stay within
// 3 %. Short form (--short, a benchmark() in suite bench-short): fewer iterations; fails when a
// size's 95 % CI of the median ratio lies entirely outside [0.90, 1.10] (bench/ratio_rule.hpp).
// Both fail when a time was not measured.
//
//   mpiexec -n 2 ./osu_families_overhead [ALTERNATIONS] [--short]
#include "osu/collectives.hpp"
#include "osu/latency_mt.hpp"
#include "osu/messages.hpp"
#include "osu/neighborhood.hpp"
#include "osu/partitioned.hpp"
#include "osu/nonblocking.hpp"
#include "osu/persistent.hpp"
#include "alternation.hpp"
#include "mpi_pair.hpp"
#include "ratio_rule.hpp"

#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/overlap.hpp>

#include <cstdio>
#include <string_view>
#include <thread>
#include <vector>

namespace {

namespace mpi = parbench::mpi;
namespace osu = parbench::osu;

constexpr char allreduce_banner[] = "OSU MPI Allreduce Latency Test";
constexpr char allreduce_p_banner[] = "OSU MPI Allreduce Persistent Latency Test";
constexpr char int_type[] = "MPI_INT";
// The suite's tests (plugins/mpi/suites/osu.cpp and osu_nbc.cpp name them the same way).
using allreduce = osu::collective_def<parbench::imb_mpi1::allreduce_def, allreduce_banner, int_type>;
using allreduce_persistent =
    osu::persistent_collective<allreduce, osu::allreduce_requests, allreduce_p_banner>;
constexpr char neighbor_allgather_banner[] = "OSU MPI Neighborhood Allgather Latency Test";
using neighbor_allgather =
    osu::neighbor_def<osu::neighbor_call::allgather, neighbor_allgather_banner>;

constexpr std::uint64_t largest_bytes = 65536;

struct buffers {
    std::byte* send = nullptr;
    std::byte* recv = nullptr;
};

// The mean over the two processes of each one's figure, at rank 0 (OSU's avg_time).
double mean_at_root(double mine_us) {
    double sum = 0.0;
    MPI_Reduce(&mine_us, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    return sum / 2.0;
}

// osu_latency_persistent.c's loop: process 0's one-way latency.
double plain_latency_persistent_us(buffers b, int rank, int bytes, std::uint64_t n,
                                   std::uint64_t skip) {
    const int peer = 1 - rank;
    MPI_Request send = MPI_REQUEST_NULL;
    MPI_Request recv = MPI_REQUEST_NULL;
    MPI_Send_init(b.send, bytes, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &send);
    MPI_Recv_init(b.recv, bytes, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &recv);
    MPI_Barrier(MPI_COMM_WORLD);
    double total = 0.0;
    for (std::uint64_t i = 0; i < skip + n; ++i) {
        if (rank == 0) {
            const double start = MPI_Wtime();
            MPI_Start(&send);
            MPI_Wait(&send, MPI_STATUS_IGNORE);
            MPI_Start(&recv);
            MPI_Wait(&recv, MPI_STATUS_IGNORE);
            if (i >= skip) total += MPI_Wtime() - start;
        } else {
            MPI_Start(&recv);
            MPI_Wait(&recv, MPI_STATUS_IGNORE);
            MPI_Start(&send);
            MPI_Wait(&send, MPI_STATUS_IGNORE);
        }
    }
    MPI_Request_free(&send);
    MPI_Request_free(&recv);
    MPI_Barrier(MPI_COMM_WORLD);
    return rank == 0 ? total * 1e6 / (2.0 * static_cast<double>(n)) : 0.0;
}

// osu_latency_mt.c's loop with OSU's default threads (1 sender on process 0, `receivers` on
// process 1): every thread its own two buffers; thread t of a side takes iterations t, t + T, ...;
// the sender times each round trip and sums them. Process 0's one-way latency.
double plain_latency_mt_us(int rank, int bytes, std::uint64_t receivers, std::uint64_t n,
                           std::uint64_t skip) {
    const int peer = 1 - rank;
    const std::uint64_t threads = rank == 0 ? 1 : receivers;
    std::vector<std::vector<std::byte>> send(threads), recv(threads);
    for (std::uint64_t t = 0; t < threads; ++t) {
        send[t].assign(static_cast<std::size_t>(bytes), std::byte{0});
        recv[t].assign(static_cast<std::size_t>(bytes), std::byte{0});
    }
    std::vector<double> total(threads, 0.0);
    MPI_Barrier(MPI_COMM_WORLD);
    {
        std::vector<std::thread> pool;
        for (std::uint64_t t = 0; t < threads; ++t)
            pool.emplace_back([&, t] {
                for (std::uint64_t i = t; i < skip + n; i += threads) {
                    if (rank != 0) {
                        MPI_Recv(recv[t].data(), bytes, MPI_CHAR, peer, 1, MPI_COMM_WORLD,
                                 MPI_STATUS_IGNORE);
                        MPI_Send(send[t].data(), bytes, MPI_CHAR, peer, 2, MPI_COMM_WORLD);
                        continue;
                    }
                    const double start = MPI_Wtime();
                    MPI_Send(send[t].data(), bytes, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
                    MPI_Recv(recv[t].data(), bytes, MPI_CHAR, peer, 2, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
                    const double took = MPI_Wtime() - start;
                    if (i >= skip) total[t] += took;
                }
            });
        for (std::thread& worker : pool) worker.join();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return rank == 0 ? total[0] * 1e6 / (2.0 * static_cast<double>(n)) : 0.0;
}

// OSU 7.5's per-call collective loop (osu_allreduce_persistent.c, osu_neighbor_allgather.c,
// and osu_iallreduce.c's first loop): t_start, the call (with its MPI_Wait), t_stop, MPI_Barrier.
template <class Call>
double plain_per_call_us(std::uint64_t n, std::uint64_t skip, Call&& call) {
    MPI_Barrier(MPI_COMM_WORLD);
    double timer = 0.0;
    for (std::uint64_t i = 0; i < skip + n; ++i) {
        const double start = MPI_Wtime();
        call();
        const double stop = MPI_Wtime();
        MPI_Barrier(MPI_COMM_WORLD);
        if (i >= skip) timer += stop - start;
    }
    return mean_at_root(timer * 1e6 / static_cast<double>(n));
}

#if MPI_VERSION >= 4  // partitioned communication is MPI-4's
// osu_partitioned_latency.c's first loop (the pure communication time): each process's one-way
// time, the mean over the two at rank 0.
double plain_partitioned_us(buffers b, int rank, int bytes, int partitions, std::uint64_t n,
                            std::uint64_t skip) {
    const int peer = 1 - rank;
    const MPI_Count per = bytes / partitions;
    MPI_Request send = MPI_REQUEST_NULL;
    MPI_Request recv = MPI_REQUEST_NULL;
    if (rank == 0) {
        MPI_Psend_init(b.send, partitions, per, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_INFO_NULL,
                       &send);
        MPI_Precv_init(b.recv, partitions, per, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_INFO_NULL,
                       &recv);
    } else {
        MPI_Precv_init(b.recv, partitions, per, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_INFO_NULL,
                       &recv);
        MPI_Psend_init(b.send, partitions, per, MPI_CHAR, peer, 1, MPI_COMM_WORLD, MPI_INFO_NULL,
                       &send);
    }
    const auto send_all = [&] {
        MPI_Start(&send);
        for (int p = 0; p < partitions; ++p) MPI_Pready(p, send);
        MPI_Wait(&send, MPI_STATUS_IGNORE);
    };
    const auto receive = [&] {
        MPI_Start(&recv);
        MPI_Wait(&recv, MPI_STATUS_IGNORE);
    };
    MPI_Barrier(MPI_COMM_WORLD);
    double timer = 0.0;
    for (std::uint64_t i = 0; i < skip + n; ++i) {
        const double start = MPI_Wtime();
        if (rank == 0) {
            send_all();
            receive();
        } else {
            receive();
            send_all();
        }
        if (i >= skip) timer += MPI_Wtime() - start;
    }
    MPI_Request_free(&send);
    MPI_Request_free(&recv);
    return mean_at_root(timer * 1e6 / (2.0 * static_cast<double>(n)));
}
#endif

// The figure the suite prints for a definition's record: its table's first column.
template <class Def>
double suite_figure_us(const parbench::result_record& r) {
    return std::string_view(Def::text.figures[0].source) == "t_avg_us" ? r.t_avg_us : r.t_max_us;
}

// A definition of osu/messages.hpp at one size through the suite's own path.
// ... of a measurement (rank 0 holds the records)
template <class Def>
double suite_figure_of(const mpi::measurement& m) {
    return m.records.empty() ? 0.0 : suite_figure_us<Def>(m.records.front());  // rank 0 only
}

template <class Def>
double suite_message_us(const mpi::session& pair, const osu::options& o, std::uint64_t bytes,
                        parbench::policy::iterations::fixed_count counts) {
    const mpi::record_labels labels{.suite = "osu", .benchmark = "bench"};
    const osu::message_plan plan{.iterations = counts};
    return suite_figure_of<Def>(osu::measure_message_size<Def>(pair, o, labels, bytes, plan));
}

// One family at one size, alternating; prints its row on rank 0; true when the size passes.
template <class Parbench, class Plain>
bool compare(const char* test, int rank, std::uint64_t bytes, std::uint64_t n,
             const bench::bench_args& args, Parbench&& parbench_us, Plain&& plain_us) {
    const auto [plain_all, runner_all, ratios] =
        bench::alternate(args.alternations, plain_us, parbench_us);
    int ok = 1;
    if (rank == 0) {
        std::printf("%-22s ", test);
        ok = bench::judge_time_ratio(bytes, n, plain_all, runner_all, ratios,
                                     bench::time_ratio_rule{.short_form = args.short_form})
                 ? 1
                 : 0;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return ok != 0;
}

}  // namespace

int main(int argc, char** argv) {
    // latency_mt's threads call MPI at once (the host asks the same for it)
    mpi::environment env(argc, argv, MPI_THREAD_MULTIPLE);
    if (env.thread_level() != MPI_THREAD_MULTIPLE) {
        int rank = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 0)
            std::fprintf(stderr, "osu_families_overhead: MPI provides %s, not MPI_THREAD_MULTIPLE "
                                 "(latency_mt needs it)\n",
                         std::string(mpi::thread_level_name(env.thread_level())).c_str());
        return 1;
    }
    const auto started = bench::start_pair("osu_families_overhead", argc, argv, 20);
    if (!started) return 1;
    const int rank = started->rank;
    const bench::bench_args& args = started->args;
    const mpi::session pair(MPI_COMM_WORLD, 2);
    // The pools hold the largest size's layout from the start: every loop attaches to them as
    // they are (message_buffers.hpp grows a pool only when it is too small).
    for (parbench::aligned_buffer* pool : {&pair.send_pool(), &pair.recv_pool()})
        *pool = parbench::aligned_buffer(2 * largest_bytes);
    const buffers b{pair.send_pool().data(), pair.recv_pool().data()};

    auto latency_counts = osu::latency_counts;
    auto collective_counts = osu::collective_counts;
    if (args.short_form) {
        latency_counts = {.iterations = 500, .skip = 10, .large_iterations = 100,
                          .large_skip = 2, .large_bytes = 8192};
        collective_counts = {.iterations = 200, .skip = 10, .large_iterations = 50,
                             .large_skip = 2, .large_bytes = 8192};
    }
    osu::options o;
    o.table_datatype = osu::datatype::mpi_int;  // the reductions' default (OSU 7.5: MPI_INT)
    osu::options chars;                         // latency_persistent: MPI_CHAR
    osu::options pair_graph;                    // neighbor_allgather: MPI_CHAR, -N graph
    pair_graph.topology = {.graph = true, .file = "0,1 1,0", .edges = {{0, 1}, {1, 0}}};

    if (rank == 0)
        std::printf("# OSU 7.5 families overhead (%s form): the suite's definitions vs OSU's "
                    "plain loops on the same buffers, %d alternations; the figure each prints "
                    "(usec)\n%-22s %10s %8s %14s %14s %14s %10s %10s\n",
                    args.short_form ? "short" : "long", args.alternations, "#test", "#bytes",
                    "n", "plain[usec]", "parbench[usec]", "median_ratio", "ci95_low",
                    "ci95_high");
    int failed = 0;
    for (const std::uint64_t bytes :
         {std::uint64_t{8}, std::uint64_t{1024}, std::uint64_t{largest_bytes}}) {
        const int x = static_cast<int>(bytes);
        failed += compare(
                      "latency_persistent", rank, bytes, latency_counts.n_sample(bytes), args,
                      [&] {
                          return suite_message_us<osu::latency_persistent>(pair, chars, bytes,
                                                                           latency_counts);
                      },
                      [&] {
                          return plain_latency_persistent_us(b, rank, x,
                                                             latency_counts.n_sample(bytes),
                                                             latency_counts.warmup(bytes));
                      })
                      ? 0
                      : 1;

        const int ints = x / static_cast<int>(sizeof(int));
        failed += compare(
                      "allreduce_persistent", rank, bytes, collective_counts.n_sample(bytes),
                      args,
                      [&] {
                          return suite_message_us<allreduce_persistent>(pair, o, bytes,
                                                                        collective_counts);
                      },
                      [&] {
                          MPI_Request request = MPI_REQUEST_NULL;
                          MPI_Allreduce_init(b.send, b.recv, ints, MPI_INT, MPI_SUM,
                                             MPI_COMM_WORLD, MPI_INFO_NULL, &request);
                          const double t = plain_per_call_us(
                              collective_counts.n_sample(bytes), collective_counts.warmup(bytes),
                              [&] {
                                  MPI_Start(&request);
                                  MPI_Wait(&request, MPI_STATUS_IGNORE);
                              });
                          MPI_Request_free(&request);
                          return t;
                      })
                      ? 0
                      : 1;

        // OSU's default topology (cart:1:1) needs 3 processes (radius <= (2 - 1) / 2 = 0 on 2,
        // where OSU stops and the suite refuses): on the pair, -N graph's two edges 0,1 and 1,0
        failed += compare(
                      "neighbor_allgather", rank, bytes, collective_counts.n_sample(bytes), args,
                      [&] {
                          return suite_message_us<neighbor_allgather>(pair, pair_graph, bytes,
                                                                      collective_counts);
                      },
                      [&] {
                          // MPI_Dist_graph_create_adjacent once per program, outside the timing
                          // (osu_neighbor_allgather.c:103-108)
                          const int peer = 1 - rank;
                          const int weight = 1;
                          MPI_Comm graph = MPI_COMM_NULL;
                          MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &peer, &weight, 1,
                                                         &peer, &weight, MPI_INFO_NULL, 0,
                                                         &graph);
                          const double t = plain_per_call_us(
                              collective_counts.n_sample(bytes), collective_counts.warmup(bytes),
                              [&] {
                                  MPI_Neighbor_allgather(b.send, x, MPI_CHAR, b.recv, x, MPI_CHAR,
                                                         graph);
                              });
                          MPI_Comm_free(&graph);
                          return t;
                      })
                      ? 0
                      : 1;

        // measure_nbc's pure phase: the blocking test's buffers prepared once, its start made on
        // them, the message plan's loop of MPI_Iallreduce + MPI_Wait
        const auto descriptor = allreduce::descriptor(o);
        const mpi::kernel_context context =
            pair.context(static_cast<std::size_t>(bytes), parbench::pattern::pairing_of(descriptor));
        auto ready = mpi::prepare(
            pair,
            mpi::resource_for(pair,
                              mpi::messages{.layout = allreduce::layout(
                                                static_cast<std::size_t>(bytes), 2)}),
            0.0);
        const osu::nbc_start start(osu::nbc_call::allreduce, context, o, allreduce::in_place);
        mpi::wait_kernel<osu::nbc_start> pure_kernel{start};
        const auto check = osu::check_of<allreduce>(o);
        failed += compare(
                      "iallreduce_pure", rank, bytes, collective_counts.n_sample(bytes), args,
                      [&] {
                          // measure_nbc's plan of the pure loop: every call timed on its own,
                          // an MPI_Barrier after it (osu::per_call_plan)
                          osu::collective_plan plan = osu::per_call_plan(
                              o, osu::message_plan{.iterations = collective_counts},
                              osu::barriers_after_pure<allreduce>());
                          mpi::no_completion none;
                          const mpi::rank_timing t = mpi::time_iterations(
                              pair, descriptor, ready, context, pure_kernel, none, plan, bytes,
                              check);
                          return mean_at_root(mpi::per_iteration_s(t) * 1e6);
                      },
                      [&] {
                          return plain_per_call_us(
                              collective_counts.n_sample(bytes), collective_counts.warmup(bytes),
                              [&] {
                                  MPI_Request request = MPI_REQUEST_NULL;
                                  MPI_Iallreduce(b.send, b.recv, ints, MPI_INT, MPI_SUM,
                                                 MPI_COMM_WORLD, &request);
                                  MPI_Wait(&request, MPI_STATUS_IGNORE);
                              });
                      })
                      ? 0
                      : 1;

        // latency_mt with OSU's default -t 1:2, through its own measure_size
        failed += compare(
                      "latency_mt", rank, bytes, latency_counts.n_sample(bytes), args,
                      [&] {
                          const mpi::record_labels labels{.suite = "osu", .benchmark = "bench"};
                          const osu::message_plan plan{.iterations = latency_counts};
                          return suite_figure_of<osu::latency_mt>(
                              osu::latency_mt::measure_size(pair, chars, labels, bytes, plan));
                      },
                      [&] {
                          return plain_latency_mt_us(rank, x, chars.workers.receivers,
                                                     latency_counts.n_sample(bytes),
                                                     latency_counts.warmup(bytes));
                      })
                      ? 0
                      : 1;

#if MPI_VERSION >= 4
        // partitioned_latency's pure loop, as its measure_size runs it: the requests made once
        // on the session's buffers, then partitioned_pure_kernel timed round trip by round trip
        // with no barrier between them (osu::per_call_plan with none after, as OSU's first loop)
        {
            const int partitions = static_cast<int>(osu::default_partitions);
            const auto p = osu::partitioned_latency::descriptor(chars);
            const mpi::kernel_context pcontext =
                pair.context(static_cast<std::size_t>(bytes), parbench::pattern::pairing_of(p));
            auto pready = mpi::prepare(
                pair,
                mpi::persistent_requests(
                    mpi::message_resource(
                        osu::partitioned_latency::layout(static_cast<std::size_t>(bytes), 2), {},
                        pair.send_pool(), pair.recv_pool()),
                    pcontext,
                    osu::partitioned_requests{.partitions = partitions,
                                              .elements = osu::message_elements::of(chars, bytes)}),
                0.0);
            osu::partitioned_pure_kernel pure{.partitions = partitions};
            const osu::partition_check pcheck{.partitions = osu::default_partitions};
            failed += compare(
                          "partitioned_pure", rank, bytes, latency_counts.n_sample(bytes), args,
                          [&] {
                              osu::collective_plan plan = osu::per_call_plan(
                                  o, osu::message_plan{.iterations = latency_counts}, 0);
                              mpi::no_completion none;
                              const mpi::rank_timing t = mpi::time_iterations(
                                  pair, p, pready, pcontext, pure, none, plan, bytes, pcheck);
                              return mean_at_root(mpi::per_iteration_s(t) / 2 * 1e6);
                          },
                          [&] {
                              return plain_partitioned_us(b, rank, x, partitions,
                                                          latency_counts.n_sample(bytes),
                                                          latency_counts.warmup(bytes));
                          })
                          ? 0
                          : 1;
        }
#endif
    }
    if (rank == 0) std::printf("# %s\n", failed == 0 ? "ok" : "FAILED");
    return failed == 0 ? 0 : 1;
}
