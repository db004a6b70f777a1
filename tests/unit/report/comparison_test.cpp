// Comparing runs (report/comparison.hpp) on hand-made rows: verdicts from the U test, the
// geometric mean per suite, --fail-above's rows, pooling of repeated runs, and bad input.
#include <parbench/report/comparison.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <vector>

#include <unistd.h>

// A namespace of the file's own: the test program is a unity build (tests/unit/meson.build), and
// its using-directives must not reach the files compiled after it.
namespace comparison_test {

using namespace parbench;
using report::change_verdict;
using report::run_row;
using report::run_rows;

namespace {

std::vector<double> range(double first, int n, double step) {
    std::vector<double> v;
    for (int i = 0; i < n; ++i) v.push_back(first + i * step);
    return v;
}

run_row row(const std::string& name, const std::string& suite, std::vector<double> samples) {
    const double median = summarize(samples).median;
    return {name, suite, median, std::move(samples), {median}};
}

}  // namespace

TEST_CASE("verdicts: separated samples are significant, identical ones are not", "[compare]") {
    // old 1.0 .. 1.9, new 2.0 .. 2.9 (10 each): U = 0, exact p = 2 / C(20, 10) = 1.0825e-5;
    // medians 1.45 and 2.45: +68.97 %.
    const run_rows old_run{{row("a/slower", "s1", range(1.0, 10, 0.1)),
                            row("a/same", "s1", range(1.0, 10, 0.1)),
                            row("b/faster", "s2", range(2.0, 10, 0.1)),
                            row("b/only_old", "s2", range(1.0, 10, 0.1))},
                           {}};
    const run_rows new_run{{row("a/slower", "s1", range(2.0, 10, 0.1)),
                            row("a/same", "s1", range(1.0, 10, 0.1)),
                            row("b/faster", "s2", range(1.0, 10, 0.1)),
                            row("b/only_new", "s2", range(1.0, 10, 0.1))},
                           {}};
    const auto c = report::compare_runs(old_run, new_run);
    REQUIRE(c.rows.size() == 3);
    CHECK(c.only_old == 1);
    CHECK(c.only_new == 1);
    CHECK(c.rows[0].verdict == change_verdict::slower);
    CHECK(c.rows[0].test->p_value == Approx(1.082508822446903e-05).epsilon(1e-9));
    CHECK(c.rows[0].change() == Approx(2.45 / 1.45 - 1.0));
    CHECK(c.rows[1].verdict == change_verdict::same);
    CHECK(c.rows[1].test->p_value == 1.0);
    CHECK(c.rows[2].verdict == change_verdict::faster);

    // s1: ratios 2.45/1.45 and 1 -> geometric mean sqrt(2.45/1.45); s2: 1.45/2.45.
    REQUIRE(c.suites.size() == 2);
    CHECK(c.suites[0].suite == "s1");
    CHECK(c.suites[0].rows == 2);
    CHECK(c.suites[0].slower == 1);
    CHECK(c.suites[0].geomean_ratio == Approx(std::sqrt(2.45 / 1.45)));
    CHECK(c.suites[1].geomean_ratio == Approx(1.45 / 2.45));
    CHECK(c.suites[1].faster == 1);

    CHECK(report::regressions_above(c, 0.05).size() == 1);
    CHECK(report::regressions_above(c, 0.70).empty());  // +69 % is under 70 %
}

TEST_CASE("a significant change needs samples on both sides", "[compare]") {
    run_row medians_only{"x", "s", 1.0, {}, {1.0}};
    const auto c = report::compare_row(medians_only, row("x", "s", range(5.0, 10, 0.1)));
    CHECK(c.verdict == change_verdict::untested);
    CHECK_FALSE(c.test);
    CHECK(c.change() == Approx(5.45 - 1.0));
}

TEST_CASE("no rows in common is bad input", "[compare]") {
    const run_rows a{{row("a", "s", {1, 2})}, {}}, b{{row("b", "s", {1, 2})}, {}};
    CHECK_THROWS_AS(report::compare_runs(a, b), input_error);
}

TEST_CASE("files and directories: repeated runs are pooled; bad files named", "[compare]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("parbench_compare_test_" +
                                                       std::to_string(::getpid()));
    fs::create_directories(dir / "runs");
    const auto write = [](const fs::path& path, const std::string& samples) {
        std::ofstream(path) << R"({"context": {"parbench": {"schema_version": 1}}, "benchmarks": [
            {"name": "s/x", "suite": "s", "run_type": "iteration", "median_us": 0,
             "samples_us": )" << samples << R"(},
            {"name": "s/x_median", "run_type": "aggregate", "real_time": 1},
            {"name": "s/y", "suite": "s", "run_type": "iteration", "median_us": 1,
             "stability": {"stable": false, "flags": ["wide_ci"]}}]})";
    };
    write(dir / "runs" / "1.json", "[1, 2, 3]");
    write(dir / "runs" / "2.json", "[4, 5, 6, 7]");
    const auto pooled = report::load_runs({(dir / "runs").string()});
    REQUIRE(pooled.rows.size() == 2);  // the aggregate entry is not a row
    CHECK(pooled.rows[0].samples_us == std::vector<double>{1, 2, 3, 4, 5, 6, 7});
    CHECK(pooled.rows[0].median_us == 4.0);
    CHECK_FALSE(pooled.rows[0].unstable);
    CHECK(pooled.rows[1].unstable);  // flagged by its run
    CHECK(report::compare_row(pooled.rows[1], pooled.rows[1]).unstable);
    CHECK(pooled.sources.size() == 2);

    std::ofstream(dir / "other.json") << R"({"benchmarks": []})";
    std::ofstream(dir / "broken.json") << "{";
    const auto message = [](const std::string& path) {
        try {
            (void)report::load_runs({path});
        } catch (const input_error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const std::string other = (dir / "other.json").string();
    CHECK(message(other) == other + ": not a parbench JSON file (no context.parbench or benchmarks)");
    const std::string broken = (dir / "broken.json").string();
    CHECK(message(broken) == broken + ": not a parbench JSON file (not valid JSON)");
    CHECK(message((dir / "missing.json").string()) ==
          (dir / "missing.json").string() + ": no such file or directory");
    fs::create_directories(dir / "empty");
    CHECK(message((dir / "empty").string()) ==
          (dir / "empty").string() + ": a directory without .json files");
    fs::remove_all(dir);
}

TEST_CASE("times must be finite and not negative; nesting is bounded; the level is a probability",
          "[compare]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("parbench_compare_bad_" +
                                                       std::to_string(::getpid()));
    fs::create_directories(dir);
    const auto message = [&](const std::string& rows) {
        const std::string path = (dir / "r.json").string();
        std::ofstream(path) << R"({"context": {"parbench": {}}, "benchmarks": [)" << rows << "]}";
        try {
            (void)report::load_runs({path});
        } catch (const input_error& e) {
            return std::string(e.what()).substr(path.size());
        }
        return std::string("no error");
    };
    // A negative median would turn a slowdown into a speed-up: refused, as are negative samples
    // and samples that are not numbers.
    CHECK(message(R"({"name": "s/x", "median_us": -1.5})") ==
          ": row s/x: median_us -1.5 is not a time (a finite number of microseconds, not "
          "negative)");
    CHECK(message(R"({"name": "s/x", "median_us": 1, "samples_us": [1, -2]})") ==
          ": row s/x: samples_us -2 is not a time (a finite number of microseconds, not "
          "negative)");
    CHECK(message(R"({"name": "s/x", "median_us": 1, "samples_us": [1, "2"]})") ==
          ": row s/x: samples_us \"2\" is not a time (a finite number of microseconds, not "
          "negative)");
    CHECK(message(R"({"name": "s/x", "median_us": 0, "samples_us": [0, 0]})") == "no error");
    CHECK(message(std::string(65, '[') + std::string(65, ']')) ==
          ": not a parbench JSON file (nested deeper than 64 levels)");
    CHECK(message(R"({"name": "s/[[[[", "median_us": 1})") == "no error");  // inside a string
    fs::remove_all(dir);

    const run_rows a{{row("a", "s", range(1.0, 10, 0.1))}, {}};
    const run_rows b{{row("a", "s", range(2.0, 10, 0.1))}, {}};
    for (const double level : {std::nan(""), 0.0, 1.0, -0.5})
        CHECK_THROWS_AS(report::compare_runs(a, b, {.significance = level}), input_error);
    CHECK(report::compare_runs(a, b, {.significance = 0.05}).rows[0].verdict ==
          change_verdict::slower);
}

TEST_CASE("runs are matched by name in one pass, pooled medians computed once", "[compare]") {
    // 20 000 rows each way, in opposite orders: every row finds its partner.
    run_rows a, b;
    for (int i = 0; i < 20000; ++i) {
        a.rows.push_back(row(std::to_string(i), "s", {1.0, 2.0}));
        b.rows.push_back(row(std::to_string(19999 - i), "s", {1.0, 2.0}));
    }
    b.rows.push_back(row("only-new", "s", {1.0}));
    const auto c = report::compare_runs(a, b);
    CHECK(c.rows.size() == 20000);
    CHECK(c.only_old == 0);
    CHECK(c.only_new == 1);
    CHECK(c.rows[123].name == "123");
}

}  // namespace comparison_test
