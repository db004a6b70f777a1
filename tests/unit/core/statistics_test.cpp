// core/statistics.hpp: type-7 percentiles, the exact-binomial confidence interval of the median,
// and the summary the result records carry.
#include <parbench/core/statistics.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <numeric>
#include <vector>

namespace {

// Independent reference: the largest 0-based k with 1 - 2 P(B <= k) >= confidence, B ~ B(n, 1/2),
// summing binomial coefficients directly (exact in double up to n = 100 to ~1e-15 relative).
struct reference_bounds {
    std::size_t lower;
    std::size_t upper;
    double coverage;
};

reference_bounds reference_interval(std::size_t n, double confidence) {
    const double total = std::ldexp(1.0, static_cast<int>(n));
    double coefficient = 1.0;  // C(n, 0)
    double cumulative = coefficient;
    reference_bounds best{0, n - 1, std::max(0.0, 1.0 - 2.0 * cumulative / total)};
    for (std::size_t k = 1; 2 * k + 1 < n; ++k) {
        coefficient = coefficient * static_cast<double>(n - k + 1) / static_cast<double>(k);
        cumulative += coefficient;
        const double coverage = 1.0 - 2.0 * cumulative / total;
        if (coverage < confidence) break;
        best = {k, n - 1 - k, coverage};
    }
    return best;
}

}  // namespace

