// osu, OSU 7.5's variants of the latency test (c/mpi/pt2pt/standard/; the suite's catalogue in
// parts: osu/suite.hpp's latency_variants()):
//
//   latency_mt           process 0 runs S sender threads, process 1 R receiver threads (-t
//                        [S:]R, default 1:2) and the ping-pongs are shared out round-robin: sender
//                        thread t makes iterations t, t + S, ...; receiver thread r answers
//                        iterations r, r + R, ... (osu_latency_mt.c lines 286-310, 431-479). The
//                        tags are the iteration where S > 1, else 1 out and 2 back. Each round
//                        trip is timed on its own, as OSU does; the figure is their mean, halved.
//                        MPI must provide MPI_THREAD_MULTIPLE: the host asks for it when
//                        latency_mt is named (PARBENCH_BENCH_THREAD_MULTIPLE).
//   latency_mp           latency, after each of processes 0 and 1 has forked child processes
//                        (-t [S:]R, default 2:2) that live, idle, while it measures
//                        (osu_latency_mp.c lines 111-136): what the MPI library's memory
//                        registration does when its process has forked. Each round trip is timed
//                        on its own with an untimed MPI_Barrier between them (lines 229-243).
//   partitioned_latency  latency on MPI-4 partitioned requests made once per size
//                        (MPI_Psend_init, MPI_Precv_init; -q partitions of X/q MPI_CHARs):
//                        MPI_Start, MPI_Pready of every partition, MPI_Wait on the send, then
//                        MPI_Start and MPI_Wait on the receive; measured as OSU's nonblocking
//                        tests are, first pure, then with OSU's dummy compute after each start
//                        (osu_partitioned_latency.c lines 221-321, 336-497), every figure of one
//                        round trip halved. Sizes below -q are skipped, as OSU skips them.
//                        Its definition is in osu/partitioned.hpp.
#include <mpi.h>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <new>
#include <parbench/mpi/check.hpp>
#include <parbench/mpi/environment.hpp>
#include <parbench/mpi/persistent.hpp>
#include <parbench/mpi/phases.hpp>
#include <parbench/mpi/runner.hpp>
#include <parbench/plugin/catalogue_row.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "osu/messages.hpp"
#include "osu/nonblocking.hpp"
#include "osu/partitioned.hpp"
#include "osu/point_to_point.hpp"
#include "osu/suite.hpp"

