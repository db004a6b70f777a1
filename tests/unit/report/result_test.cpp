// report/result.hpp: class strings, JSON round trips of records and run_start, make_event;
// report/columns.hpp: the values of declared columns; report/imb_header.hpp and
// report/osu_header.hpp: the IMB and OSU layouts' typed run headers, their JSON keys and what the
// consoles print of them; report/imb_context.hpp: what the IMB consoles read of the contexts;
// report/paw_header.hpp and report/paw_context.hpp: the PAW layout's typed run header and run
// context, their keys and the console's lines; report/console_run_context.hpp: what the consoles
// read of the driver's run context (report/run_context.hpp).
#include <parbench/report/columns.hpp>
#include <parbench/report/imb_context.hpp>
#include <parbench/report/imb_header.hpp>
#include <parbench/report/imb_nbc_console.hpp>
#include <parbench/report/imb_p2p_console.hpp>
#include <parbench/report/osu_console.hpp>
#include <parbench/report/osu_header.hpp>
#include <parbench/report/paw.hpp>
#include <parbench/report/paw_context.hpp>
#include <parbench/report/paw_header.hpp>
#include <parbench/report/result.hpp>
#include <parbench/report/run_context.hpp>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using nlohmann::json;

namespace {

parbench::result_record full_record() {
    parbench::result_record r;
    r.suite = "imb-mpi1";
    r.benchmark = "Multi-PingPing";
    r.klass = parbench::benchmark_class::parallel_transfer;
    r.block.title = "Multi-PingPing";
    r.block.processes = 2;
    r.block.groups = 3;
    r.block.group_ranks = {{0, 1}, {2, 3}, {4, 5}};
    r.block.rank_order = {{0, 2, 4}, {1, 3, 5}};
    r.block.waiting = 1;
    r.block.mode = "non_aggregate";
    r.block.group = 2;
    r.block.threads = 4;
    r.bytes = 4194304;
    r.has_bytes = true;
    r.iterations = 10;
    r.t_min_us = 1234.5;
    r.t_max_us = 1300.25;
    r.t_avg_us = 1270.125;
    r.cpu_time_us = 1299.0;
    r.throughput_mib_s = 3076.3;
    r.defects = 7;
    const std::vector<double> samples{1.0, 2.0, 3.5, 4.0, 5.0, 6.0, 7.25};
    r.distribution_us = parbench::summarize(samples);
    r.metrics = {{"gflops", 12.5}, {"overhead_us", 0.02}};
    r.warnings = {"oversubscribed", "second"};
    r.epochs = 6;
    r.window_sync = parbench::window_sync_figures{
        .valid_samples = 17, .invalid_samples = 3, .window_us = 50000.5};
    r.confidence = parbench::confidence_figures{
        .target_percent = 5.0, .achieved_percent = 4.25, .target_met = true, .futile = false,
        .rounds = 3};
    r.loop_calibration = parbench::loop_calibration_figures{
        .nloop_calibrated = 640, .warmup_us = 12.5, .loop_target_us = 1000.0, .recalibrations = 2};
    r.placement = parbench::row_placement{{{0, 1}, {1, 1}, {2, 0}}, 3};
    r.repetitions = parbench::repetition_figures{
        .nreps = 9, .bytes_per_iteration = 256.0, .messages_per_iteration = 4.0, .devices = 2};
    r.message_rates = parbench::message_rate_figures{
        .mbytes_per_s = 3225.75, .messages_per_s = 769.5, .window_size = 64};
    return r;
}

void check_equal(const parbench::summary& a, const parbench::summary& b) {
    CHECK(a.samples == b.samples);
    CHECK(a.min == b.min);
    CHECK(a.max == b.max);
    CHECK(a.mean == b.mean);
    CHECK(a.stddev == b.stddev);
    CHECK(a.median == b.median);
    CHECK(a.p5 == b.p5);
    CHECK(a.p95 == b.p95);
    CHECK(a.ci_low == b.ci_low);
    CHECK(a.ci_high == b.ci_high);
    CHECK(a.ci_coverage == b.ci_coverage);
}

void check_equal(const parbench::result_record& a, const parbench::result_record& b) {
    CHECK(a.suite == b.suite);
    CHECK(a.benchmark == b.benchmark);
    CHECK(a.klass == b.klass);
    CHECK(a.block == b.block);
    CHECK(a.bytes == b.bytes);
    CHECK(a.has_bytes == b.has_bytes);
    CHECK(a.iterations == b.iterations);
    CHECK(a.t_min_us == b.t_min_us);
    CHECK(a.t_max_us == b.t_max_us);
    CHECK(a.t_avg_us == b.t_avg_us);
    CHECK(a.cpu_time_us == b.cpu_time_us);
    CHECK(a.throughput_mib_s == b.throughput_mib_s);
    CHECK(a.defects == b.defects);
    check_equal(a.distribution_us, b.distribution_us);
    CHECK(a.metrics == b.metrics);
    CHECK(a.warnings == b.warnings);
    CHECK(a.statistics == b.statistics);
    CHECK(a.epochs == b.epochs);
    CHECK(a.window_sync == b.window_sync);
    CHECK(a.confidence == b.confidence);
    CHECK(a.loop_calibration == b.loop_calibration);
    CHECK(a.placement == b.placement);
    CHECK(a.repetitions == b.repetitions);
    CHECK(a.message_rates == b.message_rates);
}

}  // namespace

TEST_CASE("benchmark_class strings round-trip", "[result]") {
    using parbench::benchmark_class;
    const std::vector<std::pair<benchmark_class, std::string>> names{
        {benchmark_class::single_transfer, "single_transfer"},
        {benchmark_class::parallel_transfer, "parallel_transfer"},
        {benchmark_class::multiple_transfer, "multiple_transfer"},
        {benchmark_class::collective, "collective"},
        {benchmark_class::other, "other"},
        {benchmark_class::compute, "compute"}};
    for (const auto& [klass, name] : names) {
        CHECK(parbench::to_string(klass) == name);
        CHECK(parbench::benchmark_class_from_string(name) == klass);
    }
    CHECK_THROWS_WITH(parbench::benchmark_class_from_string("Collective"),
                      "unknown benchmark class 'Collective'");
    CHECK_THROWS_AS(parbench::benchmark_class_from_string(""), std::invalid_argument);
}

TEST_CASE("result_record JSON round trip keeps every field", "[result]") {
    const auto original = full_record();
    const json j = original;
    CHECK(j.at("class") == "parallel_transfer");
    CHECK(j.at("block").at("group_ranks") == json::parse("[[0,1],[2,3],[4,5]]"));
    CHECK(j.at("throughput_mib_s") == 3076.3);
    CHECK(j.at("defects") == 7);
    CHECK(j.at("distribution_us").at("samples") == 7);
    // Through text, as across the plugin ABI.
    const auto back = json::parse(j.dump()).get<parbench::result_record>();
    check_equal(back, original);
    CHECK(back.headline_time_us() == 1300.25);
}

TEST_CASE("a row's placement says whether its groups cross a node", "[result]") {
    using parbench::row_placement;
    CHECK(row_placement{{{0, 0}}}.span() == "intra-node");
    CHECK(row_placement{{{0, 1}}}.span() == "inter-node");
    CHECK(row_placement{{{0, 1}, {2, 3}}}.span() == "inter-node");
    CHECK(row_placement{{{0, 0}, {1, 1}}}.span() == "intra-node");
    CHECK(row_placement{{{0, 0}, {0, 1}}}.span() == "mixed");
    CHECK(row_placement{{{3, 3, 3, 3}}}.span() == "intra-node");
    CHECK(row_placement{{{0, 0}, {1, 1}}}.nodes() == 2);
    CHECK(row_placement{{{2, 0, 2}}}.nodes() == 2);
    const json j = full_record();
    CHECK(j.at("placement") == json::parse(R"({"nodes": [[0, 1], [1, 1], [2, 0]],
                                                "span": "mixed", "run_nodes": 3})"));
}

