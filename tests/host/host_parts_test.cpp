// The host's parts that need no plugin: the console layout registry, the verdict on a run's
// events, run_result's look-ups, the room for a plugin's message.
#include <catch2/catch.hpp>

#include <parbench/host/run_result.hpp>
#include <parbench/host/run_verdict.hpp>
#include <parbench/plugin/export.hpp>
#include <parbench/plugin/loader.hpp>
#include <parbench/report/console_layouts.hpp>

#include <sstream>
#include <string>

using namespace parbench;

TEST_CASE("every registered layout builds its console reporter") {
    std::ostringstream out;
    for (const char* layout : {"caf", "imb", "imb-p2p", "osu", "paw"})
        CHECK(report::make_console(layout, "s", {.out = out}) != nullptr);
    CHECK(report::known_layouts() == "caf, imb, imb-nbc, imb-p2p, osu, overlap, paw");
}

TEST_CASE("an unknown layout is an error naming it and the known ones") {
    std::ostringstream out;
    try {
        (void)report::make_console("tabular", "my-suite", {.out = out});
        FAIL("no exception");
    } catch (const report::unknown_layout& e) {
        CHECK(std::string(e.what()) ==
              "suite 'my-suite' declares console layout 'tabular', which this parbench does not "
              "know (known: caf, imb, imb-nbc, imb-p2p, osu, overlap, paw)");
    }
    CHECK_NOTHROW(report::require_layout("osu", "my-suite"));
}

TEST_CASE("a suite that declares no layout is an error, never IMB's by default") {
    try {
        report::require_layout("", "my-suite");
        FAIL("no exception");
    } catch (const report::unknown_layout& e) {
        CHECK(std::string(e.what()) ==
              "suite 'my-suite' declares no console layout (run_start.layout; known: caf, imb, "
              "imb-nbc, imb-p2p, osu, overlap, paw)");
    }
    // As the driver reads it from a plugin's event.
    const auto start = nlohmann::json::parse(R"({"suite": "my-suite"})").get<run_start>();
    CHECK_THROWS_AS(report::require_layout(start.layout, start.suite), report::unknown_layout);
}

TEST_CASE("a note reaches every console as a comment line") {
    for (const char* layout : {"caf", "imb", "imb-p2p", "osu", "paw"}) {
        std::ostringstream out;
        auto console = report::make_console(layout, "s", {.out = out});
        console->on_note("cache flushed between sizes");
        CHECK(out.str() == "# cache flushed between sizes\n");
    }
}

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

TEST_CASE("a plugin's message longer than the host's buffer keeps its end (the reason)") {
    const std::string message = "-msglen '" + std::string(5000, 'p') + "': no such file";
    std::string buffer(parbench::plugin::message_capacity, '\0');
    parbench::plugin::write_message(buffer.data(), buffer.size(), message);
    CHECK(std::string(buffer.c_str()) == message);  // a 5 KB message whole (it was cut at 2 KB)

    char small[64];
    parbench::plugin::write_message(small, sizeof small, message);
    const std::string shown = small;
    CHECK(shown.size() == sizeof small - 1);
    CHECK(shown.starts_with("-msglen 'ppp"));
    CHECK(shown.find(" [...] ") != std::string::npos);
    CHECK(shown.ends_with("p': no such file"));

    char utf8[40];  // never cut inside a character: é is two bytes
    std::string accents;
    for (int i = 0; i < 40; ++i) accents += "\xc3\xa9";
    parbench::plugin::write_message(utf8, sizeof utf8, accents + " reason");
    const std::string kept = utf8;
    CHECK(kept.ends_with(" reason"));
    for (std::size_t i = 0; i < kept.size(); ++i)
        if (static_cast<unsigned char>(kept[i]) == 0xc3) CHECK(kept[i + 1] == '\xa9');
    CHECK(kept.find("\xa9\xa9") == std::string::npos);
}
