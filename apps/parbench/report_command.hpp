// `parbench report RUN.json... -o REPORT.html`: one self-contained HTML page of one or several
// runs. The driver reads the runs (report/comparison.hpp: the same reading and the same checks as
// `parbench compare`), compares every later run with the first one exactly as `parbench compare`
// does (Mann-Whitney U per row, geometric mean of the median ratios per suite), and hands that
// comparison as JSON to parbench_report.py (tools/, installed under DATADIR/parbench), which draws
// the figures with matplotlib (shared with `parbench plot`: tools/parbench_figures.py) and sends
// the page back on a pipe. The driver writes it through the output layer: never over one of the
// inputs, never into a device or a FIFO, replaced atomically.
#pragma once

#include "tool_script.hpp"

#include <parbench/core/error.hpp>
#include <parbench/driver/printable.hpp>
#include <parbench/report/comparison.hpp>
#include <parbench/report/output_file.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace parbench::app {

using namespace parbench::driver;

struct report_options {
    std::vector<std::string> inputs;
    std::string output;
    std::string title;
    double significance = 0.05;
};

inline CLI::App* add_report_command(CLI::App& app, report_options& o,
                                    const CLI::Validator& significance_check) {
    CLI::App* r = app.add_subcommand(
        "report",
        "One self-contained HTML page of runs: parbench report RUN.json... -o REPORT.html");
    r->add_option("runs", o.inputs,
                  "Runs: parbench JSON files or directories of them (one run each); several are "
                  "overlaid and compared with the first")
        ->required();
    r->add_option("-o,--output", o.output, "The page: .html")->required()->type_name("FILE");
    r->add_option("--title", o.title, "The page's title");
    r->add_option("--significance", o.significance,
                  "Level of the Mann-Whitney U test in the comparison (as parbench compare)")
        ->capture_default_str()
        ->check(significance_check);
    return r;
}

// The comparison of every later run with the first, as the renderer reads it:
// {"significance", "pairs": [{"old": 0, "new": k, "rows": [...], "suites": [...], "only_old",
// "only_new"} or {"old": 0, "new": k, "error": "no rows in common: ..."}]}.
[[nodiscard]] inline nlohmann::json comparison_json(const std::vector<report::run_rows>& runs,
                                                    double significance) {
    const auto number = [](double v) {
        return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
    };
    nlohmann::json out = {{"significance", significance}, {"pairs", nlohmann::json::array()}};
    for (std::size_t k = 1; k < runs.size(); ++k) {
        nlohmann::json pair = {{"old", 0}, {"new", k}};
        try {
            const auto c = report::compare_runs(runs[0], runs[k], {.significance = significance});
            pair["rows"] = nlohmann::json::array();
            for (const auto& r : c.rows)
                pair["rows"].push_back(
                    {{"name", r.name},
                     {"suite", r.suite},
                     {"old_median_us", r.old_median_us},
                     {"new_median_us", r.new_median_us},
                     {"change", number(r.change())},
                     {"p_value", r.test ? number(r.test->p_value) : nlohmann::json(nullptr)},
                     {"verdict", std::string(report::to_string(r.verdict))},
                     {"unstable", r.unstable}});
            pair["suites"] = nlohmann::json::array();
            for (const auto& s : c.suites)
                pair["suites"].push_back({{"suite", s.suite},
                                          {"rows", s.rows},
                                          {"slower", s.slower},
                                          {"faster", s.faster},
                                          {"geomean_ratio", number(s.geomean_ratio)}});
            pair["only_old"] = c.only_old;
            pair["only_new"] = c.only_new;
        } catch (const input_error& e) {  // runs of different benchmarks: said in the page
            pair["error"] = e.what();
        }
        out["pairs"].push_back(std::move(pair));
    }
    return out;
}

namespace report_detail {

// An anonymous in-memory file holding `text`, open in the script (no FD_CLOEXEC) as /dev/fd/N:
// nothing to clean up, nothing another user can read.
class memory_file {
public:
    explicit memory_file(const std::string& text) : fd_(::memfd_create("parbench-report", 0)) {
        if (fd_ < 0)
            throw std::runtime_error(std::string("parbench report: cannot make a memory file: ") +
                                     std::strerror(errno));
        for (std::size_t done = 0; done < text.size();) {
            const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0)
                throw std::runtime_error(
                    std::string("parbench report: cannot write a memory file: ") +
                    std::strerror(errno));
            done += static_cast<std::size_t>(n);
        }
    }
    memory_file(const memory_file&) = delete;
    memory_file& operator=(const memory_file&) = delete;
    ~memory_file() { ::close(fd_); }
    [[nodiscard]] std::string path() const { return "/dev/fd/" + std::to_string(fd_); }

private:
    int fd_;
};

}  // namespace report_detail

// Writes the page to -o; returns the exit status (the script's own when it failed: it has
// printed the one error line).
inline int run_report(const report_options& o, const std::filesystem::path& script,
                      const std::string& python, const std::string& version) {
    namespace fs = std::filesystem;
    // A run is a file, or a directory of them (one per suite, as `parbench compare` reads).
    std::vector<std::string> files;
    for (const auto& input : o.inputs) {
        std::error_code ec;
        if (!fs::is_directory(input, ec)) {
            check_script_input(input);
            files.push_back(input);
            continue;
        }
        std::vector<std::string> in_directory;
        for (const auto& entry : fs::directory_iterator(input, ec))
            if (entry.path().extension() == ".json") in_directory.push_back(entry.path().string());
        if (in_directory.empty()) throw input_error(input + ": a directory without .json files");
        for (const auto& file : in_directory) check_script_input(file);
        files.insert(files.end(), in_directory.begin(), in_directory.end());
    }
    const std::string extension = fs::path(o.output).extension().string();
    if (extension != ".html" && extension != ".htm")
        throw input_error("-o " + o.output + ": the report must end in .html");
    if (std::any_of(o.title.begin(), o.title.end(),
                    [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
        throw input_error("--title " + quote_value(o.title) +
                          ": control characters have no place in a title");
    report::output_path target;
    try {
        target = report::check_output_file("-o", o.output);
    } catch (const report::output_error& e) {
        throw input_error(e.what());  // found before anything is drawn: bad input
    }
    std::error_code ec;
    for (const auto& input : files)
        if (fs::equivalent(target.real, input, ec))
            throw input_error("-o " + o.output + ": is the input " + input +
                              "; the report would overwrite it");

    // One run per file, read as `parbench compare` reads it: a bad file is one line here.
    std::vector<report::run_rows> runs;
    for (const auto& input : o.inputs) runs.push_back(report::load_runs({input}));
    const report_detail::memory_file comparison(
        comparison_json(runs, o.significance)
            .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));

    std::vector<std::string> args = {
        python, script.string(), "--comparison", comparison.path(), "--parbench-version", version};
    if (!o.title.empty()) args.insert(args.end(), {"--title", o.title});
    args.emplace_back("--");
    args.insert(args.end(), o.inputs.begin(), o.inputs.end());
    return run_script_into(std::move(args), "parbench report", target);
}

}  // namespace parbench::app