TEST_CASE("optional fields are null in JSON and absent after reading", "[result]") {
    parbench::result_record r;
    r.suite = "imb-mpi1";
    r.benchmark = "Barrier";
    r.klass = parbench::benchmark_class::collective;
    r.block.title = "Barrier";
    r.has_bytes = false;
    r.iterations = 1000;
    const json j = r;
    REQUIRE(j.contains("throughput_mib_s"));
    REQUIRE(j.contains("defects"));
    CHECK(j.at("throughput_mib_s").is_null());
    CHECK(j.at("defects").is_null());
    CHECK(j.at("has_bytes") == false);
    const auto back = json::parse(j.dump()).get<parbench::result_record>();
    CHECK_FALSE(back.throughput_mib_s.has_value());
    CHECK_FALSE(back.defects.has_value());
    check_equal(back, r);
}

TEST_CASE("a minimal record reads with defaults for the optional keys", "[result]") {
    const auto j = json::parse(R"({
        "suite": "paw", "benchmark": "DGEMM", "class": "compute",
        "block": {"title": "DGEMM", "processes": 1},
        "bytes": 1000, "iterations": 5,
        "t_min_us": 1.0, "t_max_us": 3.0, "t_avg_us": 2.0})");
    const auto r = j.get<parbench::result_record>();
    CHECK(r.klass == parbench::benchmark_class::compute);
    CHECK(r.block.groups == 1);
    CHECK(r.block.group == -1);
    CHECK(r.block.waiting == 0);
    CHECK(r.block.mode.empty());
    CHECK(r.block.group_ranks.empty());
    CHECK(r.has_bytes);
    CHECK(r.cpu_time_us == 0.0);
    CHECK_FALSE(r.throughput_mib_s);
    CHECK_FALSE(r.defects);
    CHECK(r.distribution_us.samples == 0);
    CHECK(r.metrics.empty());
    CHECK(r.warnings.empty());
}

TEST_CASE("malformed records are rejected, not misread", "[result]") {
    auto j = json(full_record());
    SECTION("missing required key") {
        j.erase("t_max_us");
        CHECK_THROWS_AS(j.get<parbench::result_record>(), json::exception);
    }
    SECTION("unknown class") {
        j["class"] = "bogus";
        CHECK_THROWS_AS(j.get<parbench::result_record>(), std::invalid_argument);
    }
    SECTION("wrong type") {
        j["bytes"] = "many";
        CHECK_THROWS_AS(j.get<parbench::result_record>(), json::exception);
    }
    SECTION("a repetition count that is no count") {
        j["metrics"]["nreps"] = -1.0;
        CHECK_THROWS_WITH(j.get<parbench::result_record>(),
                          "metrics.nreps must be a count, not -1.000000");
        j["metrics"]["nreps"] = 3.0;
        j["metrics"]["devices"] = 1.5;
        CHECK_THROWS_AS(j.get<parbench::result_record>(), std::invalid_argument);
    }
    SECTION("a message window that is no count") {
        j["metrics"]["window_size"] = 2.5;
        CHECK_THROWS_WITH(j.get<parbench::result_record>(),
                          "metrics.window_size must be a count, not 2.500000");
    }
}

TEST_CASE("run_start JSON round trip and defaults", "[result]") {
    parbench::run_start s;
    s.suite = "imb-mpi1";
    s.layout = "imb";
    s.title = "parbench 0.1.0, IMB-MPI1 compatible (IMB 4.0 methodology), MPI-1 part";
    s.header = {{"part", "MPI-1 part"}, {"min_bytes", 0}, {"max_bytes", 4194304},
                {"benchmark_list", {"PingPong", "(Multi-)PingPing"}}, {"check", false}};
    s.context = {{"processes", 2}, {"timer_resolution_s", 1e-9}};
    s.benchmarks = {"PingPong", "PingPing"};
    s.columns["Truly_passive_put"] = {{"t_ovrl_us", "t_ovrl[usec]"}, {"overlap_percent", "overlap[%]", 1}};
    const json j = s;
    const auto back = json::parse(j.dump()).get<parbench::run_start>();
    CHECK(back.suite == s.suite);
    CHECK(back.layout == s.layout);
    CHECK(back.title == s.title);
    CHECK(back.header == s.header);
    CHECK(back.context == s.context);
    CHECK(back.benchmarks == s.benchmarks);
    CHECK(back.columns == s.columns);
    CHECK(j.at("columns").at("Truly_passive_put").at(1).at("precision") == 1);
    // A width is written only where one is declared (0: the layout's own).
    CHECK_FALSE(j.at("columns").at("Truly_passive_put").at(0).contains("width"));
    s.columns["latency"] = {{"t_max_us", "Latency (us)", 2, 18}, {"iterations", "Iterations", 0, 12}};
    const auto with_widths = json::parse(json(s).dump()).get<parbench::run_start>();
    CHECK(with_widths.columns.at("latency").at(1).width == 12);
    CHECK(with_widths.columns.at("latency").at(1).precision == 0);
    CHECK(with_widths.columns == s.columns);

    const auto minimal = json::parse(R"({"suite": "paw"})").get<parbench::run_start>();
    CHECK(minimal.layout.empty());  // no layout assumed: report::require_layout refuses it
    CHECK(minimal.title.empty());
    CHECK(minimal.header.is_object());
    CHECK(minimal.context.is_object());
    CHECK(minimal.benchmarks.empty());
    CHECK(minimal.columns.empty());
}

TEST_CASE("a declared column reads a record field or a metric, and '-' where there is none",
          "[result][columns]") {
    parbench::result_record r;
    r.t_min_us = 1.0;
    r.t_max_us = 3.0;
    r.t_avg_us = 2.0;
    r.cpu_time_us = 2.5;
    r.metrics["overlap_percent"] = 41.25;
    using parbench::column;
    CHECK(parbench::report::column_value(r, column{"t_min_us", "t_min"}) == 1.0);
    CHECK(parbench::report::column_value(r, column{"t_max_us", "t"}) == 3.0);
    CHECK(parbench::report::column_value(r, column{"t_avg_us", "t_avg"}) == 2.0);
    CHECK(parbench::report::column_value(r, column{"cpu_time_us", "cpu"}) == 2.5);
    CHECK(parbench::report::column_value(r, column{"overlap_percent", "o"}) == 41.25);
    CHECK_FALSE(parbench::report::column_value(r, column{"throughput_mib_s", "MB/s"}));
    CHECK_FALSE(parbench::report::column_value(r, column{"t_ovrl_us", "t_ovrl"}));
    r.throughput_mib_s = 7.5;
    CHECK(parbench::report::column_value(r, column{"throughput_mib_s", "MB/s"}) == 7.5);
    CHECK(parbench::report::column_cell(r, column{"overlap_percent", "o", 1}, 8) == "    41.2");
    CHECK(parbench::report::column_cell(r, column{"t_ovrl_us", "t_ovrl"}, 8) == "       -");
    // The typed overlap figures are fields: (2 + 2 - 3) / min(2, 2) hidden = 50 %.
    r.overlap = parbench::make_overlap_figures(3.0, 2.0, 2.0);
    CHECK(parbench::report::column_value(r, column{"t_ovrl_us", "t_ovrl"}) == 3.0);
    CHECK(parbench::report::column_value(r, column{"t_pure_us", "t_pure"}) == 2.0);
    CHECK(parbench::report::column_value(r, column{"t_cpu_us", "t_CPU"}) == 2.0);
    CHECK(parbench::report::column_value(r, column{"overlap_percent", "o"}) == 50.0);
}

