// policy/cpu_load.hpp: the calibration arithmetic of IMB_cpu_exploit's kernel (passes for a
// target, the Mflop/s figure, the probe's bounded growth, the probe length, the fastest probe,
// the check runs and the one correction), the calibration against fake clocks with known
// readings, and that the kernel itself does its work.
#include <parbench/policy/cpu_load.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
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

TEST_CASE("a timed probe lasts as long as the target, within the plan's bounds") {
    const cpu_load::calibration_plan plan;  // 0.5 ms .. 5 ms
    CHECK(cpu_load::probe_length_s(10e-6, plan) == 0.5e-3);
    CHECK(cpu_load::probe_length_s(2e-3, plan) == 2e-3);
    CHECK(cpu_load::probe_length_s(100e-3, plan) == 5e-3);
    CHECK(cpu_load::probe_length_s(0.0, plan) == 0.5e-3);   // the rate alone
    CHECK(cpu_load::probe_length_s(-1.0, plan) == 0.5e-3);
}

TEST_CASE("the check times the whole work up to 10 ms, the first 10 ms of longer work") {
    const cpu_load::calibration_plan plan;
    CHECK(cpu_load::check_passes(700, 1e-6, plan) == 700);        // 0.7 ms: all of it
    CHECK(cpu_load::check_passes(10000, 1e-6, plan) == 10000);    // exactly 10 ms
    CHECK(cpu_load::check_passes(100000, 1e-6, plan) == 10000);   // 100 ms: the first 10 ms
    CHECK(cpu_load::check_passes(3, 5e-3, plan) == 2);            // 15 ms: 2 passes of 5 ms
    CHECK(cpu_load::check_passes(100000, 0.0, plan) == 100000);   // no rate: all of it
}

TEST_CASE("the fastest probe sets the rate; empty or unusable probes give none") {
    CHECK(cpu_load::fastest_seconds_per_pass({3.0, 1.0, 2.0}) == 1.0);
    CHECK(cpu_load::fastest_seconds_per_pass({0.0, -1.0, 2.0}) == 2.0);
    CHECK(cpu_load::fastest_seconds_per_pass({}) == 0.0);
}

TEST_CASE("the correction scales the passes by target over measured, to the nearest pass") {
    // 1000 passes took 1.25 ms for a 1 ms target: 800 passes
    CHECK(cpu_load::corrected_passes(1000, 1.25e-3, 1e-3) == 800);
    // 7 passes took 8.47 us for 10 us: 10 / 1.21 = 8.26 -> 8
    CHECK(cpu_load::corrected_passes(7, 8.47e-6, 10e-6) == 8);
    // 100 ms of work checked on its first 10 000 passes, which took 12.5 ms: 80 000 passes
    CHECK(cpu_load::corrected_passes(10000, 12.5e-3, 100e-3) == 80000);
    // a check far too fast still leaves at least one pass
    CHECK(cpu_load::corrected_passes(5, 1.0, 1e-6) == 1);
    // nothing measured, or no work: unchanged
    CHECK(cpu_load::corrected_passes(1000, 0.0, 1e-3) == 1000);
    CHECK(cpu_load::corrected_passes(0, 1e-3, 1e-3) == 0);
}

namespace {
// A clock that advances by a fixed step per reading: each probe of any length "takes" one step,
// so the calibration arithmetic is checked without depending on the machine.
struct step_per_reading_clock {
    double* t;
    double step;
    double now() const { return *t += step; }
};
}  // namespace

namespace {
// A clock that returns scripted readings in order (the last one again once they run out), so the
// calibration's growth, warm-up, probes and check are checked against hand-worked numbers.
struct scripted_clock {
    const std::vector<double>* readings;
    std::size_t* next;
    double now() const {
        const std::size_t i = std::min(*next, readings->size() - 1);
        ++*next;
        return (*readings)[i];
    }
};
}  // namespace

TEST_CASE("calibrate_matvec probes as long as the target once a probe reaches the minimum") {
    parbench::policy::matvec_load load;
    double t = 0.0;
    // Every reading adds 1 ms. Warm-up start (1); growth: 1 pass lasts 1 ms >= 0.5 ms, stop;
    // warm-up: 4 - 1 = 3 ms >= 1 ms, done; probe length for a 2 ms target: 2 ms = 2 passes at
    // 1 ms; five probes of 2 passes, each lasting 1 ms: 0.5 ms per pass.
    const auto c = parbench::policy::calibrate_matvec(load, 2e-3, {}, step_per_reading_clock{&t, 1e-3});
    CHECK(c.probe_passes == 2);
    CHECK(c.seconds_per_pass == Approx(0.5e-3));
    CHECK(c.probe_s == Approx(1e-3));
}

