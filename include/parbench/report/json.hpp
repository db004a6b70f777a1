// JSON output in Google Benchmark's layout, so that its tools (compare.py) read parbench files
// unchanged: a top-level `context` (with parbench's full run context under "parbench") and one
// `benchmarks[]` entry per result record, carrying Google Benchmark's fields plus parbench's own.
// The file is rewritten atomically (temporary file + rename, see output_file.hpp), so it is valid
// JSON at every moment; a run the driver stops (time limit, interrupt, error) leaves everything
// that finished. The last rewrite of a run is fsync'ed.
#pragma once

#include <parbench/report/output_file.hpp>
#include <parbench/report/reporter.hpp>
#include <parbench/report/stability.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>
#include <unistd.h>

namespace parbench::report {

// Version of the JSON layout below (context.parbench.schema_version).
inline constexpr int json_schema_version = 1;

namespace detail {

// The Google Benchmark name of a record:
// suite/title/np:Q[/groups:G][/group:k][/mode:M][/threads:T][/timing:T][/datatype:D]/bytes:X
// (/n:N where the size is a matrix order).
[[nodiscard]] inline std::string gbench_name(const result_record& r) {
    std::string name = r.suite + "/" + (r.block.title.empty() ? r.benchmark : r.block.title);
    name += "/np:" + std::to_string(r.block.processes);
    if (r.block.groups > 1) name += "/groups:" + std::to_string(r.block.groups);
    if (r.block.group >= 0) name += "/group:" + std::to_string(r.block.group);
    if (!r.block.mode.empty()) name += "/mode:" + r.block.mode;
    if (r.block.threads > 0) name += "/threads:" + std::to_string(r.block.threads);
    if (!r.block.timing.empty()) name += "/timing:" + r.block.timing;
    if (!r.block.datatype.empty()) name += "/datatype:" + r.block.datatype;
    if (r.has_bytes)
        name += (r.unit == size_unit::matrix_order ? "/n:" : "/bytes:") + std::to_string(r.bytes);
    return name;
}

// Google Benchmark's aggregate entries for a row, so that compare.py compares the median (and
// the mean) of the batch samples rather than the mean-based headline alone. They are in ns: its
// table prints whole time units, and a sub-µs row in µs would print as 0.
[[nodiscard]] inline std::vector<nlohmann::json> gbench_aggregates(const std::string& name,
                                                                   const result_record& r) {
    const summary& d = r.distribution_us;
    if (d.samples == 0) return {};
    std::vector<nlohmann::json> out;
    for (const auto& [aggregate, value_us] : {std::pair{"median", d.median}, {"mean", d.mean}}) {
        out.push_back({{"name", name + "_" + aggregate},
                       {"run_name", name},
                       {"run_type", "aggregate"},
                       {"aggregate_name", aggregate},
                       {"aggregate_unit", "time"},
                       {"repetitions", d.samples},
                       {"threads", r.block.threads > 0 ? r.block.threads : 1},
                       {"iterations", r.iterations},
                       {"real_time", value_us * 1e3},
                       {"cpu_time", r.cpu_time_us * 1e3},
                       {"time_unit", "ns"}});
    }
    return out;
}

// The document as text, indented, with each "samples_us" array on one line: 64 samples a row
// would otherwise take 64 lines.
[[nodiscard]] inline std::string dump_document(const nlohmann::json& document) {
    const std::string text =
        document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    static constexpr std::string_view key = "\"samples_us\": [";
    std::string out;
    out.reserve(text.size());
    std::size_t from = 0;
    for (std::size_t at; (at = text.find(key, from)) != std::string::npos;) {
        const std::size_t close = text.find(']', at);  // numbers only: the first ']' ends it
        out.append(text, from, at + key.size() - from);
        const std::string_view body(text.data() + at + key.size(), close - at - key.size());
        const char* separators = " \n,";
        const char* comma = "";
        for (std::size_t begin = body.find_first_not_of(separators);
             begin != std::string_view::npos;
             begin = body.find_first_not_of(separators, begin)) {
            const std::size_t end = std::min(body.find_first_of(separators, begin), body.size());
            (out += comma).append(body.substr(begin, end - begin));
            comma = ", ";
            begin = end;
        }
        out += ']';
        from = close + 1;
    }
    out.append(text, from);
    return out;
}

}  // namespace detail

// The whole document is rewritten (to a temporary file, then renamed) so that the file is valid
// JSON at every moment. Rewriting after every row would cost O(rows^2): a 2,700-row run would
// serialise gigabytes between its measurements. So rows are written at most once per
// `min_interval` and never more often than 20x the time the last rewrite took (at most ~5 % of
// the run); the context, warnings and the end of the run (normal, time limit, interrupt) are
// written at once, so the file is complete whenever the driver ends it, and held-back rows are
// written by flush_due() once their time has come, so a SIGKILL loses at most the last second.
class json_reporter final : public reporter {
public:
    using clock = std::chrono::steady_clock;