TEST_CASE("declared columns show iterations, defects and the check's verdict at their width",
          "[result][columns]") {
    parbench::result_record r;
    r.iterations = 40;
    using parbench::column;
    using parbench::report::column_cell;
    CHECK(parbench::report::column_value(r, column{"iterations", "Iterations"}) == 40.0);
    CHECK(column_cell(r, column{"iterations", "Iterations", 0}, 12) == "          40");
    // Without a check there are no defects and no verdict: '-'.
    CHECK_FALSE(parbench::report::column_value(r, column{"defects", "Defects"}));
    CHECK(column_cell(r, column{"validation", "Validation"}, 6) == "     -");
    r.defects = 0;
    CHECK(column_cell(r, column{"validation", "Validation"}, 6) == "  Pass");
    CHECK(column_cell(r, column{"defects", "Defects", 0}, 4) == "   0");
    r.defects = 3;
    CHECK(column_cell(r, column{"validation", "Validation"}, 6) == "  Fail");
    CHECK(parbench::report::column_value(r, column{"defects", "Defects"}) == 3.0);
    // A declared width wins over the layout's.
    CHECK(parbench::report::column_width(column{"t_max_us", "t"}, 13) == 13);
    CHECK(parbench::report::column_width(column{"t_max_us", "t", 2, 18}, 13) == 18);
}

TEST_CASE("make_event tags the payload with kind and schema", "[result]") {
    const auto text = parbench::make_event("warning", {{"message", "low memory"}});
    const auto j = json::parse(text);
    CHECK(j.at("event") == "warning");
    CHECK(j.at("schema") == 1);
    CHECK(j.at("message") == "low memory");

    const auto result = json::parse(parbench::make_event("result", full_record()));
    CHECK(result.at("event") == "result");
    check_equal(result.get<parbench::result_record>(), full_record());
}

TEST_CASE("the headline follows what the times are over, never the class or suite", "[result]") {
    parbench::result_record r;
    r.t_min_us = 1.0;
    r.t_max_us = 3.0;
    r.t_avg_us = 2.0;
    // A compute row (BLAS's class) whose plugin says nothing: across ranks, the slowest (t_max).
    r.suite = "paw";
    r.klass = parbench::benchmark_class::compute;
    CHECK_FALSE(r.over_repetitions());
    CHECK(r.headline_time_us() == 3.0);
    // An IMB-class row timed over repetitions: the mean.
    r.suite = "imb-mpi1";
    r.klass = parbench::benchmark_class::single_transfer;
    r.statistics = parbench::time_statistics::over_repetitions;
    CHECK(r.over_repetitions());
    CHECK(r.headline_time_us() == 2.0);
    // The event carries it: read back, the headline is still the mean.
    const auto back = json::parse(json(r).dump()).get<parbench::result_record>();
    CHECK(back.statistics == parbench::time_statistics::over_repetitions);
    CHECK(back.headline_time_us() == 2.0);
}

TEST_CASE("typed blocks reach the outputs' metrics under their documented names", "[result]") {
    // The JSON and CSV files list every figure under "metrics" by name (docs/methodology.md);
    // each typed field must land under its own name, not a neighbour's.
    const auto r = full_record();
    const auto figures = parbench::named_figures(r);
    const std::map<std::string, double> expected{
        {"gflops", 12.5},           {"overhead_us", 0.02},       // the plugin's own metrics
        {"epochs", 6.0},                                         // aggregate epochs
        {"valid_samples", 17.0},    {"invalid_samples", 3.0},    {"window_us", 50000.5},
        {"ci_target_percent", 5.0}, {"ci_achieved_percent", 4.25},
        {"ci_target_met", 1.0},     {"ci_futile", 0.0},          {"confidence_rounds", 3.0},
        {"nloop_calibrated", 640.0}, {"warmup_us", 12.5},        {"loop_target_us", 1000.0},
        {"recalibrations", 2.0},
        {"nreps", 9.0}, {"bytes_per_iteration", 256.0}, {"messages_per_iteration", 4.0},
        {"devices", 2.0},                                        // repetition figures
        {"mbytes_per_s", 3225.75}, {"messages_per_s", 769.5}, {"window_size", 64.0}};  // rates
    CHECK(figures == expected);
    // Blocks absent: the metrics alone; a target missed and no achieved width: 0 and no key.
    parbench::result_record plain;
    plain.metrics = {{"messages_per_s", 2.0}};
    CHECK(parbench::named_figures(plain) == plain.metrics);
    plain.confidence = parbench::confidence_figures{
        .target_percent = 1.0, .achieved_percent = std::nullopt, .target_met = false,
        .futile = true, .rounds = 7};
    CHECK(parbench::named_figures(plain) ==
          std::map<std::string, double>{{"messages_per_s", 2.0},
                                        {"ci_target_percent", 1.0},
                                        {"ci_target_met", 0.0},
                                        {"ci_futile", 1.0},
                                        {"confidence_rounds", 7.0}});
    // A declared column may name a typed block's figure as it names a metric.
    using parbench::column;
    CHECK(parbench::report::column_value(r, column{"invalid_samples", "dropped"}) == 3.0);
    CHECK(parbench::report::column_value(r, column{"loop_target_us", "target"}) == 1000.0);
    CHECK(parbench::report::column_value(r, column{"messages_per_s", "Msg/sec"}) == 769.5);
    // IMB's Mbytes/sec: the record's 10^6-byte rate where it has one (IMB 2021), else its MiB/s.
    CHECK(parbench::report::column_value(r, column{"mbytes_per_s", "Mbytes/sec"}) == 3225.75);
    auto mib = r;
    mib.message_rates.reset();
    CHECK(parbench::report::column_value(mib, column{"mbytes_per_s", "Mbytes/sec"}) == 3076.3);
}

TEST_CASE("typed blocks travel as their own objects in the event, absent when unset",
          "[result]") {
    const json j = full_record();
    CHECK(j.at("epochs") == 6);
    CHECK(j.at("window_sync") == json::parse(
        R"({"valid_samples": 17, "invalid_samples": 3, "window_us": 50000.5})"));
    CHECK(j.at("confidence") == json::parse(
        R"({"target_percent": 5.0, "achieved_percent": 4.25, "target_met": true,
            "futile": false, "rounds": 3})"));
    CHECK(j.at("loop_calibration") ==
          json::parse(R"({"nloop_calibrated": 640, "warmup_us": 12.5, "loop_target_us": 1000.0,
                          "recalibrations": 2})"));
    CHECK_FALSE(j.at("metrics").contains("valid_samples"));  // one place for each figure
    // The repetition figures and message rates travel under "metrics" by their names of old, and
    // come back typed.
    CHECK(j.at("metrics") == json::parse(
        R"({"gflops": 12.5, "overhead_us": 0.02, "nreps": 9.0, "bytes_per_iteration": 256.0,
            "messages_per_iteration": 4.0, "devices": 2.0, "mbytes_per_s": 3225.75,
            "messages_per_s": 769.5, "window_size": 64.0})"));
    CHECK_FALSE(j.contains("repetitions"));
    CHECK_FALSE(j.contains("message_rates"));
    const auto back = j.get<parbench::result_record>();
    CHECK(back.repetitions == full_record().repetitions);
    CHECK(back.message_rates == full_record().message_rates);
    CHECK(back.metrics == full_record().metrics);  // taken out of the plugin's own
    const json none = parbench::result_record{};
    for (const char* key : {"epochs", "window_sync", "confidence", "loop_calibration"})
        CHECK_FALSE(none.contains(key));
}

TEST_CASE("a record's size carries its unit; bytes is the default and is not written",
          "[result]") {
    using parbench::size_unit;
    for (const auto& [unit, name] : {std::pair{size_unit::bytes, "bytes"},
                                     std::pair{size_unit::elements, "elements"},
                                     std::pair{size_unit::matrix_order, "matrix_order"}}) {
        CHECK(parbench::to_string(unit) == name);
        CHECK(parbench::size_unit_from_string(name) == unit);
    }
    CHECK_THROWS_WITH(parbench::size_unit_from_string("N"), "unknown size unit 'N'");
    parbench::result_record r;
    r.bytes = 512;
    CHECK_FALSE(json(r).contains("size_unit"));  // every MPI suite's rows: as before
    r.unit = size_unit::matrix_order;
    const json j = r;
    CHECK(j.at("size_unit") == "matrix_order");
    CHECK(j.at("bytes") == 512);
    const auto back = json::parse(j.dump()).get<parbench::result_record>();
    CHECK(back.unit == size_unit::matrix_order);
    CHECK(back.bytes == 512);
}

