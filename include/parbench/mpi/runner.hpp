// The MPI runner: one measurement of one pattern at one message size on an active set of
// processes, as IMB-MPI1 does it, with parbench's distribution on top.
//
//   session   — the active set at Q processes per group (-npmin, -map, multiple mode): the
//               communicators of the active processes and of this process's group.
//   measure() — collective over the session's world. Idle processes wait in a barrier that
//               sleeps instead of spinning (IMB's MPI_Barrier would steal cores); active
//               ones allocate buffers (-off_cache rotation, -mem cap), run a timed preparatory
//               loop that is both warm-up and the estimate for the -time cap (agreed with MAX),
//               align with the sync policy, run the batched timed loop, validate data (-check),
//               and gather per-rank figures to world rank 0, which builds the result records.
//
// Kernels are template parameters (lambdas): the timed loop is the same code as a hand-written
// loop around the MPI calls.
#pragma once

#include <parbench/core/buffers.hpp>
#include <parbench/core/statistics.hpp>
#include <parbench/mpi/active_set.hpp>
#include <parbench/mpi/communicator.hpp>
#include <parbench/mpi/message_buffers.hpp>
#include <parbench/mpi/timed_loop.hpp>
#include <parbench/pattern/pattern.hpp>
#include <parbench/policy/aggregation.hpp>
#include <parbench/policy/iterations.hpp>
#include <parbench/policy/sync.hpp>
#include <parbench/report/result.hpp>

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace parbench::mpi {

// The active set for one run at `processes` (Q) per group.
class session {
public:
    // `order`: world ranks in mapped order (mapped_order()); empty means the identity.
    // `map_columns`: the -map matrix width, for the rank-order lines of the header.
    // `buffers`: where message buffers live (nullptr: host memory; see core/buffers.hpp).
    session(MPI_Comm world, int processes, bool multiple = false, std::vector<int> order = {},
            int map_columns = 0, const memory_space* buffers = nullptr)
        : send_pool_(aligned_buffer::empty_in(buffers)),
          recv_pool_(aligned_buffer::empty_in(buffers)),
          world_(communicator::borrow(world)) {
        const int world_size = world_.size();
        const int world_rank = world_.rank();
        if (order.empty()) order = mapped_order(world_size, {});
        layout_ = layout_groups(order, std::min(processes, world_size), multiple, map_columns);
        const auto position = static_cast<int>(
            std::find(order.begin(), order.end(), world_rank) - order.begin());
        const int q = layout_.processes;
        active_flag_ = q > 0 && position < layout_.groups * q;
        group_index_ = active_flag_ ? position / q : -1;
        active_ = world_.split(active_flag_ ? 0 : -1, position);
        if (active_flag_) group_ = active_.split(group_index_, position);
    }

    [[nodiscard]] bool active() const noexcept { return active_flag_; }
    [[nodiscard]] int group_index() const noexcept { return group_index_; }
    [[nodiscard]] const group_layout& layout() const noexcept { return layout_; }
    [[nodiscard]] const communicator& world() const noexcept { return world_; }
    [[nodiscard]] const communicator& active_comm() const noexcept { return active_; }
    [[nodiscard]] const communicator& group() const noexcept { return group_; }

    [[nodiscard]] kernel_context context(std::size_t bytes) const {
        kernel_context c;
        c.comm = group_.get();
        c.rank = group_.rank();
        c.size = std::max(1, group_.size());
        c.left = (c.rank - 1 + c.size) % c.size;
        c.right = (c.rank + 1) % c.size;
        c.peer = c.size >= 2 && c.rank < 2 ? 1 - c.rank : MPI_PROC_NULL;
        c.bytes = bytes;
        return c;
    }

    // Message buffer storage reused by every measurement of this session (IMB allocates once
    // and grows); a cache, hence mutable.
    aligned_buffer& send_pool() const noexcept { return send_pool_; }
    aligned_buffer& recv_pool() const noexcept { return recv_pool_; }

private:
    mutable aligned_buffer send_pool_;
    mutable aligned_buffer recv_pool_;
    communicator world_;
    communicator active_;
    communicator group_;
    group_layout layout_;
    bool active_flag_ = false;
    int group_index_ = -1;
};

// Without -check: nothing to fill or verify, and records carry no defects.
struct no_check {
    static constexpr bool enabled = false;
    void fill_send(const kernel_context& /*context*/, std::span<std::byte> /*slot*/) const noexcept {}
    [[nodiscard]] std::uint64_t verify(const kernel_context& /*context*/, std::uint64_t /*last*/,
                                       std::span<const std::byte> /*recv*/) const noexcept {
        return 0;
    }
};

// A check fills every send slot before timing and counts the defects in the receive slot of the
// last timed iteration afterwards (the receive region is cleared to zero before timing).
template <class Check>
concept data_check = requires(const Check& c, const kernel_context& k, std::span<std::byte> s,
                              std::span<const std::byte> r, std::uint64_t i) {
    c.fill_send(k, s);
    { c.verify(k, i, r) } -> std::convertible_to<std::uint64_t>;
};

struct measure_options {
    policy::iterations::imb_volume iterations{};
    policy::aggregation::batched batching{};
    off_cache cache{};
    double mem_limit_bytes = 0.0;  // per process; 0: no cap
    bool check = false;
    // The preparatory loop runs max(ceil(n / warmup_divisor), min_warmup) iterations (at most
    // n) at the measured size; it warms up the path for this size (large messages change
    // protocol) and gives the -time estimate at little cost.
    std::uint64_t warmup_divisor = 20;
    std::uint64_t min_warmup = 3;
};

// How the records of one measurement are labelled.
struct record_labels {
    std::string suite;
    std::string benchmark;      // canonical name, "PingPong"
    bool multiple = false;      // multiple mode: "Multi-" title when more than one group runs
    bool per_group = false;     // -multi 1: one record per group
    bool has_bytes = true;      // false for Barrier
};

struct measurement {
    std::vector<result_record> records;  // world rank 0 only
    std::size_t skipped_need_bytes = 0;  // > 0: not run, buffers exceed the -mem cap (all ranks)
    bool allocation_failed = false;      // not run: some process could not allocate (all ranks)
};

namespace detail {

[[nodiscard]] inline double process_cpu_seconds() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Per-rank figures gathered to the root: group, Δt, CPU time, defects, batch count, batches.
inline constexpr std::size_t header_fields = 5;

struct rank_figures {
    int group = 0;
    double total_s = 0.0;
    double cpu_s = 0.0;
    double defects = 0.0;
    std::vector<double> batch_s;  // per-iteration time of each batch
};

template <pattern::descriptor Pattern>
[[nodiscard]] result_record build_record(const Pattern& pattern, const record_labels& labels,
                                         const group_layout& layout, std::uint64_t bytes,
                                         std::uint64_t n, bool check,
                                         const std::vector<const rank_figures*>& ranks,
                                         int group) {
    result_record r;
    r.suite = labels.suite;
    r.benchmark = labels.benchmark;
    r.klass = pattern::class_in_groups(pattern, layout.groups);
    r.block.title = labels.multiple && layout.groups > 1 ? "Multi-" + labels.benchmark
                                                          : labels.benchmark;
    r.block.processes = layout.processes;
    r.block.groups = layout.groups;
    if (layout.groups > 1) r.block.group_ranks = layout.group_ranks;
    r.block.rank_order = layout.rank_order;
    r.block.waiting = layout.waiting;
    r.block.group = group;
    r.bytes = bytes;
    r.has_bytes = labels.has_bytes;
    r.iterations = n;
    const double per_iteration_us = 1e6 / (static_cast<double>(n) * pattern.time_divisor);
    std::vector<double> rank_us;  // each process's time per iteration
    rank_us.reserve(ranks.size());
    double cpu_max = 0.0;
    std::uint64_t defects = 0;
    std::vector<double> batches;
    for (const rank_figures* f : ranks) {
        rank_us.push_back(f->total_s * per_iteration_us);
        cpu_max = std::max(cpu_max, f->cpu_s * 1e6 / static_cast<double>(n));
        defects += static_cast<std::uint64_t>(f->defects);
        if (batches.size() < f->batch_s.size()) batches.resize(f->batch_s.size(), 0.0);
        for (std::size_t b = 0; b < f->batch_s.size(); ++b)
            batches[b] = std::max(batches[b], f->batch_s[b] * 1e6 / pattern.time_divisor);
    }
    const summary across_ranks = summarize(rank_us);  // all zero without ranks
    const double t_max = across_ranks.max;
    r.t_min_us = across_ranks.min;
    r.t_max_us = t_max;
    r.t_avg_us = across_ranks.mean;
    r.cpu_time_us = cpu_max;
    r.distribution_us = summarize(batches);
    const double x = static_cast<double>(bytes);
    if (r.klass == benchmark_class::single_transfer)
        r.throughput_mib_s = t_max > 0.0 ? x / 1.048576 / t_max : 0.0;
    else if (r.klass == benchmark_class::parallel_transfer && pattern.nmsg > 0)
        r.throughput_mib_s = t_max > 0.0 ? pattern.nmsg * x / 1.048576 / t_max : 0.0;
    if (check) r.defects = defects;
    return r;
}

}  // namespace detail

// IMB's warm-up: `iterations` untimed runs of the kernel at a small size (sizeof(float)) once per
// active set, to take connection setup and first-touch costs out of the first measurement. Only
// the active processes take part; call it on every process after the host's progress call.
inline constexpr std::uint64_t n_warmup = 10;

template <class Kernel>
    requires kernel_for<Kernel, message_buffers<fixed_slots>>
void warm_up(const session& s, std::uint64_t bytes, buffer_layout layout, Kernel&& kernel,
             std::uint64_t iterations = n_warmup) {
    if (!s.active() || iterations == 0) return;
    message_region send(layout.send_bytes, off_cache{});
    message_region recv(layout.recv_bytes, off_cache{});
    send.attach(s.send_pool());
    recv.attach(s.recv_pool());
    const kernel_context context = s.context(static_cast<std::size_t>(bytes));
    run_untimed(kernel, context, message_buffers<fixed_slots>{send.fixed(), recv.fixed()}, 0,
                iterations);
}

// Measures one message size. Collective over the session's world: every process calls it with
// the same arguments. Returns the records on world rank 0.
template <pattern::descriptor Pattern, class Kernel, data_check Check = no_check,
          class Sync = policy::sync::barrier,
          policy::aggregation_policy Aggregation = policy::aggregation::aggregate>
    requires kernel_for<Kernel, message_buffers<fixed_slots>> &&
             kernel_for<Kernel, message_buffers<rotating_slots>> &&
             policy::sync_policy<Sync, const communicator>
[[nodiscard]] measurement measure(const session& s, const Pattern& pattern,
                                  const record_labels& labels, std::uint64_t bytes,
                                  buffer_layout layout, Kernel&& kernel,
                                  const measure_options& options, const Check& check = {},
                                  Sync sync = {}, Aggregation = {}) {
    measurement out;
    if (!s.active()) {
        s.world().quiet_barrier();  // idle: wait for the active processes without spinning
        return out;
    }
    message_region send(layout.send_bytes, options.cache);
    message_region recv(layout.recv_bytes, options.cache);
    const std::size_t need = send.footprint() + recv.footprint();
    if (options.mem_limit_bytes > 0.0 && static_cast<double>(need) > options.mem_limit_bytes) {
        out.skipped_need_bytes = need;  // the same decision on every process
        s.world().quiet_barrier();
        return out;
    }
    int failed = 0;
    try {
        send.attach(s.send_pool());
        recv.attach(s.recv_pool());
    } catch (const std::bad_alloc&) {
        failed = 1;
    }
    const communicator& active = s.active_comm();
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, active.get());
    if (failed != 0) {
        out.allocation_failed = true;
        s.world().quiet_barrier();
        return out;
    }

    const kernel_context context = s.context(static_cast<std::size_t>(bytes));
    const bool checking = options.check && Check::enabled;
    if (checking) {
        for (std::uint64_t k = 0; k < send.slot_count(); ++k) check.fill_send(context, send.slot(k));
    }
    const std::uint64_t base_n = options.iterations.n_sample(bytes, Aggregation::is_aggregate);
    const std::uint64_t warmup = std::clamp<std::uint64_t>(
        std::max((base_n + options.warmup_divisor - 1) /
                     std::max<std::uint64_t>(1, options.warmup_divisor),
                 options.min_warmup),
        1, base_n);

    detail::rank_figures mine;
    mine.group = s.group_index();
    std::uint64_t n = base_n;
    const auto run = [&](const auto& buffers) {
        sync.before_timing(active);
        // The warm-up in a few chunks; the median chunk is the estimate, so one preemption of
        // a process does not cut the repetitions of a whole message size.
        std::vector<double> chunk_s;
        std::uint64_t done = 0;
        const auto run_chunk = [&](std::uint64_t count) {
            const double start = MPI_Wtime();
            run_untimed(kernel, context, buffers, done, count);
            chunk_s.push_back((MPI_Wtime() - start) / static_cast<double>(count));
            done += count;
        };
        // The first chunk tells (collectively: every rank must run as many iterations) how long
        // an iteration takes; the rest of the warm-up is cut to half the -time budget, so that
        // a huge -iter cannot make this untimed phase outlast the limit.
        const std::uint64_t probe = std::min<std::uint64_t>(
            warmup, std::max<std::uint64_t>(1, (warmup + 4) / 5));
        run_chunk(std::min<std::uint64_t>(probe, std::max<std::uint64_t>(1, options.min_warmup)));
        double probe_s = chunk_s.front();
        MPI_Allreduce(MPI_IN_PLACE, &probe_s, 1, MPI_DOUBLE, MPI_MAX, active.get());
        std::uint64_t planned = warmup;
        const double budget_s = 0.5 * options.iterations.secs_per_sample;
        if (std::isfinite(budget_s) && budget_s > 0.0 && probe_s > 0.0 &&
            budget_s / probe_s < static_cast<double>(planned - done))
            planned = done + static_cast<std::uint64_t>(budget_s / probe_s);
        const std::uint64_t rest = planned - done;
        // The estimate is the median of the (up to) five equal chunks that follow, as before the
        // probe existed; the probe's few cold iterations count only when nothing follows.
        const std::uint64_t rest_chunks = std::min<std::uint64_t>(rest, 5);
        if (rest_chunks > 0) chunk_s.clear();
        for (std::uint64_t k = 0, given = 0; k < rest_chunks; ++k) {
            const std::uint64_t count = (k + 1) * rest / rest_chunks - given;
            given += count;
            run_chunk(count);
        }
        const std::size_t chunks = chunk_s.size();
        std::nth_element(chunk_s.begin(), chunk_s.begin() + static_cast<std::ptrdiff_t>(chunks / 2),
                         chunk_s.end());
        double estimate_s = chunk_s[chunks / 2];
        MPI_Allreduce(MPI_IN_PLACE, &estimate_s, 1, MPI_DOUBLE, MPI_MAX, active.get());
        n = options.iterations.decide(bytes, Aggregation::is_aggregate, estimate_s,
                                      s.layout().processes, pattern.rooted);
        if (checking) std::memset(recv.data(), 0, recv.footprint());
        const std::vector<std::uint64_t> ends = options.batching.batch_ends(n, estimate_s);
        std::vector<double> stamps(ends.size() + 1, 0.0);
        sync.before_timing(active);
        const double cpu_start = detail::process_cpu_seconds();
        run_timed_batches(kernel, context, buffers, ends, stamps);
        mine.cpu_s = detail::process_cpu_seconds() - cpu_start;
        mine.total_s = stamps.back() - stamps.front();
        std::uint64_t begin = 0;
        for (std::size_t b = 0; b < ends.size(); ++b) {
            mine.batch_s.push_back((stamps[b + 1] - stamps[b]) /
                                   static_cast<double>(std::max<std::uint64_t>(1, ends[b] - begin)));
            begin = ends[b];
        }
        if (checking)
            mine.defects = static_cast<double>(check.verify(context, n - 1, recv.slot(n - 1)));
    };
    if (send.rotating() || recv.rotating())
        run(message_buffers<rotating_slots>{send.rotating_view(), recv.rotating_view()});
    else
        run(message_buffers<fixed_slots>{send.fixed(), recv.fixed()});

    // Gather fixed-width rows to the first active process (world rank 0).
    const std::size_t width = detail::header_fields + options.batching.max_batches;
    std::vector<double> row(width, 0.0);
    row[0] = mine.group;
    row[1] = mine.total_s;
    row[2] = mine.cpu_s;
    row[3] = mine.defects;
    row[4] = static_cast<double>(std::min(mine.batch_s.size(), options.batching.max_batches));
    for (std::size_t b = 0; b < static_cast<std::size_t>(row[4]); ++b)
        row[detail::header_fields + b] = mine.batch_s[b];
    const int active_size = active.size();
    const bool root = active.rank() == 0;
    std::vector<double> rows(root ? width * static_cast<std::size_t>(active_size) : 0);
    MPI_Gather(row.data(), static_cast<int>(width), MPI_DOUBLE, root ? rows.data() : nullptr,
               static_cast<int>(width), MPI_DOUBLE, 0, active.get());
    if (root) {
        std::vector<detail::rank_figures> all(static_cast<std::size_t>(active_size));
        for (int r = 0; r < active_size; ++r) {
            const double* p = rows.data() + static_cast<std::size_t>(r) * width;
            auto& f = all[static_cast<std::size_t>(r)];
            f.group = static_cast<int>(p[0]);
            f.total_s = p[1];
            f.cpu_s = p[2];
            f.defects = p[3];
            f.batch_s.assign(p + detail::header_fields,
                             p + detail::header_fields + static_cast<std::size_t>(p[4]));
        }
        const group_layout& g = s.layout();
        if (labels.per_group && g.groups > 1) {
            for (int k = 0; k < g.groups; ++k) {
                std::vector<const detail::rank_figures*> members;
                for (const auto& f : all)
                    if (f.group == k) members.push_back(&f);
                out.records.push_back(detail::build_record(pattern, labels, g, bytes, n, checking,
                                                           members, k));
            }
        } else {
            std::vector<const detail::rank_figures*> members;
            for (const auto& f : all) members.push_back(&f);
            out.records.push_back(
                detail::build_record(pattern, labels, g, bytes, n, checking, members, -1));
        }
    }
    s.world().quiet_barrier();
    return out;
}

}  // namespace parbench::mpi
