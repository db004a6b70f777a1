// The measurement phases, each callable on its own; mpi::measure() (mpi/runner.hpp) composes
// them, and a benchmark that combines two timings (Truly_passive_put, NBC's t_pure/t_ovrl, OSU
// bcast's ack subtraction) calls them itself instead of forking the runner:
//
//   prepare(session, resource, mem_limit)   collective: -mem cap, allocation agreed by all,
//                                           collective setup; tears the resource down when
//                                           the returned guard goes
//   time_iterations(...)                    per process: warm-up (the iteration policy's), the
//                                           collectively agreed estimate and count, the sync
//                                           policy, the batched timed loop with the completion
//                                           where the aggregation policy puts it, -check
//   gather(session, timing)                 collective over the active processes: every
//                                           process's figures to the first of them (world
//                                           rank 0 unless the order puts another first;
//                                           mpi/deliver.hpp then moves the records to it); the
//                                           batch times in the rows, or reduced
//                                           (batch_travel)
//   reduce(pattern, labels, layout, ...)    at the gather root: the records (IMB's t_max/t_min/
//                                           t_avg over ranks; the throughput rule of the pattern)
//
// Idle processes (outside the active set) take part in none of these; measure() parks them in a
// barrier that sleeps.
#pragma once

#include <parbench/core/statistics.hpp>
#include <parbench/mpi/active_set.hpp>
#include <parbench/mpi/clock_sync.hpp>
#include <parbench/mpi/communicator.hpp>
#include <parbench/mpi/completion.hpp>
#include <parbench/mpi/rank_timing.hpp>
#include <parbench/mpi/resource.hpp>
#include <parbench/mpi/session.hpp>
#include <parbench/mpi/timed_loop.hpp>
#include <parbench/pattern/pattern.hpp>
#include <parbench/policy/aggregation.hpp>
#include <parbench/policy/confidence.hpp>
#include <parbench/policy/iterations.hpp>
#include <parbench/policy/sync.hpp>
#include <parbench/report/result.hpp>

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <ctime>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace parbench::mpi {

// How the batch times reach the first active process after a timing (gather()).
enum class batch_travel {
    // In each process's row of the gather, at most batching.max_batches of them: reduce() takes
    // the slowest per batch, PAW's reduction the fastest, -multi 1 each group's.
    gathered,
    // By reduction, each process's whole series at once (MPI_Reduce MAX and SUM): per batch the
    // slowest process's time and the sum over the processes, with the first process's own
    // series. For long per-iteration series (OSU's -z, up to 65536 a process), which would
    // otherwise all travel to one process; one record for every process (no -multi 1).
    reduced,
};

// How one size is timed: the iteration, sync and aggregation policies, the batching and how the
// batches travel.
template <policy::iteration_policy Iterations = policy::iterations::imb_volume,
          class Sync = policy::sync::barrier,
          policy::aggregation_policy Aggregation = policy::aggregation::aggregate>
    requires policy::sync_policy<Sync, const communicator>
struct timing_plan {
    Iterations iterations{};
    Sync sync{};
    Aggregation aggregation{};
    policy::aggregation::batched batching{};
    double mem_limit_bytes = 0.0;  // per process; 0: no cap
    bool check = false;
    batch_travel travel = batch_travel::gathered;
    // An aggregate sample is timed min_ci_samples times (a confidence interval for its row);
    // finite: the epochs after the first cost at most this together
    // (policy::aggregation::epochs_within), as IMB 2021's one epoch per size.
    double aggregate_repeats_budget_s = std::numeric_limits<double>::infinity();
};

// --- phase 1: prepare ------------------------------------------------------------------------

enum class preparation { ready, idle, over_memory_limit, allocation_failed, over_storage };

// A resource set up on the active processes; tears it down (collectively) when released or
// destroyed, so a window is freed on every path, a skipped size and an error included.
template <resource R>
class prepared {
public:
    prepared(R resource, preparation state, std::size_t need, storage_need storage = {})
        : resource_(std::move(resource)), state_(state), need_(need), storage_(std::move(storage)) {}
    prepared(const prepared&) = delete;
    prepared& operator=(const prepared&) = delete;
    ~prepared() { release(); }

    [[nodiscard]] bool ready() const noexcept { return state_ == preparation::ready; }
    [[nodiscard]] preparation state() const noexcept { return state_; }
    [[nodiscard]] std::size_t need_bytes() const noexcept { return need_; }
    // over_storage: what the resource's files needed and what their file system had.
    [[nodiscard]] const storage_need& storage() const noexcept { return storage_; }
    [[nodiscard]] R& get() noexcept { return resource_; }
    void release() noexcept {
        if (state_ != preparation::ready) return;
        resource_.teardown();
        state_ = preparation::idle;
    }

private:
    R resource_;
    preparation state_;
    std::size_t need_;
    storage_need storage_;
};

// Collective over the session's active processes (idle ones get an idle guard at once). The -mem
// decision is the same everywhere (same footprint, same limit); a resource with files skips the
// size when their file system has too little room (agreed); a failed allocation anywhere makes
// every process skip the size.
template <resource R>
[[nodiscard]] prepared<R> prepare(const session& s, R resource, double mem_limit_bytes) {
    if (!s.active()) return prepared<R>(std::move(resource), preparation::idle, 0);
    const std::size_t need = resource.footprint();
    if (mem_limit_bytes > 0.0 && static_cast<double>(need) > mem_limit_bytes)
        return prepared<R>(std::move(resource), preparation::over_memory_limit, need);
    if constexpr (requires { resource.check_storage(s.active_comm()); }) {
        storage_need storage = resource.check_storage(s.active_comm());
        if (!storage.fits())
            return prepared<R>(std::move(resource), preparation::over_storage, need,
                               std::move(storage));
    }
    int failed = 0;
    try {
        resource.allocate();
    } catch (const std::bad_alloc&) {
        failed = 1;
    }
    s.agree(&failed, 1, MPI_INT, MPI_MAX);
    if (failed != 0) return prepared<R>(std::move(resource), preparation::allocation_failed, need);
    resource.setup(s.group());
    return prepared<R>(std::move(resource), preparation::ready, need);
}

// --- phase 2: time ---------------------------------------------------------------------------

// The CPU time this process has used, in seconds (IMB's t_CPU, -cpu_load).
[[nodiscard]] inline double process_cpu_seconds() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

namespace detail {

// Whether this run starts each call on a window schedule (a per-call sync policy that says so).
template <class Sync>
[[nodiscard]] constexpr bool starts_per_call(const Sync& sync) noexcept {
    if constexpr (policy::per_call_sync<Sync>)
        return sync.per_call();
    else
        return false;
}

// Whether this run times every call on its own with barriers after it (IMB 2021's collectives).
template <class Sync>
[[nodiscard]] constexpr bool times_each_call(const Sync& sync) noexcept {
    if constexpr (policy::each_call_sync<Sync>)
        return sync.each_call();
    else
        return false;
}

// Whether the iteration policy times in rounds until a verdict (confidence stopping).
template <class Iterations>
[[nodiscard]] constexpr bool times_in_rounds(const Iterations& iterations) noexcept {
    if constexpr (policy::round_policy<Iterations>)
        return iterations.active();
    else
        return false;
}

// The slowest process's value of every sample (what reduce_ranks() summarises), on every process.
[[nodiscard]] inline std::vector<double> agree_max(const communicator& comm,
                                                   std::vector<double> values) {
    if (!values.empty())
        MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE,
                      MPI_MAX, comm.get());
    return values;
}

// The kernel's side of one timing: timed_loop.hpp's three loop shapes over one resource view,
// and the -check restart. time_iterations() calls them through this interface, outside every
// timed region (each timed region is inside one call), so that the policy-driven rest of a
// timing (warm-up chunks, estimate, count, batches, window schedule, confidence rounds) is
// compiled once per timing plan rather than once per kernel and view: most of the MPI plugin's
// compile time was that rest, copied into every benchmark.
class timed_loops {
public:
    // Iterations [first, first + count), untimed (warm-up, estimate).
    virtual void untimed(std::uint64_t first, std::uint64_t count) = 0;
    // The timed batches ending at `ends` (run_timed_batches).
    virtual void batches(std::span<const std::uint64_t> ends, std::span<double> stamps) = 0;
    // Window sync's single calls (run_windowed_calls); never called unless the plan windows.
    virtual void windowed(std::span<const double> starts, std::span<double> ends,
                          std::span<unsigned char> late) = 0;
    // Every call timed on its own, barriers after it (run_each_call_timed); sums[b]: the summed
    // call times of batch b.
    virtual void each_call(std::span<const std::uint64_t> ends, std::span<double> sums,
                           int barriers_after, bool dissemination) = 0;
    // -check: clears what the warm-up delivered before the timed iterations.
    virtual void restart_check() = 0;
    // Before each timed epoch of an aggregate completion, before the timed iterations
    // otherwise, and before IMB 2021's second probe run: the resource's begin_epoch(where)
    // where it has one (a file's pointers back to its beginning under IMB 2021,
    // mpi/file_resource.hpp).
    virtual void begin_epoch(epoch_start where) = 0;

protected:
    timed_loops() = default;
    timed_loops(const timed_loops&) = default;
    timed_loops& operator=(const timed_loops&) = default;
    ~timed_loops() = default;
};

// Windowed, EachCall: whether the plan can ever run that loop shape (its sync policy can choose
// it, and the timing is not one aggregate sample); the loop of a shape that cannot run is
// compiled out, as a vtable instantiates every virtual.
template <bool Aggregate, bool Windowed, bool EachCall, class Kernel, class View, class Completion,
          class Restart, class BeginEpoch>
class loops_over final : public timed_loops {
public:
    loops_over(Kernel& kernel, const kernel_context& context, const View& view,
               Completion& completion, Restart& restart, BeginEpoch& begin_epoch)
        : kernel_(kernel), context_(context), view_(view), completion_(completion),
          restart_(restart), begin_epoch_(begin_epoch) {}

    // Each loop runs on a local copy of the view (a few pointers and sizes): this object's
    // address has escaped through the virtual call, so fields read through it would be reloaded
    // after every MPI call of the kernel; a local's stay in registers, as in a hand-written loop.
    void untimed(std::uint64_t first, std::uint64_t count) override {
        const View view = view_;
        run_untimed<Aggregate>(kernel_, context_, view, completion_, first, count);
    }
    void batches(std::span<const std::uint64_t> ends, std::span<double> stamps) override {
        const View view = view_;
        run_timed_batches<Aggregate>(kernel_, context_, view, completion_, ends, stamps);
    }
    void windowed(std::span<const double> starts, std::span<double> ends,
                  std::span<unsigned char> late) override {
        if constexpr (Windowed) {
            const View view = view_;
            run_windowed_calls(kernel_, context_, view, completion_, starts, ends, late);
        }
    }
    void each_call(std::span<const std::uint64_t> ends, std::span<double> sums, int barriers_after,
                   bool dissemination) override {
        if constexpr (EachCall) {
            const View view = view_;
            run_each_call_timed(kernel_, context_, view, completion_, ends, sums, barriers_after,
                                dissemination);
        }
    }
    void restart_check() override { restart_(); }
    void begin_epoch(epoch_start where) override { begin_epoch_(where); }

private:
    Kernel& kernel_;
    const kernel_context& context_;
    const View& view_;
    Completion& completion_;
    Restart& restart_;
    BeginEpoch& begin_epoch_;
};

// What one timing hands back to time_iterations(): the figures, and the iterations of the last
// round (-check reads the data of that round's last iteration).
struct loop_timing {
    rank_timing mine;
    std::uint64_t last_round = 0;
};

// The body of time_iterations(), on its loops. One instantiation per timing plan: see timed_loops.
template <class Iterations, class Sync, class Aggregation>
[[nodiscard]] loop_timing time_loops(const session& s, bool rooted, timed_loops& loops,
                                     timing_plan<Iterations, Sync, Aggregation>& plan,
                                     std::uint64_t bytes, bool one_sample, bool checking) {
    constexpr bool aggregate = Aggregation::is_aggregate;
    const communicator& active = s.active_comm();
    // An aggregate epoch is one sample by definition: it keeps the batched timing.
    const bool windowed = !one_sample && starts_per_call(plan.sync);
    const bool in_rounds = !one_sample && times_in_rounds(plan.iterations);
    const bool each_call = !one_sample && !windowed && times_each_call(plan.sync);
    loop_timing out;
    rank_timing& mine = out.mine;
    mine.group = s.group_index();
    mine.windowed = windowed;
    // IMB 2021's -time budget of the block (policy/imb_block_budget.hpp): a size that ran out at
    // its first timing is not timed again (IMB-NBC's t_ovrl after t_pure).
    policy::iterations::imb_block_budget* const budget = policy::block_budget_of(plan.iterations);
    if (budget != nullptr && budget->timed_out()) {
        mine.timed_out = true;
        return out;
    }
    const std::uint64_t warmup = std::min(plan.iterations.warmup(bytes, aggregate),
                                          plan.iterations.n_sample(bytes, aggregate));
    plan.sync.before_timing(active);
    policy::sync::window window_rule{};
    if constexpr (policy::per_call_sync<Sync>) window_rule = plan.sync.window_parameters();
    // Window sync: the first clock fit before the warm-up, the second after it, so the
    // warm-up's duration separates them for the drift.
    policy::sync::clock_fit first_fit{};
    if (windowed) first_fit = fit_to_root(active, window_rule.exchanges);
    // The warm-up in a few chunks; the median chunk is the estimate, so one preemption of a
    // process does not cut the repetitions of a whole size. The first chunk tells
    // (collectively: every rank must run as many iterations) how long an iteration takes;
    // the rest of the warm-up is cut to the policy's warm-up budget.
    std::vector<double> chunk_s;
    std::uint64_t done = 0;
    const auto run_chunk = [&](std::uint64_t count) {
        const double start = MPI_Wtime();
        loops.untimed(done, count);
        chunk_s.push_back((MPI_Wtime() - start) / static_cast<double>(count));
        done += count;
    };
    double estimate_s = 0.0;
    // IMB 2021's probe where the policy has it (imb-io: policy::iterations::imb_volume::
    // imb2021_probe_rest): one repetition, then, from its agreed time, the repetitions of IMB's
    // second calibration run in one chunk, whose time is the estimate; no warm-up budget.
    bool probed = false;
    if constexpr (requires { plan.iterations.imb2021_probes(); }) {
        if (plan.iterations.imb2021_probes()) {
            run_chunk(1);
            double first_s = chunk_s.front();
            s.agree(&first_s, 1, MPI_DOUBLE, MPI_MAX);
            const std::uint64_t rest =
                plan.iterations.imb2021_probe_rest(bytes, aggregate, first_s);
            if (rest > 0) {
                // A second Benchmark call: IMB rewinds the file between its two runs
                // (helper_IMB_functions.h:613-618), and its explicit offsets start at 0 again.
                chunk_s.clear();
                loops.begin_epoch(epoch_start::probe_again);
                done = 0;
                run_chunk(rest);
            }
            estimate_s = chunk_s.back();
            probed = true;
        }
    }
    if (!probed && warmup > 0) {
        run_chunk(std::min<std::uint64_t>(warmup, std::max<std::uint64_t>(1, std::min<std::uint64_t>((warmup + 4) / 5, 3))));
        double probe_s = chunk_s.front();
        s.agree(&probe_s, 1, MPI_DOUBLE, MPI_MAX);
        std::uint64_t planned = warmup;
        const double budget_s = plan.iterations.warmup_budget_s();
        if (std::isfinite(budget_s) && budget_s > 0.0 && probe_s > 0.0 &&
            budget_s / probe_s < static_cast<double>(planned - done))
            planned = done + static_cast<std::uint64_t>(budget_s / probe_s);
        const std::uint64_t rest = planned - done;
        // The estimate is the median of the (up to) five equal chunks that follow; the
        // probe's few cold iterations count only when nothing follows.
        const std::uint64_t rest_chunks = std::min<std::uint64_t>(rest, 5);
        if (rest_chunks > 0) chunk_s.clear();
        for (std::uint64_t k = 0, given = 0; k < rest_chunks; ++k) {
            const std::uint64_t count = (k + 1) * rest / rest_chunks - given;
            given += count;
            run_chunk(count);
        }
        const std::size_t chunks = chunk_s.size();
        std::nth_element(chunk_s.begin(),
                         chunk_s.begin() + static_cast<std::ptrdiff_t>(chunks / 2), chunk_s.end());
        estimate_s = chunk_s[chunks / 2];
    }
    // The estimate, and once per size under a block budget whether any process's block time is
    // over after this probe (IMB's MPI_MIN of the marks, helper_IMB_functions.h:784-787): one
    // agreement. A size that ran out is not timed.
    const bool check_budget = budget != nullptr && budget->undecided();
    double estimate_and_mark[2] = {estimate_s,
                                   check_budget && budget->over(MPI_Wtime()) ? 1.0 : 0.0};
    s.agree(estimate_and_mark, check_budget ? 2 : 1, MPI_DOUBLE, MPI_MAX);
    estimate_s = estimate_and_mark[0];
    if (check_budget) {
        budget->settle(estimate_and_mark[1] > 0.0);
        if (budget->timed_out()) {
            mine.timed_out = true;
            return out;
        }
    }
    policy::sync::clock_model clock{};
    if (windowed) {
        const policy::sync::clock_fit second_fit = fit_to_root(active, window_rule.exchanges);
        clock = policy::sync::model_from(first_fit, second_fit);
        mine.window_s = window_rule.window_for(estimate_s);
    }
    // An aggregate epoch is one sample: it is timed min_ci_samples times, so that its row has a
    // confidence interval like every other, and the -time cap counts every epoch. With a budget
    // for the repeats, the -time cap counts one epoch (as IMB 2021's), and the repeats are as
    // many as fit in the budget beside an epoch of the estimate's n iterations; the estimate is
    // agreed, so every process times as many epochs.
    const bool budgeted_repeats =
        one_sample && plan.aggregate_repeats_budget_s < std::numeric_limits<double>::infinity();
    std::uint64_t epochs = one_sample && !budgeted_repeats ? min_ci_samples : 1;
    // Under window sync one call costs a window: the -time cap counts windows.
    const double cost_s = windowed ? mine.window_s : estimate_s * static_cast<double>(epochs);
    const std::uint64_t n = std::max<std::uint64_t>(
        1, plan.iterations.decide(bytes, aggregate, cost_s, s.layout().processes, rooted));
    if (budgeted_repeats)
        epochs = policy::aggregation::epochs_within(min_ci_samples, plan.aggregate_repeats_budget_s,
                                                    estimate_s * static_cast<double>(n));
    if (checking) loops.restart_check();
    if (!one_sample) loops.begin_epoch(epoch_start::last);  // a one-sample timing's: below
    // The batches: one sample for an aggregate completion; the policy's own repetitions
    // where it has them (PAW's NREPS loops of NLOOP); otherwise the batching rule.
    std::vector<std::uint64_t> ends;
    if (one_sample)
        ends = {n};
    else if constexpr (requires { plan.iterations.batch_ends(n, estimate_s); })
        ends = plan.iterations.batch_ends(n, estimate_s);
    else
        ends = plan.batching.batch_ends(n, estimate_s);
    // Iterations per sample: a batch's length, or one call under window sync.
    const std::uint64_t per_sample = windowed ? 1 : std::max<std::uint64_t>(1, ends.front());

    // One round of `samples` samples; appends this process's figures to `mine` and returns
    // this round's per-iteration sample times (those kept). `align`: the sync policy's barriers
    // before the timed loop. A confidence round after the first leaves them out: the collective
    // that agreed the previous round's samples has just aligned the processes as well, and on an
    // oversubscribed node each barrier costs a time slice (issue 25: "piggy-back the decision
    // on work already collective").
    const auto time_round = [&](std::uint64_t samples, bool align) {
        std::vector<double> round_s;
        if (windowed) {
            const double first_start = agree_first_start(active, window_rule.lead_for(mine.window_s));
            const policy::sync::window_schedule schedule{first_start, mine.window_s};
            std::vector<double> starts(samples), finished(samples, 0.0);
            std::vector<unsigned char> late(samples, 0);
            for (std::uint64_t i = 0; i < samples; ++i)
                starts[i] = clock.to_local(schedule.start_of(i));
            const double cpu_start = process_cpu_seconds();
            loops.windowed(starts, finished, late);
            mine.cpu_s += process_cpu_seconds() - cpu_start;
            // A call any process started late is invalid everywhere.
            MPI_Allreduce(MPI_IN_PLACE, late.data(), static_cast<int>(samples),
                          MPI_UNSIGNED_CHAR, MPI_MAX, active.get());
            for (std::uint64_t i = 0; i < samples; ++i) {
                if (late[i] != 0) {
                    ++mine.invalid_calls;
                    continue;
                }
                const double call_s = finished[i] - starts[i];
                ++mine.valid_calls;
                mine.total_s += call_s;
                round_s.push_back(call_s);
            }
            mine.iterations = mine.valid_calls;
            out.last_round = samples;
        } else {
            std::vector<std::uint64_t> round_ends = ends;
            if (in_rounds) {
                round_ends.resize(samples);
                for (std::uint64_t b = 0; b < samples; ++b) round_ends[b] = (b + 1) * per_sample;
            }
            std::vector<double> stamps(round_ends.size() + 1, 0.0);
            if (align) plan.sync.before_timing(active);
            const double cpu_start = process_cpu_seconds();
            if (each_call) {
                // The batch times are the sums of their calls' times (barriers excluded).
                std::vector<double> sums(round_ends.size(), 0.0);
                if constexpr (policy::each_call_sync<Sync>)
                    loops.each_call(round_ends, sums, plan.sync.after_call,
                                    plan.sync.dissemination);
                for (std::size_t b = 0; b < sums.size(); ++b) stamps[b + 1] = stamps[b] + sums[b];
            } else {
                loops.batches(round_ends, stamps);
            }
            mine.cpu_s += process_cpu_seconds() - cpu_start;
            mine.total_s += stamps.back() - stamps.front();
            mine.iterations += round_ends.back();
            out.last_round = round_ends.back();
            std::uint64_t begin = 0;
            for (std::size_t b = 0; b < round_ends.size(); ++b) {
                round_s.push_back((stamps[b + 1] - stamps[b]) /
                                  static_cast<double>(std::max<std::uint64_t>(1, round_ends[b] - begin)));
                begin = round_ends[b];
            }
        }
        mine.batch_s.insert(mine.batch_s.end(), round_s.begin(), round_s.end());
        return round_s;
    };

    if constexpr (policy::round_policy<Iterations>) {
        if (in_rounds) {
            const Iterations rule = plan.iterations.for_size(windowed ? n : ends.size());
            mine.ci_target = rule.target;
            mine.rounds = 0;
            std::vector<double> agreed;
            double spent_s = 0.0;
            std::uint64_t taken = 0;
            for (;;) {
                const std::uint64_t samples = rule.next_round(taken);
                const std::vector<double> round_s =
                    agree_max(active, time_round(samples, /*align=*/mine.rounds == 0));
                ++mine.rounds;
                taken += samples;
                const double sample_s = windowed ? mine.window_s : 0.0;
                for (const double t : round_s)
                    spent_s += windowed ? sample_s : t * static_cast<double>(per_sample);
                agreed.insert(agreed.end(), round_s.begin(), round_s.end());
                // What the next round would cost, from the mean sample so far.
                const double mean_sample_s =
                    windowed ? sample_s
                             : (agreed.empty() ? 0.0
                                               : spent_s / static_cast<double>(agreed.size()));
                const auto verdict = rule.judge(
                    agreed, spent_s, static_cast<double>(rule.next_round(taken)) * mean_sample_s);
                mine.ci_verdict = static_cast<int>(verdict);
                if (verdict != policy::iterations::confidence_verdict::go_on) break;
            }
            return out;
        }
    }
    if (one_sample) {
        mine.epochs = epochs;
        for (std::uint64_t e = 0; e < epochs; ++e) {
            // -check reads the last epoch's data: each epoch starts from clean data (an
            // accumulate would otherwise add every epoch's contributions).
            if (checking && e > 0) loops.restart_check();
            loops.begin_epoch(e + 1 < epochs ? epoch_start::more_follow : epoch_start::last);
            (void)time_round(ends.size(), /*align=*/true);
        }
        return out;
    }
    (void)time_round(windowed ? n : ends.size(), /*align=*/true);
    return out;
}

}  // namespace detail