TEST_CASE("calibrate_matvec takes the fastest of its probes") {
    parbench::policy::matvec_load load;
    // warm-up start; growth 1 pass in 1 ms (stop); warm-up check; a 3 ms target: 3 passes;
    // five probes of 3 passes lasting 3.3, 3.0, 6.0 (preempted), 3.6, 3.9 ms.
    const std::vector<double> readings{0.0,  0.0,  1e-3, 1e-3,  10e-3, 13.3e-3, 20e-3, 23e-3,
                                       30e-3, 36e-3, 40e-3, 43.6e-3, 50e-3, 53.9e-3};
    std::size_t next = 0;
    const auto c =
        parbench::policy::calibrate_matvec(load, 3e-3, {}, scripted_clock{&readings, &next});
    CHECK(next == readings.size());  // every reading used: growth, warm-up, five probes
    CHECK(c.probe_passes == 3);
    CHECK(c.seconds_per_pass == Approx(1e-3));  // the median would be 1.2 ms
    CHECK(c.probe_s == Approx(3e-3));
}

TEST_CASE("calibrate_matvec grows the probe by the bounded rule, then sizes it from that rate") {
    parbench::policy::matvec_load load;
    cpu_load::calibration_plan plan;
    plan.min_probe_s = 2.5e-4;
    plan.probes = 1;
    // Growth with a 0.25 ms minimum:
    //   1 pass in 20 us   -> min(10, 1.5 x 250 / 20 = 18.75) = 10x -> 10 passes
    //   10 in 80 us       -> 1.5 x 250 / 80 = 4.6875x -> 46 passes
    //   46 in 320 us >= 250 us: stop, 6.9565 us a pass.
    // Warm-up: 3 ms since the start, done. No target: a 0.25 ms probe = 250 / 6.9565 = 35.9 ->
    // 36 passes; the one probe lasts 360 us: 10 us a pass.
    const std::vector<double> readings{0.0,  0.0,     2e-5,  1e-3, 1.08e-3, 2e-3,
                                       2.32e-3, 3e-3, 4e-3, 4.36e-3};
    std::size_t next = 0;
    const auto c =
        parbench::policy::calibrate_matvec(load, 0.0, plan, scripted_clock{&readings, &next});
    CHECK(next == readings.size());
    CHECK(c.probe_passes == 36);
    CHECK(c.seconds_per_pass == Approx(1e-5));
    CHECK(c.probe_s == Approx(3.6e-4));
}

TEST_CASE("calibrate_matvec tops the growth up to the warm-up time before any timed probe") {
    parbench::policy::matvec_load load;
    // Growth: 1 pass in 1 ms, stop at 1 ms since the start; the warm-up runs the probe again
    // until 2 ms have passed (readings 1.5 and 2.5 ms), then one 0.5 ms probe of 1 pass.
    cpu_load::calibration_plan plan;
    plan.warm_up_s = 2e-3;
    plan.probes = 1;
    const std::vector<double> readings{0.0, 0.0, 1e-3, 1.5e-3, 2.5e-3, 3e-3, 3.7e-3};
    std::size_t next = 0;
    const auto c =
        parbench::policy::calibrate_matvec(load, 0.0, plan, scripted_clock{&readings, &next});
    CHECK(next == readings.size());
    CHECK(c.probe_passes == 1);
    CHECK(c.seconds_per_pass == Approx(0.7e-3));
}

TEST_CASE("time_passes times the given passes and keeps the fastest run") {
    parbench::policy::matvec_load load;
    const std::vector<double> readings{0.0, 2e-3, 5e-3, 6e-3, 10e-3, 13e-3};  // 2, 1, 3 ms
    std::size_t next = 0;
    CHECK(parbench::policy::time_passes(load, 2, 3, scripted_clock{&readings, &next}) ==
          Approx(1e-3));
    CHECK(next == readings.size());
    CHECK(parbench::policy::time_passes(load, 2, 0, scripted_clock{&readings, &next}) == 0.0);
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
    const double spent = parbench::policy::busy_wait_for(1e-3, step_per_reading_clock{&t, 1e-4});
    CHECK(spent >= 1e-3);
    CHECK(spent < 1.2e-3);
    CHECK(parbench::policy::busy_wait_for(0.0, step_per_reading_clock{&t, 1e-4}) < 2e-4);
}

