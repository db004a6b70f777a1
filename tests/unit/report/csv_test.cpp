// report/csv.hpp: every CSV column's heading and cell come from one table; a record whose
// figures all differ lands each figure under its own heading (known answers, not the code's).
#include <parbench/report/csv.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> cells;
    std::stringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    return cells;
}

// The file's rows as heading -> cell maps (no cell of these records needs quotes).
std::vector<std::map<std::string, std::string>> read_rows(const std::filesystem::path& p) {
    std::ifstream f(p);
    std::vector<std::vector<std::string>> lines;
    for (std::string line; std::getline(f, line);) {
        REQUIRE(line.ends_with('\r'));  // CRLF line ends
        line.pop_back();
        lines.push_back(split(line));
    }
    REQUIRE(!lines.empty());
    std::vector<std::map<std::string, std::string>> rows;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        REQUIRE(lines[i].size() == lines[0].size());
        std::map<std::string, std::string> row;
        for (std::size_t c = 0; c < lines[0].size(); ++c) row[lines[0][c]] = lines[i][c];
        rows.push_back(row);
    }
    return rows;
}

parbench::result_record distinct_record() {
    parbench::result_record r;
    r.suite = "imb-nbc";
    r.benchmark = "Ibcast";
    r.klass = parbench::benchmark_class::collective;
    r.block.title = "Ibcast_title";
    r.block.processes = 4;
    r.block.groups = 2;
    r.block.group = 1;
    r.block.mode = "aggregate";
    r.bytes = 1024;
    r.iterations = 50;
    r.t_min_us = 1.5;
    r.t_max_us = 2.5;
    r.t_avg_us = 3.5;
    r.cpu_time_us = 4.5;
    r.throughput_mib_s = 5.5;
    r.defects = 6;
    r.distribution_us.median = 7.5;
    r.distribution_us.ci_low = 8.5;
    r.distribution_us.ci_high = 9.5;
    r.distribution_us.p5 = 10.5;
    r.distribution_us.p95 = 11.5;
    r.distribution_us.samples = 3;  // under a CI's six
    r.overlap = parbench::overlap_figures{
        .t_ovrl_us = 12.5, .t_pure_us = 13.5, .t_cpu_us = 14.5, .overlap_percent = 15.5};
    r.availability = parbench::availability_figures{.base_t_us = 16.5,
                                                    .iter_t_us = 17.5,
                                                    .work_t_us = 18.5,
                                                    .overhead_us = 19.5,
                                                    .avail_percent = 20.5,
                                                    .threshold = 0.5,
                                                    .work_dominated = true,
                                                    .ramp_us = {}};
    r.metrics = {{"zeta", 21.5}};
    r.window_sync = parbench::window_sync_figures{
        .valid_samples = 22, .invalid_samples = 23, .window_us = 24.5};
    return r;
}

struct temp_csv_file {
    std::filesystem::path path = std::filesystem::temp_directory_path() /
                                 ("parbench_csv_test_" + std::to_string(::getpid()) + ".csv");
    ~temp_csv_file() { std::filesystem::remove(path); }
};

}  // namespace

TEST_CASE("CSV: each figure under its own heading", "[csv]") {
    temp_csv_file file;
    {
        parbench::report::csv_reporter csv(file.path);
        csv.on_run_start({}, nlohmann::json::object());
        csv.on_result(distinct_record());
        csv.on_run_end(true);
    }
    const auto rows = read_rows(file.path);
    REQUIRE(rows.size() == 1);
    const std::map<std::string, std::string> expected{
        {"suite", "imb-nbc"},       {"benchmark", "Ibcast"},    {"class", "collective"},
        {"title", "Ibcast_title"},  {"processes", "4"},         {"groups", "2"},
        {"group", "1"},             {"mode", "aggregate"},      {"bytes", "1024"},
        {"iterations", "50"},       {"t_min_us", "1.5"},        {"t_max_us", "2.5"},
        {"t_avg_us", "3.5"},        {"cpu_time_us", "4.5"},     {"throughput_mib_s", "5.5"},
        {"defects", "6"},           {"median_us", "7.5"},       {"ci_low_us", "8.5"},
        {"ci_high_us", "9.5"},      {"p5_us", "10.5"},          {"p95_us", "11.5"},
        {"samples", "3"},           {"t_ovrl_us", "12.5"},      {"t_pure_us", "13.5"},
        {"t_cpu_us", "14.5"},       {"overlap_percent", "15.5"}, {"base_t_us", "16.5"},
        {"iter_t_us", "17.5"},      {"work_t_us", "18.5"},      {"overhead_us", "19.5"},
        {"avail_percent", "20.5"},
        // the plugin's metric and the window block's figures, in name order
        {"metrics", "invalid_samples=23;valid_samples=22;window_us=24.5;zeta=21.5"},
        // t_max 2.5 against a median of 7.5 (under 1/1.5), three samples (no CI)
        {"stable", "false"},        {"stability_flags", "headline_far_from_median;no_ci"}};
    for (const auto& [heading, cell] : expected) {
        INFO("column " << heading);
        CHECK(rows[0].at(heading) == cell);
    }
    CHECK(rows[0].size() == expected.size());
}

TEST_CASE("CSV: absent figures are empty cells; the header is the table's", "[csv]") {
    temp_csv_file file;
    {
        parbench::report::csv_reporter csv(file.path);
        parbench::result_record barrier;
        barrier.suite = "imb-mpi1";
        barrier.benchmark = "Barrier";
        barrier.has_bytes = false;
        barrier.not_verified = true;
        csv.on_result(barrier);
        csv.on_run_end(true);
    }
    const auto rows = read_rows(file.path);
    REQUIRE(rows.size() == 1);
    std::vector<std::string> headings;
    for (const auto& c : parbench::report::csv_columns) headings.emplace_back(c.heading);
    CHECK(headings.size() == rows[0].size());  // no heading twice
    for (const char* empty : {"bytes", "throughput_mib_s", "t_ovrl_us", "avail_percent", "metrics"})
        CHECK(rows[0].at(empty).empty());
    CHECK(rows[0].at("defects") == parbench::not_verified_cell);
}