namespace {

using parbench::report::imb_header;

// Every part filled, as imb-io under the imb-nbc layout would never be: each key once.
imb_header full_imb_header() {
    return {.mpi_version = "4.1",
            .mpi_thread_environment = "MPI_THREAD_MULTIPLE",
            .min_bytes = 4,
            .max_bytes = 4194304,
            .benchmark_list = {"PingPong", "(Multi-)Allreduce"},
            .lengths_user_defined = true,
            .check = true,
            .datatypes = parbench::report::imb_header_datatypes{.datatype = "MPI_INT",
                                                                .reduction_datatype = "MPI_DOUBLE",
                                                                .reduction_op = "MPI_SUM"},
            .part = parbench::report::imb_part::mpi1,
            .methodology = "IMB 4.0",
            .io = parbench::report::imb_header_io{.length_name = "io portion",
                                                  .io_directory = "/tmp/io-dir"},
            .overlap = parbench::report::imb_header_overlap{.cpu_load_kernel = "matvec",
                                                            .cpu_load_rate_mflops = 1234.5,
                                                            .async_progress = "none"},
            .threads = 3};
}

}  // namespace

TEST_CASE("imb header: each field under the key the JSON file has always had, and back",
          "[result][imb_header]") {
    const json j = full_imb_header();
    CHECK(j == json::parse(R"({"mpi_version": "4.1", "mpi_thread_environment":
        "MPI_THREAD_MULTIPLE", "min_bytes": 4, "max_bytes": 4194304, "benchmark_list":
        ["PingPong", "(Multi-)Allreduce"], "lengths_user_defined": true, "check": true,
        "datatype": "MPI_INT", "reduction_datatype": "MPI_DOUBLE", "reduction_op": "MPI_SUM",
        "part": "MPI-1 part", "methodology": "IMB 4.0", "length_name": "io portion",
        "io_directory": "/tmp/io-dir", "cpu_load": {"kernel": "matvec", "rate_mflops": 1234.5},
        "async_progress": "none", "threads": 3})"));
    CHECK(json::parse(j.dump()).get<imb_header>() == full_imb_header());
    // IMB-P2P's header: the five fields every component has, and no key of an absent part.
    const imb_header p2p{.mpi_version = "3.1",
                         .mpi_thread_environment = "MPI_THREAD_SINGLE",
                         .min_bytes = 0,
                         .max_bytes = 1024,
                         .benchmark_list = {"PingPong"}};
    const json p = p2p;
    CHECK(p == json::parse(R"({"mpi_version": "3.1", "mpi_thread_environment":
        "MPI_THREAD_SINGLE", "min_bytes": 0, "max_bytes": 1024, "benchmark_list": ["PingPong"]})"));
    CHECK(p.get<imb_header>() == p2p);
    // A key of no part (a test plugin's extra) is ignored.
    json extra = p;
    extra["typed"] = {{"count", 3}};
    CHECK(extra.get<imb_header>() == p2p);
}

TEST_CASE("imb header: a missing required field or half a part is refused",
          "[result][imb_header]") {
    const json j = full_imb_header();
    for (const char* key :
         {"mpi_version", "mpi_thread_environment", "min_bytes", "max_bytes", "benchmark_list"}) {
        json missing = j;
        missing.erase(key);
        INFO(key);
        CHECK_THROWS(missing.get<imb_header>());
    }
    for (const char* key : {"reduction_op", "io_directory", "async_progress", "cpu_load"}) {
        json half = j;
        half.erase(key);
        INFO(key);
        CHECK_THROWS_AS(half.get<imb_header>(), std::invalid_argument);
    }
    json wrong = j;
    wrong["min_bytes"] = "small";
    CHECK_THROWS(wrong.get<imb_header>());
    // A part of no IMB component (a test plugin's own name) reads as none: the console prints
    // IMB 2021's common lines for it; a part that is no text is refused.
    json unknown_part = j;
    unknown_part["part"] = "fake part";
    CHECK_FALSE(unknown_part.get<imb_header>().part.has_value());
    unknown_part["part"] = 1;
    CHECK_THROWS(unknown_part.get<imb_header>());
    for (const auto part : {parbench::report::imb_part::ext, parbench::report::imb_part::rma,
                            parbench::report::imb_part::nbc, parbench::report::imb_part::io,
                            parbench::report::imb_part::mpi4}) {
        imb_header h = full_imb_header();
        h.part = part;
        CHECK(json(h).get<imb_header>().part == part);
    }
}

TEST_CASE("imb consoles print the typed header; imb-nbc refuses one without its overlap part",
          "[result][imb_header]") {
    parbench::run_start start;
    start.suite = "pairs";
    start.layout = "imb";
    start.title = "title T";
    // The pair suites' header: no datatype lines of their own, so IMB's defaults are printed.
    start.header = imb_header{.mpi_version = "3.1",
                              .mpi_thread_environment = "MPI_THREAD_FUNNELED",
                              .min_bytes = 8,
                              .max_bytes = 65536,
                              .benchmark_list = {"Pair_PingPong"},
                              .lengths_user_defined = false,
                              .check = false};
    const json context = {{"calling_sequence", "parbench run pairs"}};
    {
        std::ostringstream out;
        parbench::report::imb_console_reporter console(out);
        console.on_run_start(start, context);
        const std::string text = out.str();
        CHECK(text.find("# MPI Version           : 3.1\n") != std::string::npos);
        CHECK(text.find("# MPI Thread Environment: MPI_THREAD_FUNNELED\n") != std::string::npos);
        CHECK(text.find("# Minimum message length in bytes:   8\n"
                        "# Maximum message length in bytes:   65536\n") != std::string::npos);
        CHECK(text.find("# MPI_Datatype                   :   MPI_BYTE\n"
                        "# MPI_Datatype for reductions    :   MPI_FLOAT\n"
                        "# MPI_Op                         :   MPI_SUM\n") != std::string::npos);
        CHECK(text.find("# List of Benchmarks to run:\n\n# Pair_PingPong\n") != std::string::npos);
    }
    {
        std::ostringstream out;
        parbench::report::imb_console_reporter console(out);
        json no_version = start.header;
        no_version.erase("mpi_version");
        parbench::run_start bad = start;
        bad.header = no_version;
        CHECK_THROWS(console.on_run_start(bad, context));
    }
    // The imb-p2p layout: IMB-MT's banner (66 dashes, MT_suite.cpp:180-182) where the header
    // gives threads per process, IMB-P2P's (60, imb_p2p.c:140-142) where not, whatever the
    // suite's name.
    for (const std::optional<int> threads : {std::optional<int>{}, std::optional<int>{2}}) {
        parbench::run_start p2p = start;
        p2p.suite = "imb-p2p";
        p2p.layout = "imb-p2p";
        imb_header h = p2p.header.get<imb_header>();
        h.threads = threads;
        p2p.header = h;
        std::ostringstream out;
        parbench::report::imb_p2p_console_reporter console(out);
        console.on_run_start(p2p, context);
        INFO(out.str());
        CHECK(out.str().starts_with('#' + std::string(threads ? 66 : 60, '-') + "\n#    title T\n"));
    }
    start.layout = "imb-nbc";
    {
        std::ostringstream out;
        parbench::report::imb_nbc_console_reporter console(out);
        CHECK_THROWS_AS(console.on_run_start(start, context), std::invalid_argument);
        CHECK(out.str().empty());
    }
    imb_header with_overlap = start.header.get<imb_header>();
    with_overlap.overlap = parbench::report::imb_header_overlap{
        .cpu_load_kernel = "matvec", .cpu_load_rate_mflops = 1499.6, .async_progress = "none"};
    start.header = with_overlap;
    std::ostringstream out;
    parbench::report::imb_nbc_console_reporter console(out);
    console.on_run_start(start, context);
    CHECK(out.str().find("#\n# CPU load: matvec, 1500 Mflop/s (rank 0)\n"
                         "# Asynchronous progress: none\n") != std::string::npos);
}

