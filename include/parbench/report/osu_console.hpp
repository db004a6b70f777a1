// The OSU console layout (OSU micro-benchmarks 7.x): per benchmark the '#' banner lines, then one
// row per size, "%-10d%18.2f" as OSU 7 prints them (FIELD_WIDTH 18, FLOAT_PRECISION 2), so that
// scripts that parse osu_* output read parbench's unchanged:
//
//   # OSU MPI Latency Test v7.3 (parbench 0.1.0, OSU micro-benchmarks 7.3 compatible)
//   # Datatype: MPI_CHAR.
//   # Size          Latency (us)
//   1                       0.21
//
// What each block prints comes from the run-start header's "blocks" (per benchmark: banner,
// datatype, optional further '#' lines, for one-sided tests window creation and
// synchronisation, and its columns: heading, the figure that fills it — "t_avg_us", "t_max_us"
// or a metric's name — and whether that figure is a rate). Then, as OSU adds them, on latency
// tables: with "full" (-f) Min Latency(us), Max Latency(us) and Iterations; with "percentiles"
// (-z) P50/P90/P99 Tail Lat(us) over the timed batches; with a check, OSU's Validation
// (Pass/Fail) and parbench's Defects count. With "extra_columns" (-extra) parbench's median and
// 95 % CI of the first figure trail everything (parsers that read the first fields are
// unaffected). OSU's MB/s are 10^6 bytes/s.
#pragma once

#include <parbench/report/reporter.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

namespace parbench::report {

class osu_console_reporter final : public reporter {
public:
    static constexpr int field_width = 18;  // OSU 7's FIELD_WIDTH
    static constexpr int size_width = 10;

    explicit osu_console_reporter(std::ostream& out, bool extra_columns = false)
        : out_(out), extra_(extra_columns) {}

    void on_run_start(const run_start& start, const nlohmann::json& /*driver_context*/) override {
        const nlohmann::json h = start.header.is_object() ? start.header : nlohmann::json::object();
        version_ = h.value("osu_version", std::string("7"));
        blocks_ = h.value("blocks", nlohmann::json::object());
        title_ = start.title;
        extra_ = extra_ || h.value("extra_columns", false);
        full_ = h.value("full", false);
        percentiles_ = h.value("percentiles", false);
    }

    void on_result(const result_record& r) override {
        const nlohmann::json block =
            blocks_.contains(r.benchmark) ? blocks_[r.benchmark] : nlohmann::json::object();
        const std::vector<column> columns = columns_of(block);
        const bool latency = block.value("latency", false);
        const bool sizes = block.value("sizes", true);
        if (r.benchmark != current_) {
            if (!current_.empty()) out_ << '\n';
            current_ = r.benchmark;
            print_preamble(block, r.benchmark);
            std::string line = sizes ? fmt::format("{:<{}}", "# Size", size_width) : "#";
            // Without sizes (barrier) the first heading follows "#" and ends where values end.
            for (std::size_t k = 0; k < columns.size(); ++k)
                line += fmt::format("{:>{}}", columns[k].heading,
                                    sizes || k > 0 ? field_width : field_width - 2);
            if (latency && full_)
                line += fmt::format("{:>{}}{:>{}}{:>12}", "Min Latency(us)", field_width,
                                    "Max Latency(us)", field_width, "Iterations");
            if (latency && percentiles_)
                for (const char* p : {"P50", "P90", "P99"})
                    line += fmt::format("{:>{}}", std::string(p) + " Tail Lat(us)", field_width);
            if (r.defects)
                line += fmt::format("{:>{}}{:>10}", "Validation", field_width, "Defects");
            if (extra_) line += fmt::format("{:>20}{:>28}", "Median", "95% CI of median");
            out_ << line << '\n';
        }
        std::string row = sizes ? fmt::format("{:<{}}", r.bytes, size_width) : std::string{};
        for (std::size_t k = 0; k < columns.size(); ++k)
            row += fmt::format("{:>{}.2f}", value(r, columns[k]),
                               sizes || k > 0 ? field_width : field_width - 1);
        if (latency && full_)
            row += fmt::format("{:>{}.2f}{:>{}.2f}{:>12}", r.t_min_us, field_width, r.t_max_us,
                               field_width, r.iterations);
        if (latency && percentiles_)
            for (const double p : {50.0, 90.0, 99.0})
                row += fmt::format("{:>{}.2f}",
                                   at_time(r, columns.front(), percentile(r.samples_us, p)),
                                   field_width);
        if (r.defects)
            row += fmt::format("{:>{}}{:>10}", *r.defects == 0 ? "Pass" : "Fail", field_width,
                               *r.defects);
        if (extra_) {
            const auto& d = r.distribution_us;
            // a rate's CI bounds come from the time's bounds swapped
            const double a = at_time(r, columns.front(), d.ci_low);
            const double b = at_time(r, columns.front(), d.ci_high);
            row += fmt::format("{:>20.2f}{:>14.2f}{:>14.2f}",
                               at_time(r, columns.front(), d.median), std::min(a, b),
                               std::max(a, b));
        }
        out_ << row << '\n';
        for (const auto& w : r.warnings) out_ << "# note: " << w << '\n';
        out_.flush();
    }

