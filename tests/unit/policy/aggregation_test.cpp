// How often an aggregate sample is timed (policy/aggregation.hpp epochs_within): all the epochs
// a confidence interval needs where their repeats fit in the budget, one where they do not.
#include <parbench/core/statistics.hpp>
#include <parbench/policy/aggregation.hpp>

#include <catch2/catch.hpp>

#include <limits>

// A namespace of the file's own: the test program is a unity build (tests/unit/meson.build).
namespace aggregation_test {

using parbench::policy::aggregation::epochs_within;

TEST_CASE("aggregate epochs within a budget for the repeats", "[aggregation]") {
    constexpr std::uint64_t six = parbench::min_ci_samples;
    REQUIRE(six == 6);
    constexpr double inf = std::numeric_limits<double>::infinity();
    // No budget, or no estimate of the epoch: every epoch wanted.
    CHECK(epochs_within(six, inf, 1.0) == six);
    CHECK(epochs_within(six, 0.005, 0.0) == six);
    // Five repeats of 1 ms fit in 5 ms; of 1.2 ms (6 ms) they do not: one epoch, never 2-5.
    CHECK(epochs_within(six, 0.005, 0.001) == six);
    CHECK(epochs_within(six, 0.005, 0.0012) == 1);
    CHECK(epochs_within(six, 0.005, 0.0049) == 1);
    CHECK(epochs_within(six, 0.005, 10.0) == 1);
    CHECK(epochs_within(six, 0.0, 1e-9) == 1);
    // A budget of none (IMB-IO's) is one epoch, even without an estimate.
    CHECK(epochs_within(six, 0.0, 0.0) == 1);
    // One wanted is one, whatever the budget.
    CHECK(epochs_within(1, inf, 1.0) == 1);
    CHECK(epochs_within(0, 0.005, 1e-6) == 1);
}

}  // namespace aggregation_test
