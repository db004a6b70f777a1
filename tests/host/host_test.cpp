// parbench::host against the real MPI plugin: typed results, the errors a test suite sees, and
// results on every rank or on rank 0. Run as `mpiexec -n 1 host_test [n1]` and
// `mpiexec -n 2 host_test [n2]`; expected row counts follow IMB's size rules (-msglog 0:3: the
// sizes 0, 1, 2, 4 and 8; reductions only at whole MPI_FLOAT counts, 0, 4 and 8).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <parbench/host/host.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

parbench::host* pb = nullptr;

// Small and quick: five sizes, 20 repetitions each.
const std::map<std::string, nlohmann::json> small = {{"msglog", "0:3"}, {"iter", "20"}};

std::vector<std::uint64_t> sizes_of(const parbench::run_result& r, std::string_view benchmark) {
    std::vector<std::uint64_t> sizes;
    for (const auto* row : r.rows(benchmark)) sizes.push_back(row->bytes);
    return sizes;
}

}  // namespace

TEST_CASE("a request the plugins cannot run is bad input, with the driver's message", "[n1]") {
    try {
        (void)pb->run("no-such-suite");
        FAIL("no exception");
    } catch (const parbench::run_error& e) {
        CHECK(e.what_kind() == parbench::run_error::kind::bad_input);
        CHECK(e.exit_status() == 2);
        CHECK_THAT(e.what(), Catch::StartsWith("unknown suite 'no-such-suite' (available: ") &&
                                 Catch::Contains("imb-mpi1"));
    }
    try {
        (void)pb->run("imb-mpi1", {"PingPong", "NoSuchBenchmark"});
        FAIL("no exception");
    } catch (const parbench::run_error& e) {
        CHECK(e.what_kind() == parbench::run_error::kind::bad_input);
        CHECK(std::string(e.what()) ==
              "unknown benchmark 'NoSuchBenchmark' in suite 'imb-mpi1' (see parbench list)");
    }
}

TEST_CASE("a run that measures nothing is an error naming what was skipped", "[n1]") {
    try {
        (void)pb->run("imb-mpi1", {"PingPong"}, small);
        FAIL("no exception");
    } catch (const parbench::run_error& e) {
        CHECK(e.what_kind() == parbench::run_error::kind::nothing_measured);
        CHECK(e.exit_status() == 1);
        CHECK(std::string(e.what()) ==
              "nothing was measured in suite 'imb-mpi1': every benchmark was skipped: PingPong "
              "(needs 2 processes and the run has 1)");
    }
}

TEST_CASE("a partly skipped run lists what it skipped and is not completed", "[n1]") {
    const auto r = pb->run("imb-mpi1", {"PingPong", "Allreduce"}, small);
    REQUIRE(r.finished);
    CHECK_FALSE(r.completed());  // a requested benchmark was not measured
    CHECK(r.start.layout == "imb");
    REQUIRE(r.skipped.size() == 1);
    CHECK(r.skipped[0].benchmark == "PingPong");
    CHECK(r.skipped[0].reason == "needs 2 processes and the run has 1");
    CHECK(r.rows("PingPong").empty());
    CHECK(sizes_of(r, "Allreduce") == std::vector<std::uint64_t>{0, 4, 8});
    CHECK(r.at("Allreduce", 4).block.processes == 1);
    CHECK_THROWS_AS(r.at("Allreduce", 16), std::out_of_range);
    // Strict: the same run is an error of its own kind, with the driver's --strict line and
    // exit status.
    try {
        (void)pb->run("imb-mpi1", {"PingPong", "Allreduce"}, small, {.strict = true});
        FAIL("no exception");
    } catch (const parbench::run_error& e) {
        CHECK(e.what_kind() == parbench::run_error::kind::skipped);
        CHECK(e.exit_status() == 6);
        CHECK(std::string(e.what()) ==
              "--strict: not every requested benchmark was measured: PingPong (needs 2 "
              "processes and the run has 1)");
    }
    CHECK(pb->run("imb-mpi1", {"Allreduce"}, small, {.strict = true}).completed());
}

