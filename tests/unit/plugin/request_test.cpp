// plugin/request.hpp: the run request the driver passes to a plugin's run().
#include <parbench/plugin/request.hpp>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

using nlohmann::json;

TEST_CASE("run_request JSON round trip keeps every field", "[request]") {
    parbench::run_request r;
    r.suite = "imb-mpi1";
    r.benchmarks = {"PingPong", "Allreduce"};
    r.options = {{"msglog", "3:7"},
                 {"multi", "0"},
                 {"include", json::array({"PingPongSpecificSource", "PingPingSpecificSource"})},
                 {"check", true}};
    r.check = true;
    r.calling_sequence = "parbench imb-mpi1 -msglog 3:7 PingPong Allreduce";
    const json j = r;
    CHECK(j.at("options").at("include").size() == 2);
    const auto back = json::parse(j.dump()).get<parbench::run_request>();
    CHECK(back.suite == r.suite);
    CHECK(back.benchmarks == r.benchmarks);
    CHECK(back.options == r.options);
    CHECK(back.options.at("msglog") == "3:7");
    CHECK(back.options.at("check") == true);
    CHECK(back.check);
    CHECK(back.calling_sequence == r.calling_sequence);
}

TEST_CASE("run_request optional keys default", "[request]") {
    const auto r = json::parse(R"({"suite": "paw"})").get<parbench::run_request>();
    CHECK(r.suite == "paw");
    CHECK(r.benchmarks.empty());
    CHECK(r.options.empty());
    CHECK_FALSE(r.check);
    CHECK(r.calling_sequence.empty());
}

TEST_CASE("run_request without a suite is rejected", "[request]") {
    CHECK_THROWS_AS(json::parse(R"({"benchmarks": ["PingPong"]})").get<parbench::run_request>(),
                    json::exception);
    CHECK_THROWS_AS(json::parse(R"({"suite": 3})").get<parbench::run_request>(),
                    json::exception);
}
