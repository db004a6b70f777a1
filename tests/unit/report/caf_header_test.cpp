// report/caf_header.hpp: the caf layout's header, one struct for the coarray plugin and the caf
// console. Each field lands under its own key (the JSON file keeps the header as the plugin sent
// it) and under its own label on the console; a header missing a field is refused.
#include <parbench/report/caf_console.hpp>
#include <parbench/report/caf_header.hpp>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

using parbench::report::caf_header;

TEST_CASE("caf header: each field under its own key, and back", "[caf_header]") {
    const caf_header h{.images = 4,
                       .coarray_runtime = "OpenCoarrays 2.10",
                       .compiler = "GNU Fortran 12",
                       .mpi_version = "4.0",
                       .check = true};
    const nlohmann::json j = h;
    CHECK(j == nlohmann::json::parse(R"({"images": 4, "coarray_runtime": "OpenCoarrays 2.10",
        "compiler": "GNU Fortran 12", "mpi_version": "4.0", "check": true})"));
    CHECK(nlohmann::json::parse(j.dump()).get<caf_header>() == h);
    nlohmann::json missing = j;
    missing.erase("compiler");
    CHECK_THROWS(missing.get<caf_header>());
}

TEST_CASE("caf console prints the typed header's fields under their labels", "[caf_header]") {
    std::ostringstream out;
    parbench::report::caf_console_reporter console(out);
    parbench::run_start start;
    start.suite = "caf";
    start.layout = "caf";
    start.header = caf_header{.images = 3,
                              .coarray_runtime = "runtime-R",
                              .compiler = "compiler-C",
                              .mpi_version = "3.1",
                              .check = false};
    console.on_run_start(start, nlohmann::json::object());
    const std::string text = out.str();
    CHECK(text.find("# Images          : 3\n") != std::string::npos);
    CHECK(text.find("# Coarray runtime : runtime-R\n") != std::string::npos);
    CHECK(text.find("# Compiler        : compiler-C\n") != std::string::npos);
    CHECK(text.find("# MPI Version     : 3.1\n") != std::string::npos);
}
