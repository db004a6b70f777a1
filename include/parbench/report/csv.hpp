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
#include <optional>
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

[[nodiscard]] inline std::string csv_optional(const std::optional<double>& value) {
    return value ? csv_number(*value) : std::string{};
}

}  // namespace detail

// One CSV column: its heading and how a row's cell is made from the record and its stability
// verdict. The header row and every data row walk the same table, so a heading and its value
// cannot drift apart.
struct csv_column {
    const char* heading;
    std::string (*cell)(const result_record&, const stability&);
};

// The columns, in file order. Figures a record does not have (a throughput the pattern does not
// define, overlap figures of a row without overlap) are empty cells.
inline const csv_column csv_columns[] = {
    {"suite", [](const result_record& r, const stability&) { return r.suite; }},
    {"benchmark", [](const result_record& r, const stability&) { return r.benchmark; }},
    {"class",
     [](const result_record& r, const stability&) { return std::string(to_string(r.klass)); }},
    {"title", [](const result_record& r, const stability&) { return r.block.title; }},
    {"processes",
     [](const result_record& r, const stability&) { return std::to_string(r.block.processes); }},
    {"groups",
     [](const result_record& r, const stability&) { return std::to_string(r.block.groups); }},
    {"group",
     [](const result_record& r, const stability&) { return std::to_string(r.block.group); }},
    {"mode", [](const result_record& r, const stability&) { return r.block.mode; }},
    {"bytes",
     [](const result_record& r, const stability&) {
         return r.has_bytes ? std::to_string(r.bytes) : std::string{};
     }},
    {"iterations",
     [](const result_record& r, const stability&) { return std::to_string(r.iterations); }},
    {"t_min_us",
     [](const result_record& r, const stability&) { return detail::csv_number(r.t_min_us); }},
    {"t_max_us",
     [](const result_record& r, const stability&) { return detail::csv_number(r.t_max_us); }},
    {"t_avg_us",
     [](const result_record& r, const stability&) { return detail::csv_number(r.t_avg_us); }},
    {"cpu_time_us",
     [](const result_record& r, const stability&) { return detail::csv_number(r.cpu_time_us); }},
    {"throughput_mib_s",
     [](const result_record& r, const stability&) {
         return detail::csv_optional(r.throughput_mib_s);
     }},
    {"defects",
     [](const result_record& r, const stability&) {
         return r.defects        ? std::to_string(*r.defects)
                : r.not_verified ? std::string(not_verified_cell)
                                 : std::string{};
     }},
    {"median_us",
     [](const result_record& r, const stability&) {
         return detail::csv_number(r.distribution_us.median);
     }},
    {"ci_low_us",
     [](const result_record& r, const stability&) {
         return detail::csv_number(r.distribution_us.ci_low);
     }},
    {"ci_high_us",
     [](const result_record& r, const stability&) {
         return detail::csv_number(r.distribution_us.ci_high);
     }},
    {"p5_us",
     [](const result_record& r, const stability&) {
         return detail::csv_number(r.distribution_us.p5);
     }},
    {"p95_us",
     [](const result_record& r, const stability&) {
         return detail::csv_number(r.distribution_us.p95);
     }},
    {"samples",
     [](const result_record& r, const stability&) {
         return std::to_string(r.distribution_us.samples);
     }},
    {"t_ovrl_us",
     [](const result_record& r, const stability&) {
         return r.overlap ? detail::csv_number(r.overlap->t_ovrl_us) : std::string{};
     }},
    {"t_pure_us",
     [](const result_record& r, const stability&) {
         return r.overlap ? detail::csv_number(r.overlap->t_pure_us) : std::string{};
     }},
    {"t_cpu_us",
     [](const result_record& r, const stability&) {
         return r.overlap ? detail::csv_number(r.overlap->t_cpu_us) : std::string{};
     }},
    {"overlap_percent",
     [](const result_record& r, const stability&) {
         return r.overlap ? detail::csv_number(r.overlap->overlap_percent) : std::string{};
     }},
    {"base_t_us",
     [](const result_record& r, const stability&) {
         return r.availability ? detail::csv_number(r.availability->base_t_us) : std::string{};
     }},
    {"iter_t_us",
     [](const result_record& r, const stability&) {
         return r.availability ? detail::csv_number(r.availability->iter_t_us) : std::string{};
     }},
    {"work_t_us",
     [](const result_record& r, const stability&) {
         return r.availability ? detail::csv_number(r.availability->work_t_us) : std::string{};
     }},
    {"overhead_us",
     [](const result_record& r, const stability&) {
         return r.availability ? detail::csv_number(r.availability->overhead_us) : std::string{};
     }},
    {"avail_percent",
     [](const result_record& r, const stability&) {
         return r.availability ? detail::csv_optional(r.availability->avail_percent)
                               : std::string{};
     }},
    {"metrics",
     [](const result_record& r, const stability&) {
         return detail::csv_metrics(named_figures(r));
     }},
    {"stable",
     [](const result_record&, const stability& v) {
         return std::string(v.stable() ? "true" : "false");
     }},
    {"stability_flags",
     [](const result_record&, const stability& v) {
         std::string flags;
         for (const auto& f : v.flags()) flags += (flags.empty() ? "" : ";") + f;
         return flags;
     }},
};

class csv_reporter final : public reporter {
public:
    // `label` names the file in error messages (the driver passes "--csv PATH").
    explicit csv_reporter(const std::filesystem::path& path, std::string label = {})
        : out_(path, label.empty() ? path.string() : std::move(label)) {
        std::vector<std::string> head;
        for (const csv_column& f : csv_columns) head.emplace_back(f.heading);
        write_row(head);
    }

    void on_run_start(const run_start& start, const nlohmann::json&) override {
        timer_ = timer_limits::from_context(start.context);
    }

    void on_result(const result_record& r) override {
        // The row's stability verdict (report/stability.hpp), as the console's '!' and the
        // JSON's "stability" give it: "false" and its flags ("no_ci;wide_ci") to filter on.
        const stability verdict = assess_stability(r, timer_);
        std::vector<std::string> cells;
        for (const csv_column& f : csv_columns) cells.push_back(f.cell(r, verdict));
        write_row(cells);
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