// Times one size on this (active) process: warm-up, estimate, count, timed batches, -check.
// `bytes` is the size the iteration policy sees (X). Every process of the active set calls it
// with the same plan.
//
// Two policies change the shape of the timing, decided once and outside any timed region:
//  * a per-call sync policy (window) fits the clocks around the warm-up and times single calls,
//    each started on a common schedule; calls that any process started late are dropped on all;
//  * a round policy (confidence) times rounds of samples and stops on a collective verdict.
// Samples then restart at iteration 0 in each round, so resources sized for n_sample suffice.
// Only the loops over the kernel are compiled per kernel (detail::timed_loops); the rest is
// detail::time_loops, once per plan.
template <pattern::descriptor Pattern, resource R, class Kernel, class Completion,
          class Iterations, class Sync, class Aggregation, class Check = no_check>
    requires(!completes<Completion> || pattern::completes_outside_kernel<Pattern>)
[[nodiscard]] rank_timing time_iterations(const session& s, const Pattern& pattern,
                                          prepared<R>& ready, const kernel_context& context,
                                          Kernel& kernel, Completion& completion,
                                          timing_plan<Iterations, Sync, Aggregation>& plan,
                                          std::uint64_t bytes, const Check& check = {}) {
    constexpr bool aggregate = Aggregation::is_aggregate;
    constexpr bool one_sample = aggregate && completes<Completion>;
    constexpr bool may_window = !one_sample && policy::per_call_sync<Sync>;
    constexpr bool may_each_call = !one_sample && policy::each_call_sync<Sync>;
    R& r = ready.get();
    const bool checking = plan.check && checks_data<Check>;
    if (checking) r.prepare_check(check, context);
    r.begin_access();
    const auto restart = [&] {
        r.prepare_check(check, context);  // clears what the warm-up delivered
        r.begin_access();
    };
    const auto begin_epoch = [&](epoch_start where) {
        if constexpr (requires { r.begin_epoch(where); }) r.begin_epoch(where);
    };
    detail::loop_timing timed;
    r.visit([&](const auto& view) {
        using view_type = std::remove_cvref_t<decltype(view)>;
        static_assert(completion_for<Completion, view_type>,
                      "this completion cannot complete operations on this resource");
        detail::loops_over<aggregate, may_window, may_each_call, Kernel, view_type, Completion,
                           const decltype(restart), const decltype(begin_epoch)>
            loops(kernel, context, view, completion, restart, begin_epoch);
        timed = detail::time_loops(s, pattern.rooted, loops, plan, bytes, one_sample, checking);
    });
    r.end_access();
    if (checking) {
        timed.mine.found = check::as_findings(r.count_defects(check, context, timed.last_round));
        timed.mine.defects = timed.mine.found.count;
        timed.mine.checked_iteration = timed.last_round > 0 ? timed.last_round - 1 : 0;
    }
    return std::move(timed.mine);
}

