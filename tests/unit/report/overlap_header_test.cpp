// report/overlap_header.hpp: the overlap layout's header, one struct for the overlap suite and
// the overlap console. Each field lands under its own key and is printed on its own line, as
// the JSON header's numbers were ("2.0" for a threshold of 2); a header missing a field is refused.
// report/mpi_suite_context.hpp: the MPI library and processes of the suite's context, typed.
#include <parbench/report/overlap_console.hpp>
#include <parbench/report/mpi_suite_context.hpp>
#include <parbench/report/overlap_header.hpp>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

using parbench::report::overlap_header;

namespace {

overlap_header distinct_header() {
    return {.show = true,
            .verbose = true,
            .methods = {"allreduce", "gather"},
            .variants = {"Blocking", "NB_Sleep"},
            .communicator_sizes = {2, 4},
            .iterations = 300,
            .time_s = 1.5,
            .threshold = 2.0,
            .datatype = "MPI_DOUBLE",
            .count = 7,
            .reduction = "MPI_SUM",
            .root = 3,
            .options_file = "opts.ini",
            .async_progress = {{"requested", false}},
            .async_progress_text = "off (progress-text)"};
}

}  // namespace

TEST_CASE("overlap header: each field under its own key, and back", "[overlap_header]") {
    const overlap_header h = distinct_header();
    const nlohmann::json j = h;
    CHECK(j.at("iterations") == 300);
    CHECK(j.at("time_s") == 1.5);
    CHECK(j.at("threshold") == 2.0);
    CHECK(j.at("count") == 7);
    CHECK(j.at("root") == 3);
    CHECK(j.at("communicator_sizes") == nlohmann::json::parse("[2, 4]"));
    CHECK(j.at("options_file") == "opts.ini");
    CHECK(j.at("async_progress_text") == "off (progress-text)");
    CHECK(j.size() == 15);
    CHECK(nlohmann::json::parse(j.dump()).get<overlap_header>() == h);
    nlohmann::json missing = j;
    missing.erase("threshold");
    CHECK_THROWS(missing.get<overlap_header>());
}

TEST_CASE("overlap console prints the typed header's fields on their lines", "[overlap_header]") {
    std::ostringstream out;
    parbench::report::overlap_console_reporter console(out);
    parbench::run_start start;
    start.suite = start.layout = "overlap";
    start.header = distinct_header();
    start.context = parbench::report::mpi_suite_context{
        .mpi_library = "MPICH Version:\t4.0.2\nMPICH Release date: x", .processes = 6};
    start.context["timer"] = "MPI_Wtime";  // the suite's other keys, beside them
    CHECK(start.context == nlohmann::json::parse(R"({"mpi_library":
        "MPICH Version:\t4.0.2\nMPICH Release date: x", "processes": 6, "timer": "MPI_Wtime"})"));
    console.on_run_start(start, nlohmann::json::object());
    const std::string text = out.str();
    CHECK(text.find("# MPI library     : MPICH Version:\t4.0.2\n") != std::string::npos);
    CHECK(text.find("# Processes       : 6\n") != std::string::npos);
    CHECK(text.find("# Methods         : allreduce gather\n") != std::string::npos);
    CHECK(text.find("# Comm. sizes     : 2 4\n") != std::string::npos);
    CHECK(text.find("# Iterations      : 300 per timing, at most 1.5 s per timing\n") !=
          std::string::npos);
    CHECK(text.find("# Message         : 7 MPI_DOUBLE per process (MPI_SUM, root 3)\n") !=
          std::string::npos);
    CHECK(text.find("# Threshold       : 2.0 (work dominates: work_t >= base_t and work_t >= "
                    "2.0 * overhead)\n") != std::string::npos);
    CHECK(text.find("# Async progress  : off (progress-text)\n") != std::string::npos);
    CHECK(text.find("# Options file    : opts.ini\n") != std::string::npos);
    // -nohdr 1: nothing printed.
    std::ostringstream quiet;
    parbench::report::overlap_console_reporter silent(quiet);
    auto hidden = distinct_header();
    hidden.show = false;
    start.header = hidden;
    silent.on_run_start(start, nlohmann::json::object());
    CHECK(quiet.str().empty());
    // A context without them (a test's own) prints "-"; one of the wrong type is refused.
    start.header = distinct_header();
    start.context = {{"processes", nullptr}};
    std::ostringstream bare;
    parbench::report::overlap_console_reporter bare_console(bare);
    bare_console.on_run_start(start, nlohmann::json::object());
    CHECK(bare.str().find("# MPI library     : -\n# Processes       : -\n") != std::string::npos);
    start.context = {{"processes", "six"}};
    parbench::report::overlap_console_reporter refusing(bare);
    CHECK_THROWS(refusing.on_run_start(start, nlohmann::json::object()));
}