namespace parbench::osu::osu_variants_impl {
namespace {

// -t's counts outside OSU's range (set_threads, set_processes: 1 to 127 each), or nothing.
[[nodiscard]] std::string worker_problem(const options& o, std::string_view test,
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
[[nodiscard]] std::uint64_t sender_threads(const options& o) {
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
                    // -c: a thread that received anything holds its partner's bytes
                    const bool received = t < n + skip;
                    if (plan.check && received)
                        mine.defects += mpi::check::count_byte_defects(recv[t], c.peer);
                }
                mpi::gathered figures =
                    mpi::gather(s, mine, plan.batching.max_batches, plan.travel);
                out.own_defects = mine.defects;
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

// --- latency_mp --------------------------------------------------------------------------------

// OSU's forked processes: the sender's 2 by default, none with -t R, S with -t S:R
// (osu_util.c lines 670-673, set_processes); the receiver's R (its header line; see
// docs/osu.md for OSU's own receiver).
[[nodiscard]] std::uint64_t forked_on_sender(const options& o) {
    return !o.workers.given ? default_workers : o.workers.senders.value_or(0);
}

// Child processes of this process that do nothing until it lets them go: each waits for the end
// of a pipe that only this process holds open, then _exits (no exit handlers, no stdio flush,
// no MPI: a forked child of an MPI process may call none of it). Should this process die, the
// pipe closes and they end with it.
class forked_children {
public:
    explicit forked_children(std::uint64_t count) {
        if (count == 0) return;
        int ends[2] = {-1, -1};
        if (pipe(ends) != 0) {
            error_ = errno;
            return;
        }
        for (std::uint64_t k = 0; k < count; ++k) {
            const pid_t pid = fork();
            if (pid == 0) {
                close(ends[1]);
                char byte = 0;
                while (read(ends[0], &byte, 1) < 0 && errno == EINTR) {
                }
                _exit(0);
            }
            if (pid < 0) {
                error_ = errno;
                break;
            }
            children_.push_back(pid);
        }
        close(ends[0]);
        write_end_ = ends[1];
    }
    forked_children(const forked_children&) = delete;
    forked_children& operator=(const forked_children&) = delete;
    ~forked_children() { release(); }

    [[nodiscard]] int error() const noexcept { return error_; }
    // How many of them are still alive (not ended, so not reaped here).
    [[nodiscard]] int alive() const noexcept {
        int count = 0;
        for (const pid_t pid : children_) count += waitpid(pid, nullptr, WNOHANG) == 0 ? 1 : 0;
        return count;
    }
    // Lets the children go and waits for each.
    void release() noexcept {
        if (write_end_ >= 0) close(write_end_);
        write_end_ = -1;
        for (const pid_t pid : children_)
            while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
            }
        children_.clear();
    }

private:
    std::vector<pid_t> children_;
    int write_end_ = -1;
    int error_ = 0;
};

// This process's children while latency_mp's sweep runs (run_latency_mp), else none.
const forked_children* current_children = nullptr;

struct latency_mp : latency_def<false>, takes_message_datatype {
    // no -d: OSU 7.5 leaves it out of latency_mp's option string, as latency_mt's
    // (enable_accel_support, osu_util.c:409-414)
    static constexpr device_placement device_buffers = device_placement::none;
    static constexpr block_text text{.banner = "OSU MPI Multi-process Latency Test",
                                     // process 0's (osu_latency_mp.c:293-294)
                                     .figures = {{{.heading = avg_latency_figure.heading,
                                                   .source = process0_time_metric}}},
                                     .latency = true};

    static std::string refusal_with(const options& o, int /*world_size*/) {
        if (o.workers.given && !o.workers.senders) {  // -t R: OSU forks none on the sender
            options receivers_only = o;
            receivers_only.workers.senders = 1;
            return worker_problem(receivers_only, "latency_mp", "forked processes");
        }
        return worker_problem(o, "latency_mp", "forked processes");
    }
    static constexpr bool header_lines_first = true;  // before the banner, as OSU 7.5
    static std::vector<std::string> header_lines(const options& o) {
        return {"# Number of forked processes in sender: " + std::to_string(forked_on_sender(o)),
                "# Number of forked processes in receiver: " +
                    std::to_string(o.workers.receivers)};
    }

    // OSU's loop: an untimed MPI_Barrier before every ping-pong, each ping-pong timed on its
    // own (osu_latency_mp.c lines 229-243): the runner's each-call timing with one barrier after
    // every call.
    using each_call_plan = mpi::timing_plan<policy::iterations::fixed_count, policy::sync::chosen,
                                            policy::aggregation::aggregate>;

