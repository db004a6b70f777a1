// run_result's look-ups (host/run_result.hpp): a row by benchmark, size and process count, the
// defects total, completion, and the JSON round trip that shares the rows with other ranks.
#include <parbench/host/run_result.hpp>

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

// A namespace of the file's own: the test program is a unity build (tests/unit/meson.build), and
// its using-directives must not reach the files compiled after it.
namespace run_result_test {

using namespace parbench;

TEST_CASE("run_result: at() picks the size and the largest process count") {
    run_result r;
    CHECK_FALSE(r.completed());
    for (int processes : {2, 4, 3}) {
        result_record row;
        row.benchmark = "Allreduce";
        row.bytes = 8;
        row.block.processes = processes;
        row.t_max_us = processes * 1.5;
        row.defects = static_cast<std::uint64_t>(processes);
        r.records.push_back(row);
    }
    r.finished = true;
    CHECK(r.completed());
    r.skipped.push_back({"PingPong", "needs 2 processes and the run has 1"});
    CHECK_FALSE(r.completed());  // a requested benchmark was skipped
    r.skipped.clear();
    CHECK(r.at("allreduce", 8).block.processes == 4);
    CHECK(r.at("Allreduce", 8, 3).t_max_us == 4.5);
    CHECK(r.total_defects() == 9);
    CHECK(r.rows("ALLREDUCE").size() == 3);
    try {
        (void)r.at("Allreduce", 16);
        FAIL("no exception");
    } catch (const std::out_of_range& e) {
        CHECK(std::string(e.what()) == "no result for Allreduce at 16 bytes (3 rows in the run)");
    }
    // The JSON round trip that shares the rows with the other ranks keeps every field read here.
    const auto copy = nlohmann::json(r).get<run_result>();
    CHECK(copy.records.size() == 3);
    CHECK(copy.at("Allreduce", 8).t_max_us == 6.0);
    CHECK(copy.finished);
}

}  // namespace run_result_test
