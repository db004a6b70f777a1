// report/caf_header.hpp: the caf layout's header, one struct for the coarray plugin and the caf
// console. Each field lands under its own key (the JSON file keeps the header as the plugin sent
// it) and under its own label on the console; a header missing a field is refused. Also
// report/caf_figures.hpp, the rows' typed figures (below).
#include <parbench/report/caf_console.hpp>
#include <parbench/report/caf_figures.hpp>
#include <parbench/report/caf_header.hpp>
#include <parbench/report/result.hpp>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <map>
#include <sstream>
#include <string>
#include <vector>

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

// report/caf_figures.hpp: the caf rows' typed figures. Each table's fields land under the keys
// the JSON and CSV files have always listed among the metrics, travel in the event as their own
// object, and are printed in their own columns by the caf console, which refuses a row without
// them.
namespace {

using parbench::caf_figures;

parbench::result_record caf_row(caf_figures f) {
    parbench::result_record r;
    r.suite = "caf";
    r.benchmark = r.block.title = "put";
    r.block.mode = "single ping-pong, images 1 and 2, sync all";
    r.bytes = 32;
    r.iterations = 7;
    r.distribution_us.median = 1.5;
    r.distribution_us.ci_low = 1.25;
    r.distribution_us.ci_high = 1.75;  // samples 0: the interval is printed as it is
    r.throughput_mib_s = 20.5;
    r.caf = f;
    return r;
}

const caf_figures strided_put{.table = caf_figures::kind::point_to_point,
                              .count = 3, .blksize = 2, .stride = 5, .ndata = 6, .nextent = 22};
const caf_figures ring_sync{.table = caf_figures::kind::synchronisation,
                            .neighbours = 4, .t_delay_sync_us = 5.25, .t_delay_us = 2.5,
                            .overhead_us = 2.75, .overhead_ci_low_us = -0.5,
                            .overhead_ci_high_us = 6.25};
const caf_figures halo_cube{.table = caf_figures::kind::halo, .halo_size = 16,
                            .grid = {1, 2, 3}};

// The words of the table row printed for `r` (after the table's head lines).
std::vector<std::string> caf_console_row(const parbench::result_record& r) {
    std::ostringstream out;
    parbench::report::caf_console_reporter console(out);
    parbench::run_start start;
    start.suite = start.layout = "caf";
    start.header = caf_header{.images = 2, .coarray_runtime = "R", .compiler = "C",
                              .mpi_version = "4.0", .check = false};
    console.on_run_start(start, nlohmann::json::object());
    console.on_result(r);
    std::istringstream lines(out.str());
    std::string line, last;
    while (std::getline(lines, line))
        if (!line.empty()) last = line;
    std::istringstream words(last);
    std::vector<std::string> row;
    for (std::string w; words >> w && w != "!";) row.push_back(w);
    return row;
}

}  // namespace

TEST_CASE("caf figures: each table's fields under the metrics' keys, no other table's",
          "[caf_header]") {
    using figures = std::map<std::string, double>;
    CHECK(parbench::named_figures(caf_row(strided_put)) ==
          figures{{"count", 3.0}, {"blksize", 2.0}, {"stride", 5.0}, {"ndata", 6.0},
                  {"nextent", 22.0}});
    CHECK(parbench::named_figures(caf_row(ring_sync)) ==
          figures{{"neighbours", 4.0}, {"t_delay_sync_us", 5.25}, {"t_delay_us", 2.5},
                  {"overhead_us", 2.75}, {"overhead_ci_low_us", -0.5},
                  {"overhead_ci_high_us", 6.25}, {"overhead_within_noise", 1.0}});
    caf_figures clear_of_noise = ring_sync;
    clear_of_noise.overhead_ci_low_us = 0.25;
    CHECK(parbench::named_figures(caf_row(clear_of_noise)).at("overhead_within_noise") == 0.0);
    CHECK(parbench::named_figures(caf_row(halo_cube)) ==
          figures{{"halo_size", 16.0}, {"grid_x", 1.0}, {"grid_y", 2.0}, {"grid_z", 3.0}});
}

TEST_CASE("caf figures travel in the event as their own object and come back equal",
          "[caf_header]") {
    for (const caf_figures& f : {strided_put, ring_sync, halo_cube}) {
        const nlohmann::json event = caf_row(f);
        CHECK(event.at("metrics").empty());  // one place for each figure
        const auto back = nlohmann::json::parse(event.dump()).get<parbench::result_record>();
        REQUIRE(back.caf.has_value());
        CHECK(*back.caf == f);
    }
    CHECK(nlohmann::json(caf_row(halo_cube)).at("caf") ==
          nlohmann::json::parse(R"({"table": "halo", "halo_size": 16, "grid": [1, 2, 3]})"));
    CHECK_FALSE(nlohmann::json(parbench::result_record{}).contains("caf"));
    nlohmann::json unknown = nlohmann::json(caf_row(halo_cube));
    unknown["caf"]["table"] = "torus";
    CHECK_THROWS_WITH(unknown.get<parbench::result_record>(),
                      Catch::Matchers::Contains("unknown table 'torus'"));
    nlohmann::json half = nlohmann::json(caf_row(strided_put));
    half["caf"].erase("nextent");
    CHECK_THROWS(half.get<parbench::result_record>());
}

TEST_CASE("caf console: the typed table's columns; a row without caf figures is refused",
          "[caf_header]") {
    CHECK(caf_console_row(caf_row(strided_put)) ==
          std::vector<std::string>{"3", "2", "5", "6", "22", "7", "1.50", "1.25..1.75", "20.50"});
    CHECK(caf_console_row(caf_row(ring_sync)) ==
          std::vector<std::string>{"4", "7", "5.25", "2.50", "2.75", "-0.50..6.25", "within",
                                   "noise"});
    CHECK(caf_console_row(caf_row(halo_cube)) ==
          std::vector<std::string>{"16", "7", "1.50", "1.25..1.75", "20.50"});
    parbench::result_record bare = caf_row(strided_put);
    bare.caf.reset();
    bare.metrics = {{"count", 3.0}};  // the old string keys are no substitute
    CHECK_THROWS_WITH(caf_console_row(bare),
                      Catch::Matchers::Contains("carries no caf figures"));
}
