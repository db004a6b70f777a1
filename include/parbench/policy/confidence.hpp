// The `confidence` iteration policy: stop when the median is known well enough (SKaMPI's "repeat
// until the relative error is small", on parbench's distribution-free CI of the median).
//
// A size is timed in rounds. The first round takes `first_samples` samples (batches of the
// length the batching rule gives IMB's count, or single calls under window sync); after each
// round every process holds the same agreed samples (the slowest process's time per sample,
// what the record's distribution summarises), so every process reaches the same verdict:
//
//   met        the 95 % CI of the median has a half-width ≤ target × median
//   time_cap   the next round would take the timed time past `max_seconds` (IMB's -time)
//   sample_cap `max_samples` samples are taken — by default never more than IMB's rule would
//              have timed at that size (`within_imb_budget`), so stopping early can only save
//              time against IMB's rule
//   futile     (`stop_when_futile`, off by default) the target is clearly out of reach within
//              that budget: with
//              as many samples as the sample cap and the -time cap allow, samples distributed as
//              those so far would still give an interval `futility_margin` (2) times wider than
//              the target (projected_half_width). The row stops now with its honest (wider)
//              interval instead of spending IMB's budget and missing anyway. The margin leaves
//              rows near the target to go on: a projection from 8 samples is itself noisy, and
//              without it half the rows whose budget would just reach the target stopped (on
//              the build machine). Off, such a row takes what IMB takes.
//   go_on      otherwise: the next round takes as many samples as all rounds so far (doubling)
//
// Counts, warm-up and the -time cap come from the wrapped IMB volume rule; with target 0 the
// policy is exactly that rule (one round of its batches), which is what lets the IMB driver
// carry one policy type and decide at run time.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/sizes.hpp>
#include <parbench/core/statistics.hpp>
#include <parbench/policy/iterations.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::policy::iterations {

enum class confidence_verdict { go_on, met, time_cap, sample_cap, futile };

[[nodiscard]] constexpr std::string_view to_string(confidence_verdict v) noexcept {
    switch (v) {
        case confidence_verdict::go_on: return "go_on";
        case confidence_verdict::met: return "met";
        case confidence_verdict::time_cap: return "time_cap";
        case confidence_verdict::sample_cap: return "sample_cap";
        case confidence_verdict::futile: return "futile";
    }
    return "go_on";
}

// The relative half-width of the median's CI: (ci_high − ci_low) / 2 / median; infinite when
// there are too few samples for 95 % coverage (fewer than six) or the median is not positive.
[[nodiscard]] inline double relative_half_width(std::span<const double> samples,
                                                double coverage = 0.95) {
    const summary s = summarize(samples);
    if (s.samples == 0 || s.ci_coverage < coverage || !(s.median > 0.0))
        return std::numeric_limits<double>::infinity();
    return (s.ci_high - s.ci_low) / 2.0 / s.median;
}

// The relative half-width of the median's CI that `count` samples distributed as `samples`
// would give: the order statistics that median_interval(count) bounds it by, read as quantiles
// of the present samples (interpolated). Inner quantiles, not the present extremes: with 8
// samples the interval is [min, max], which one preempted sample widens, while the interval of
// 64 lies near the 37th and 63rd percentiles. Infinite below six samples or without a positive
// median.
[[nodiscard]] inline double projected_half_width(std::span<const double> samples,
                                                 std::size_t count) {
    if (samples.empty() || count < min_ci_samples) return std::numeric_limits<double>::infinity();
    std::vector<double> sorted(samples.begin(), samples.end());
    std::sort(sorted.begin(), sorted.end());
    const double median = percentile_sorted(sorted, 0.5);
    if (!(median > 0.0)) return std::numeric_limits<double>::infinity();
    const median_interval_bounds bounds = median_interval(count);
    const double last = static_cast<double>(count - 1);
    const double low = percentile_sorted(sorted, static_cast<double>(bounds.lower) / last);
    const double high = percentile_sorted(sorted, static_cast<double>(bounds.upper) / last);
    return (high - low) / 2.0 / median;
}

struct confidence {
    imb_volume base{};
    double target = 0.0;               // relative CI half-width to reach; 0: the IMB rule alone
    std::uint64_t first_samples = 8;   // the first round (six is the least that reaches 95 %)
    std::uint64_t max_samples = 64;    // the most samples a size may take
    bool within_imb_budget = true;     // and at most the samples IMB's rule would take
    bool stop_when_futile = false;     // stop once the target is projected out of that budget
    double futility_margin = 2.0;      // ... by this factor

    [[nodiscard]] constexpr bool active() const noexcept { return target > 0.0; }