// --- phase 3: gather ---------------------------------------------------------------------------

// The batch times of batch_travel::reduced, on the first active process: seconds per iteration
// of each batch, as rank_timing::batch_s.
struct reduced_batches {
    std::vector<double> slowest_s;  // per batch, the slowest process's (MPI_MAX)
    std::vector<double> sum_s;      // per batch, the sum over the processes (MPI_SUM)
    std::vector<double> first_s;    // the first process's own
    int processes = 0;
};

struct gathered {
    bool root = false;               // the first active process (session::active_root) holds them
    std::vector<rank_timing> ranks;  // one per active process, in active-rank order
    // batch_travel::reduced: the batch times, reduced (the rows carry none of them).
    std::optional<reduced_batches> reduced;
};

// Collective over the active processes. At most max_batches batch times travel per process in
// its row; with batch_travel::reduced none do, and every process's whole series is reduced.
[[nodiscard]] inline gathered gather(const session& s, const rank_timing& mine,
                                     std::size_t max_batches,
                                     batch_travel travel = batch_travel::gathered) {
    gathered out;
    if (!s.active()) return out;
    const communicator& active = s.active_comm();
    const bool reducing = travel == batch_travel::reduced;
    // Window sync keeps every valid call as a sample (the same calls on every process): they
    // all travel, as a reduced series does. Batched timings travel at most max_batches.
    unsigned long long kept = std::min<std::size_t>(
        mine.batch_s.size(),
        mine.windowed || reducing ? mine.batch_s.size() : max_batches);
    s.agree(&kept, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX);
    const auto series = static_cast<std::size_t>(kept);
    const std::size_t in_row = reducing ? 0 : series;
    const std::size_t width = rank_row_header + in_row;
    const std::vector<double> row = rank_row(mine, in_row, width);
    const int size = active.size();
    out.root = active.rank() == 0;
    std::vector<double> rows(out.root ? width * static_cast<std::size_t>(size) : 0);
    std::vector<MPI_Request> requests(1, MPI_REQUEST_NULL);
    MPI_Igather(row.data(), static_cast<int>(width), MPI_DOUBLE, out.root ? rows.data() : nullptr,
                static_cast<int>(width), MPI_DOUBLE, 0, active.get(), &requests.front());
    std::vector<double> own;
    if (reducing) {
        own.assign(series, 0.0);
        std::copy_n(mine.batch_s.begin(), std::min(series, mine.batch_s.size()), own.begin());
        out.reduced = reduced_batches{.slowest_s = std::vector<double>(out.root ? series : 0),
                                      .sum_s = std::vector<double>(out.root ? series : 0),
                                      .first_s = {},
                                      .processes = size};
        requests.resize(3, MPI_REQUEST_NULL);
        MPI_Ireduce(own.data(), out.reduced->slowest_s.data(), static_cast<int>(series),
                    MPI_DOUBLE, MPI_MAX, 0, active.get(), &requests[1]);
        MPI_Ireduce(own.data(), out.reduced->sum_s.data(), static_cast<int>(series), MPI_DOUBLE,
                    MPI_SUM, 0, active.get(), &requests[2]);
    }
    for (MPI_Request& request : requests) s.wait_agreement(request);
    if (!out.root) {
        out.reduced.reset();
        return out;
    }
    if (out.reduced) out.reduced->first_s = std::move(own);
    out.ranks.resize(static_cast<std::size_t>(size));
    for (int r = 0; r < size; ++r)
        out.ranks[static_cast<std::size_t>(r)] = from_rank_row(
            std::span<const double>(rows).subspan(static_cast<std::size_t>(r) * width, width));
    return out;
}

