// PAW's iteration method (TACC PAW 1.0, catalogue C.1), usable by any pattern:
//
//  1. establish the timer threshold (the shortest interval the clock measures validly);
//  2. after a warm-up, time the smallest workload and set NLOOP so that one timed loop lasts at
//     least threshold_factor (10) x that threshold — never above NLOOP_MAX;
//  3. per size: an untimed warm-up, NREPS timed loops of NLOOP calls each, statistics; as sizes
//     grow NLOOP is lowered but kept over the safety threshold and over NLOOP_MIN, whichever is
//     more conservative.
//
// PAW leaves the reduction rule and NLOOP_MIN open. parbench's rule: NLOOP(size) is the smallest
// count whose loop lasts max(safety threshold, min_loop_s), clamped to [NLOOP_MIN, the previous
// size's NLOOP] — so it never grows with size. min_loop_s (1 ms by default; 0 for PAW's bare
// rule) keeps small, fast kernels from being timed over a handful of calls.
//
// The warm-up that plans a size can overestimate the time per call many times over (a cold first
// call: page faults, thread start-up), which would plan loops far below the target. parbench
// checks the plan against the first timed repetition: when that ran more than twice as fast as
// the estimate and its loop fell short of the target, it becomes a warm-up and the size is
// planned again from it (at most max_recalibrations times).
//
// parbench adds a per-size time budget (like IMB's -time): a size whose warm-up plus min_reps
// single-call repetitions is predicted to exceed budget_s is skipped (with a message), and NREPS
// is lowered (not below min_reps) where the full plan would not fit.
#pragma once

#include <parbench/core/clock.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace parbench::policy::iterations {

struct paw_nloop {
    std::uint64_t nloop_max = 1000;  // NLOOP_MAX (PAW's default NLOOP)
    std::uint64_t nloop_min = 1;     // NLOOP_MIN (value not given by PAW)
    std::uint64_t nreps = 10;        // NREPS
    std::uint64_t min_reps = 3;      // the budget never lowers NREPS below this
    double threshold_factor = 10.0;  // loop time >= factor x timer threshold
    double min_loop_s = 1e-3;        // parbench: a timed loop lasts at least this long
    double budget_s = 10.0;          // parbench: per-size time budget; 0 = unlimited
    int max_recalibrations = 3;      // parbench: re-plans of one size after a slow warm-up

    // The shortest loop that counts as a valid measurement for a given timer threshold.
    [[nodiscard]] double safety_s(double timer_threshold_s) const noexcept {
        return threshold_factor * std::max(0.0, timer_threshold_s);
    }

    // How long one timed loop should last: the safety threshold or min_loop_s, the longer.
    [[nodiscard]] double loop_target_s(double timer_threshold_s) const noexcept {
        return std::max(safety_s(timer_threshold_s), min_loop_s);
    }

    // Whether a plan made from `estimate_s` per call is contradicted by a timed loop of `nloop`
    // calls that took `measured_s` per call: far faster than estimated, and short of the target.
    [[nodiscard]] bool estimate_too_high(double estimate_s, double measured_s, std::uint64_t nloop,
                                         double timer_threshold_s) const noexcept {
        return 2.0 * measured_s < estimate_s &&
               static_cast<double>(nloop) * measured_s < loop_target_s(timer_threshold_s);
    }

    // The loop count that makes one loop last `target_s` for a call of `t_call_s`, clamped.
    [[nodiscard]] static std::uint64_t count_for(double target_s, double t_call_s,
                                                 std::uint64_t low, std::uint64_t high) noexcept {
        high = std::max<std::uint64_t>(high, 1);
        low = std::clamp<std::uint64_t>(low, 1, high);
        if (!(t_call_s > 0.0)) return high;  // immeasurably fast: as many as allowed
        const double wanted = std::ceil(target_s / t_call_s);
        if (!(wanted < static_cast<double>(high))) return high;
        return std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::max(wanted, 1.0)), low,
                                          high);
    }

    // Step 2: NLOOP from the smallest workload's time per call.
    [[nodiscard]] std::uint64_t calibrate(double timer_threshold_s, double t_call_s) const noexcept {
        return count_for(loop_target_s(timer_threshold_s), t_call_s, nloop_min, nloop_max);
    }

    // A size whose warm-up and min_reps single calls would not fit the budget is not run.
    [[nodiscard]] bool affordable(double t_call_estimate_s) const noexcept {
        if (!(budget_s > 0.0)) return true;
        return static_cast<double>(1 + min_reps * std::max<std::uint64_t>(nloop_min, 1)) *
                   t_call_estimate_s <=
               budget_s;
    }

    struct size_plan {
        std::uint64_t nloop = 1;
        std::uint64_t nreps = 1;
        bool reps_cut = false;  // the budget lowered NREPS
    };

    // Step 3: the plan for one size. `t_call_s` is the (collectively agreed) time of one call
    // measured by the warm-up; `ceiling` the previous size's NLOOP (or the calibrated one).
    [[nodiscard]] size_plan plan(double timer_threshold_s, double t_call_s,
                                 std::uint64_t ceiling) const noexcept {
        size_plan p;
        p.nloop = count_for(loop_target_s(timer_threshold_s), t_call_s, nloop_min,
                            std::min(ceiling, nloop_max));
        p.nreps = std::max<std::uint64_t>(nreps, 1);
        if (budget_s > 0.0 && t_call_s > 0.0) {
            const double per_rep = static_cast<double>(p.nloop) * t_call_s;
            const double left = budget_s - t_call_s;  // the warm-up is already spent
            const double fits = per_rep > 0.0 ? std::floor(left / per_rep) : 0.0;
            if (fits < static_cast<double>(p.nreps)) {
                const std::uint64_t floor_reps = std::min(p.nreps, std::max<std::uint64_t>(min_reps, 1));
                const std::uint64_t reps =
                    fits < 1.0 ? 0 : static_cast<std::uint64_t>(fits);
                p.nreps = std::max(floor_reps, reps);
                p.reps_cut = p.nreps < std::max<std::uint64_t>(nreps, 1);
            }
        }
        return p;
    }

    // Predicted time of one call at `size` from one at `previous_size`, for kernels whose cost
    // grows as size^exponent (3 for GEMM, 2 for GEMV).
    [[nodiscard]] static double predict(double t_previous_s, double previous_size, double size,
                                        double exponent) noexcept {
        if (!(previous_size > 0.0)) return t_previous_s;
        return t_previous_s * std::pow(size / previous_size, exponent);
    }
};

// The timer threshold PAW establishes in step 1: the larger of the clock's resolution and the
// cost of one reading.
template <clock_source Clock>
[[nodiscard]] double timer_threshold_s(Clock clock) {
    const auto c = measure_clock(clock, 32, 128);
    return std::max(c.resolution_s, c.overhead_s);
}

}  // namespace parbench::policy::iterations