// IMB 2021's calibration (IMB_cpu_exploit.c:98-134), worked by hand from the source: SIZE 10, so
// the probe is 50000000 / (2 x 10 x 10) + 1 = 250001 passes; the passes per second
// (int)(1 / t x 250001); the target's passes max(1, (int)(target x that)).
TEST_CASE("IMB 2021's calibration arithmetic: its probe, its rate, its target's passes") {
    CHECK(cpu_load::imb_probe_passes(10) == 250001);
    CHECK(cpu_load::imb_probe_passes(100) == 2501);
    CHECK(cpu_load::flops_per_pass_of(10) == 200.0);
    // a probe of 250001 passes in 25 ms: 10000040 passes a second; 0.01 s -> 100000 passes
    CHECK(cpu_load::imb_passes_per_second(250001, 0.025) == 10000040);
    CHECK(cpu_load::imb_target_passes(0.01, 10000040) == 100000);
    CHECK(cpu_load::imb_target_passes(1e-9, 10000040) == 1);  // max(1, 0)
    CHECK(cpu_load::imb_target_passes(0.0, 10000040) == 0);   // IMB returns at once
    // no time read: no division by zero, the rate stops at int's largest
    CHECK(cpu_load::imb_passes_per_second(250001, 0.0) == 2147483647);
    CHECK(cpu_load::imb_target_passes(2.0, 2147483647) == 2147483647);
    // the rate line: 250001 passes of 200 flops in 25 ms = 2000.008 Mflop/s
    CHECK(cpu_load::rate_mflops(250001, 0.025, 10) == Approx(2000.008));
}

TEST_CASE("calibrate_like_imb: one probe, the target's passes set, t_CPU the one timed run") {
    parbench::policy::matvec_load load(0, cpu_load::imb2021_matrix_order);
    // The probe reads 0 and 25 ms (250001 passes: 10000040 a second, 100000 passes for 10 ms);
    // the one run of them reads 30 ms and 38.2 ms: IMB's tCPU is 8.2 ms, not the 10 ms aimed at.
    const std::vector<double> readings{0.0, 25e-3, 30e-3, 38.2e-3};
    std::size_t next = 0;
    const auto c =
        parbench::policy::calibrate_like_imb(load, 0.01, scripted_clock{&readings, &next});
    CHECK(next == readings.size());  // two timings, nothing more
    CHECK(c.order == 10);
    CHECK(c.probe_passes == 250001);
    CHECK(c.probe_s == Approx(25e-3));
    CHECK(c.passes_per_second == 10000040);
    CHECK(c.passes == 100000);
    CHECK(load.passes() == 100000);
    CHECK(c.run_s == Approx(8.2e-3));
    CHECK(c.mflops() == Approx(2000.008));
    // No target: no work and no run timed (IMB_cpu_exploit.c:94-96 returns before it).
    std::size_t again = 0;
    const auto none =
        parbench::policy::calibrate_like_imb(load, 0.0, scripted_clock{&readings, &again});
    CHECK(none.passes == 0);
    CHECK(none.run_s == 0.0);
    CHECK(again == 2);
}

// IMB-NBC 2021 (IMB_reduce.c:188-191): the rate probed at the first IMB_cpu_exploit call only
// (MFlops < 0, IMB_cpu_exploit.c:98), then IMB_cpu_exploit(t_pure, 1) at every size: passes
// max(1, (int)(t_pure x Nrep)) at the probed rate, run once and timed; no second probe.
TEST_CASE("probe_like_imb once, then initialize_like_imb per size from t_pure") {
    parbench::policy::matvec_load load(0, cpu_load::imb2021_matrix_order);
    // The probe reads 0 and 25 ms: 10000040 passes a second.
    const std::vector<double> readings{0.0, 25e-3, 1.0, 1.0004, 2.0, 2.0000001};
    std::size_t next = 0;
    parbench::policy::imb_calibration c;
    parbench::policy::probe_like_imb(load, c, scripted_clock{&readings, &next});
    CHECK(next == 2);
    CHECK(c.passes_per_second == 10000040);
    CHECK(c.passes == 0);
    // A size whose t_pure is 40 us: (int)(40e-6 x 10000040) = 400 passes, one run timed.
    parbench::policy::initialize_like_imb(load, c, 40e-6, scripted_clock{&readings, &next});
    CHECK(next == 4);  // the run only: no second probe
    CHECK(c.passes == 400);
    CHECK(load.passes() == 400);
    CHECK(c.run_s == Approx(0.4e-3));
    CHECK(c.passes_per_second == 10000040);  // the run's rate kept
    // t_pure 5 ns: (int)(0.05) = 0, at least one pass.
    parbench::policy::initialize_like_imb(load, c, 5e-9, scripted_clock{&readings, &next});
    CHECK(next == 6);
    CHECK(c.passes == 1);
    CHECK(load.passes() == 1);
    // t_pure 0: IMB returns before any work (IMB_cpu_exploit.c:94-96); nothing timed.
    parbench::policy::initialize_like_imb(load, c, 0.0, scripted_clock{&readings, &next});
    CHECK(next == 6);
    CHECK(c.passes == 0);
    CHECK(load.passes() == 0);
    CHECK(c.run_s == 0.0);
}

TEST_CASE("the kernel takes any order: IMB 2021's 10x10 pass is 200 flops") {
    parbench::policy::matvec_load load(5, 10);
    CHECK(load.order() == 10);
    CHECK(load.flops() == 1000.0);
    load.run();
    CHECK(parbench::policy::matvec_load{}.order() == 100);
}