// --- phase 4: reduce ---------------------------------------------------------------------------

// How the records of one measurement are labelled.
struct record_labels {
    std::string suite;
    std::string benchmark;      // canonical name, "PingPong"
    bool multiple = false;      // multiple mode: "Multi-" title when more than one group runs
    bool per_group = false;     // -multi 1: one record per group
    bool has_bytes = true;      // false for Barrier
    std::string mode{};         // "", "aggregate" or "non_aggregate" (IMB-EXT/RMA blocks)
};

// The nodes of a row's processes (result_record::placement): every group's, or group `group`'s
// alone (-multi 1); none where the run's nodes are not known (group_layout::name_nodes).
[[nodiscard]] inline std::optional<row_placement> placement_of(const group_layout& layout,
                                                               int group) {
    if (layout.group_nodes.empty()) return std::nullopt;
    row_placement p;
    p.run_nodes = layout.run_nodes;
    if (group >= 0 && static_cast<std::size_t>(group) < layout.group_nodes.size())
        p.group_nodes = {layout.group_nodes[static_cast<std::size_t>(group)]};
    else
        p.group_nodes = layout.group_nodes;
    return p;
}

// A multi-pair row's placement (all pairs of one group at once: PAW's i <-> i + n/2, IMB-MT's
// r <-> r + stride): each pair is a group of its own, so that the row says whether its pairs
// stay within a node, cross one, or both ("mixed"), as -multi's rows do. `partner(position, q)`:
// the position in the layout's one group of the partner of the process at `position`, or -1
// (no partner: it sits out); each pair is named once, from its lower position.
template <class Partner>
[[nodiscard]] std::optional<row_placement> pair_placement(const group_layout& layout,
                                                          Partner partner) {
    if (layout.group_nodes.size() != 1) return placement_of(layout, -1);
    const std::vector<int>& nodes = layout.group_nodes.front();
    const int q = static_cast<int>(nodes.size());
    row_placement p;
    p.run_nodes = layout.run_nodes;
    for (int position = 0; position < q; ++position) {
        const int other = partner(position, q);
        if (other > position && other < q)
            p.group_nodes.push_back({nodes[static_cast<std::size_t>(position)],
                                     nodes[static_cast<std::size_t>(other)]});
    }
    if (p.group_nodes.empty()) return placement_of(layout, -1);
    return p;
}

