// The verdict of an overhead bench: per-alternation ratios (parbench / reference, or rate ratio)
// reduced to a median with a distribution-free 95 % confidence interval, judged by a two-sided
// rule, and a failure whenever something was not measured.
//
// The CI is the order-statistic interval of the median: with n ratios sorted, [x_(k), x_(n+1-k)]
// (1-based) where k is the largest index with P(Binomial(n, 1/2) < k) <= 0.025; it covers the
// true median with probability >= 95 % whatever the ratios' distribution (preemptions make it
// heavy-tailed here), provided the alternations are independent. n >= 6 is needed for any
// interval at 95 %; the short benches use 15-40.
//
// Long form (benchmark()): the median itself against the tolerance (PingPong <= 1.03,
// DGEMM >= 0.98), as before. Short form (suite bench-short, a noisy shared VM): fails only when the whole
// CI lies outside [low, high], i.e. when the data show with 95 % confidence that parbench is
// more than 10 % slower or faster than the reference. Both sides: a parbench faster than a plain
// loop is as wrong (a dropped divisor, an uncounted iteration) as a slower one.
#pragma once

#include <parbench/core/statistics.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace bench {

struct median_ci {
    double median = 0.0;
    double low = 0.0;
    double high = 0.0;
    std::size_t n = 0;
};

[[nodiscard]] inline median_ci median_with_ci(std::vector<double> x) {
    median_ci r;
    r.n = x.size();
    if (x.empty()) return r;
    std::sort(x.begin(), x.end());
    const std::size_t n = x.size();
    r.median = n % 2 == 1 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
    // P(B < k) for B ~ Binomial(n, 1/2), accumulated term by term.
    std::size_t k = 0;
    double below = 0.0;  // P(B <= j - 1) when testing k = j
    double term = std::pow(0.5, static_cast<double>(n));  // P(B = 0)
    for (std::size_t j = 1; j <= n / 2; ++j) {
        below += term;  // P(B <= j - 1)
        if (below > 0.025) break;
        k = j;
        term = term * static_cast<double>(n - (j - 1)) / static_cast<double>(j);
    }
    if (k == 0) {  // too few values for a 95 % interval: the whole range
        r.low = x.front();
        r.high = x.back();
    } else {
        r.low = x[k - 1];
        r.high = x[n - k];
    }
    return r;
}

// Every value must be a finite, positive measurement.
[[nodiscard]] inline bool all_measured(const std::vector<double>& values) {
    return !values.empty() && std::all_of(values.begin(), values.end(), [](double v) {
        return std::isfinite(v) && v > 0.0;
    });
}

// Short form: fails (false) when the CI lies entirely above `high` or entirely below `low`.
[[nodiscard]] inline bool ci_within(const median_ci& c, double low, double high) {
    return !(c.low > high) && !(c.high < low) && std::isfinite(c.low) && std::isfinite(c.high);
}

// The rule of a time-ratio bench (parbench / plain per alternation): the long form's bound on the
// median ratio, the short form's interval for its CI.
struct time_ratio_rule {
    bool short_form = false;
    double tolerated = 1.03;
    double short_low = 0.90;
    double short_high = 1.10;
};

// One size's verdict and row: #bytes, n, the two loops' median times, the ratio's median and CI,
// and why it failed. False when the rule fails or anything was not measured.
[[nodiscard]] inline bool judge_time_ratio(std::uint64_t bytes, std::uint64_t n,
                                           const std::vector<double>& plain_us,
                                           const std::vector<double>& parbench_us,
                                           const std::vector<double>& ratios,
                                           const time_ratio_rule& rule) {
    const median_ci ci = median_with_ci(ratios);
    const bool measured = all_measured(plain_us) && all_measured(parbench_us) && all_measured(ratios);
    const bool ok = measured && (rule.short_form ? ci_within(ci, rule.short_low, rule.short_high)
                                                 : ci.median <= rule.tolerated);
    std::printf("%10llu %8llu %14.3f %14.3f %14.4f %10.4f %10.4f%s\n",
                static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(n),
                parbench::summarize(plain_us).median, parbench::summarize(parbench_us).median,
                ci.median, ci.low, ci.high,
                ok ? "" : !measured ? "  NOT MEASURED" : "  OUTSIDE THE RULE");
    return ok;
}

}  // namespace bench
