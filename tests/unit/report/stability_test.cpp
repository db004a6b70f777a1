// Stability verdicts (report/stability.hpp) on records with chosen figures: each rule flags a row
// on the far side of its bound and not on the near side.
#include <parbench/report/stability.hpp>

#include <catch2/catch.hpp>

#include <cmath>

// A namespace of the file's own: the test program is a unity build (tests/unit/meson.build), and
// its using-directives must not reach the files compiled after it.
namespace stability_test {

using namespace parbench;
using report::assess_stability;
using report::timer_limits;

namespace {

// An IMB-style record: t_max is the headline, 1000 iterations in 20 batches.
result_record imb_row(double t_max_us, double median_us, double ci_low_us, double ci_high_us,
                      double fastest_batch_us) {
    result_record r;
    r.klass = benchmark_class::single_transfer;
    r.iterations = 1000;
    r.t_max_us = t_max_us;
    r.distribution_us.samples = 20;
    r.distribution_us.median = median_us;
    r.distribution_us.ci_low = ci_low_us;
    r.distribution_us.ci_high = ci_high_us;
    r.distribution_us.min = fastest_batch_us;
    return r;
}

}  // namespace

TEST_CASE("headline far from the median: the issue's row, and the 1.5x bound", "[stability]") {
    // t = 26.05 us against a median of 4.86 us, ci95 2.6 %: the CI alone says "trust this row".
    const auto s = assess_stability(imb_row(26.05, 4.86, 4.734, 4.986, 4.5), {});
    CHECK(s.headline_far_from_median);
    CHECK_FALSE(s.wide_ci);
    CHECK(*s.headline_to_median == Approx(26.05 / 4.86));
    CHECK_FALSE(s.stable());
    CHECK(s.flags() == std::vector<std::string>{"headline_far_from_median"});
    CHECK(s.console_note() == "t/median 5.36");

    CHECK_FALSE(assess_stability(imb_row(14.9, 10, 9.9, 10.1, 9), {}).headline_far_from_median);
    CHECK(assess_stability(imb_row(15.1, 10, 9.9, 10.1, 9), {}).headline_far_from_median);
    CHECK_FALSE(assess_stability(imb_row(6.7, 10, 9.9, 10.1, 6), {}).headline_far_from_median);
    CHECK(assess_stability(imb_row(6.6, 10, 9.9, 10.1, 6), {}).headline_far_from_median);  // < 1/1.5
}

TEST_CASE("wide CI: half-width over 10 % of the median", "[stability]") {
    const auto narrow = assess_stability(imb_row(10, 10, 9.1, 10.9, 9), {});  // 9 %
    CHECK_FALSE(narrow.wide_ci);
    CHECK(*narrow.ci_half_width_percent == Approx(9.0));
    const auto wide = assess_stability(imb_row(10, 10, 9, 11.2, 9), {});  // 11 %
    CHECK(wide.wide_ci);
    CHECK(wide.console_note() == "ci95 11%");
}

TEST_CASE("short loops: batches under 100 timer thresholds", "[stability]") {
    // Threshold max(50 ns, 20 ns) = 50 ns: a loop must last 5 us. 1000 iterations in 20
    // batches: 50 per batch; the fastest batch at 0.2 us an iteration lasts 10 us, at 0.05 us
    // 2.5 us.
    const timer_limits timer{.resolution_s = 50e-9, .overhead_s = 20e-9};
    const auto long_enough = assess_stability(imb_row(0.2, 0.2, 0.19, 0.21, 0.2), timer);
    CHECK_FALSE(long_enough.short_loops);
    CHECK(*long_enough.shortest_loop_us == Approx(10.0));
    CHECK(*long_enough.required_loop_us == Approx(5.0));
    const auto too_short = assess_stability(imb_row(0.05, 0.05, 0.049, 0.051, 0.05), timer);
    CHECK(too_short.short_loops);
    CHECK(*too_short.shortest_loop_us == Approx(2.5));
    // An unknown timer judges nothing.
    CHECK_FALSE(assess_stability(imb_row(0.05, 0.05, 0.049, 0.051, 0.05), {}).short_loops);
}

TEST_CASE("short loops: PAW loops under half their own target", "[stability]") {
    // NLOOP 1 of a 100 us call against PAW's 1 ms target: 100 us < 500 us. NLOOP 10: 1 ms.
    result_record r;
    r.klass = benchmark_class::compute;
    r.statistics = parbench::time_statistics::over_repetitions;  // PAW: NREPS loops
    r.iterations = 1;
    r.t_min_us = r.t_avg_us = 100;
    r.distribution_us.samples = 10;
    r.distribution_us.min = r.distribution_us.median = 100;
    r.distribution_us.ci_low = r.distribution_us.ci_high = 100;
    r.loop_calibration = loop_calibration_figures{.nloop_calibrated = 1000,
                                                  .loop_target_us = 1000,
                                                  .recalibrations = 0};
    const timer_limits timer{.resolution_s = 1e-9, .overhead_s = 2e-8};
    const auto s = assess_stability(r, timer);
    CHECK(s.short_loops);
    CHECK(*s.shortest_loop_us == Approx(100));
    CHECK(*s.required_loop_us == Approx(500));
    r.iterations = 10;
    CHECK_FALSE(assess_stability(r, timer).short_loops);
    // NLOOP at its ceiling (NLOOP_MAX calls of a fast kernel): short by design, not flagged
    r.iterations = 1;
    r.loop_calibration->nloop_calibrated = 1;
    CHECK_FALSE(assess_stability(r, timer).short_loops);
}

TEST_CASE("fewer samples than a 95 % CI needs: no CI, never stable", "[stability]") {
    // The fewest samples whose [min, max] covers the median with 95 %: 1 - 2 / 2^n >= 0.95.
    std::size_t need = 1;
    while (1.0 - 2.0 * std::pow(0.5, static_cast<double>(need)) < 0.95) ++need;
    REQUIRE(need == report::min_ci_samples);
    for (std::size_t n = 1; n <= need; ++n) {
        INFO(n << " samples");
        result_record r = imb_row(10, 10, 10, 10, 10);  // [min, max] of equal samples: width 0
        r.distribution_us.samples = n;
        const auto s = assess_stability(r, {});
        CHECK(s.no_ci == (n < need));
        CHECK(s.stable() == (n >= need));
        CHECK(s.samples == n);
        CHECK(s.ci_half_width_percent.has_value() == (n >= need));  // never a 0 % CI
    }
    result_record one = imb_row(10, 10, 10, 10, 10);
    one.distribution_us.samples = 1;
    const auto s = assess_stability(one, {});
    CHECK(s.flags() == std::vector<std::string>{"no_ci"});
    CHECK(s.console_note() == "no CI (1 sample)");
    report::stability_tally tally;
    tally.add(s);
    tally.add(assess_stability(imb_row(10, 10, 9.9, 10.1, 9), {}));
    CHECK_THAT(tally.summary_warning(),
               Catch::StartsWith("1 of 2 rows are unstable (marked '!'): 1 with fewer than 6 "
                                 "samples (no CI)."));
    CHECK_THAT(tally.summary_warning(), !Catch::Contains("time longer"));
    tally.set_timing_options("-i, -x");
    CHECK_THAT(tally.summary_warning(), Catch::Contains("or time longer (-i, -x);"));
}

TEST_CASE("an aggregate row of one epoch has no CI by method, not for want of time",
          "[stability]") {
    // IMB 2021 times an aggregate sample once per size (mpi/phases.hpp's repeats budget): the
    // record's epochs say 1; the ci95 cell reads no-CI, but the row is not flagged for it.
    result_record once = imb_row(10, 10, 10, 10, 10);
    once.distribution_us.samples = 1;
    once.epochs = 1;
    const auto s = assess_stability(once, {});
    CHECK_FALSE(s.no_ci);
    CHECK(s.stable());
    CHECK_FALSE(report::has_ci(once.distribution_us));
    // Its other verdicts still apply: a single epoch of short loops is flagged for them.
    once.distribution_us.min = 1e-6;
    const auto short_one = assess_stability(once, timer_limits{.resolution_s = 1e-6, .overhead_s = 0.0});
    CHECK(short_one.short_loops);
    CHECK_FALSE(short_one.no_ci);
    // Without the record's epochs one sample is still no CI.
    once.epochs.reset();
    CHECK(assess_stability(once, {}).no_ci);
}

TEST_CASE("a record without samples is not judged", "[stability]") {
    const auto s = assess_stability(result_record{}, {});
    CHECK(s.stable());
    CHECK_FALSE(s.headline_to_median);
}

TEST_CASE("timer limits from a run context; the run's one warning", "[stability]") {
    const auto t = timer_limits::from_context({{"timer_resolution_s", 1e-9},
                                               {"timer_overhead_s", 2.5e-8}});
    CHECK(t.threshold_s() == 2.5e-8);
    CHECK(timer_limits::from_context(nlohmann::json::array()).threshold_s() == 0.0);
    // A plugin writes the two keys through the typed struct; a reporter reads them back.
    const nlohmann::json written = timer_limits::of({.resolution_s = 1e-9, .overhead_s = 2.5e-8});
    CHECK(written == nlohmann::json{{"timer_resolution_s", 1e-9}, {"timer_overhead_s", 2.5e-8}});
    CHECK(written.get<timer_limits>() == t);

    report::stability_tally tally;
    tally.add(assess_stability(imb_row(10, 10, 9.9, 10.1, 9), {}));
    CHECK(tally.summary_warning().empty());
    tally.add(assess_stability(imb_row(26, 10, 9.9, 10.1, 9), {}));
    tally.add(assess_stability(imb_row(26, 10, 8, 12, 9), {}));
    CHECK(tally.unstable() == 2);
    const std::string w = tally.summary_warning();
    CHECK(w.starts_with("2 of 3 rows are unstable (marked '!'): 2 with the headline time more "
                        "than 1.5x from the median, 1 with a 95% CI wider than +-10% of the "
                        "median."));
}

}  // namespace stability_test