namespace {

using parbench::report::osu_header;
using parbench::report::osu_header_block;

// Every part of a block filled, as no one benchmark has them: each key once.
osu_header full_osu_header() {
    return {.osu_version = "7.5",
            .blocks = {{"mbw_mr",
                        {.lines_before = {"# Number of Sender threads: 2 "},
                         .empty_line_before = true,
                         .banner = "OSU MPI Multiple Bandwidth / Message Rate Test",
                         .window = parbench::report::osu_header_window{
                             .creation = "MPI_Win_create", .synchronization = "MPI_Win_lock"},
                         .lines = {"# [ pairs: 1 ] [ window size: varied ]", ""},
                         .datatype = "MPI_INT",
                         .row_text = {"nprocs: ", ", min: ", " ms"},
                         .window_matrix = parbench::report::osu_header_window_matrix{
                             .windows = {1, 2, 4}, .rate_profile = false}}},
                       {"barrier", {.banner = "OSU MPI Barrier Latency Test",
                                    .datatype = std::nullopt}}}};
}

}  // namespace

TEST_CASE("osu header: each field under the key the JSON file has always had, and back",
          "[result][osu_header]") {
    const json j = full_osu_header();
    CHECK(j == json::parse(R"({"osu_version": "7.5", "blocks": {
        "mbw_mr": {"lines_before": ["# Number of Sender threads: 2 "], "empty_line_before": true,
                   "banner": "OSU MPI Multiple Bandwidth / Message Rate Test",
                   "window_creation": "MPI_Win_create", "synchronization": "MPI_Win_lock",
                   "lines": ["# [ pairs: 1 ] [ window size: varied ]", ""],
                   "datatype": "MPI_INT", "row_text": ["nprocs: ", ", min: ", " ms"],
                   "window_matrix": {"windows": [1, 2, 4], "rate_profile": false}},
        "barrier": {"banner": "OSU MPI Barrier Latency Test", "datatype": null,
                    "empty_line_before": false}}})"));
    CHECK(json::parse(j.dump()).get<osu_header>() == full_osu_header());
    // A block of the banner alone (a test plugin's) takes OSU's defaults: the MPI_CHAR line.
    const auto bare = json::parse(R"({"osu_version": "7.3", "blocks":
        {"PingPong": {"banner": "OSU MPI Latency Test"}}})").get<osu_header>();
    CHECK(bare.block_of("PingPong") == osu_header_block{.banner = "OSU MPI Latency Test"});
    CHECK(bare.block_of("PingPong").datatype == "MPI_CHAR");
    // A benchmark without a block is printed under its own name.
    CHECK(bare.block_of("Allreduce").banner == "Allreduce");
    CHECK(bare.block_of("Allreduce").datatype == "MPI_CHAR");
}

TEST_CASE("osu header: a missing field, a block without banner or half a part is refused",
          "[result][osu_header]") {
    const json j = full_osu_header();
    for (const char* key : {"osu_version", "blocks"}) {
        json missing = j;
        missing.erase(key);
        INFO(key);
        CHECK_THROWS(missing.get<osu_header>());
    }
    json no_banner = j;
    no_banner["blocks"]["barrier"].erase("banner");
    CHECK_THROWS(no_banner.get<osu_header>());
    for (const char* key : {"window_creation", "synchronization"}) {
        json half = j;
        half["blocks"]["mbw_mr"].erase(key);
        INFO(key);
        CHECK_THROWS_AS(half.get<osu_header>(), std::invalid_argument);
    }
    json half_matrix = j;
    half_matrix["blocks"]["mbw_mr"]["window_matrix"].erase("rate_profile");
    CHECK_THROWS(half_matrix.get<osu_header>());
}

TEST_CASE("the osu console prints each benchmark's typed block", "[result][osu_header]") {
    parbench::run_start start;
    start.suite = "osu";
    start.layout = "osu";
    start.title = "title T";
    osu_header h{.osu_version = "7.5"};
    h.blocks["put_latency"] = {.banner = "OSU MPI_Put Latency Test",
                               .window = parbench::report::osu_header_window{
                                   .creation = "MPI_Win_allocate",
                                   .synchronization = "MPI_Win_flush"}};
    h.blocks["latency_mt"] = {.lines_before = {"# Number of Sender threads: 2 "},
                              .empty_line_before = true,
                              .banner = "OSU MPI Multi-threaded Latency Test"};
    h.blocks["barrier"] = {.empty_line_before = true,
                           .banner = "OSU MPI Barrier Latency Test",
                           .lines = {"# one more line"},
                           .datatype = std::nullopt};
    start.header = h;
    const auto row = [](const char* benchmark, bool has_bytes) {
        parbench::result_record r;
        r.suite = "osu";
        r.benchmark = benchmark;
        r.bytes = has_bytes ? 8 : 0;
        r.has_bytes = has_bytes;
        r.t_max_us = 1.25;
        return r;
    };
    std::ostringstream out;
    parbench::report::osu_console_reporter console(out);
    console.on_run_start(start, json::object());
    for (const char* benchmark : {"put_latency", "latency_mt", "barrier", "Allreduce"})
        console.on_result(row(benchmark, std::string_view(benchmark) != "barrier"));
    console.on_run_end(true);
    CHECK(out.str() == "# OSU MPI_Put Latency Test v7.5\n"
                       "# Window creation: MPI_Win_allocate\n"
                       "# Synchronization: MPI_Win_flush\n"
                       "# Datatype: MPI_CHAR.\n"
                       "# Size          Latency (us)\n"
                       "8                       1.25\n"
                       "\n"
                       "# Number of Sender threads: 2 \n"
                       "\n"
                       "# OSU MPI Multi-threaded Latency Test v7.5\n"
                       "# Datatype: MPI_CHAR.\n"
                       "# Size          Latency (us)\n"
                       "8                       1.25\n"
                       "\n"
                       "# OSU MPI Barrier Latency Test v7.5\n"
                       "# one more line\n"
                       "#    Latency (us)\n"
                       "             1.25\n"
                       "\n"
                       "# Allreduce v7.5\n"
                       "# Datatype: MPI_CHAR.\n"
                       "# Size          Latency (us)\n"
                       "8                       1.25\n"
                       "# title T\n");
    // A header without its version is refused, not printed as "v".
    json no_version = start.header;
    no_version.erase("osu_version");
    start.header = no_version;
    std::ostringstream refused;
    parbench::report::osu_console_reporter again(refused);
    CHECK_THROWS(again.on_run_start(start, json::object()));
}

TEST_CASE("the osu console's -V matrix prints each record's typed rates and window",
          "[result][osu_header]") {
    parbench::run_start start;
    start.suite = "osu";
    start.layout = "osu";
    start.title = "title T";
    osu_header h{.osu_version = "7.5"};
    h.blocks["mbw_mr"] = {.banner = "OSU MPI Multiple Bandwidth / Message Rate Test",
                          .window_matrix = parbench::report::osu_header_window_matrix{
                              .windows = {1, 2}, .rate_profile = true}};
    start.header = h;
    const auto cell = [](std::uint64_t window, double mb_s, double rate, int samples) {
        parbench::result_record r;
        r.suite = "osu";
        r.benchmark = "mbw_mr";
        r.bytes = 8;
        r.t_max_us = 1.0;
        r.distribution_us.samples = samples;  // one sample: no CI, a footnote naming the window
        r.distribution_us.median = 1.0;
        r.message_rates = parbench::message_rate_figures{
            .bandwidth_mb_s = mb_s, .messages_per_s = rate, .window_size = window};
        return r;
    };
    std::ostringstream out;
    parbench::report::osu_console_reporter console(out);
    console.on_run_start(start, json::object());
    console.on_result(cell(1, 1.5, 10.0, 0));
    console.on_result(cell(2, 2.25, 20.5, 1));
    console.on_run_end(true);
    CHECK(out.str() == "# OSU MPI Multiple Bandwidth / Message Rate Test v7.5\n"
                       "# Datatype: MPI_CHAR.\n"
                       "#                 1           2\n"
                       "8              1.50        2.25\n"
                       "# ! unstable: window 2: no CI (1 sample)\n"
                       "\n"
                       "# Message Rate Profile\n"
                       "#                 1           2\n"
                       "8             10.00       20.50\n"
                       "# title T\n");
}

