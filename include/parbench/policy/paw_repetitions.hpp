// PAW's NLOOP/NREPS method (policy/paw_nloop.hpp) as an iteration policy of the MPI runner
// (policy/iterations.hpp's concept): the runner's warm-up gives the time of one call, decide()
// plans NLOOP (never above the previous size's) and NREPS for the size, and batch_ends() cuts
// the NREPS x NLOOP timed calls into NREPS batches of NLOOP — PAW's repetitions, one clock read
// between two, nothing else in the timed region.
//
// A size whose warm-up and min_reps loops of NLOOP_MIN calls would not fit the per-size budget
// (paw_nloop::affordable, the rule the BLAS sweep applies before a size) is not timed: decide()
// plans a single call and sets over_budget, and the caller drops the size and the larger ones.
//
// The policy keeps the previous size's NLOOP, so one object must serve a whole size sweep, in
// ascending order, on every process alike (the estimate it plans from is agreed with MPI_MAX).
#pragma once

#include <parbench/policy/paw_nloop.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace parbench::policy::iterations {

struct paw_repetitions {
    paw_nloop method{};
    double timer_threshold_s = 0.0;  // PAW's step 1, measured by the caller
    // Untimed calls before each size (PAW: one; parbench takes a few so that the estimate the
    // size is planned from is not a cold call).
    std::uint64_t warmup_calls = 5;
    // State across sizes (public only so that the policy stays an aggregate).
    paw_nloop::size_plan last_plan{};  // the current size's NLOOP and NREPS
    std::uint64_t nloop_ceiling = 0;   // the previous size's NLOOP (0: none yet)
    bool over_budget = false;          // the current size does not fit the budget

    [[nodiscard]] std::uint64_t n_sample(std::uint64_t /*bytes*/, bool /*aggregate*/ = false) const noexcept {
        return std::max<std::uint64_t>(method.nloop_max, 1) * std::max<std::uint64_t>(method.nreps, 1);
    }
    [[nodiscard]] std::uint64_t warmup(std::uint64_t /*bytes*/, bool /*aggregate*/ = false) const noexcept {
        return std::max<std::uint64_t>(warmup_calls, 1);
    }
    [[nodiscard]] static constexpr double warmup_budget_s() noexcept {
        return std::numeric_limits<double>::infinity();
    }
    // NLOOP x NREPS for this size, from the agreed time of one call.
    [[nodiscard]] std::uint64_t decide(std::uint64_t /*bytes*/, bool /*aggregate*/,
                                       double estimate_s, int /*processes*/, bool /*rooted*/) {
        over_budget = !method.affordable(estimate_s);
        if (over_budget) {
            last_plan = {.nloop = 1, .nreps = 1};
            return 1;
        }
        last_plan = method.plan(timer_threshold_s, estimate_s,
                                nloop_ceiling > 0 ? nloop_ceiling : method.nloop_max);
        nloop_ceiling = last_plan.nloop;
        return last_plan.nloop * last_plan.nreps;
    }
    // NREPS batches of NLOOP calls.
    [[nodiscard]] std::vector<std::uint64_t> batch_ends(std::uint64_t n, double /*estimate_s*/) const {
        const std::uint64_t reps = std::clamp<std::uint64_t>(last_plan.nreps, 1, std::max<std::uint64_t>(n, 1));
        const std::uint64_t nloop = std::max<std::uint64_t>(1, n / reps);
        std::vector<std::uint64_t> ends;
        for (std::uint64_t r = 1; r <= reps; ++r) ends.push_back(r == reps ? n : r * nloop);
        return ends;
    }
};

}  // namespace parbench::policy::iterations
