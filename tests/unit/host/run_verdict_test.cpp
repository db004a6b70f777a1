// The verdict on a run's events (host/run_verdict.hpp): results and skipped benchmarks counted once
// each, and the message when nothing was measured.
#include <parbench/host/run_verdict.hpp>

#include <catch2/catch.hpp>

#include <string>

// A namespace of the file's own: the test program is a unity build (tests/unit/meson.build), and
// its using-directives must not reach the files compiled after it.
namespace run_verdict_test {

using namespace parbench;

TEST_CASE("the verdict counts results and the skipped benchmarks, once each") {
    run_verdict v;
    CHECK_FALSE(v.measured());
    CHECK(v.nothing_measured_message("fake") ==
          "nothing was measured in suite 'fake': the plugin finished without a result");
    const nlohmann::json skip_pingpong = {
        {"message", "PingPong needs 2 processes and the run has 1; skipped"},
        {"skipped", {{"benchmark", "PingPong"}, {"reason", "needs 2 processes and the run has 1"}}}};
    v.count("warning", skip_pingpong);
    v.count("warning", skip_pingpong);
    v.count("warning", {{"message", "an ordinary warning"}});
    v.count("warning", {{"message", "Sendrecv needs an even number of processes; skipped"},
                        {"skipped", {{"benchmark", "Sendrecv"},
                                     {"reason", "needs an even number of processes"}}}});
    CHECK(v.nothing_measured_message("imb-mpi1") ==
          "nothing was measured in suite 'imb-mpi1': every benchmark was skipped: PingPong "
          "(needs 2 processes and the run has 1), Sendrecv (needs an even number of processes)");
    v.count("result", {});
    v.count("result", {});
    v.count("note", {{"message", "x"}});
    CHECK(v.results() == 2);
    CHECK(v.measured());
    REQUIRE(v.skipped().size() == 2);
    CHECK(v.skipped()[0].benchmark == "PingPong");
}

}  // namespace run_verdict_test
