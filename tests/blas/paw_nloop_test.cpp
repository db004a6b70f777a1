// PAW's NLOOP method with a fake clock: kernels advance simulated time by a cost model, so every
// decision (calibration, reduction with size, NLOOP_MIN, budget cuts and skips) is checked
// exactly, in microseconds of real time.
#include <parbench/pattern/compute.hpp>
#include <parbench/policy/paw_nloop.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

namespace {

using parbench::policy::iterations::paw_nloop;

// Simulated time: reading it costs `tick`; kernels add their modelled duration.
struct fake_clock {
    double* t;
    double tick = 0.0;
    double now() const {
        *t += tick;
        return *t;
    }
};

// A "kernel" of order n that takes base + per_unit * n^3 seconds.
struct modelled_kernel {
    double* t;
    double seconds;
    int* calls;
    void operator()() const {
        *t += seconds;
        ++*calls;
    }
};

}  // namespace

TEST_CASE("calibration: one loop lasts at least threshold_factor x the timer threshold",
          "[paw_nloop]") {
    paw_nloop p{.nloop_max = 1000, .nloop_min = 1, .min_loop_s = 0.0};
    CHECK(p.safety_s(1e-6) == Approx(1e-5));
    CHECK(p.calibrate(1e-6, 1e-7) == 100);   // 100 x 0.1 us = 10 us
    CHECK(p.calibrate(1e-6, 3e-7) == 34);    // rounded up, never short
    CHECK(p.calibrate(1e-6, 1e-9) == 1000);  // capped by NLOOP_MAX
    CHECK(p.calibrate(1e-6, 1e-3) == 1);     // a slow call needs one
    CHECK(p.calibrate(1e-6, 0.0) == 1000);   // immeasurably fast: the most allowed
    p.nloop_min = 5;
    CHECK(p.calibrate(1e-6, 1e-3) == 5);     // never below NLOOP_MIN
    p.min_loop_s = 1e-3;                     // parbench's floor on the loop time
    CHECK(p.calibrate(1e-6, 1e-5) == 100);
}

TEST_CASE("plan: NLOOP never rises above the ceiling; the budget lowers NREPS to min_reps",
          "[paw_nloop]") {
    paw_nloop p{.nloop_max = 1000, .nloop_min = 1, .nreps = 10, .min_reps = 3,
                .min_loop_s = 0.0, .budget_s = 1.0};
    auto plan = p.plan(1e-6, 1e-7, 50);
    CHECK(plan.nloop == 50);  // 100 wanted, ceiling 50
    CHECK(plan.nreps == 10);
    CHECK_FALSE(plan.reps_cut);
    plan = p.plan(1e-6, 0.1, 50);  // one call per loop; (1 - 0.1) / 0.1 = 9 repetitions fit
    CHECK(plan.nloop == 1);
    CHECK(plan.nreps == 9);
    CHECK(plan.reps_cut);
    plan = p.plan(1e-6, 0.4, 50);  // only one fits, but min_reps holds
    CHECK(plan.nreps == 3);
    CHECK(p.affordable(0.25));   // warm-up + 3 calls = 1 s
    CHECK_FALSE(p.affordable(0.26));
    p.budget_s = 0.0;  // unlimited
    CHECK(p.affordable(1e9));
    CHECK(p.plan(1e-6, 100.0, 50).nreps == 10);
}

TEST_CASE("the timer threshold is measured with any clock_source", "[paw_nloop]") {
    double t = 0.0;
    const double threshold = parbench::policy::iterations::timer_threshold_s(fake_clock{&t, 2e-6});
    CHECK(threshold == Approx(2e-6).epsilon(0.01));  // a reading costs one tick
}

TEST_CASE("sweep: calibrated NLOOP falls with size, stays over the threshold, skips by budget",
          "[paw_nloop][compute]") {
    double t = 0.0;
    int calls = 0;
    fake_clock clock{&t, 0.0};
    // Time per call: 1 us + 1 ns * n^3 (GEMM-like).
    const auto cost = [](std::uint64_t n) { return 1e-6 + 1e-9 * std::pow(double(n), 3); };
    parbench::pattern::compute_sweep_config cfg;
    cfg.policy = paw_nloop{.nloop_max = 1000, .nloop_min = 2, .nreps = 10, .min_reps = 3,
                           .threshold_factor = 10.0, .min_loop_s = 1e-3, .budget_s = 2.0};
    cfg.timer_threshold_s = 1e-6;
    cfg.warmup_size = 64;
    cfg.cost_exponent = 3.0;
    const std::vector<std::uint64_t> sizes{8, 16, 32, 64, 128, 256, 512, 1024};
    std::vector<parbench::pattern::compute_measurement> results;
    std::vector<std::uint64_t> skipped;
    std::vector<std::uint64_t> announced;
    const auto nloop_cal = parbench::pattern::run_compute_sweep(
        clock, cfg, sizes,
        [&](std::uint64_t n) { return modelled_kernel{&t, cost(n), &calls}; },
        [&](std::uint64_t n) { announced.push_back(n); },
        [&](const parbench::pattern::compute_measurement& m) { results.push_back(m); },
        [&](const parbench::pattern::compute_skip& s) { skipped = s.sizes; });
    // Calibration: 1 ms / 1.512 us per call = 662 calls.
    CHECK(nloop_cal == 662);
    REQUIRE(!results.empty());
    std::uint64_t previous = nloop_cal;
    for (const auto& m : results) {
        CHECK(m.nloop <= previous);                        // lowered as sizes grow
        CHECK(m.nloop >= cfg.policy.nloop_min);           // never below NLOOP_MIN
        CHECK(double(m.nloop) * cost(m.size) >= 1e-5);    // over the 10 x timer threshold
        CHECK(m.nloop_calibrated == nloop_cal);
        for (const double s : m.seconds_per_call) CHECK(s == Approx(cost(m.size)));
        // The budget: warm-up + NREPS loops fit, or NREPS is at its floor.
        const double spent = cost(m.size) * double(1 + m.nloop * m.seconds_per_call.size());
        CHECK((spent <= cfg.policy.budget_s + 1e-9 || m.seconds_per_call.size() == 3));
        previous = m.nloop;
    }
    // 512: one call 0.134 s, warm-up + 3 x 2 calls fits 2 s; 1024: predicted 1.07 s > 2/7: skip.
    CHECK(results.back().size == 512);
    CHECK(skipped == std::vector<std::uint64_t>{1024});
    CHECK(announced.size() == results.size());
    // 8: 662 calls per loop (1 ms); 256: 16.8 ms a call, 2 calls (NLOOP_MIN).
    CHECK(results.front().nloop == 662);
    CHECK(results[5].size == 256);
    CHECK(results[5].nloop == 2);
    CHECK(results[5].seconds_per_call.size() == 10);
    CHECK(results[6].seconds_per_call.size() == 6);  // (2 - 0.134) / 0.268 = 6.96
    CHECK(results[6].reps_cut);
}

