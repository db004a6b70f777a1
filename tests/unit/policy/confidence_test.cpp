// policy/confidence.hpp: the stopping rule on sample sets whose median CI is known from the
// binomial distribution B(n, 1/2), the round sizes, the verdicts, and the -confidence option.
#include <parbench/policy/confidence.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

// A namespace of the file's own: the test program is a unity build (tests/unit/meson.build), and
// its using-directives must not reach the files compiled after it.
namespace confidence_test {

using namespace parbench::policy::iterations;
using Catch::Matchers::Contains;

namespace {
const double infinite = std::numeric_limits<double>::infinity();

std::vector<double> ramp(double first, int count) {
    std::vector<double> v;
    for (int i = 0; i < count; ++i) v.push_back(first + i);
    return v;
}
}  // namespace

TEST_CASE("half-width of the median CI, known answers", "[confidence]") {
    // n = 8: P(B <= 1) = 9/256, so [x2, x7] covers only 93 %; the 95 % interval is [min, max]
    // (99.2 %). 100..107: median 103.5, half-width 3.5 / 103.5.
    CHECK(relative_half_width(ramp(100, 8)) == Approx(3.5 / 103.5));
    // n = 9: P(B <= 1) = 10/512 gives [x2, x8] at 96.1 %: samples 1..9 -> [2, 8], median 5.
    CHECK(relative_half_width(ramp(1, 9)) == Approx(0.6));
    // Order does not matter.
    CHECK(relative_half_width(std::vector<double>{8, 2, 5, 9, 1, 7, 3, 6, 4}) == Approx(0.6));
    // Five samples never reach 95 % (1 − 2/32 = 93.75 %): no width can be claimed.
    CHECK(relative_half_width(ramp(100, 5)) == infinite);
    CHECK(relative_half_width(std::vector<double>{}) == infinite);
    CHECK(relative_half_width(std::vector<double>(8, 0.0)) == infinite);  // median 0
}

TEST_CASE("rounds double up to the sample cap", "[confidence]") {
    constexpr confidence c{.target = 0.05};
    CHECK(c.next_round(0) == 8);
    CHECK(c.next_round(8) == 8);
    CHECK(c.next_round(16) == 16);
    CHECK(c.next_round(32) == 32);
    CHECK(c.next_round(64) == 0);
    constexpr confidence capped{.target = 0.05, .max_samples = 50};
    CHECK(capped.next_round(32) == 18);
    CHECK(capped.next_round(50) == 0);
}

TEST_CASE("by default a size never takes more samples than IMB's rule", "[confidence]") {
    constexpr confidence c{.target = 0.05};
    // IMB would time 20 batches: rounds of 8, 8, then the 4 left.
    const confidence twenty = c.for_size(20);
    CHECK(twenty.max_samples == 20);
    CHECK(twenty.next_round(16) == 4);
    CHECK(twenty.next_round(20) == 0);
    // 500 calls under window sync: the 64-sample cap stays.
    CHECK(c.for_size(500).max_samples == 64);
    // Fewer than a first round (a 4 MiB size times 10 batches; 3 here): the first round stays.
    CHECK(c.for_size(3).max_samples == 8);
    // Without the budget, only the cap.
    CHECK(confidence{.target = 0.05, .within_imb_budget = false}.for_size(20).max_samples == 64);
}

TEST_CASE("verdicts: met, go on, time cap, sample cap", "[confidence]") {
    // Without futility stopping (below): a row that misses takes IMB's whole budget.
    const confidence c{.base = {.secs_per_sample = 1.0}, .target = 0.05, .stop_when_futile = false};
    // 3.5 / 103.5 = 3.4 % <= 5 %: met even with the time spent.
    CHECK(c.judge(ramp(100, 8), 0.9, 0.5) == confidence_verdict::met);
    // 1..9: 60 %, far from 5 %: another round if it fits the 1 s budget.
    CHECK(c.judge(ramp(1, 9), 0.1, 0.2) == confidence_verdict::go_on);
    CHECK(c.judge(ramp(1, 9), 0.9, 0.2) == confidence_verdict::time_cap);
    // Too few samples for a 95 % claim: go on.
    CHECK(c.judge(ramp(100, 5), 0.0, 0.0) == confidence_verdict::go_on);
    // 64 samples 1..64 (median 32.5, far wider than 5 %): the cap stops it.
    CHECK(c.judge(ramp(1, 64), 0.0, 0.0) == confidence_verdict::sample_cap);
    // A tighter target is not met by the 3.4 % set.
    const confidence tight{.target = 0.03, .stop_when_futile = false};
    CHECK(tight.judge(ramp(100, 8), 0.0, 0.0) == confidence_verdict::go_on);
}

TEST_CASE("projected half-width: the interval of more samples, from inner quantiles",
          "[confidence]") {
    // 100..107 read as a distribution: the quantile q is 100 + 7q exactly. The 95 % interval of
    // the median of n samples is [x(l), x(n-1-l)] with l from B(n, 1/2) (computed by hand):
    // n = 8: l = 0; 16: 3; 20: 5; 64: 23. Projected: 7·(n-1-2l)/(n-1)/2/103.5.
    const auto projected = [](int n, int l) {
        return 7.0 * static_cast<double>(n - 1 - 2 * l) / static_cast<double>(n - 1) / 2.0 / 103.5;
    };
    CHECK(projected_half_width(ramp(100, 8), 8) == Approx(relative_half_width(ramp(100, 8))));
    CHECK(projected_half_width(ramp(100, 8), 16) == Approx(projected(16, 3)));  // 2.03 %
    CHECK(projected_half_width(ramp(100, 8), 20) == Approx(projected(20, 5)));  // 1.60 %
    CHECK(projected_half_width(ramp(100, 8), 64) == Approx(projected(64, 23)));  // 0.91 %
    // One preempted sample widens [min, max] of 8 tenfold, the projection to 64 not at all.
    std::vector<double> preempted = ramp(100, 8);
    preempted.back() = 170.0;
    CHECK(relative_half_width(preempted) == Approx(35.0 / 103.5));
    CHECK(projected_half_width(preempted, 64) == Approx(projected(64, 23)));
    CHECK(projected_half_width(ramp(100, 8), 5) == infinite);
    CHECK(projected_half_width({}, 64) == infinite);
}

TEST_CASE("futile: a target out of the budget's reach stops the row now", "[confidence]") {
    const auto with_target = [](double target, double secs = 10.0) {
        return confidence{
            .base = {.secs_per_sample = secs}, .target = target, .stop_when_futile = true};
    };
    // Futile when the projection at the caps exceeds twice the target (the margin).
    // 100..107 (3.4 % now) would give 0.91 % at the 64-sample cap: 0.46 % goes on, 0.45 % stops.
    CHECK(with_target(0.0046).judge(ramp(100, 8), 0.0, 0.0) == confidence_verdict::go_on);
    CHECK(with_target(0.0045).judge(ramp(100, 8), 0.0, 0.0) == confidence_verdict::futile);
    // The cap is the size's: IMB's 20 batches give 1.60 %: 0.81 % goes on, 0.79 % stops.
    CHECK(with_target(0.0081).for_size(20).judge(ramp(100, 8), 0.0, 0.0) ==
          confidence_verdict::go_on);
    CHECK(with_target(0.0079).for_size(20).judge(ramp(100, 8), 0.0, 0.0) ==
          confidence_verdict::futile);
    // The time budget too: 0.1 s for 8 samples, 0.2 s allowed: 16 samples reachable, 2.03 %.
    CHECK(with_target(0.0102, 0.2).judge(ramp(100, 8), 0.1, 0.0) == confidence_verdict::go_on);
    CHECK(with_target(0.0101, 0.2).judge(ramp(100, 8), 0.1, 0.0) == confidence_verdict::futile);
    // A margin of 1 stops at the projection itself.
    confidence strict = with_target(0.009);
    strict.futility_margin = 1.0;
    CHECK(strict.judge(ramp(100, 8), 0.0, 0.0) == confidence_verdict::futile);
    strict.target = 0.0092;
    CHECK(strict.judge(ramp(100, 8), 0.0, 0.0) == confidence_verdict::go_on);
    // Met and the caps come first; too few samples for an interval project nothing.
    CHECK(with_target(0.05).judge(ramp(100, 8), 0.0, 0.0) == confidence_verdict::met);
    CHECK(with_target(0.001).judge(ramp(1, 64), 0.0, 0.0) == confidence_verdict::sample_cap);
    CHECK(with_target(0.0001).judge(ramp(100, 5), 0.0, 0.0) == confidence_verdict::go_on);
    // Off (the default, -confidence_futile continue): the same unreachable target goes on.
    const confidence patient{.base = {.secs_per_sample = 10.0}, .target = 0.0045};
    CHECK_FALSE(patient.stop_when_futile);
    CHECK(patient.judge(ramp(100, 8), 0.0, 0.0) == confidence_verdict::go_on);
    CHECK(to_string(confidence_verdict::futile) == "futile");
}

TEST_CASE("off (target 0), the policy is IMB's volume rule", "[confidence]") {
    const imb_volume imb{};
    const confidence c{.base = imb};
    CHECK_FALSE(c.active());
    for (const std::uint64_t x : {0ull, 4ull, 65536ull, 4194304ull}) {
        CHECK(c.n_sample(x) == imb.n_sample(x));
        CHECK(c.warmup(x) == imb.warmup(x));
        CHECK(c.decide(x, true, 1e-3, 2, false) == imb.decide(x, true, 1e-3, 2, false));
    }
    CHECK(c.warmup_budget_s() == imb.warmup_budget_s());
    CHECK(c.max_seconds() == imb.secs_per_sample);
}

TEST_CASE("-confidence takes a percentage or a fraction", "[confidence]") {
    CHECK(parse_confidence_target("5%") == Approx(0.05));
    CHECK(parse_confidence_target("0.05") == Approx(0.05));
    CHECK(parse_confidence_target(" 2.5% ") == Approx(0.025));
    for (const char* bad : {"", "%", "0", "0%", "100%", "1", "-5%", "abc", "5%%", "nan", "inf"})
        CHECK_THROWS_WITH(parse_confidence_target(bad), Contains("expected a CI half-width"));
}

}  // namespace confidence_test