    // `label` names the file in error messages (the driver passes "--json PATH").
    explicit json_reporter(std::filesystem::path path,
                           std::chrono::duration<double> min_interval = std::chrono::seconds(1),
                           std::string label = {})
        : path_(std::move(path)), min_interval_(min_interval),
          label_(label.empty() ? path_.string() : std::move(label)) {
        document_ = {{"context", nlohmann::json::object()},
                     {"benchmarks", nlohmann::json::array()}};
    }

    // Context known before any run_start (so that a run that fails early still leaves a file).
    void set_driver_context(const nlohmann::json& driver_context) {
        apply_context(driver_context);
        write();
    }

    void on_run_start(const run_start& start, const nlohmann::json& driver_context) override {
        apply_context(driver_context);
        nlohmann::json& pb = document_["context"]["parbench"];
        pb["suite"] = start.suite;
        pb["layout"] = start.layout;
        pb["title"] = start.title;
        pb["header"] = start.header;
        pb["plugin_context"] = start.context;
        pb["benchmark_list"] = start.benchmarks;
        timer_ = timer_limits::from_context(start.context);
        write();
    }

    void on_result(const result_record& r) override {
        std::string name = detail::gbench_name(r);
        if (!names_.insert(name).second) {  // names must be unique for compare.py
            int k = 2;
            while (!names_.insert(name + "/#" + std::to_string(k)).second) ++k;
            name += "/#" + std::to_string(k);
        }
        const summary& d = r.distribution_us;
        nlohmann::json b = {
            {"name", name},
            {"run_name", name},
            {"run_type", "iteration"},
            {"repetitions", 1},
            {"repetition_index", 0},
            {"threads", r.block.threads > 0 ? r.block.threads : 1},
            {"iterations", r.iterations},
            {"real_time", r.headline_time_us()},
            {"cpu_time", r.cpu_time_us},
            {"time_unit", "us"},
            {"suite", r.suite},
            {"benchmark", r.benchmark},
            {"class", std::string(to_string(r.klass))},
            {"title", r.block.title},
            {"bytes", r.has_bytes ? nlohmann::json(r.bytes) : nlohmann::json(nullptr)},
            {"processes", r.block.processes},
            {"groups", r.block.groups},
            {"group", r.block.group},
            {"mode", r.block.mode},
            {"t_min_us", r.t_min_us},
            {"t_max_us", r.t_max_us},
            {"t_avg_us", r.t_avg_us},
            {"median_us", d.median},
            {"ci_low_us", d.ci_low},
            {"ci_high_us", d.ci_high},
            {"ci_coverage", d.ci_coverage},
            {"p5_us", d.p5},
            {"p95_us", d.p95},
            {"stddev_us", d.stddev},
            {"samples", d.samples},
            {"samples_us", r.samples_us},
            {"stability", assess_stability(r, timer_)},
            {"metrics", named_figures(r)},  // the plugin's metrics and the typed blocks
        };
        // IMB's rate (from t_max) under IMB's name; the same rate from the median beside it.
        b["throughput_mib_s"] =
            r.throughput_mib_s ? nlohmann::json(*r.throughput_mib_s) : nlohmann::json(nullptr);
        b["throughput_median_mib_s"] =
            r.throughput_mib_s && d.median > 0.0
                ? nlohmann::json(*r.throughput_mib_s * r.headline_time_us() / d.median)
                : nlohmann::json(nullptr);
        if (r.throughput_mib_s) b["bytes_per_second"] = *r.throughput_mib_s * 1048576.0;
        b["defects"] = r.defects ? nlohmann::json(*r.defects) : nlohmann::json(nullptr);
        if (r.not_verified) b["not_verified"] = true;  // -check had nothing to verify here
        if (!r.block.datatype.empty()) b["datatype"] = r.block.datatype;  // OSU's -T
        if (!r.warnings.empty()) b["warnings"] = r.warnings;
        // Overlap benchmarks: {"t_ovrl_us", "t_pure_us", "t_cpu_us", "overlap_percent"}.
        if (r.overlap) b["overlap"] = *r.overlap;
        if (r.availability) b["availability"] = *r.availability;  // the overlap suite's figures
        // {"nodes": [[node of each process] per group], "span": "intra-node" | "inter-node" |
        // "mixed"}: whether the row's messages crossed a node
        if (r.placement) b["placement"] = *r.placement;
        if (!r.block.timing.empty()) b["timing"] = r.block.timing;  // a non-default timing method
        if (r.over_repetitions() && r.repetitions && r.repetitions->bytes_per_iteration)
            // Google Benchmark's rate field, from PAW's mean time (as real_time)
            b["bytes_per_second"] = *r.repetitions->bytes_per_iteration / (r.t_avg_us * 1e-6);
        document_["benchmarks"].push_back(std::move(b));
        for (auto& aggregate : detail::gbench_aggregates(name, r))
            document_["benchmarks"].push_back(std::move(aggregate));
        unwritten_rows_ = true;
        if (clock::now() >= next_write_) write();
    }

