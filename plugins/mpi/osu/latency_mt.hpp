// OSU 7.5's latency_mt (c/mpi/pt2pt/standard/osu_latency_mt.c) as a definition for
// osu/messages.hpp: process 0 runs S sender threads, process 1 R receiver threads (-t [S:]R,
// default 1:2) and the ping-pongs are shared out round-robin (lines 286-310, 431-479); each round
// trip is timed on its own, the figure their mean, halved. MPI must provide MPI_THREAD_MULTIPLE.
// Its catalogue entry is in plugins/mpi/suites/osu_latency_variants.cpp (which also uses
// worker_problem for latency_mp); bench/osu_families_overhead measures it beside OSU's loop.
#pragma once

#include "osu/messages.hpp"
#include "osu/point_to_point.hpp"
#include "osu/suite.hpp"

#include <parbench/mpi/check.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/runner.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace parbench::osu {

// -t's counts outside OSU's range (set_threads, set_processes: 1 to 127 each), or nothing.
[[nodiscard]] inline std::string worker_problem(const options& o, std::string_view test,
                                                std::string_view what) {
    const auto bad = [&](std::uint64_t v) { return v < 1 || v > max_workers; };
    if (bad(o.workers.receivers) || (o.workers.senders && bad(*o.workers.senders)))
        return "-t " +
               (o.workers.senders ? std::to_string(*o.workers.senders) + ":" : std::string()) +
               std::to_string(o.workers.receivers) + ": " + std::string(test) + " takes 1 to " +
               std::to_string(max_workers) + " " + std::string(what) + " per side";
    return {};
}

// --- latency_mt --------------------------------------------------------------------------------

// OSU's sender threads: 1 unless -t S:R (osu_latency_mt.c lines 27, 156-158).
[[nodiscard]] inline std::uint64_t sender_threads(const options& o) {
    return o.workers.senders.value_or(1);
}

// One thread's figures over its share of one size.
struct thread_share {
    double round_trips_s = 0.0;             // its timed round trips, summed
    std::vector<double> batch_s;            // ... per batch of the timed iterations
    std::vector<std::uint64_t> batch_calls;
    std::uint64_t defects = 0;
};

// One thread's ping-pongs: iterations first, first + stride, ... below `total`; the first
// `skip` untimed. The sending side starts each one and times it; the other answers.
struct thread_pingpong {
    MPI_Comm comm = MPI_COMM_NULL;
    int peer = MPI_PROC_NULL;
    int count = 0;
    MPI_Datatype type = MPI_CHAR;  // -T's (osu_latency_mt.c:236-254: size / type size of them)
    bool sending_side = false;
    bool tag_per_iteration = false;  // OSU: tag i when there are several sender threads
    std::uint64_t skip = 0;
    std::uint64_t total = 0;
    const std::vector<std::uint64_t>* ends = nullptr;  // batch ends over the timed iterations

    void operator()(std::uint64_t first, std::uint64_t stride, std::byte* send, std::byte* recv,
                    thread_share& out) const {
        out.batch_s.assign(ends->size(), 0.0);
        out.batch_calls.assign(ends->size(), 0);
        for (std::uint64_t i = first; i < total; i += stride) {
            const int out_tag = tag_per_iteration ? static_cast<int>(i) : 1;
            const int back_tag = tag_per_iteration ? static_cast<int>(i) : 2;
            if (!sending_side) {
                MPI_Recv(recv, count, type, peer, out_tag, comm, MPI_STATUS_IGNORE);
                MPI_Send(send, count, type, peer, back_tag, comm);
                continue;
            }
            const double start = MPI_Wtime();
            MPI_Send(send, count, type, peer, out_tag, comm);
            MPI_Recv(recv, count, type, peer, back_tag, comm, MPI_STATUS_IGNORE);
            const double took = MPI_Wtime() - start;
            if (i < skip) continue;
            const auto b = static_cast<std::size_t>(
                std::upper_bound(ends->begin(), ends->end(), i - skip) - ends->begin());
            out.round_trips_s += took;
            out.batch_s[b] += took;
            ++out.batch_calls[b];
        }
    }
};

struct latency_mt : latency_def<false>, takes_message_datatype {
    // no -d: OSU 7.5 leaves it out of latency_mt's option string (enable_accel_support,
    // osu_util.c:409-414)
    static constexpr device_placement device_buffers = device_placement::none;
    static constexpr const char* osu_letters = letters::lat_mt;  // -t
    static constexpr block_text text{.banner = "OSU MPI Multi-threaded Latency Test",
                                     .figures = {{{.heading = avg_latency_figure.heading,
                                                   .source = "t_max_us"}}},
                                     .latency = true};

