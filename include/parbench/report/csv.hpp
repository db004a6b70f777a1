// CSV output: a header row, then one row per result record, quoted as RFC 4180 says (fields
// holding a comma, a quote or a line break are enclosed in quotes, quotes doubled; CRLF line
// ends). The `metrics` column carries the record's further figures (result.hpp's named_figures:
// its metrics and typed blocks such as window_sync, e.g. t_ovrl_us, valid_samples) as
// `name=value` pairs joined by ';', in name order, so no figure of the JSON is missing here while
// the header stays the same for every suite; `stable` and `stability_flags` after it are the
// row's stability verdict (report/stability.hpp), `samples` the number its statistics come from.
// Each row reaches the file as it is written (output_file.hpp: unbuffered, every write checked), so
// a run stopped early leaves the rows that finished; the end of a run fsyncs.
#pragma once

#include <parbench/report/output_file.hpp>
#include <parbench/report/reporter.hpp>
#include <parbench/report/stability.hpp>

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::report {

namespace detail {

[[nodiscard]] inline std::string csv_field(std::string_view text) {
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    quoted += '"';
    return quoted;
}

[[nodiscard]] inline std::string csv_number(double value) { return fmt::format("{:.6g}", value); }

// "name=value;name=value": names never hold '=' or ';' (units in the name: "overlap_percent").
[[nodiscard]] inline std::string csv_metrics(const std::map<std::string, double>& metrics) {
    std::string text;
    for (const auto& [name, value] : metrics) {
        if (!text.empty()) text += ';';
        text += name + '=' + csv_number(value);
    }
    return text;
}

}  // namespace detail

class csv_reporter final : public reporter {
public:
    static constexpr const char* columns[] = {
        "suite",           "benchmark", "class",     "title",          "processes",
        "groups",          "group",     "mode",      "bytes",          "iterations",
        "t_min_us",        "t_max_us",  "t_avg_us",  "cpu_time_us",    "throughput_mib_s",
        "defects",         "median_us", "ci_low_us", "ci_high_us",     "p5_us",
        "p95_us",          "samples",   "t_ovrl_us", "t_pure_us",      "t_cpu_us",
        "overlap_percent", "base_t_us", "iter_t_us", "work_t_us",      "overhead_us",
        "avail_percent",   "metrics",   "stable",    "stability_flags"};

    // `label` names the file in error messages (the driver passes "--csv PATH").
    explicit csv_reporter(const std::filesystem::path& path, std::string label = {})
        : out_(path, label.empty() ? path.string() : std::move(label)) {
        std::vector<std::string> head(std::begin(columns), std::end(columns));
        write_row(head);
    }

    void on_run_start(const run_start& start, const nlohmann::json&) override {
        timer_ = timer_limits::from_context(start.context);
    }

    void on_result(const result_record& r) override {
        const summary& d = r.distribution_us;
        // The row's stability verdict (report/stability.hpp), as the console's '!' and the
        // JSON's "stability" give it: "false" and its flags ("no_ci;wide_ci") to filter on.
        const stability verdict = assess_stability(r, timer_);
        std::string flags;
        for (const auto& f : verdict.flags()) flags += (flags.empty() ? "" : ";") + f;
        write_row({r.suite,
                   r.benchmark,
                   std::string(to_string(r.klass)),
                   r.block.title,
                   std::to_string(r.block.processes),
                   std::to_string(r.block.groups),
                   std::to_string(r.block.group),
                   r.block.mode,
                   r.has_bytes ? std::to_string(r.bytes) : std::string{},
                   std::to_string(r.iterations),
                   detail::csv_number(r.t_min_us),
                   detail::csv_number(r.t_max_us),
                   detail::csv_number(r.t_avg_us),
                   detail::csv_number(r.cpu_time_us),
                   r.throughput_mib_s ? detail::csv_number(*r.throughput_mib_s) : std::string{},
                   r.defects        ? std::to_string(*r.defects)
                   : r.not_verified ? std::string(not_verified_cell)
                                    : std::string{},
                   detail::csv_number(d.median),
                   detail::csv_number(d.ci_low),
                   detail::csv_number(d.ci_high),
                   detail::csv_number(d.p5),
                   detail::csv_number(d.p95),
                   std::to_string(d.samples),
                   r.overlap ? detail::csv_number(r.overlap->t_ovrl_us) : std::string{},
                   r.overlap ? detail::csv_number(r.overlap->t_pure_us) : std::string{},
                   r.overlap ? detail::csv_number(r.overlap->t_cpu_us) : std::string{},
                   r.overlap ? detail::csv_number(r.overlap->overlap_percent) : std::string{},
                   r.availability ? detail::csv_number(r.availability->base_t_us) : std::string{},
                   r.availability ? detail::csv_number(r.availability->iter_t_us) : std::string{},
                   r.availability ? detail::csv_number(r.availability->work_t_us) : std::string{},
                   r.availability ? detail::csv_number(r.availability->overhead_us) : std::string{},
                   r.availability && r.availability->avail_percent
                       ? detail::csv_number(*r.availability->avail_percent)
                       : std::string{},
                   detail::csv_metrics(named_figures(r)),
                   verdict.stable() ? "true" : "false",
                   flags});
    }

    void on_run_end(bool) override { out_.close(); }

private:
    // One write per row: a row is in the file whole or (on a write error) reported as lost.
    void write_row(const std::vector<std::string>& fields) {
        std::string row;
        for (std::size_t i = 0; i < fields.size(); ++i) {
            if (i > 0) row += ',';
            row += detail::csv_field(fields[i]);
        }
        row += "\r\n";
        out_.write(row);
    }

    output_file out_;
    timer_limits timer_;
};

}  // namespace parbench::report
