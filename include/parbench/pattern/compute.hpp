// The compute pattern: one process (or every rank at once) runs a numerical kernel over a series
// of problem sizes, PAW's way (policy/paw_nloop.hpp). What one call is, and how much work it
// does, comes from the caller:
//
//   make(size)  -> a workload object: allocation and initialisation happen here, untimed;
//                  calling it performs one kernel call (the timed operation).
//   work(size)  -> compute_work: flops per call, PAW's count and the conventional one.
//
// Collectives are hooks (compute_collective), so the pattern needs no MPI: single-process runs
// leave them empty; with the MPI plugin they are a barrier and a MAX reduction, which makes every
// decision (skip, NLOOP, NREPS) the same on every rank.
#pragma once

#include <parbench/core/clock.hpp>
#include <parbench/policy/paw_nloop.hpp>

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace parbench::pattern {

// Work of one call. PAW counts 2N^2(N+1) for GEMM and 2N(N+1) for GEMV (the alpha/beta
// scaling included); the conventional count is 2N^3 / 2N^2. Both are kept, by name.
struct compute_work {
    double flops_paw = 0.0;
    double flops_conventional = 0.0;
};

// C = alpha A B + beta C at matrix order n (every GEMM backend: OpenBLAS, cuBLAS, ...).
[[nodiscard]] constexpr compute_work gemm_work(std::uint64_t n) noexcept {
    const double d = static_cast<double>(n);
    return {2.0 * d * d * (d + 1.0), 2.0 * d * d * d};
}

// y = alpha A x + beta y at matrix order n.
[[nodiscard]] constexpr compute_work gemv_work(std::uint64_t n) noexcept {
    const double d = static_cast<double>(n);
    return {2.0 * d * (d + 1.0), 2.0 * d * d};
}

struct compute_collective {
    std::function<void()> barrier;              // align ranks before each timed loop
    std::function<double(double)> agree_max;    // the maximum over ranks
    void sync() const {
        if (barrier) barrier();
    }
    [[nodiscard]] double max(double v) const { return agree_max ? agree_max(v) : v; }
};

// One measured size.
struct compute_measurement {
    std::uint64_t size = 0;
    std::uint64_t nloop = 0;
    std::uint64_t nreps_planned = 0;   // NREPS before the budget
    std::uint64_t nloop_calibrated = 0;  // step 2's NLOOP, the ceiling of every size's
    std::vector<double> seconds_per_call;  // one entry per repetition: loop time / NLOOP
    double warmup_s = 0.0;             // time per call in the untimed warm-up, for the record
    double loop_target_s = 0.0;        // how long each timed loop was meant to last
    int recalibrations = 0;            // re-plans after a first repetition contradicted the warm-up
    bool reps_cut = false;             // the time budget lowered NREPS
};

// Sizes the budget ruled out, with the reason; reported once.
struct compute_skip {
    std::vector<std::uint64_t> sizes;
    double predicted_call_s = 0.0;  // of the first skipped size
    double budget_s = 0.0;
};

// `calls` calls of a workload. A workload that runs a batch itself (run(n): e.g. several devices
// driven by their own threads) gets the whole batch at once, so nothing but its own work is timed.
template <class Workload>
inline void run_calls(Workload& workload, std::uint64_t calls) {
    if constexpr (requires { workload.run(calls); }) {
        workload.run(calls);
    } else {
        for (std::uint64_t i = 0; i < calls; ++i) workload();
    }
}

// A workload that times a batch on its own clock and returns the seconds it took: a device
// measures its own work with events on its stream (launch latency and host-side queuing are
// then outside the figure). The sweep uses that time instead of the host clock's.
template <class Workload>
concept self_timed = requires(Workload& w, std::uint64_t calls) {
    { w.timed_run(calls) } -> std::convertible_to<double>;
};

// NREPS timed loops of NLOOP calls. Nothing but the kernel inside the timer pair.
template <clock_source Clock, class Workload>
[[nodiscard]] std::vector<double> time_repetitions(Clock& clock, Workload& workload,
                                                   std::uint64_t nloop, std::uint64_t nreps,
                                                   const compute_collective& collective = {}) {
    std::vector<double> out;
    out.reserve(nreps);
    for (std::uint64_t rep = 0; rep < nreps; ++rep) {
        collective.sync();
        if constexpr (self_timed<Workload>) {
            out.push_back(workload.timed_run(nloop) / static_cast<double>(nloop));
        } else {
            const double start = clock.now();
            run_calls(workload, nloop);
            const double stop = clock.now();
            out.push_back((stop - start) / static_cast<double>(nloop));
        }
    }
    return out;
}

// Time per call of a workload, with a doubling count of calls until one batch lasts at least
// `target_s` or `max_calls` is reached — bounded so a large smallest size cannot take minutes.
template <clock_source Clock, class Workload>
[[nodiscard]] double probe_call_time(Clock& clock, Workload& workload, std::uint64_t max_calls,
                                     double target_s) {
    std::uint64_t calls = 1;
    while (true) {
        double elapsed = 0.0;
        if constexpr (self_timed<Workload>) {
            elapsed = workload.timed_run(calls);
        } else {
            const double start = clock.now();
            run_calls(workload, calls);
            elapsed = clock.now() - start;
        }
        if (calls >= max_calls || elapsed >= target_s)
            return elapsed / static_cast<double>(calls);
        calls = std::min(max_calls, calls * 2);
    }
}

struct compute_sweep_config {
    policy::iterations::paw_nloop policy{};
    double timer_threshold_s = 0.0;  // step 1, measured by the caller (once per run)
    std::uint64_t warmup_size = 0;   // PAW's MED_*_SIZE: the initial warm-up; 0: none
    double cost_exponent = 3.0;      // time per call grows as size^exponent (prediction only)
};

// Runs PAW's method over `sizes` (ascending). `before_size(size)` is called on every rank
// before each size is set up (progress, time limits); `on_result` receives each measurement as
// soon as it is complete (partial results); `on_skip` once, when the budget ends the sweep.
// Returns the calibrated NLOOP.
template <clock_source Clock, class Make, class BeforeSize, class OnResult, class OnSkip>
std::uint64_t run_compute_sweep(Clock& clock, const compute_sweep_config& config,
                                std::span<const std::uint64_t> sizes, Make&& make,
                                BeforeSize&& before_size, OnResult&& on_result, OnSkip&& on_skip,
                                const compute_collective& collective = {}) {
    const auto& policy = config.policy;
    if (sizes.empty()) return 0;
    // Step 2: warm-up at the warm-up size, then calibrate NLOOP on the smallest workload.
    if (config.warmup_size > 0) {
        auto warm = make(config.warmup_size);
        warm();
    }
    double t_call = 0.0;
    {
        auto smallest = make(sizes.front());
        smallest();
        const double probe_target =
            policy.budget_s > 0.0 ? std::min(0.2, policy.budget_s / 10.0) : 0.2;
        t_call = collective.max(probe_call_time(clock, smallest, policy.nloop_max, probe_target));
    }
    const std::uint64_t nloop_calibrated = policy.calibrate(config.timer_threshold_s, t_call);
    std::uint64_t ceiling = nloop_calibrated;
    double previous_size = static_cast<double>(sizes.front());

    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const std::uint64_t size = sizes[i];
        const double predicted = policy::iterations::paw_nloop::predict(
            t_call, previous_size, static_cast<double>(size), config.cost_exponent);
        if (!policy.affordable(predicted)) {
            compute_skip skip{{sizes.begin() + static_cast<std::ptrdiff_t>(i), sizes.end()},
                              predicted, policy.budget_s};
            on_skip(skip);
            break;
        }
        before_size(size);
        auto workload = make(size);  // setup: untimed
        collective.sync();
        // Step 3: the untimed warm-up. It runs doubling batches until one lasts the target loop
        // time (a single call for large sizes), so the time per call that plans this size is
        // not one cold, timer-dominated call.
        const double target_s = policy.loop_target_s(config.timer_threshold_s);
        const double warmup_s =
            collective.max(probe_call_time(clock, workload, std::max<std::uint64_t>(ceiling, 1),
                                           target_s));
        compute_measurement m;
        m.size = size;
        m.nreps_planned = policy.nreps;
        m.nloop_calibrated = nloop_calibrated;
        m.warmup_s = warmup_s;
        m.loop_target_s = target_s;
        // The first repetition checks the warm-up's estimate (policy/paw_nloop.hpp): a loop that
        // was far faster than planned and short of the target is re-planned from its own time.
        double estimate_s = warmup_s;
        auto plan = policy.plan(config.timer_threshold_s, estimate_s, ceiling);
        m.seconds_per_call = time_repetitions(clock, workload, plan.nloop, 1, collective);
        for (; m.recalibrations < policy.max_recalibrations; ++m.recalibrations) {
            const double first_s = collective.max(m.seconds_per_call.front());
            if (!policy.estimate_too_high(estimate_s, first_s, plan.nloop,
                                          config.timer_threshold_s))
                break;
            const auto replanned = policy.plan(config.timer_threshold_s, first_s, ceiling);
            if (replanned.nloop <= plan.nloop) break;  // already at NLOOP's ceiling
            estimate_s = first_s;
            plan = replanned;
            m.seconds_per_call = time_repetitions(clock, workload, plan.nloop, 1, collective);
        }
        const auto rest = time_repetitions(clock, workload, plan.nloop, plan.nreps - 1, collective);
        m.seconds_per_call.insert(m.seconds_per_call.end(), rest.begin(), rest.end());
        m.nloop = plan.nloop;
        m.reps_cut = plan.reps_cut;
        // The next prediction starts from the fastest repetition agreed over ranks.
        t_call = collective.max(*std::min_element(m.seconds_per_call.begin(),
                                                  m.seconds_per_call.end()));
        previous_size = static_cast<double>(size);
        ceiling = plan.nloop;
        on_result(m);
    }
    return nloop_calibrated;
}

}  // namespace parbench::pattern