    static std::string refusal(int /*world_size*/) {
        int provided = MPI_THREAD_SINGLE;
        MPI_Query_thread(&provided);
        if (provided == MPI_THREAD_MULTIPLE) return {};
        return std::string("latency_mt needs MPI_THREAD_MULTIPLE, and MPI was initialised at ") +
               std::string(mpi::thread_level_name(provided)) +
               " (OSU's osu_latency_mt stops there too)";
    }
    static std::string refusal_with(const options& o, int /*world_size*/) {
        if (std::string why = worker_problem(o, "latency_mt", "threads"); !why.empty()) return why;
        // Several sender threads tag each message with its iteration (osu_latency_mt.c line 449).
        const auto counts = o.counts(latency_counts);
        const std::uint64_t total =
            std::max(counts.iterations + counts.skip, counts.large_iterations + counts.large_skip);
        void* value = nullptr;
        int found = 0;
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found);
        const std::uint64_t tag_ub =
            found != 0 ? static_cast<std::uint64_t>(*static_cast<int*>(value)) : 32767;
        if (sender_threads(o) > 1 && total - 1 > tag_ub)
            return "latency_mt with several sender threads tags each message with its iteration; "
                   "-i + -x must stay within MPI_TAG_UB + 1 = " +
                   std::to_string(tag_ub + 1);
        return {};
    }
    // OSU 7.5 prints them before its banner, the sender's with a trailing space
    // (osu_latency_mt.c).
    static constexpr bool header_lines_first = true;
    static std::vector<std::string> header_lines(const options& o) {
        return {"# Number of Sender threads: " + std::to_string(sender_threads(o)) + " ",
                "# Number of Receiver threads: " + std::to_string(o.workers.receivers)};
    }

    [[nodiscard]] static mpi::measurement measure_size(const mpi::session& s, const options& o,
                                                       const mpi::record_labels& labels,
                                                       std::uint64_t x, const message_plan& plan) {
        const pattern::exchange p = descriptor(o);
        const std::uint64_t senders = sender_threads(o);
        const std::uint64_t receivers = o.workers.receivers;
        mpi::measurement out;
        // every thread its own two buffers, as OSU's (allocate_memory_pt2pt per thread)
        const std::uint64_t most = std::max(senders, receivers);
        const auto need = static_cast<std::size_t>(2 * most * std::max<std::uint64_t>(x, 1));
        if (plan.mem_limit_bytes > 0.0 && static_cast<double>(need) > plan.mem_limit_bytes) {
            out.skipped_need_bytes = need;
        } else if (s.active()) {
            const mpi::kernel_context c = s.context(static_cast<std::size_t>(x),
                                                    pattern::pairing_of(p));
            const std::uint64_t threads = c.initiator ? senders : receivers;
            std::vector<std::vector<std::byte>> send(threads), recv(threads);
            int failed = 0;
            try {
                for (std::uint64_t t = 0; t < threads; ++t) {
                    send[t].assign(static_cast<std::size_t>(x), std::byte{0});
                    recv[t].assign(static_cast<std::size_t>(x), std::byte{0});
                    mpi::check::fill_bytes(send[t], c.rank);
                }
            } catch (const std::bad_alloc&) {
                failed = 1;
            }
            MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, s.active_comm().get());
            if (failed != 0) {
                out.allocation_failed = true;
            } else {
                const std::uint64_t n = plan.iterations.n_sample(x);
                const std::uint64_t skip = plan.iterations.warmup(x);
                const std::vector<std::uint64_t> ends = plan.batching.batch_ends(n);
                const message_elements elements =
                    message_elements::of(o, static_cast<std::size_t>(x));
                const thread_pingpong pingpong{.comm = c.comm,
                                               .peer = c.peer,
                                               .count = elements.count(
                                                   static_cast<std::size_t>(x)),
                                               .type = elements.type,
                                               .sending_side = c.initiator,
                                               .tag_per_iteration = senders > 1,
                                               .skip = skip,
                                               .total = n + skip,
                                               .ends = &ends};
                std::vector<thread_share> shares(threads);
                MPI_Barrier(c.comm);  // OSU's barrier before each size (lines 258 and 400)
                {
                    std::vector<std::thread> pool;
                    pool.reserve(threads);
                    for (std::uint64_t t = 0; t < threads; ++t)
                        pool.emplace_back([&, t] {
                            pingpong(t, threads, send[t].data(), recv[t].data(), shares[t]);
                        });
                    for (std::thread& worker : pool) worker.join();
                }
                mpi::rank_timing mine;
                mine.group = s.group_index();
                mine.iterations = n;
                mine.batch_s.assign(ends.size(), 0.0);
                for (std::size_t b = 0; b < ends.size(); ++b) {
                    double sum = 0.0;
                    std::uint64_t calls = 0;
                    for (const thread_share& share : shares) {
                        sum += share.batch_s[b];
                        calls += share.batch_calls[b];
                    }
                    mine.batch_s[b] = calls > 0 ? sum / static_cast<double>(calls) : 0.0;
                }
                for (std::uint64_t t = 0; t < threads; ++t) {
                    mine.total_s += shares[t].round_trips_s;
                    // -c: a thread that received anything holds its partner's bytes (listed
                    // thread after thread, each thread's buffer's positions)
                    const bool received = t < n + skip;
                    if (plan.check && received)
                        out.own_check += mpi::check::find_byte_defects(
                            recv[t], c.peer, 0, 0, element_bytes(o.table_datatype));
                }
                mine.defects = out.own_check.count;
                out.checked_iteration = n > 0 ? n - 1 : 0;
                mpi::gathered figures =
                    mpi::gather(s, mine, plan.batching.max_batches, plan.travel);
                if (figures.root) {
                    // OSU's figure is the sending process's alone (lines 488-489), the first
                    const std::vector<const mpi::rank_timing*> timed = {&figures.ranks.front()};
                    result_record rec = mpi::reduce_ranks(
                        p, labels, s.layout(), x, plan.check, timed, -1,
                        figures.reduced ? std::span<const double>(figures.reduced->first_s)
                                        : std::span<const double>{});
                    out.reduced = std::move(figures.reduced);
                    if (plan.check) {
                        std::uint64_t defects = 0;
                        for (const mpi::rank_timing& r : figures.ranks) defects += r.defects;
                        rec.defects = defects;
                    }
                    rec.metrics["sender_threads"] = static_cast<double>(senders);
                    rec.metrics["receiver_threads"] = static_cast<double>(receivers);
                    out.records.push_back(std::move(rec));
                }
            }
        }
        s.world().quiet_barrier();
        return out;
    }
};

}  // namespace parbench::osu