// What turns a process's loop total (seconds) into its time per iteration in µs: over the
// iterations of the longest loop, divided by the pattern's time divisor (one way: half a round
// trip).
template <pattern::descriptor Pattern>
[[nodiscard]] double per_iteration_us_of(const Pattern& pattern,
                                         const std::vector<const rank_timing*>& ranks) {
    std::uint64_t n = 1;
    for (const rank_timing* f : ranks) n = std::max(n, f->iterations);
    return 1e6 / (static_cast<double>(n) * pattern.time_divisor);
}

// Each active process's own time per iteration, µs, as reduce_ranks() counts each process's,
// in the active set's order (world rank 0 first unless the order puts another first); empty off
// the gather root. A suite whose figure is not the slowest process's reads it here: OSU's pair
// tests print process 0's (osu_latency.c:277-278, osu_bw.c:363-377), osu_mbw_mr the mean of
// the senders' (osu_mbw_mr.c:656-666).
template <pattern::descriptor Pattern>
[[nodiscard]] std::vector<double> process_times_us(const Pattern& pattern,
                                                   const gathered& figures) {
    if (!figures.root || figures.ranks.empty()) return {};
    std::vector<const rank_timing*> ranks;
    for (const auto& f : figures.ranks) ranks.push_back(&f);
    const double per_iteration_us = per_iteration_us_of(pattern, ranks);
    std::vector<double> us;
    us.reserve(ranks.size());
    for (const rank_timing* f : ranks) us.push_back(f->total_s * per_iteration_us);
    return us;
}

