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
//                        Its definition (and worker_problem, -t's check that latency_mp shares)
//                        is in osu/latency_mt.hpp.
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

#include "osu/latency_mt.hpp"
#include "osu/messages.hpp"
#include "osu/nonblocking.hpp"
#include "osu/partitioned.hpp"
#include "osu/point_to_point.hpp"
#include "osu/suite.hpp"

namespace parbench::osu::osu_variants_impl {
namespace {

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
    static constexpr const char* osu_letters = letters::lat_mt;  // -t (OMBOP__PT2PT__LAT_MP)
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
    using each_call_plan =
        mpi::timing_plan<policy::iterations::fixed_count, policy::sync::barrier_or_each_call,
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