TEST_CASE("imb context: the driver's lines and the suite's options, typed once",
          "[result][imb_context]") {
    parbench::run_start start;
    start.suite = "imb-mpi1";
    start.layout = "imb";
    start.title = "title T";
    start.header = imb_header{.mpi_version = "4.0",
                              .mpi_thread_environment = "MPI_THREAD_SINGLE",
                              .min_bytes = 0,
                              .max_bytes = 8,
                              .benchmark_list = {"PingPong"},
                              .part = parbench::report::imb_part::mpi1,
                              .methodology = "IMB 2021.11"};
    start.context = {{"mpi_library", "MPICH Version:\t4.0.2\nMPICH Release date: x"},
                     {"timer_resolution_s", 1e-6},
                     {"timer_overhead_s", 2e-8},
                     {"options", {{"multi", 1}, {"window_size", 8}}}};
    const json driver = {{"date_text", "Sat Nov 28 2026"}, {"machine", "x86_64"},
                         {"system", "Linux"},  {"release", "6.1"},
                         {"version", "#1 SMP"}, {"calling_sequence", "parbench run imb-mpi1"},
                         {"check", true}};
    const parbench::report::imb_context c = parbench::report::read_imb_context(start, driver);
    CHECK(c.run.date_text == "Sat Nov 28 2026");
    CHECK(c.run.uname == parbench::report::console_run_context_uname{
                             .machine = "x86_64", .system = "Linux", .release = "6.1",
                             .version = "#1 SMP"});
    CHECK(c.run.calling_sequence == "parbench run imb-mpi1");
    CHECK(c.run.check);
    CHECK(c.mpi_library == "MPICH Version: 4.0.2");  // the first line, the tab a blank
    CHECK(c.timer.resolution_s == 1e-6);
    CHECK(c.timer.overhead_s == 2e-8);
    CHECK(c.group_mode);
    CHECK(c.window_size == 8);
    // The options block, typed: what the IMB plugins write is what the consoles read.
    const parbench::report::imb_options_context options{.multi = 1, .window_size = 8};
    CHECK(json(options) == json({{"multi", 1}, {"window_size", 8}}));
    CHECK(json({{"multi", nullptr}}).get<parbench::report::imb_options_context>() ==
          parbench::report::imb_options_context{});
    // Nothing is required of the suite's context, nor of a driver context of the caller's own
    // (report/console_run_context.hpp): empty ones read as the consoles printed them before.
    parbench::run_start bare = start;
    bare.context = json::object();
    const parbench::report::imb_context none =
        parbench::report::read_imb_context(bare, json::object());
    CHECK_FALSE(none.run.date_text.has_value());
    CHECK_FALSE(none.run.calling_sequence.has_value());
    CHECK_FALSE(none.run.check);
    CHECK_FALSE(none.mpi_library.has_value());
    CHECK_FALSE(none.group_mode);
    CHECK(none.window_size == 0);
    // -multi 0 (or null: not given) shows no Group column.
    bare.context = {{"options", {{"multi", 0}}}};
    CHECK_FALSE(parbench::report::read_imb_context(bare, driver).group_mode);
    bare.context = {{"options", {{"multi", nullptr}}}};
    CHECK_FALSE(parbench::report::read_imb_context(bare, driver).group_mode);

    // The console prints the typed context: the banner's lines, the calling sequence, and under
    // -multi 1 with IMB 2021.11's layout the Group column (IMB_output.c:856-859).
    std::ostringstream out;
    parbench::report::imb_console_reporter console(out);
    console.on_run_start(start, driver);
    parbench::result_record r;
    r.suite = "imb-mpi1";
    r.benchmark = "PingPong";
    r.klass = parbench::benchmark_class::single_transfer;
    r.block.title = "PingPong";
    r.block.processes = 2;
    r.block.group = 0;
    r.bytes = 8;
    r.has_bytes = true;
    r.iterations = 10;
    r.t_max_us = 1.5;
    console.on_result(r);
    const std::string text = out.str();
    CHECK(text.find("# Date                  : Sat Nov 28 2026\n"
                    "# Machine               : x86_64\n"
                    "# System                : Linux\n"
                    "# Release               : 6.1\n"
                    "# Version               : #1 SMP\n"
                    "# MPI Version           : 4.0\n"
                    "# MPI Library           : MPICH Version: 4.0.2\n") != std::string::npos);
    CHECK(text.find("# parbench run imb-mpi1 \n") != std::string::npos);  // IMB 2021's blank
    {
        // IMB-MPI1's lines come from the header's part, whatever the suite is named; a header
        // of no part (a program's) has IMB 2021's common ones (no blank).
        parbench::run_start renamed = start;
        renamed.suite = "renamed";
        std::ostringstream renamed_out;
        parbench::report::imb_console_reporter renamed_console(renamed_out);
        renamed_console.on_run_start(renamed, driver);
        CHECK(renamed_out.str().find("# parbench run imb-mpi1 \n") != std::string::npos);
        imb_header no_part = start.header.get<imb_header>();
        no_part.part.reset();
        renamed.header = no_part;
        std::ostringstream common_out;
        parbench::report::imb_console_reporter common_console(common_out);
        common_console.on_run_start(renamed, driver);
        CHECK(common_out.str().find("# parbench run imb-mpi1\n") != std::string::npos);
    }
    CHECK(text.find("        Group       #bytes #repetitions") != std::string::npos);
    CHECK(text.find("            0            8           10") != std::string::npos);
    // A size IMB 2021's -time budget ended, in each group: after an empty line, the group's
    // column, the size and IMB's text (IMB_output.c:232-238, 354-386).
    r.bytes = 16;
    console.on_time_out(r);
    r.block.group = 1;
    console.on_time_out(r);
    const std::string time_out =
        " time-out.; Time limit (secs_per_sample * msg_sizes_list_len) is over; use \"-time X\" "
        "or SECS_PER_SAMPLE=X (IMB_settings.h) to increase time limit.\n";
    CHECK(out.str().find("\n\n            0           16" + time_out + "            1           16" +
                         time_out) != std::string::npos);
}

TEST_CASE("console run context: what run_context() writes, read back; its fields required",
          "[result][console_run_context]") {
    using parbench::report::console_run_context;
    using parbench::report::read_console_run_context;
    using Catch::Matchers::EndsWith;
    const char* const argv[] = {"parbench", "run", "imb-mpi1"};
    json made = parbench::report::run_context(3, argv);  // the writer: report/run_context.hpp
    const console_run_context c = read_console_run_context(made);
    CHECK(c.date == made.at("date").get<std::string>());
    CHECK(c.date_text == made.at("date_text").get<std::string>());
    CHECK(c.calling_sequence == "parbench run imb-mpi1");
    REQUIRE(c.uname.has_value());
    CHECK(c.uname->machine == made.at("machine").get<std::string>());
    CHECK(c.uname->version == made.at("version").get<std::string>());
    CHECK_FALSE(c.check);  // a program's own run context: no --check
    made["check"] = true;  // the driver's (driver/run_options.hpp)
    CHECK(read_console_run_context(made).check);
    // A run context (it has a schema_version) without a field it always has is refused by name.
    for (const char* key : {"date", "date_text", "calling_sequence"}) {
        json missing = made;
        missing.erase(key);
        CHECK_THROWS_WITH(read_console_run_context(missing), EndsWith(std::string("has no ") + key));
    }
    json half = made;
    half.erase("release");
    CHECK_THROWS_WITH(read_console_run_context(half),
                      "driver run context: the uname part needs all of machine, system, "
                      "release, version");
    json wrong = made;
    wrong["calling_sequence"] = 3;
    CHECK_THROWS_WITH(read_console_run_context(wrong),
                      "driver run context: calling_sequence must be text, not number");
    wrong = made;
    wrong["check"] = "yes";
    CHECK_THROWS_WITH(read_console_run_context(wrong),
                      "driver run context: check must be true or false, not string");
    // A context of the caller's own: each field optional; none at all where it is no object.
    const console_run_context own = read_console_run_context({{"date", "today"}});
    CHECK(own == console_run_context{.date = "today"});
    CHECK(read_console_run_context(json()) == console_run_context{});
    // The consoles refuse it too, before printing a line: PAW's prints the driver's lines only
    // where present, IMB's every line.
    parbench::run_start start;
    start.suite = start.layout = "paw";
    json no_sequence = made;
    no_sequence.erase("calling_sequence");
    std::ostringstream paw_out;
    parbench::report::paw_reporter paw(paw_out);
    CHECK_THROWS_AS(paw.on_run_start(start, no_sequence), std::invalid_argument);
    CHECK(paw_out.str().empty());
    parbench::report::paw_reporter paw_again(paw_out);
    paw_again.on_run_start(start, made);
    CHECK(paw_out.str().find("# date              : " + made.at("date").get<std::string>() +
                             "\n# calling_sequence  : parbench run imb-mpi1\n") !=
          std::string::npos);
}