    // The rule for one size whose IMB plan has `imb_samples` samples (batches, or calls under
    // window sync): the cap lowered to that budget, but never below the first round.
    [[nodiscard]] constexpr confidence for_size(std::uint64_t imb_samples) const noexcept {
        confidence rule = *this;
        if (within_imb_budget)
            rule.max_samples =
                std::max(std::min(max_samples, imb_samples), std::max<std::uint64_t>(1, first_samples));
        return rule;
    }
    [[nodiscard]] constexpr double max_seconds() const noexcept { return base.secs_per_sample; }

    // The iteration_policy interface: the volume rule's.
    [[nodiscard]] constexpr std::uint64_t n_sample(std::uint64_t bytes,
                                                   bool aggregate = true) const noexcept {
        return base.n_sample(bytes, aggregate);
    }
    [[nodiscard]] constexpr std::uint64_t warmup(std::uint64_t bytes,
                                                 bool aggregate = true) const noexcept {
        return base.warmup(bytes, aggregate);
    }
    [[nodiscard]] constexpr double warmup_budget_s() const noexcept {
        return base.warmup_budget_s();
    }
    [[nodiscard]] std::uint64_t decide(std::uint64_t bytes, bool aggregate, double estimate_s,
                                       int processes, bool rooted) const noexcept {
        return base.decide(bytes, aggregate, estimate_s, processes, rooted);
    }
    [[nodiscard]] imb_block_budget* block_budget() const noexcept { return base.block_budget(); }
    // IMB 2021's two-run probe where the volume rule has it (imb_volume::imb2021_probes).
    [[nodiscard]] constexpr bool imb2021_probes() const noexcept { return base.imb2021_probes(); }
    [[nodiscard]] std::uint64_t imb2021_probe_rest(std::uint64_t bytes, bool aggregate,
                                                   double first_s) const {
        return base.imb2021_probe_rest(bytes, aggregate, first_s);
    }

    // Samples the next round takes after `taken` (0 before the first round).
    [[nodiscard]] constexpr std::uint64_t next_round(std::uint64_t taken) const noexcept {
        const std::uint64_t cap = std::max<std::uint64_t>(1, max_samples);
        if (taken >= cap) return 0;
        const std::uint64_t want = taken == 0 ? std::max<std::uint64_t>(1, first_samples) : taken;
        return std::min(want, cap - taken);
    }

    // The verdict after a round. `agreed` are every sample so far (time per sample, any unit);
    // `spent_s` the timed seconds so far; `next_round_s` what the next round would add.
    [[nodiscard]] confidence_verdict judge(std::span<const double> agreed, double spent_s,
                                           double next_round_s) const {
        const double half_width = relative_half_width(agreed);
        if (half_width <= target) return confidence_verdict::met;
        if (next_round(agreed.size()) == 0) return confidence_verdict::sample_cap;
        if (spent_s + next_round_s > max_seconds()) return confidence_verdict::time_cap;
        // Too few samples for an interval (infinite width) project nothing: go on.
        if (stop_when_futile && std::isfinite(half_width)) {
            // The most samples the caps allow: the sample cap, and as many as the -time budget
            // buys at the cost per sample so far.
            const double taken = static_cast<double>(agreed.size());
            double reachable = static_cast<double>(max_samples);
            if (spent_s > 0.0)
                reachable = std::min(reachable, std::floor(taken * max_seconds() / spent_s));
            if (reachable > taken &&
                projected_half_width(agreed, static_cast<std::size_t>(reachable)) >
                    futility_margin * target)
                return confidence_verdict::futile;
        }
        return confidence_verdict::go_on;
    }
};

// "-confidence 5%" or "-confidence 0.05": the target relative half-width, in (0, 1).
[[nodiscard]] inline double parse_confidence_target(std::string_view text) {
    std::string copy(parbench::trim(text));
    const bool percent = !copy.empty() && copy.back() == '%';
    if (percent) copy.pop_back();
    char* end = nullptr;
    const double value = copy.empty() ? 0.0 : std::strtod(copy.c_str(), &end);
    const bool number = !copy.empty() && end == copy.c_str() + copy.size() && std::isfinite(value);
    const double fraction = percent ? value / 100.0 : value;
    if (!number || !(fraction > 0.0) || !(fraction < 1.0))
        throw input_error("-confidence " + std::string(text) +
                          ": expected a CI half-width between 0 and 100 %, e.g. 5% or 0.05");
    return fraction;
}

}  // namespace parbench::policy::iterations

namespace parbench::policy {

// A policy that times in rounds until a verdict (see above).
template <class Policy>
concept round_policy = requires(const Policy& p, std::span<const double> agreed, double s,
                                std::uint64_t taken) {
    { p.active() } -> std::convertible_to<bool>;
    { p.for_size(taken) } -> std::convertible_to<Policy>;
    { p.next_round(taken) } -> std::convertible_to<std::uint64_t>;
    { p.judge(agreed, s, s) } -> std::same_as<iterations::confidence_verdict>;
};

static_assert(iteration_policy<iterations::confidence> && round_policy<iterations::confidence>);

}  // namespace parbench::policy