TEST_CASE("PingPong and Allreduce on two processes: typed rows on every rank", "[n2]") {
    const auto r = pb->run("imb-mpi1", {"PingPong", "allreduce"}, small, {.check = true});
    REQUIRE(r.completed());
    CHECK(r.skipped.empty());
    CHECK(r.records.size() == 8);  // on rank 1 too: rank 0 shares them
    CHECK(sizes_of(r, "PingPong") == std::vector<std::uint64_t>{0, 1, 2, 4, 8});
    CHECK(sizes_of(r, "Allreduce") == std::vector<std::uint64_t>{0, 4, 8});
    const auto& row = r.at("PingPong", 8);
    CHECK(row.benchmark == "PingPong");
    CHECK(row.block.processes == 2);
    CHECK(row.iterations == 20);
    CHECK(row.defects == std::optional<std::uint64_t>{0});
    CHECK(row.distribution_us.median > 0.0);
    CHECK(row.t_min_us <= row.t_max_us);
    CHECK(r.total_defects() == 0);
}

TEST_CASE("-check finds a corrupted byte: total_defects counts it", "[n2]") {
    const auto r = pb->run("imb-mpi1", {"Test_Corrupt"}, small, {.check = true});
    REQUIRE(r.completed());
    REQUIRE(r.records.size() == 5);
    for (const auto& row : r.records) {
        INFO("bytes " << row.bytes);
        REQUIRE(row.defects.has_value());
        if (row.bytes == 0) CHECK(*row.defects == 0);
        else CHECK(*row.defects > 0);
    }
    CHECK(r.total_defects() >= 4);
    // The driver's verdict (exit status 5 and its line) from the result itself.
    CHECK(r.defects_found());
    CHECK_FALSE(r.passed());
    CHECK(r.rows_with_defects().size() == 4);
    CHECK(r.defects_text() ==
          "--check found defects in 4 of 5 rows: Test_Corrupt 1 B (2 processes), Test_Corrupt 2 "
          "B (2 processes), Test_Corrupt 4 B (2 processes), Test_Corrupt 8 B (2 processes)");
}

TEST_CASE("--check on benchmarks without verification: refused, or their rows not verified",
          "[n2]") {
    // IMB 2021's Reduce_local accumulates into its buffer: its definition has no verify_check.
    try {
        (void)pb->run("imb-mpi1", {"Reduce_local"}, small, {.check = true});
        FAIL("no exception");
    } catch (const parbench::run_error& e) {
        CHECK(e.what_kind() == parbench::run_error::kind::bad_input);
        CHECK(std::string(e.what()) ==
              "--check: Reduce_local has no data verification (no verify_check in its "
              "definition); run without --check");
    }
    const auto r = pb->run("imb-mpi1", {"PingPong", "Reduce_local"}, small, {.check = true});
    REQUIRE(r.completed());
    CHECK(r.passed());
    CHECK(r.not_verified() == std::vector<std::string>{"Reduce_local"});
    REQUIRE(r.rows("Reduce_local").size() == 3);  // 0, 4 and 8 bytes: whole floats
    for (const auto* row : r.rows("Reduce_local")) {
        CHECK(row->not_verified);
        CHECK_FALSE(row->defects.has_value());
    }
    CHECK_FALSE(r.at("PingPong", 8).not_verified);
    CHECK(std::count(r.warnings.begin(), r.warnings.end(),
                     "--check: Reduce_local has no data verification; its rows say "
                     "'unverified'") == 1);
}

TEST_CASE("results on rank 0 only", "[n2]") {
    const auto r = pb->run("imb-mpi1", {"PingPong"}, small,
                           {.results_on = parbench::result_ranks::rank_zero});
    CHECK(r.records.size() == (pb->rank() == 0 ? 5u : 0u));
    CHECK(r.finished);
}

int main(int argc, char** argv) {
    parbench::host host(argc, argv);
    pb = &host;
    // One report per run: the other ranks assert the same things silently (their exit status
    // still counts).
    if (parbench::launcher_rank() != 0) (void)std::freopen("/dev/null", "w", stdout);
    const int failed = Catch::Session().run(argc, argv);
    host.finish();
    // After finish() the plugins are finalised: a run is the host's error, not MPICH's abort.
    bool refused = false;
    try {
        (void)host.run("imb-mpi1", {"Allreduce"}, small);
    } catch (const parbench::run_error& e) {
        refused = e.what_kind() == parbench::run_error::kind::failure &&
                  std::string(e.what()).starts_with("run() after finish()");
    }
    if (!refused) std::fprintf(stderr, "run() after finish() was not a run_error\n");
    return failed == 0 && refused ? 0 : 1;
}