// One record from the figures of `ranks` (IMB: t_max/t_min/t_avg across them, the distribution
// of the slowest rank per batch, throughput by the pattern's rule from t_max). The batch times
// are the slowest rank's of each batch, or, where they travelled reduced (batch_travel::reduced),
// `reduced_series_s`: the slowest per batch (reduce()), or one process's series (a record of
// that process's figure: osu's latency_mt, its sender's).
template <pattern::descriptor Pattern>
[[nodiscard]] result_record reduce_ranks(const Pattern& pattern, const record_labels& labels,
                                         const group_layout& layout, std::uint64_t bytes,
                                         bool check, const std::vector<const rank_timing*>& ranks,
                                         int group,
                                         std::span<const double> reduced_series_s = {}) {
    result_record r;
    r.suite = labels.suite;
    r.benchmark = labels.benchmark;
    r.klass = pattern::class_in_groups(pattern, layout.groups);
    r.block.title = labels.multiple && layout.groups > 1 ? "Multi-" + labels.benchmark
                                                          : labels.benchmark;
    r.block.processes = layout.processes;
    r.block.groups = layout.groups;
    if (layout.groups > 1) r.block.group_ranks = layout.group_ranks;
    r.placement = placement_of(layout, group);
    r.block.rank_order = layout.rank_order;
    r.block.waiting = layout.waiting;
    r.block.group = group;
    r.block.mode = labels.mode;
    r.bytes = bytes;
    r.has_bytes = labels.has_bytes;
    std::uint64_t n = 1;
    for (const rank_timing* f : ranks) n = std::max(n, f->iterations);
    // Aggregate epochs: the row's repetitions are one epoch's M (IMB's #repetitions); its times
    // are over every epoch's iterations.
    // One epoch is IMB 2021's single sample of an aggregate row (timing_plan::
    // aggregate_repeats_budget_s); the record says so, and has no confidence interval by method.
    const std::uint64_t epochs = ranks.empty() ? 0 : ranks.front()->epochs;
    r.iterations = std::max<std::uint64_t>(1, n / std::max<std::uint64_t>(1, epochs));
    if (epochs > 0) r.epochs = epochs;
    const double per_iteration_us = per_iteration_us_of(pattern, ranks);
    std::vector<double> rank_us;  // each process's time per iteration
    rank_us.reserve(ranks.size());
    double cpu_max = 0.0;
    std::uint64_t defects = 0;
    std::vector<double> batches;
    for (const rank_timing* f : ranks) {
        rank_us.push_back(f->total_s * per_iteration_us);
        cpu_max = std::max(cpu_max, f->cpu_s * 1e6 / static_cast<double>(n));
        defects += f->defects;
        if (batches.size() < f->batch_s.size()) batches.resize(f->batch_s.size(), 0.0);
        for (std::size_t b = 0; b < f->batch_s.size(); ++b)
            batches[b] = std::max(batches[b], f->batch_s[b] * 1e6 / pattern.time_divisor);
    }
    for (const double batch_s : reduced_series_s)
        batches.push_back(batch_s * 1e6 / pattern.time_divisor);
    const summary across_ranks = summarize(rank_us);  // all zero without ranks
    const double t_max = across_ranks.max;
    r.t_min_us = across_ranks.min;
    r.t_max_us = t_max;
    r.t_avg_us = across_ranks.mean;
    r.cpu_time_us = cpu_max;
    r.distribution_us = summarize(batches);
    r.samples_us = std::move(batches);
    const double x = static_cast<double>(bytes);
    if (const auto factor = pattern::throughput_factor(pattern, layout.processes, layout.groups)) {
        r.throughput_mib_s = t_max > 0.0 ? *factor * x / 1.048576 / t_max : 0.0;
        if constexpr (requires { pattern.message_rate; }) {
            if (pattern.message_rate)
                message_rates_of(r).messages_per_s = t_max > 0.0 ? *factor * 1e6 / t_max : 0.0;
        }
    }
    if (check) r.defects = defects;
    // How the samples were taken (collective choices: every process holds the same values).
    if (!ranks.empty() && ranks.front()->windowed) {
        const rank_timing& f = *ranks.front();
        r.block.timing = "window";
        r.window_sync = window_sync_figures{.valid_samples = f.valid_calls,
                                            .invalid_samples = f.invalid_calls,
                                            .window_us = f.window_s * 1e6};
    }
    if (!ranks.empty() && ranks.front()->ci_target > 0.0) {
        const rank_timing& f = *ranks.front();
        const summary& d = r.distribution_us;
        confidence_figures c{
            .target_percent = 100.0 * f.ci_target,
            .achieved_percent = std::nullopt,
            .target_met =
                f.ci_verdict == static_cast<int>(policy::iterations::confidence_verdict::met),
            .futile =
                f.ci_verdict == static_cast<int>(policy::iterations::confidence_verdict::futile),
            .rounds = f.rounds};
        if (d.samples > 0 && d.median > 0.0)
            c.achieved_percent = 100.0 * (d.ci_high - d.ci_low) / 2.0 / d.median;
        r.confidence = c;
    }
    return r;
}

