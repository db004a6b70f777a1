// report/overlap.hpp: IMB-NBC's overlap[%] (catalogue A.3.4) and the record's typed figures.
// Expected values are worked by hand from the formula
//   100 · max(0, min(1, (t_pure + t_CPU − t_ovrl) / min(t_pure, t_CPU))).
#include <parbench/report/overlap.hpp>
#include <parbench/report/result.hpp>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <limits>

using parbench::overlap_percent;
using Catch::Detail::Approx;

TEST_CASE("perfect overlap: t_ovrl equals the longer of the two is 100 %") {
    CHECK(overlap_percent(10.0, 10.0, 4.0) == Approx(100.0));  // work hides behind communication
    CHECK(overlap_percent(10.0, 4.0, 10.0) == Approx(100.0));  // communication behind work
    CHECK(overlap_percent(8.0, 8.0, 8.0) == Approx(100.0));
}

TEST_CASE("no overlap: t_ovrl equals the sum is 0 %") {
    CHECK(overlap_percent(14.0, 10.0, 4.0) == Approx(0.0));
}

TEST_CASE("partial overlap is the hidden fraction of the shorter time") {
    // (10 + 4 - 12) / 4 = 0.5
    CHECK(overlap_percent(12.0, 10.0, 4.0) == Approx(50.0));
    // (3 + 5 - 7) / 3 = 1/3
    CHECK(overlap_percent(7.0, 3.0, 5.0) == Approx(100.0 / 3.0));
}

TEST_CASE("t_ovrl below the max is clamped to 100 %, above the sum to 0 %") {
    // (10 + 4 - 9) / 4 = 1.25 -> 1
    CHECK(overlap_percent(9.0, 10.0, 4.0) == Approx(100.0));
    // (10 + 4 - 20) / 4 = -1.5 -> 0
    CHECK(overlap_percent(20.0, 10.0, 4.0) == Approx(0.0));
}

TEST_CASE("no work or no communication: nothing to hide, 0 %, no division by zero") {
    CHECK(overlap_percent(10.0, 10.0, 0.0) == 0.0);
    CHECK(overlap_percent(5.0, 0.0, 5.0) == 0.0);
    CHECK(overlap_percent(0.0, 0.0, 0.0) == 0.0);
    CHECK(overlap_percent(std::numeric_limits<double>::quiet_NaN(), 1.0, 1.0) == 0.0);
    CHECK(overlap_percent(1.0, std::numeric_limits<double>::infinity(), 1.0) == 0.0);
}

TEST_CASE("make_overlap_figures computes the percentage from the three times") {
    const auto f = parbench::make_overlap_figures(12.0, 10.0, 4.0);
    CHECK(f.t_ovrl_us == 12.0);
    CHECK(f.t_pure_us == 10.0);
    CHECK(f.t_cpu_us == 4.0);
    CHECK(f.overlap_percent == Approx(50.0));
}

TEST_CASE("a record's overlap figures travel through JSON under names with units") {
    parbench::result_record r;
    r.suite = "imb-nbc";
    r.benchmark = "Iallreduce";
    r.klass = parbench::benchmark_class::collective;
    r.block.title = "Iallreduce";
    r.overlap = parbench::make_overlap_figures(12.0, 10.0, 4.0);
    const nlohmann::json j = r;
    REQUIRE(j.contains("overlap"));
    CHECK(j["overlap"]["t_ovrl_us"] == 12.0);
    CHECK(j["overlap"]["t_pure_us"] == 10.0);
    CHECK(j["overlap"]["t_cpu_us"] == 4.0);
    CHECK(j["overlap"]["overlap_percent"].get<double>() == Approx(50.0));
    const auto back = j.get<parbench::result_record>();
    REQUIRE(back.overlap.has_value());
    CHECK(*back.overlap == *r.overlap);
}

TEST_CASE("a record without overlap figures has no overlap entry and reads back without one") {
    parbench::result_record r;
    r.suite = "imb-mpi1";
    r.benchmark = "Allreduce";
    r.block.title = "Allreduce";
    const nlohmann::json j = r;
    CHECK_FALSE(j.contains("overlap"));
    CHECK_FALSE(j.get<parbench::result_record>().overlap.has_value());
}
