// The overlap suite's figures (plugins/mpi/overlap/availability.hpp) against hand-computed
// answers of the seed's definitions: overhead = iter_t − work_t, avail(%) = 100 (1 − overhead /
// base_t), and the ramp that doubles work_t from base_t until work_t >= base_t and
// work_t >= threshold · overhead.
#include "overlap/availability.hpp"

#include <parbench/report/result.hpp>

#include <catch2/catch.hpp>

#include <functional>
#include <optional>

// A namespace of the file's own: the test program is a unity build (tests/unit/meson.build), and
// its using-directives must not reach the files compiled after it.
namespace overlap_availability_test {

using namespace parbench::overlap;

TEST_CASE("overhead is iter_t - work_t, never negative", "[overlap]") {
    CHECK(overhead_us(5.0, 3.0) == Approx(2.0));
    CHECK(overhead_us(3.0, 3.0) == 0.0);
    CHECK(overhead_us(2.9, 3.0) == 0.0);  // timing noise below the work: no negative cost
}

TEST_CASE("avail(%) = 100 (1 - overhead / base_t)", "[overlap]") {
    CHECK(*availability_percent(0.5, 2.0) == Approx(75.0));
    CHECK(*availability_percent(0.0, 2.0) == Approx(100.0));
    CHECK(*availability_percent(2.0, 2.0) == Approx(0.0));
    CHECK(*availability_percent(3.0, 2.0) == Approx(-50.0));  // costlier than blocking: kept
    CHECK_FALSE(availability_percent(1.0, 0.0).has_value());  // no base time: undefined
    CHECK_FALSE(availability_percent(1.0, -1.0).has_value());
}

TEST_CASE("work dominates once work_t >= base_t and work_t >= threshold * overhead", "[overlap]") {
    const ramp_rule rule{.threshold = 2.0};
    CHECK_FALSE(rule.work_dominates(1.0, 1.0, 2.0));  // overhead 1: 1 < 2
    CHECK(rule.work_dominates(1.0, 2.0, 3.0));        // overhead 1: 2 >= 2
    CHECK_FALSE(rule.work_dominates(4.0, 2.0, 2.0));  // no overhead, but shorter than base_t
    CHECK(rule.work_dominates(4.0, 4.0, 4.5));        // overhead 0.5: 4 >= 1
    const ramp_rule strict{.threshold = 10.0};
    CHECK_FALSE(strict.work_dominates(1.0, 2.0, 3.0));  // 2 < 10
}

TEST_CASE("the ramp starts at base_t (1 us at least), doubles, and gives up", "[overlap]") {
    CHECK(ramp_rule::first_work_us(3.5) == 3.5);
    CHECK(ramp_rule::first_work_us(0.2) == 1.0);
    const ramp_rule rule{.threshold = 2.0, .max_steps = 3, .max_work_us = 100.0};
    CHECK(*rule.next_work_us(4.0, 1) == 8.0);
    CHECK_FALSE(rule.next_work_us(4.0, 3).has_value());   // max_steps reached
    CHECK_FALSE(rule.next_work_us(60.0, 1).has_value());  // 120 us > max_work_us
}

namespace {

struct outcome {
    double work_t, iter_t, overhead;
    std::optional<double> avail;
    bool dominated;
    int steps;
};

// The suite's loop (suites/overlap.cpp) over a model of the iteration time.
outcome ramp(const ramp_rule& rule, double base, const std::function<double(double)>& iter_of) {
    double work = ramp_rule::first_work_us(base);
    for (int steps = 1;; ++steps) {
        const double iter = iter_of(work);
        const bool dominated = rule.work_dominates(base, work, iter);
        const auto next = rule.next_work_us(work, steps);
        if (dominated || !next) {
            const double o = overhead_us(iter, work);
            return {work, iter, o, availability_percent(o, base), dominated, steps};
        }
        work = *next;
    }
}

}  // namespace

TEST_CASE("no overlap: the ramp ends at 2 base_t and avail is 0", "[overlap]") {
    // iter = base + work: work 1 (overhead 1 > 1/2), work 2 (2 >= 2 * 1) stops.
    const auto r = ramp(ramp_rule{}, 1.0, [](double w) { return 1.0 + w; });
    CHECK(r.dominated);
    CHECK(r.steps == 2);
    CHECK(r.work_t == 2.0);
    CHECK(r.iter_t == 3.0);
    CHECK(r.overhead == Approx(1.0));
    CHECK(*r.avail == Approx(0.0));
}

TEST_CASE("full overlap: the first step dominates and avail is 100 (1 - cost / base_t)",
          "[overlap]") {
    // iter = max(base, work) + 0.5 us of call and wait: overhead 0.5 at work = base = 10.
    const auto r = ramp(ramp_rule{}, 10.0, [](double w) { return std::max(10.0, w) + 0.5; });
    CHECK(r.dominated);
    CHECK(r.steps == 1);
    CHECK(r.overhead == Approx(0.5));
    CHECK(*r.avail == Approx(95.0));
}

TEST_CASE("a higher threshold ramps further", "[overlap]") {
    // iter = work + 1 (overhead 1, base 1): threshold 5 needs work >= 5, i.e. 8 after 1, 2, 4.
    const auto r = ramp(ramp_rule{.threshold = 5.0}, 1.0, [](double w) { return w + 1.0; });
    CHECK(r.steps == 4);
    CHECK(r.work_t == 8.0);
}

TEST_CASE("an overhead that grows with the work never dominates: the ramp gives up", "[overlap]") {
    const ramp_rule rule{.threshold = 2.0, .max_steps = 5, .max_work_us = 1e6};
    const auto r = ramp(rule, 1.0, [](double w) { return 2.0 * w; });  // overhead = work
    CHECK_FALSE(r.dominated);
    CHECK(r.steps == 5);
    CHECK(r.work_t == 16.0);
}

TEST_CASE("the record's availability figures: JSON names with units, null avail, round trip",
          "[overlap]") {
    parbench::result_record r;
    r.suite = "overlap";
    r.benchmark = "allreduce";
    parbench::availability_figures a;
    a.base_t_us = 2.0;
    a.iter_t_us = 5.0;
    a.work_t_us = 4.0;
    a.overhead_us = 1.0;
    a.avail_percent = 50.0;
    a.threshold = 2.0;
    a.work_dominated = true;
    a.ramp_us = {{2.0, 4.5}, {4.0, 5.0}};
    r.availability = a;
    const nlohmann::json j = r;
    const auto& ja = j.at("availability");
    CHECK(ja.at("base_t_us") == 2.0);
    CHECK(ja.at("overhead_us") == 1.0);
    CHECK(ja.at("avail_percent") == 50.0);
    CHECK(ja.at("ramp").at(1).at("work_t_us") == 4.0);
    CHECK(j.get<parbench::result_record>().availability == a);
    r.availability->avail_percent.reset();  // base_t 0: undefined, null in JSON
    CHECK(nlohmann::json(r).at("availability").at("avail_percent").is_null());
    r.availability.reset();  // other suites' rows carry none
    CHECK_FALSE(nlohmann::json(r).contains("availability"));
    CHECK_FALSE(nlohmann::json(r).get<parbench::result_record>().availability.has_value());
}

}  // namespace overlap_availability_test