    void on_warning(const std::string& message) override {
        out_ << "# WARNING: " << message << '\n';
        out_.flush();
    }

    void on_run_end(bool completed) override {
        if (!completed) out_ << "# run stopped early\n";
        out_.flush();
    }

private:
    struct column {
        std::string heading;
        std::string figure;  // "t_avg_us", "t_max_us", "t_min_us" or a metric's name
        bool rate = false;
    };

    // A block's columns; an old-style block names one heading and metric ("" = the time).
    static std::vector<column> columns_of(const nlohmann::json& block) {
        std::vector<column> out;
        for (const auto& c : block.value("columns", nlohmann::json::array()))
            out.push_back({c.value("heading", std::string{}), c.value("figure", std::string{}),
                           c.value("rate", false)});
        if (out.empty()) {
            const std::string metric = block.value("metric", std::string{});
            out.push_back({block.value("heading", std::string("Latency (us)")),
                           metric.empty() ? "t_max_us" : metric, !metric.empty()});
        }
        return out;
    }

    void print_preamble(const nlohmann::json& block, const std::string& benchmark) {
        out_ << fmt::format("# {} v{} ({})\n", block.value("banner", benchmark), version_,
                            title_.empty() ? "parbench" : title_);
        if (block.contains("window_creation"))
            out_ << "# Window creation: " << block.value("window_creation", std::string{})
                 << '\n';
        if (block.contains("synchronization"))
            out_ << "# Synchronization: " << block.value("synchronization", std::string{})
                 << '\n';
        for (const auto& line : block.value("lines", nlohmann::json::array()))
            out_ << line.get<std::string>() << '\n';
        out_ << "# Datatype: " << block.value("datatype", std::string("MPI_CHAR")) << ".\n";
    }

    static double value(const result_record& r, const column& c) {
        if (c.figure == "t_avg_us") return r.t_avg_us;
        if (c.figure == "t_max_us") return r.t_max_us;
        if (c.figure == "t_min_us") return r.t_min_us;
        const auto it = r.metrics.find(c.figure);
        return it == r.metrics.end() ? 0.0 : it->second;
    }

    // The column's figure had an iteration taken `t_us` instead of the headline time: a rate
    // rescaled to that time, a time shifted by the same amount (an average across ranks, or a
    // time with an acknowledgement subtracted, keeps its offset from the headline time).
    static double at_time(const result_record& r, const column& c, double t_us) {
        const double v = value(r, c);
        const double headline = r.headline_time_us();
        if (c.rate) return t_us > 0.0 ? v * headline / t_us : 0.0;
        return t_us + (v - headline);
    }

    // Nearest-rank percentile of the batch times; 0 without samples.
    static double percentile(std::vector<double> samples, double p) {
        if (samples.empty()) return 0.0;
        std::sort(samples.begin(), samples.end());
        const auto n = static_cast<double>(samples.size());
        const auto rank = static_cast<std::size_t>(std::max(1.0, std::ceil(p / 100.0 * n)));
        return samples[std::min(rank, samples.size()) - 1];
    }

    std::ostream& out_;
    bool extra_;
    bool full_ = false;
    bool percentiles_ = false;
    std::string version_;
    std::string title_;
    nlohmann::json blocks_ = nlohmann::json::object();
    std::string current_;
};

}  // namespace parbench::report