namespace {

using parbench::report::paw_header;

parbench::report::paw_header_loops paw_test_loops() {
    return {.nreps = 10,
            .nloop_max = 1000,
            .nloop_min = 1,
            .threshold_factor = 10.0,
            .timer_threshold_s = 2.5e-8,
            .budget_s = 10.0};
}

}  // namespace

TEST_CASE("paw header: each component's fields under the keys the JSON file has always had",
          "[result][paw_header]") {
    // The BLAS plugin's header (plugins/blas/suite.cpp): no row kinds, so BLAS rows.
    const paw_header blas{.family = "blas",
                          .sizes = std::vector<std::uint64_t>{8, 16},
                          .size_range = parbench::report::paw_header_size_range{
                              .min_size = 8, .med_size = 16, .max_size = 16},
                          .threads = std::vector<int>{1, 2},
                          .loops = paw_test_loops(),
                          .size_meaning = "bytes = matrix order N",
                          .flop_count = "PAW"};
    const json b = blas;
    CHECK(b == json::parse(R"({"family": "blas", "sizes": [8, 16], "min_size": 8,
        "med_size": 16, "max_size": 16, "threads": [1, 2], "nreps": 10, "nloop_max": 1000,
        "nloop_min": 1, "threshold_factor": 10.0, "timer_threshold_s": 2.5e-8,
        "budget_s": 10.0, "size_meaning": "bytes = matrix order N", "flop_count": "PAW"})"));
    CHECK(b.dump().find("\"threshold_factor\":10.0") != std::string::npos);  // a double
    CHECK(json::parse(b.dump()).get<paw_header>() == blas);
    CHECK(blas.kinds() == std::vector<std::string>{"blas"});
    // The MPI suite's and the offload plugin's parts; the GPU plugin's devices.
    paw_header mpi = blas;
    mpi.family = "mpi";
    mpi.threads.reset();
    mpi.flop_count.reset();
    mpi.row_kinds = std::vector<std::string>{"transfer", "message_rate", "collective"};
    mpi.collectives = parbench::report::paw_header_collectives{.col_sizes = {8},
                                                               .col_med_size = 8};
    mpi.window_size = 16;
    mpi.pairing = "task i <-> task i + n/2";
    mpi.method = "MIN";
    mpi.offload = parbench::report::paw_header_offload{
        .device = 0, .concurrent_devices = {0, 1}, .device_kind = "x86_64"};
    mpi.gemm_sizes = std::vector<std::uint64_t>{64};
    mpi.devices = std::vector<int>{0};
    mpi.bandwidth_unit = "GB/s = 10^9 bytes/s";
    const json m = mpi;
    for (const char* key : {"row_kinds", "col_sizes", "col_med_size", "window_size", "pairing",
                            "method", "device", "concurrent_devices", "device_kind",
                            "gemm_sizes", "devices", "bandwidth_unit"}) {
        INFO(key);
        CHECK(m.contains(key));
    }
    CHECK(m.size() == b.size() - 2 + 12);
    CHECK(m.at("col_med_size") == 8);
    CHECK(m.at("concurrent_devices") == json::array({0, 1}));
    CHECK(json::parse(m.dump()).get<paw_header>() == mpi);
    // A header of no fields (a test's) reads as one: the console prints "unknown" for each.
    CHECK(json::object().get<paw_header>() == paw_header{});
    CHECK(json(paw_header{}) == json::object());
}

TEST_CASE("paw header: half a part or a wrong type is refused", "[result][paw_header]") {
    const json j = paw_header{.size_range = parbench::report::paw_header_size_range{},
                              .loops = paw_test_loops(),
                              .offload = parbench::report::paw_header_offload{},
                              .collectives = parbench::report::paw_header_collectives{}};
    for (const char* key : {"med_size", "nreps", "budget_s", "device_kind", "col_med_size"}) {
        json half = j;
        half.erase(key);
        INFO(key);
        CHECK_THROWS_AS(half.get<paw_header>(), std::invalid_argument);
    }
    json wrong = j;
    wrong["nreps"] = "ten";
    CHECK_THROWS(wrong.get<paw_header>());
}

TEST_CASE("the paw console prints the typed header's loops, kinds, pairing and method",
          "[result][paw_header]") {
    parbench::run_start start;
    start.suite = "paw";
    start.layout = "paw";
    start.title = "title T";
    start.header = paw_header{.row_kinds = std::vector<std::string>{"transfer", "message_rate"},
                              .loops = paw_test_loops(),
                              .window_size = 16,
                              .pairing = "task i <-> task i + n/2",
                              .method = "MIN"};
    start.context = {{"processes", 2}};
    std::ostringstream out;
    parbench::report::paw_reporter console(out);
    console.on_run_start(start, json::object());
    CHECK(out.str() ==
          "#------------------------------------------------------------\n"
          "# title T\n"
          "#------------------------------------------------------------\n"
          "# processes         : 2\n"
          "# timer threshold   : 2.5e-08 s (x 10.0 = shortest valid loop)\n"
          "# loops             : NREPS 10, NLOOP_MAX 1000, NLOOP_MIN 1, budget 10.0 s per size\n"
          "# transfer sizes are bytes; GB/s = 10^9 bytes/s moved (inout counts both\n"
          "# directions) over PAW's mean time; GB/s(med) over the median\n"
          "# message rates: Mmsg/s = 10^6 messages/s, windows of 16 messages per pair\n"
          "# pairing           : task i <-> task i + n/2\n"
          "# timing method     : MIN\n");
    // Without the loops part each figure is "unknown"; without row kinds the rows are BLAS's.
    start.header = paw_header{};
    std::ostringstream bare;
    parbench::report::paw_reporter again(bare);
    again.on_run_start(start, json::object());
    CHECK(bare.str().find("# timer threshold   : 0 s (x unknown = shortest valid loop)\n"
                          "# loops             : NREPS unknown, NLOOP_MAX unknown, NLOOP_MIN "
                          "unknown, budget unknown s per size\n"
                          "# sizes are matrix orders N;") != std::string::npos);
}

namespace {

using parbench::report::paw_context;

// A BLAS plugin's context (plugins/blas/suite.cpp): every part, a clock and a peak it knows.
paw_context paw_test_blas_context() {
    return {.processes = 2,
            .timer = parbench::report::timer_limits{.resolution_s = 1e-9, .overhead_s = 2e-8},
            .openblas = parbench::report::paw_context_blas_library{
                .config = "OpenBLAS 0.3.21 DYNAMIC_ARCH",
                .corename = "Haswell",
                .num_threads = 4,
                .recorded = {{"version", "0.3.21"}, {"fallback_core", false}}},
            .cpu = parbench::report::paw_context_cpu{.model_name = "AMD EPYC",
                                                     .physical_cores = 4,
                                                     .clock_mhz = 2596.1,
                                                     .vector_flags = "avx2 fma",
                                                     .recorded = {{"vendor", "AuthenticAMD"}}},
            .peak = parbench::report::paw_context_peak{
                .dp_gflops = 166.1,
                .sp_gflops = 332.3,
                .basis = "table",
                .recorded = {{"dp_gflops_per_core", 41.5}}}};
}

}  // namespace

