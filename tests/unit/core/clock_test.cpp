// core/clock.hpp: the monotonic clock and measure_clock's resolution/overhead calibration.
#include <parbench/core/clock.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>

namespace {

// Advances `cost_ns` per reading and shows time only in steps of `tick_ns`: a clock with a known
// per-call overhead and a known resolution.
struct stepping_clock {
    std::uint64_t tick_ns = 10;
    std::uint64_t cost_ns = 3;
    std::uint64_t elapsed_ns = 1'000'001;
    double now() noexcept {
        elapsed_ns += cost_ns;
        return static_cast<double>(elapsed_ns / tick_ns * tick_ns) * 1e-9;
    }
};

struct frozen_clock {
    double now() const noexcept { return 42.0; }
};

static_assert(parbench::clock_source<stepping_clock>);
static_assert(parbench::clock_source<parbench::monotonic_clock>);

}  // namespace

TEST_CASE("measure_clock finds the resolution and per-call cost of a stepping clock", "[clock]") {
    SECTION("coarse ticks, cheap readings") {
        const auto c = parbench::measure_clock(stepping_clock{.tick_ns = 10, .cost_ns = 3});
        CHECK(c.resolution_s == Approx(10e-9).epsilon(1e-6));
        // 257 readings between start and stop, seen through 10 ns ticks: 3 ns +- 10/256 ns.
        CHECK(c.overhead_s == Approx(3e-9).epsilon(0.02));
    }
    SECTION("fine ticks, expensive readings: the step is the cost") {
        const auto c = parbench::measure_clock(stepping_clock{.tick_ns = 1, .cost_ns = 25});
        CHECK(c.resolution_s == Approx(25e-9).epsilon(1e-6));
        CHECK(c.overhead_s == Approx(25e-9).epsilon(1e-6));
    }
    SECTION("a microsecond timer") {
        const auto c = parbench::measure_clock(stepping_clock{.tick_ns = 1000, .cost_ns = 40},
                                               16, 1000);
        CHECK(c.resolution_s == Approx(1e-6).epsilon(1e-6));
        CHECK(c.overhead_s == Approx(40e-9).epsilon(0.03));
    }
}

TEST_CASE("measure_clock reports zero, not garbage, for a clock that never moves", "[clock]") {
    const auto c = parbench::measure_clock(frozen_clock{}, 2, 8);
    CHECK(c.resolution_s == 0.0);
    CHECK(c.overhead_s == 0.0);
}

// How fine and how cheap the machine's clock is depends on the machine and its load (a busy one
// makes every reading dearer): measured figures are checked for sense, not against a speed; the
// arithmetic of measure_clock is checked on the fake clocks above.
TEST_CASE("the real clock is monotonic, and measure_clock gives it a positive resolution and cost",
          "[clock]") {
    double previous = parbench::monotonic_clock::now();
    bool advanced = false;
    for (int i = 0; i < 100000; ++i) {
        const double t = parbench::monotonic_clock::now();
        REQUIRE(t >= previous);
        advanced = advanced || t > previous;
        previous = t;
    }
    CHECK(advanced);

    const auto c = parbench::measure_clock();
    CHECK(c.overhead_s > 0.0);
    CHECK(std::isfinite(c.overhead_s));
    CHECK(c.resolution_s > 0.0);
    CHECK(std::isfinite(c.resolution_s));
}
