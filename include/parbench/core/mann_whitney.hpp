// The Mann-Whitney U test (Wilcoxon rank-sum test): do two sets of samples come from the same
// distribution, or does one tend to be larger? Distribution-free, so it suits timing samples,
// whose tails are heavy and one-sided. `parbench compare` applies it to two runs' batch samples;
// Google Benchmark's compare.py applies it to repetitions the same way.
//
// U1 = R1 - n1 (n1 + 1) / 2, with R1 the sum of the first sample's ranks in the pooled sample
// (tied values share the mean of their ranks); U1 + U2 = n1 n2. The two-sided p-value is
//   - exact when there are no ties and neither sample is larger than exact_max_samples (64, the
//     batch count of a run): 2 P(U <= min(U1, U2)) under the null
//     hypothesis, from the distribution of U counted by recursion;
//   - otherwise the normal approximation with the tie correction of the variance and a continuity
//     correction of 1/2 (as R's wilcox.test and SciPy's mannwhitneyu do).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <span>
#include <utility>
#include <vector>

namespace parbench {

struct mann_whitney_result {
    double u1 = 0.0;       // U of the first sample: pairs (x, y) with x > y, ties counting 1/2
    double u2 = 0.0;       // n1 n2 - u1
    double p_value = 1.0;  // two-sided
    bool exact = false;    // p from the exact distribution (no ties, small samples)
};

namespace detail {

// P(U <= k) for k = 0 .. n1 n2, samples of n1 and n2 without ties. Under the null hypothesis
// every arrangement of the pooled ranks is equally likely, and p(u | m, n) = m/(m+n)
// p(u - n | m-1, n) + n/(m+n) p(u | m, n-1) (the largest value belongs to the first sample or to
// the second). Only probabilities are added, so no precision is lost to cancellation.
[[nodiscard]] inline std::vector<double> mann_whitney_exact_distribution(std::size_t n1,
                                                                         std::size_t n2) {
    const std::size_t u_max = n1 * n2;
    // previous[n][k] = p(k | m - 1, n), current[n][k] = p(k | m, n)
    std::vector<std::vector<double>> previous(n2 + 1, std::vector<double>(u_max + 1, 0.0));
    for (auto& row : previous) row[0] = 1.0;  // m = 0: U is 0
    std::vector<std::vector<double>> current = previous;
    for (std::size_t m = 1; m <= n1; ++m) {
        std::fill(current[0].begin(), current[0].end(), 0.0);
        current[0][0] = 1.0;  // n = 0: U is 0
        for (std::size_t n = 1; n <= n2; ++n) {
            const double first = static_cast<double>(m) / static_cast<double>(m + n);
            const double second = 1.0 - first;
            for (std::size_t k = 0; k <= m * n; ++k) {
                const double largest_first = k >= n ? previous[n][k - n] : 0.0;
                current[n][k] = first * largest_first + second * current[n - 1][k];
            }
        }
        std::swap(previous, current);
    }
    std::vector<double> cdf = std::move(previous[n2]);
    double sum = 0.0;
    for (double& p : cdf) p = std::min(sum += p, 1.0);
    return cdf;
}

// P(U <= u) for samples of n1 and n2 without ties.
[[nodiscard]] inline double mann_whitney_exact_cdf(std::size_t n1, std::size_t n2, std::size_t u) {
    const auto cdf = mann_whitney_exact_distribution(n1, n2);
    return cdf[std::min(u, cdf.size() - 1)];
}

}  // namespace detail

// The exact distribution of U depends on the two sample sizes only, and the rows of a run share
// their batch count: comparing two runs of many rows computes it once per pair of sizes instead
// of once per row (a 64 x 64 table costs milliseconds; 100 000 rows would cost minutes).
class mann_whitney_exact_cache {
public:
    // P(U <= u) for samples of n1 and n2 without ties (U's distribution is symmetric in them).
    [[nodiscard]] double cdf(std::size_t n1, std::size_t n2, std::size_t u) {
        auto [it, inserted] = cdfs_.try_emplace({std::min(n1, n2), std::max(n1, n2)});
        if (inserted) it->second = detail::mann_whitney_exact_distribution(n1, n2);
        return it->second[std::min(u, it->second.size() - 1)];
    }

    // The distributions computed so far: one per pair of sample sizes.
    [[nodiscard]] std::size_t size() const noexcept { return cdfs_.size(); }

private:
    std::map<std::pair<std::size_t, std::size_t>, std::vector<double>> cdfs_;
};

// The exact p-value costs about (n1 n2)^2 / 4 steps and 16 (n2 + 1)(n1 n2 + 1) bytes: 64 x 64
// samples take a few milliseconds and 4 MB.
[[nodiscard]] inline mann_whitney_result mann_whitney_u(std::span<const double> first,
                                                        std::span<const double> second,
                                                        mann_whitney_exact_cache& exact_cache,
                                                        std::size_t exact_max_samples = 64) {
    mann_whitney_result result;
    const std::size_t n1 = first.size();
    const std::size_t n2 = second.size();
    if (n1 == 0 || n2 == 0) return result;

    // Ranks in the pooled sample, ties sharing their mean rank.
    struct entry {
        double value;
        bool from_first;
    };
    std::vector<entry> pooled;
    pooled.reserve(n1 + n2);
    for (const double v : first) pooled.push_back({v, true});
    for (const double v : second) pooled.push_back({v, false});
    std::sort(pooled.begin(), pooled.end(),
              [](const entry& a, const entry& b) { return a.value < b.value; });
    double rank_sum_first = 0.0;
    double tie_term = 0.0;  // sum of t^3 - t over groups of t tied values
    for (std::size_t i = 0; i < pooled.size();) {
        std::size_t j = i;
        while (j < pooled.size() && pooled[j].value == pooled[i].value) ++j;
        const double tied = static_cast<double>(j - i);
        const double mean_rank = static_cast<double>(i + 1 + j) / 2.0;  // ranks i+1 .. j
        for (std::size_t k = i; k < j; ++k)
            if (pooled[k].from_first) rank_sum_first += mean_rank;
        tie_term += tied * tied * tied - tied;
        i = j;
    }
    const double a = static_cast<double>(n1);
    const double b = static_cast<double>(n2);
    result.u1 = rank_sum_first - a * (a + 1.0) / 2.0;
    result.u2 = a * b - result.u1;
    const double u_small = std::min(result.u1, result.u2);

    if (tie_term == 0.0 && n1 <= exact_max_samples && n2 <= exact_max_samples) {
        result.exact = true;
        result.p_value = std::min(
            1.0, 2.0 * exact_cache.cdf(n1, n2, static_cast<std::size_t>(u_small)));
        return result;
    }
    const double n = a + b;
    const double variance = a * b / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
    if (!(variance > 0.0)) return result;  // every value equal: no evidence of a difference
    const double distance = std::max(0.0, std::abs(result.u1 - a * b / 2.0) - 0.5);
    result.p_value = std::min(1.0, std::erfc(distance / std::sqrt(variance) / std::sqrt(2.0)));
    return result;
}

// One test on its own (a cache of one).
[[nodiscard]] inline mann_whitney_result mann_whitney_u(std::span<const double> first,
                                                        std::span<const double> second,
                                                        std::size_t exact_max_samples = 64) {
    mann_whitney_exact_cache cache;
    return mann_whitney_u(first, second, cache, exact_max_samples);
}

}  // namespace parbench
