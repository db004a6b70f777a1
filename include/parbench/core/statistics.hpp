// Descriptive statistics over repeated samples: the figures the incumbent suites report
// (min/max/mean/stddev) and parbench's own (median, percentiles, a distribution-free confidence
// interval of the median).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <span>
#include <vector>

namespace parbench {

// Linear-interpolation percentile (Hyndman & Fan type 7, the default of R and NumPy) of an
// ascending range. q in [0, 1].
[[nodiscard]] inline double percentile_sorted(std::span<const double> sorted, double q) noexcept {
    if (sorted.empty()) return std::nan("");
    if (sorted.size() == 1) return sorted.front();
    const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const auto above = std::min(below + 1, sorted.size() - 1);
    const double fraction = position - static_cast<double>(below);
    return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

// Order-statistic bounds of a confidence interval for the median: indices (0-based) into the
// sorted sample and the coverage actually achieved. Uses the exact binomial distribution
// B(n, 1/2), so it holds for any continuous distribution (no normality assumed). With fewer than
// six samples no pair reaches 95 %; the widest interval [min, max] is returned with its (lower)
// coverage, and callers should show that coverage rather than pretend.
// The fewest samples whose order statistics bound the median with 95 % coverage: [min, max] of
// six covers 1 - 2/2^6 = 96.9 %, of five only 93.8 %.
inline constexpr std::size_t min_ci_samples = 6;

struct median_interval_bounds {
    std::size_t lower = 0;
    std::size_t upper = 0;
    double coverage = 0.0;
};

[[nodiscard]] inline median_interval_bounds median_interval(std::size_t n,
                                                            double confidence = 0.95) noexcept {
    if (n == 0) return {};
    // The interval [x[i], x[n-1-i]] (0-based, sorted) covers the median with probability
    // 1 - 2 P(B <= i). Binomial terms are computed in log space to stay exact for large n.
    const double log_half_n = static_cast<double>(n) * std::log(0.5);
    double cumulative = std::exp(log_half_n);  // P(B <= 0)
    std::size_t best_lower = 0;
    double best_coverage = std::max(0.0, 1.0 - 2.0 * cumulative);  // [min, max]
    for (std::size_t i = 1; 2 * i + 1 < n; ++i) {
        const double log_binom = std::lgamma(static_cast<double>(n) + 1.0) -
                                 std::lgamma(static_cast<double>(i) + 1.0) -
                                 std::lgamma(static_cast<double>(n - i) + 1.0);
        cumulative += std::exp(log_binom + log_half_n);  // now P(B <= i)
        const double coverage = 1.0 - 2.0 * cumulative;
        if (coverage < confidence) break;
        best_lower = i;
        best_coverage = coverage;
    }
    return {best_lower, n - 1 - best_lower, best_coverage};
}

// Summary of one set of samples (seconds, microseconds — any unit; the caller keeps it).
struct summary {
    std::size_t samples = 0;
    double min = 0.0;
    double max = 0.0;
    double mean = 0.0;
    double stddev = 0.0;  // sample standard deviation (n - 1); 0 for a single sample
    double median = 0.0;
    double p5 = 0.0;
    double p95 = 0.0;
    double ci_low = 0.0;  // confidence interval of the median
    double ci_high = 0.0;
    double ci_coverage = 0.0;  // achieved coverage of [ci_low, ci_high], e.g. 0.961
};

[[nodiscard]] inline summary summarize(std::span<const double> values) {
    summary s;
    s.samples = values.size();
    if (values.empty()) return s;
    std::vector<double> sorted(values.begin(), values.end());
    std::sort(sorted.begin(), sorted.end());
    s.min = sorted.front();
    s.max = sorted.back();
    // The exact mean lies in [min, max]; the rounded sum can leave it by an ulp
    // ((0.1 + 0.1 + 0.1) / 3 > 0.1), which consumers rightly treat as impossible.
    s.mean = std::clamp(
        std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(s.samples),
        s.min, s.max);
    if (s.samples > 1) {
        double squares = 0.0;
        for (const double v : sorted) squares += (v - s.mean) * (v - s.mean);
        s.stddev = std::sqrt(squares / static_cast<double>(s.samples - 1));
    }
    s.median = percentile_sorted(sorted, 0.5);
    s.p5 = percentile_sorted(sorted, 0.05);
    s.p95 = percentile_sorted(sorted, 0.95);
    const auto bounds = median_interval(s.samples);
    s.ci_low = sorted[bounds.lower];
    s.ci_high = sorted[bounds.upper];
    s.ci_coverage = bounds.coverage;
    return s;
}

// Scales every time-valued field (e.g. seconds -> microseconds); counts and coverage stay.
[[nodiscard]] constexpr summary scaled(summary s, double factor) noexcept {
    s.min *= factor;
    s.max *= factor;
    s.mean *= factor;
    s.stddev *= factor;
    s.median *= factor;
    s.p5 *= factor;
    s.p95 *= factor;
    s.ci_low *= factor;
    s.ci_high *= factor;
    return s;
}

}  // namespace parbench