    // Writes rows that the rate limit held back once their time has come. The driver calls this
    // from a timer, so that rows finished before a hang (no further event) reach the file and
    // survive a SIGKILL. Not thread-safe by itself: the caller serialises it with the events.
    void flush_due() {
        if (unwritten_rows_ && clock::now() >= next_write_) write();
    }

    // Rows that the rate limit holds back (not yet in the file).
    [[nodiscard]] bool rows_pending() const noexcept { return unwritten_rows_; }

    void on_warning(const std::string& message) override {
        document_["context"]["parbench"]["warnings"].push_back(message);
        write();
    }

    // A size IMB 2021's -time budget ended is not a measurement: no `benchmarks` entry (Google
    // Benchmark's tools and `parbench compare` read every entry there as a time), but one in
    // context.parbench.time_outs, named as its row would have been (docs/methodology.md).
    void on_time_out(const result_record& r) override {
        document_["context"]["parbench"]["time_outs"].push_back(
            {{"name", detail::gbench_name(r)},
             {"suite", r.suite},
             {"benchmark", r.benchmark},
             {"title", r.block.title},
             {"bytes", r.has_bytes ? nlohmann::json(r.bytes) : nlohmann::json(nullptr)},
             {"processes", r.block.processes},
             {"groups", r.block.groups},
             {"group", r.block.group},
             {"mode", r.block.mode},
             {"reason", r.over_memory_need_bytes ? "out-of-mem" : "time-out"},
             {"need_bytes", r.over_memory_need_bytes ? nlohmann::json(*r.over_memory_need_bytes)
                                                     : nlohmann::json(nullptr)}});
        write();
    }

    void on_run_end(bool completed) override {
        document_["context"]["parbench"]["completed"] = completed;
        write(/*durable=*/true);
    }

    [[nodiscard]] const nlohmann::json& document() const noexcept { return document_; }

private:
    // Google Benchmark's context keys go to the top level, everything else under "parbench".
    void apply_context(const nlohmann::json& driver_context) {
        static const std::set<std::string> gbench_keys = {
            "date",      "host_name",          "executable", "num_cpus",
            "mhz_per_cpu", "cpu_scaling_enabled", "caches",   "load_avg",
            "library_build_type"};
        nlohmann::json& context = document_["context"];
        nlohmann::json& pb = context["parbench"];
        pb["schema_version"] = json_schema_version;
        if (!driver_context.is_object()) return;
        for (const auto& [key, value] : driver_context.items()) {
            if (gbench_keys.contains(key))
                context[key] = value;
            else
                pb[key] = value;
        }
        if (!pb.contains("completed")) pb["completed"] = false;
    }

    void write(bool durable = false) {
        const auto start = clock::now();
        // Invalid UTF-8 (from the command line) becomes U+FFFD rather than a lost file.
        write_file_atomically(path_, detail::dump_document(document_) + "\n", label_, durable);
        const auto end = clock::now();
        unwritten_rows_ = false;
        next_write_ = end + std::max(std::chrono::duration_cast<clock::duration>(min_interval_),
                                     20 * (end - start));
    }

    std::filesystem::path path_;
    std::chrono::duration<double> min_interval_;
    std::string label_;
    clock::time_point next_write_{};
    bool unwritten_rows_ = false;  // rows in document_ that the file does not have yet
    nlohmann::json document_;
    std::set<std::string> names_;
    timer_limits timer_;
};

}  // namespace parbench::report