    [[nodiscard]] static mpi::measurement measure_size(const mpi::session& s, const options& o,
                                                       const mpi::record_labels& labels,
                                                       std::uint64_t x, const message_plan& plan) {
        const auto descriptor_now = descriptor(o);
        const auto bytes = static_cast<std::size_t>(x);
        const mpi::kernel_context context = s.context(bytes, pattern::pairing_of(descriptor_now));
        const each_call_plan each_call{
            .iterations = plan.iterations,
            .sync = {.which = policy::sync::method::each_call, .after_call = 1},
            .batching = plan.batching,  // -z: a sample per ping-pong
            .mem_limit_bytes = plan.mem_limit_bytes,
            .check = plan.check,
            .travel = plan.travel};
        mpi::measurement m = mpi::measure(
            s, mpi::measure_config{.pattern = descriptor_now,
                                   .labels = labels,
                                   .bytes = x,
                                   .resource = mpi::messages{.layout = layout(bytes, 2)},
                                   .kernel = make_kernel(context, o),
                                   .plan = each_call,
                                   .check = verify_check{}});
        // The children each side had alive through this size, in the records (and so in JSON).
        if (s.active()) {
            std::array<int, 2> alive{};
            alive[context.initiator ? 0 : 1] =
                current_children != nullptr ? current_children->alive() : 0;
            MPI_Allreduce(MPI_IN_PLACE, alive.data(), 2, MPI_INT, MPI_SUM, s.active_comm().get());
            for (result_record& r : m.records) {
                r.metrics["forked_alive_sender"] = alive[0];
                r.metrics["forked_alive_receiver"] = alive[1];
            }
        }
        return m;
    }
};

// The children live for the whole sweep of latency_mp, as OSU's are forked once before its sizes.
void run_latency_mp(const run_state& st, std::string_view name) {
    const options& o = *st.opts;
    const std::uint64_t count = st.world_rank == 0   ? forked_on_sender(o)
                                : st.world_rank == 1 ? o.workers.receivers
                                                     : 0;
    forked_children children(count);
    int error = children.error();
    MPI_Allreduce(MPI_IN_PLACE, &error, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (error != 0)
        throw std::runtime_error(std::string(name) + ": fork failed on a process: " +
                                 std::strerror(error));
    current_children = &children;
    try {
        run_sweep<message_method<latency_mp>>(st, name);
    } catch (...) {
        current_children = nullptr;
        throw;
    }
    current_children = nullptr;
}

// --- partitioned_latency ---------------------------------------------------------------------

// partitioned_latency's sizes: OSU's point-to-point sizes from 0, less those below -q.
struct partitioned_method : message_method<partitioned_latency> {
    [[nodiscard]] static std::vector<std::uint64_t> sizes(const options& o) {
        std::vector<std::uint64_t> all = message_method<partitioned_latency>::sizes(o);
        const std::uint64_t element = element_bytes(o.table_datatype);  // -T's
        std::erase_if(all, [&](std::uint64_t x) { return x / element < o.partitions; });
        return all;
    }
};

// The entry of message_entry() with the definition's header lines (and its own run).
template <class Def>
constexpr benchmark variant_entry(const char* name, const char* description,
                                  std::uint32_t flags) {
    benchmark b = message_entry<Def>(name, description, flags);
    b.header_lines = &Def::header_lines;
    if constexpr (requires { Def::header_lines_first; })
        b.header_lines_first = Def::header_lines_first;
    return b;
}

// (No test of `run` against nullptr: under UBSan GCC does not take a function's address
// compared in a constant expression as constant.)
template <class Def>
constexpr benchmark variant_entry(const char* name, const char* description, std::uint32_t flags,
                                  run_fn run) {
    benchmark b = variant_entry<Def>(name, description, flags);
    b.run = run;
    return b;
}

constexpr benchmark catalogue[] = {
    variant_entry<latency_mt>(
        "latency_mt",
        "latency between -t S:R threads of processes 0 and 1 (MPI_THREAD_MULTIPLE)",
        PARBENCH_BENCH_THREAD_MULTIPLE),
    variant_entry<latency_mp>("latency_mp",
                              "latency while processes 0 and 1 each have -t S:R forked children",
                              0, &run_latency_mp),
    variant_entry<partitioned_latency>(
        "partitioned_latency",
        "latency on MPI_Psend_init/MPI_Precv_init requests of -q partitions, with overlap", 0,
        &run_sweep<partitioned_method>),
};

}  // namespace
}  // namespace parbench::osu::osu_variants_impl

namespace parbench::osu {
std::span<const benchmark> latency_variants() { return osu_variants_impl::catalogue; }
}  // namespace parbench::osu