TEST_CASE("percentile_sorted interpolates linearly (Hyndman-Fan type 7)", "[statistics]") {
    const std::vector<double> data{1.0, 2.0, 3.0, 4.0};
    // NumPy: np.percentile([1,2,3,4], [0,25,50,75,100,10]) = 1, 1.75, 2.5, 3.25, 4, 1.3
    CHECK(parbench::percentile_sorted(data, 0.0) == Approx(1.0));
    CHECK(parbench::percentile_sorted(data, 0.25) == Approx(1.75));
    CHECK(parbench::percentile_sorted(data, 0.5) == Approx(2.5));
    CHECK(parbench::percentile_sorted(data, 0.75) == Approx(3.25));
    CHECK(parbench::percentile_sorted(data, 1.0) == Approx(4.0));
    CHECK(parbench::percentile_sorted(data, 0.10) == Approx(1.3));

    const std::vector<double> eleven{0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
    CHECK(parbench::percentile_sorted(eleven, 0.05) == Approx(5.0));
    CHECK(parbench::percentile_sorted(eleven, 0.95) == Approx(95.0));
    CHECK(parbench::percentile_sorted(eleven, 0.37) == Approx(37.0));
}

TEST_CASE("percentile_sorted edge cases", "[statistics]") {
    CHECK(std::isnan(parbench::percentile_sorted({}, 0.5)));
    const std::vector<double> one{7.5};
    CHECK(parbench::percentile_sorted(one, 0.0) == 7.5);
    CHECK(parbench::percentile_sorted(one, 0.99) == 7.5);
    const std::vector<double> data{1.0, 3.0};
    // q outside [0, 1] is clamped, never reads out of range.
    CHECK(parbench::percentile_sorted(data, -0.5) == 1.0);
    CHECK(parbench::percentile_sorted(data, 1.5) == 3.0);
}

TEST_CASE("median_interval uses exact binomial order statistics", "[statistics]") {
    SECTION("n = 0 is empty") {
        const auto b = parbench::median_interval(0);
        CHECK(b.lower == 0);
        CHECK(b.upper == 0);
        CHECK(b.coverage == 0.0);
    }
    SECTION("n = 1: the single value, coverage 0") {
        const auto b = parbench::median_interval(1);
        CHECK(b.lower == 0);
        CHECK(b.upper == 0);
        CHECK(b.coverage == Approx(0.0).margin(1e-15));
    }
    SECTION("n = 5: too few for 95 %, [min, max] with 1 - 2/32") {
        const auto b = parbench::median_interval(5);
        CHECK(b.lower == 0);
        CHECK(b.upper == 4);
        CHECK(b.coverage == Approx(0.9375).epsilon(1e-12));
    }
    SECTION("n = 6: [min, max] is the first pair reaching 95 % (1 - 2/64)") {
        const auto b = parbench::median_interval(6);
        CHECK(b.lower == 0);
        CHECK(b.upper == 5);
        CHECK(b.coverage == Approx(0.96875).epsilon(1e-12));
    }
    SECTION("n = 10: x(2)..x(9) 1-based, coverage 1 - 22/1024") {
        const auto b = parbench::median_interval(10);
        CHECK(b.lower == 1);
        CHECK(b.upper == 8);
        CHECK(b.coverage == Approx(1.0 - 22.0 / 1024.0).epsilon(1e-12));
        CHECK(b.coverage == Approx(0.9785).margin(5e-5));
    }
    SECTION("n = 100: x(40)..x(61) 1-based") {
        const auto b = parbench::median_interval(100);
        CHECK(b.lower == 39);
        CHECK(b.upper == 60);
        CHECK(b.coverage == Approx(0.9648).margin(5e-5));
    }
    SECTION("agrees with a direct binomial sum for every n up to 100") {
        for (std::size_t n = 1; n <= 100; ++n) {
            INFO("n = " << n);
            const auto expected = reference_interval(n, 0.95);
            const auto b = parbench::median_interval(n);
            REQUIRE(b.lower == expected.lower);
            REQUIRE(b.upper == expected.upper);
            REQUIRE(b.coverage == Approx(expected.coverage).epsilon(1e-9));
            REQUIRE(b.lower <= b.upper);
            REQUIRE(b.upper < n);
        }
    }
    SECTION("another confidence level narrows the interval") {
        const auto b90 = parbench::median_interval(100, 0.90);
        const auto expected = reference_interval(100, 0.90);
        CHECK(b90.lower == expected.lower);
        CHECK(b90.lower > 39);
        CHECK(b90.coverage >= 0.90);
    }
    SECTION("large n stays finite and symmetric") {
        const auto b = parbench::median_interval(100000);
        CHECK(b.lower + b.upper == 99999);
        CHECK(b.coverage >= 0.95);
        CHECK(b.coverage < 0.96);
        // Normal approximation: n/2 - 1.96 sqrt(n)/2 ~ 49690.
        CHECK(b.lower > 49680);
        CHECK(b.lower < 49700);
    }
}

TEST_CASE("summarize reports min/max/mean, n-1 stddev, median and percentiles", "[statistics]") {
    SECTION("known data") {
        const std::vector<double> values{4.0, 2.0, 9.0, 5.0, 7.0, 4.0, 5.0, 4.0};  // unsorted
        const auto s = parbench::summarize(values);
        CHECK(s.samples == 8);
        CHECK(s.min == 2.0);
        CHECK(s.max == 9.0);
        CHECK(s.mean == Approx(5.0));
        // Sum of squared deviations = 32; n - 1 = 7.
        CHECK(s.stddev == Approx(std::sqrt(32.0 / 7.0)));
        CHECK(s.median == Approx(4.5));
        CHECK(s.p5 == Approx(2.0 + 0.35 * 2.0));   // position 0.35 between 2 and 4
        CHECK(s.p95 == Approx(7.0 + 0.65 * 2.0));  // position 6.65 between 7 and 9
        CHECK(s.ci_low == 2.0);                    // n = 8: [min, max], coverage 1 - 2/256
        CHECK(s.ci_high == 9.0);
        CHECK(s.ci_coverage == Approx(1.0 - 2.0 / 256.0));
    }
    SECTION("CI bounds are the order statistics median_interval names") {
        std::vector<double> values(100);
        std::iota(values.rbegin(), values.rend(), 1.0);  // 100, 99, ..., 1
        const auto s = parbench::summarize(values);
        CHECK(s.median == Approx(50.5));
        CHECK(s.ci_low == 40.0);
        CHECK(s.ci_high == 61.0);
        CHECK(s.ci_low <= s.median);
        CHECK(s.median <= s.ci_high);
        CHECK(s.p5 == Approx(5.95));
        CHECK(s.p95 == Approx(95.05));
    }
    SECTION("the mean of equal samples stays within [min, max] despite rounding") {
        // Unclamped, (0.1 + 0.1 + 0.1) / 3 rounds to 0.10000000000000002 > max.
        const std::vector<double> values{0.1, 0.1, 0.1};
        const auto s = parbench::summarize(values);
        CHECK(s.min <= s.mean);
        CHECK(s.mean <= s.max);
        const auto us = parbench::scaled(s, 1e6);
        CHECK(us.min <= us.mean);
        CHECK(us.mean <= us.max);
    }
    SECTION("a single sample has zero spread") {
        const std::vector<double> values{3.25};
        const auto s = parbench::summarize(values);
        CHECK(s.samples == 1);
        CHECK(s.stddev == 0.0);
        CHECK(s.median == 3.25);
        CHECK(s.ci_low == 3.25);
        CHECK(s.ci_high == 3.25);
    }
    SECTION("no samples gives an all-zero summary") {
        const auto s = parbench::summarize({});
        CHECK(s.samples == 0);
        CHECK(s.mean == 0.0);
        CHECK(s.median == 0.0);
    }
}

TEST_CASE("scaled multiplies times, keeps counts and coverage", "[statistics]") {
    const std::vector<double> values{1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0};
    const auto s = parbench::summarize(values);
    const auto us = parbench::scaled(s, 1e6);
    CHECK(us.samples == s.samples);
    CHECK(us.ci_coverage == s.ci_coverage);
    CHECK(us.min == Approx(1e6));
    CHECK(us.max == Approx(1e7));
    CHECK(us.mean == Approx(s.mean * 1e6));
    CHECK(us.stddev == Approx(s.stddev * 1e6));
    CHECK(us.median == Approx(s.median * 1e6));
    CHECK(us.p5 == Approx(s.p5 * 1e6));
    CHECK(us.p95 == Approx(s.p95 * 1e6));
    CHECK(us.ci_low == Approx(2e6));
    CHECK(us.ci_high == Approx(9e6));
}