TEST_CASE("paw context: each component's parts under the keys the JSON file has always had",
          "[result][paw_header]") {
    const paw_context blas = paw_test_blas_context();
    const json b = blas;
    // The keys and values the BLAS plugin wrote by name before the context was typed.
    CHECK(b == json::parse(R"({"processes": 2, "timer_resolution_s": 1e-9,
        "timer_overhead_s": 2e-8,
        "openblas": {"version": "0.3.21", "config": "OpenBLAS 0.3.21 DYNAMIC_ARCH",
                     "corename": "Haswell", "num_threads": 4, "fallback_core": false},
        "cpu": {"vendor": "AuthenticAMD", "model_name": "AMD EPYC", "vector_flags": "avx2 fma",
                "physical_cores": 4, "clock_mhz": 2596.1},
        "peak": {"dp_gflops_per_core": 41.5, "dp_gflops": 166.1, "sp_gflops": 332.3,
                 "basis": "table"}})"));
    CHECK(json::parse(b.dump()).get<paw_context>() == blas);
    // A clock and a peak the machine does not know are "unknown", as before.
    paw_context unknown = blas;
    unknown.cpu->clock_mhz.reset();
    unknown.peak->dp_gflops.reset();
    unknown.peak->sp_gflops.reset();
    const json u = unknown;
    CHECK(u.at("cpu").at("clock_mhz") == "unknown");
    CHECK(u.at("peak").at("dp_gflops") == "unknown");
    CHECK(u.at("peak").at("sp_gflops") == "unknown");
    CHECK(json::parse(u.dump()).get<paw_context>() == unknown);
    // The GPU plugin's devices: the console's two keys and the plugin's properties (null kept).
    const paw_context gpu{
        .processes = 1,
        .devices = std::vector<parbench::report::paw_context_device>{
            {.id = 1, .summary = "H200", .recorded = {{"sms", 132}, {"pcie_width", nullptr}}}}};
    const json g = gpu;
    CHECK(g == json::parse(R"({"processes": 1,
        "devices": [{"id": 1, "summary": "H200", "sms": 132, "pcie_width": null}]})"));
    CHECK(json::parse(g.dump()).get<paw_context>() == gpu);
    // A component's other keys are its own: ignored by the reader, never written by the struct.
    json with_more = g;
    with_more["cuda_runtime"] = "13.0";
    CHECK(with_more.get<paw_context>() == gpu);
    // No parts (a test's context, or none at all) read as none.
    CHECK(json::object().get<paw_context>() == paw_context{});
    CHECK(json().get<paw_context>() == paw_context{});
    CHECK(json(paw_context{}) == json::object());
}

TEST_CASE("paw context: half a part or a wrong figure is refused", "[result][paw_header]") {
    const json j = paw_test_blas_context();
    const std::vector<std::pair<std::string, std::string>> typed_keys = {
        {"", "timer_overhead_s"},   {"openblas", "num_threads"}, {"cpu", "clock_mhz"},
        {"cpu", "vector_flags"},    {"peak", "basis"},           {"peak", "sp_gflops"}};
    for (const auto& [part, key] : typed_keys) {
        json half = j;
        (part.empty() ? half : half[part]).erase(key);
        INFO(part << " " << key);
        CHECK_THROWS_AS(half.get<paw_context>(), std::invalid_argument);
    }
    json only_recorded = j;
    only_recorded["openblas"] = {{"version", "0.3.21"}};  // none of the console's keys
    CHECK_THROWS_WITH(only_recorded.get<paw_context>(),
                      "PAW run context: the openblas part needs all of config, corename, "
                      "num_threads");
    const json no_summary = json::parse(R"({"devices": [{"id": 0}]})");
    CHECK_THROWS_WITH(no_summary.get<paw_context>(),
                      "PAW run context: the device part needs all of id, summary");
    json fast = j;
    fast["cpu"]["clock_mhz"] = "fast";
    CHECK_THROWS_WITH(fast.get<paw_context>(),
                      "PAW run context: clock_mhz must be a number or \"unknown\"");
    json wrong = j;
    wrong["processes"] = "two";
    CHECK_THROWS(wrong.get<paw_context>());
}

TEST_CASE("the paw console prints the typed context's BLAS, CPU, peak, processes and devices",
          "[result][paw_header]") {
    parbench::run_start start;
    start.suite = "paw";
    start.layout = "paw";
    start.title = "title T";
    start.header = paw_header{.loops = paw_test_loops()};
    paw_context context = paw_test_blas_context();
    context.peak->sp_gflops.reset();
    context.devices = std::vector<parbench::report::paw_context_device>{
        {.id = 0, .summary = "GPU A (compute capability 9.0)"}, {.id = 2, .summary = "GPU B"}};
    start.context = context;
    start.context["cuda_runtime"] = "13.0";  // a component's own key: not printed
    std::ostringstream out;
    parbench::report::paw_reporter console(out);
    console.on_run_start(start, json::object());
    CHECK(out.str() ==
          "#------------------------------------------------------------\n"
          "# title T\n"
          "#------------------------------------------------------------\n"
          "# BLAS              : OpenBLAS 0.3.21 DYNAMIC_ARCH\n"
          "# BLAS core         : Haswell (4 threads by default)\n"
          "# CPU               : AMD EPYC, 4 cores, 2596 MHz\n"
          "# vector flags      : avx2 fma\n"
          "# theoretical peak  : 166.1 DP / unknown SP GFlop/s  (table)\n"
          "# processes         : 2\n"
          "# timer threshold   : 2.5e-08 s (x 10.0 = shortest valid loop)\n"
          "# loops             : NREPS 10, NLOOP_MAX 1000, NLOOP_MIN 1, budget 10.0 s per size\n"
          "# device 0          : GPU A (compute capability 9.0)\n"
          "# device 2          : GPU B\n"
          "# sizes are matrix orders N; GFlop/s use PAW's flop count 2N^2(N+1) / 2N(N+1),\n"
          "# %peak the conventional 2N^3 / 2N^2\n");
    // The context's timer limits judge the rows: 10 calls of 1 us are a 10 us loop, longer than
    // the 100 timer thresholds a clock of 2e-8 s asks for (2 us), shorter than a 1 ms clock's.
    parbench::result_record r;
    r.benchmark = "dgemm";
    r.klass = parbench::benchmark_class::compute;
    r.statistics = parbench::time_statistics::over_repetitions;
    r.block.threads = 1;
    r.bytes = 8;
    r.iterations = 10;
    r.t_min_us = r.t_max_us = r.t_avg_us = 1.0;
    r.distribution_us = {.samples = 10, .min = 1.0, .max = 1.0, .mean = 1.0, .median = 1.0,
                         .ci_low = 1.0, .ci_high = 1.0};
    r.repetitions = parbench::repetition_figures{.nreps = 10};
    console.on_result(r);
    CHECK(out.str().find("  ! ") == std::string::npos);
    context.timer->resolution_s = 1e-3;
    start.context = context;
    std::ostringstream coarse;
    parbench::report::paw_reporter coarse_console(coarse);
    coarse_console.on_run_start(start, json::object());
    coarse_console.on_result(r);
    CHECK(coarse.str().find("  ! loop 10 us < 1e+05\n") != std::string::npos);
    // Without parts: no BLAS, CPU, peak or device lines, the processes unknown.
    start.context = json::object();
    std::ostringstream bare;
    parbench::report::paw_reporter again(bare);
    again.on_run_start(start, json::object());
    CHECK(bare.str().find("# BLAS") == std::string::npos);
    CHECK(bare.str().find("# CPU") == std::string::npos);
    CHECK(bare.str().find("# device") == std::string::npos);
    CHECK(bare.str().find("# processes         : unknown\n") != std::string::npos);
}
