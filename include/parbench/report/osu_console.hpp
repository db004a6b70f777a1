// The OSU console layout (OSU micro-benchmarks 7.x): per benchmark the '#' banner lines, then one
// row per size, "%-10d%20.2f" as OSU prints them, so that scripts that parse osu_* output read
// parbench's unchanged:
//
//   # OSU MPI_Put Latency Test v7.3 (parbench 0.1.0, OSU 7.3 layout)
//   # Window creation: MPI_Win_allocate
//   # Synchronization: MPI_Win_flush
//   # Datatype: MPI_CHAR.
//   # Size          Latency (us)
//   1                       0.21
//
// What each block prints comes from the run-start header's "blocks" (per benchmark: banner,
// heading, the metric that fills the column or "" for the time per iteration, datatype, and for
// one-sided tests window creation and synchronisation). OSU's MB/s are 10^6 bytes/s. With
// `extra_columns` (or the header's "extra_columns": the suite's -extra), parbench's median and
// 95 % CI of the same figure follow as trailing columns (OSU parsers that read the first two
// fields are unaffected).
#pragma once

#include <parbench/report/reporter.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>
#include <string>

namespace parbench::report {

class osu_console_reporter final : public reporter {
public:
    explicit osu_console_reporter(std::ostream& out, bool extra_columns = false)
        : out_(out), extra_(extra_columns) {}

    void on_run_start(const run_start& start, const nlohmann::json& /*driver_context*/) override {
        const nlohmann::json h = start.header.is_object() ? start.header : nlohmann::json::object();
        version_ = h.value("osu_version", std::string("7"));
        blocks_ = h.value("blocks", nlohmann::json::object());
        title_ = start.title;
        extra_ = extra_ || h.value("extra_columns", false);
    }

    void on_result(const result_record& r) override {
        const nlohmann::json block =
            blocks_.contains(r.benchmark) ? blocks_[r.benchmark] : nlohmann::json::object();
        const std::string metric = block.value("metric", std::string{});
        if (r.benchmark != current_) {
            if (!current_.empty()) out_ << '\n';
            current_ = r.benchmark;
            out_ << fmt::format("# {} v{} ({})\n", block.value("banner", r.benchmark), version_,
                                title_.empty() ? "parbench" : title_);
            if (block.contains("window_creation"))
                out_ << "# Window creation: " << block.value("window_creation", std::string{})
                     << '\n';
            if (block.contains("synchronization"))
                out_ << "# Synchronization: " << block.value("synchronization", std::string{})
                     << '\n';
            out_ << "# Datatype: " << block.value("datatype", std::string("MPI_CHAR")) << ".\n";
            const std::string heading = block.value("heading", std::string("Latency (us)"));
            out_ << fmt::format("{:<10}{:>20}", "# Size", heading);
            if (extra_) out_ << fmt::format("{:>20}{:>28}", "Median", "95% CI of median");
            if (r.defects) out_ << fmt::format("{:>10}", "Defects");
            out_ << '\n';
        }
        const double value = figure(r, metric, r.headline_time_us());
        out_ << fmt::format("{:<10}{:>20.2f}", r.bytes, value);
        if (extra_) {
            const auto& d = r.distribution_us;
            // a rate's CI bounds come from the time's bounds swapped
            const double a = figure(r, metric, d.ci_low);
            const double b = figure(r, metric, d.ci_high);
            out_ << fmt::format("{:>20.2f}{:>14.2f}{:>14.2f}", figure(r, metric, d.median),
                                std::min(a, b), std::max(a, b));
        }
        if (r.defects) out_ << fmt::format("{:>10}", *r.defects);
        out_ << '\n';
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
    // The column's figure for a time per iteration `t_us`: the time itself, or a rate metric
    // rescaled to that time (the metric is taken at the headline time).
    static double figure(const result_record& r, const std::string& metric, double t_us) {
        if (metric.empty()) return t_us;
        const auto it = r.metrics.find(metric);
        if (it == r.metrics.end()) return 0.0;
        return t_us > 0.0 ? it->second * r.headline_time_us() / t_us : 0.0;
    }

    std::ostream& out_;
    bool extra_;
    std::string version_;
    std::string title_;
    nlohmann::json blocks_ = nlohmann::json::object();
    std::string current_;
};

}  // namespace parbench::report