// The records of one measurement: one, or one per group with -multi 1.
template <pattern::descriptor Pattern>
[[nodiscard]] std::vector<result_record> reduce(const Pattern& pattern,
                                                const record_labels& labels,
                                                const group_layout& layout, std::uint64_t bytes,
                                                bool check, const gathered& figures) {
    std::vector<result_record> records;
    if (!figures.root) return records;
    if (labels.per_group && layout.groups > 1) {
        for (int k = 0; k < layout.groups; ++k) {
            std::vector<const rank_timing*> members;
            for (const auto& f : figures.ranks)
                if (f.group == k) members.push_back(&f);
            records.push_back(reduce_ranks(pattern, labels, layout, bytes, check, members, k));
        }
    } else {
        std::vector<const rank_timing*> members;
        for (const auto& f : figures.ranks) members.push_back(&f);
        records.push_back(reduce_ranks(
            pattern, labels, layout, bytes, check, members, -1,
            figures.reduced ? std::span<const double>(figures.reduced->slowest_s)
                            : std::span<const double>{}));
    }
    return records;
}

// The rows of a size that ran out of its block's time (IMB 2021's "time-out." rows,
// policy/imb_block_budget.hpp), on the active set's first process: where the measurement's
// records would have been (benchmark, class, block, group, size, the columns its figures would
// fill), with no figures. Collective over nothing.
template <pattern::descriptor Pattern>
[[nodiscard]] std::vector<result_record> time_out_records(const session& s, const Pattern& pattern,
                                                          const record_labels& labels,
                                                          std::uint64_t bytes) {
    const gathered nothing_timed{
        .root = s.active() && s.active_comm().rank() == 0, .ranks = {}, .reduced = {}};
    return reduce(pattern, labels, s.layout(), bytes, false, nothing_timed);
}

// --- the end of a size ---------------------------------------------------------------------------

// After one size, on every process of the session's world and outside any timing: the idle
// processes wait for the active ones, asleep where the node has more processes than CPUs,
// polling (yielding) where each has its own (communicator::quiet_barrier,
// session::idle_waiting). Under a block budget
// (the iteration policy's block_budget(), IMB 2021's -time) the same collective also tells every
// process whether the size ran out — the active processes agreed on it before their timed run,
// the idle ones learn it here, as IMB's MPI_MIN over MPI_COMM_WORLD tells every process
// (helper_IMB_functions.h:784-787) — so that every process ends the benchmark together; a size
// over -mem ends it the same way (IMB's SAMPLE_FAILED_MEMORY goes through that MPI_MIN, :556-557).
// Returns that verdict (false without a budget).
template <class Iterations>
[[nodiscard]] bool end_of_size(const session& s, const Iterations& iterations, bool timed_out) {
    if (policy::block_budget_of(iterations) == nullptr) {
        s.world().quiet_barrier(s.idle_waiting());
        return false;
    }
    return s.world().quiet_any(timed_out, s.idle_waiting());
}

}  // namespace parbench::mpi