TEST_CASE("sweep: collective hooks are used for every decision", "[compute]") {
    double t = 0.0;
    int calls = 0;
    int barriers = 0;
    int reductions = 0;
    fake_clock clock{&t, 0.0};
    parbench::pattern::compute_collective collective;
    collective.barrier = [&] { ++barriers; };
    collective.agree_max = [&](double v) {
        ++reductions;
        return v * 2.0;  // another rank is twice as slow
    };
    parbench::pattern::compute_sweep_config cfg;
    cfg.policy = paw_nloop{.nreps = 4, .min_reps = 2, .min_loop_s = 0.0, .budget_s = 0.0};
    const std::vector<std::uint64_t> sizes{1, 2};
    int results = 0;
    parbench::pattern::run_compute_sweep(
        clock, cfg, sizes, [&](std::uint64_t) { return modelled_kernel{&t, 1e-3, &calls}; },
        [](std::uint64_t) {}, [&](const parbench::pattern::compute_measurement& m) {
            ++results;
            CHECK(m.warmup_s == Approx(2e-3));  // the agreed (slower) rank's warm-up
        },
        [](const parbench::pattern::compute_skip&) { FAIL("nothing should be skipped"); },
        collective);
    CHECK(results == 2);
    CHECK(barriers == 2 * (1 + 4));  // before each warm-up and each repetition
    // calibration, then per size the warm-up, the first repetition (the plan's check) and the
    // next size's estimate
    CHECK(reductions == 1 + 2 * 3);
}

namespace {

// A kernel whose first call on a new workload is cold (page faults, thread start-up).
struct cold_kernel {
    double* t;
    double seconds;
    double first_seconds;
    bool warm = false;
    void operator()() {
        *t += warm ? seconds : first_seconds;
        warm = true;
    }
};

}  // namespace

TEST_CASE("sweep: a slow warm-up is corrected by the first repetition", "[compute][paw_nloop]") {
    // 2^-16 s (15.3 us) a call, but the first call of each workload takes 64x as long (2^-10 s,
    // the loop target; binary fractions keep the arithmetic exact). The warm-up stops after that
    // one call (it already lasts the target), estimates 2^-10 s a call and plans NLOOP = 1: a
    // loop of 1/64 of the target. The first repetition contradicts it, so the size is planned
    // again from 2^-16 s: NLOOP = 2^-10 / 2^-16 = 64, the calibrated NLOOP.
    const double call_s = 1.0 / 65536.0;
    const double target_s = 1.0 / 1024.0;
    double t = 0.0;
    fake_clock clock{&t, 0.0};
    parbench::pattern::compute_sweep_config cfg;
    cfg.policy = paw_nloop{.nloop_max = 1000, .nreps = 10, .min_loop_s = target_s, .budget_s = 0.0};
    const std::vector<std::uint64_t> sizes{8, 16};
    std::vector<parbench::pattern::compute_measurement> results;
    const auto calibrated = parbench::pattern::run_compute_sweep(
        clock, cfg, sizes, [&](std::uint64_t) { return cold_kernel{&t, call_s, target_s}; },
        [](std::uint64_t) {},
        [&](const parbench::pattern::compute_measurement& m) { results.push_back(m); },
        [](const parbench::pattern::compute_skip&) { FAIL("nothing should be skipped"); });
    CHECK(calibrated == 64);
    REQUIRE(results.size() == 2);
    for (const auto& m : results) {
        CHECK(m.warmup_s == target_s);
        CHECK(m.recalibrations == 1);
        CHECK(m.nloop == 64);
        CHECK(m.loop_target_s == target_s);
        REQUIRE(m.seconds_per_call.size() == 10);
        for (const double s : m.seconds_per_call) CHECK(s == call_s);
    }
}

TEST_CASE("estimate_too_high: faster than half the estimate and short of the target",
          "[paw_nloop]") {
    const paw_nloop p{.threshold_factor = 10.0, .min_loop_s = 1e-3};
    // target max(10 x 1 us, 1 ms) = 1 ms
    CHECK(p.loop_target_s(1e-6) == Approx(1e-3));
    CHECK(p.estimate_too_high(1e-3, 20e-6, 1, 1e-6));       // 20 us loop, 1/50 of the estimate
    CHECK_FALSE(p.estimate_too_high(1e-3, 20e-6, 50, 1e-6));  // 50 x 20 us = 1 ms: on target
    CHECK_FALSE(p.estimate_too_high(30e-6, 20e-6, 1, 1e-6));  // within 2x of the estimate
}
