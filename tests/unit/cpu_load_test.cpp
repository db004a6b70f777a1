// policy/cpu_load.hpp: the calibration arithmetic of IMB_cpu_exploit's kernel (passes for a
// target, the Mflop/s figure, the probe's bounded growth, the median), the calibration against a
// fake clock, and that the kernel itself does its work.
#include <parbench/policy/cpu_load.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

namespace cpu_load = parbench::policy::cpu_load;
using Catch::Detail::Approx;

TEST_CASE("one pass of the 100x100 matrix-vector product is 20000 flops") {
    CHECK(cpu_load::flops_per_pass == 20000.0);
}

TEST_CASE("passes_for rounds to the nearest pass, at least one for a positive target") {
    CHECK(cpu_load::passes_for(1e-3, 1e-6) == 1000);
    CHECK(cpu_load::passes_for(1.4e-6, 1e-6) == 1);
    CHECK(cpu_load::passes_for(1.6e-6, 1e-6) == 2);
    CHECK(cpu_load::passes_for(1e-9, 1e-6) == 1);  // below one pass: still some work
}

TEST_CASE("passes_for gives no work for no target or an unusable rate") {
    CHECK(cpu_load::passes_for(0.0, 1e-6) == 0);
    CHECK(cpu_load::passes_for(-1.0, 1e-6) == 0);
    CHECK(cpu_load::passes_for(1e-3, 0.0) == 0);
    CHECK(cpu_load::passes_for(1e-3, -1.0) == 0);
}

TEST_CASE("rate_mflops: passes x 20000 flops over the seconds, in 10^6 flop/s") {
    // 500 passes in 5 ms: 10^7 flops / 5e-3 s = 2e9 flop/s = 2000 Mflop/s
    CHECK(cpu_load::rate_mflops(500, 5e-3) == Approx(2000.0));
    CHECK(cpu_load::rate_mflops(500, 0.0) == 0.0);
}

TEST_CASE("the probe grows at most tenfold a step and stops once long enough") {
    // 1 pass in 1 µs, 2 ms wanted: 1.5 x 2000 = 3000x, capped at 10x
    CHECK(cpu_load::next_probe_passes(1, 1e-6, 2e-3) == 10);
    // 100 passes in 1 ms: 1.5 x 2 = 3x -> 300
    CHECK(cpu_load::next_probe_passes(100, 1e-3, 2e-3) == 300);
    // a probe that took no measurable time grows tenfold
    CHECK(cpu_load::next_probe_passes(7, 0.0, 2e-3) == 70);
    // long enough: unchanged
    CHECK(cpu_load::next_probe_passes(300, 2e-3, 2e-3) == 300);
    // always at least one more pass while too short
    CHECK(cpu_load::next_probe_passes(1, 1.9e-3, 2e-3) == 2);
}

TEST_CASE("the median of the probes ignores one outlier") {
    CHECK(cpu_load::median_seconds_per_pass({1.0, 9.0, 2.0}) == 2.0);
    CHECK(cpu_load::median_seconds_per_pass({1.0, 2.0, 3.0, 100.0}) == 2.5);
    CHECK(cpu_load::median_seconds_per_pass({}) == 0.0);
}

namespace {
// A clock that advances by a fixed step per reading: each probe of any length "takes" one step,
// so the calibration arithmetic is checked without depending on the machine.
struct stepping_clock {
    double* t;
    double step;
    double now() const { return *t += step; }
};
}  // namespace

namespace {
// A clock whose step doubles at every reading: probe k (two readings) lasts longer than probe
// k-1, so the growth rule is exercised on known numbers.
struct doubling_clock {
    double* t;
    double* step;
    double now() const {
        *t += *step;
        *step *= 2.0;
        return *t;
    }
};
}  // namespace

TEST_CASE("calibrate_matvec stops growing once a probe reaches the minimum") {
    parbench::policy::matvec_load load;
    double t = 0.0;
    // Every probe lasts 1 ms; with a 0.5 ms minimum the first probe (1 pass) is long enough.
    const auto c = parbench::policy::calibrate_matvec(load, 0.5e-3, 3, stepping_clock{&t, 1e-3});
    CHECK(c.probe_passes == 1);
    CHECK(c.seconds_per_pass == Approx(1e-3));
    CHECK(c.probe_s == Approx(1e-3));
}

TEST_CASE("calibrate_matvec grows the probe by the bounded rule and times the last count") {
    parbench::policy::matvec_load load;
    double t = 0.0;
    double step = 1e-5;
    // Probes last 2e-5, 8e-5, 3.2e-4 s (readings 1-2, 3-4, 5-6); minimum 2.5e-4 s:
    //   1 pass  -> min(10, 1.5 * 2.5e-4 / 2e-5 = 18.75) = 10x -> 10 passes
    //   10      -> 1.5 * 2.5e-4 / 8e-5 = 4.6875x -> 46 passes
    //   46 passes last 3.2e-4 s >= 2.5e-4: stop.
    // The one timed probe (readings 7-8) lasts 1.28e-3 s.
    const auto c = parbench::policy::calibrate_matvec(load, 2.5e-4, 1, doubling_clock{&t, &step});
    CHECK(c.probe_passes == 46);
    CHECK(c.seconds_per_pass == Approx(1.28e-3 / 46.0));
    CHECK(c.probe_s == Approx(1.28e-3));
}

TEST_CASE("a clock that never advances cannot grow the probe without end") {
    CHECK(cpu_load::next_probe_passes(cpu_load::max_probe_passes, 0.0, 1.0) ==
          cpu_load::max_probe_passes);
    CHECK(cpu_load::next_probe_passes(cpu_load::max_probe_passes / 2, 0.0, 1.0) ==
          cpu_load::max_probe_passes);
}

TEST_CASE("the kernel runs its calibrated passes and keeps its values finite") {
    parbench::policy::matvec_load load(3);
    CHECK(load.passes() == 3);
    CHECK(load.flops() == 60000.0);
    load.run();
    load.set_passes(0);
    load.run();  // no work
    CHECK(load.passes() == 0);
}

TEST_CASE("busy_wait_for spins until the time has passed on the given clock") {
    double t = 0.0;
    const double spent = parbench::policy::busy_wait_for(1e-3, stepping_clock{&t, 1e-4});
    CHECK(spent >= 1e-3);
    CHECK(spent < 1.2e-3);
    CHECK(parbench::policy::busy_wait_for(0.0, stepping_clock{&t, 1e-4}) < 2e-4);
}
