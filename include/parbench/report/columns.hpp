// The column model of the console tables: a table's figure columns come from the record's class
// (what each console layout does by default) unless the suite declared them for the benchmark in
// its run_start event (result.hpp: `column`, `run_start::columns`). This header reads a record's
// value for a declared column and looks the declaration up; the layouts decide what their class
// defaults are and where the figure columns sit among their fixed ones.
#pragma once

#include <parbench/report/result.hpp>

#include <fmt/format.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace parbench::report {

// The record's value for `c`: a record field by its JSON name (the overlap figures by theirs),
// else the named figure of that key (result.hpp's named_figures: a metric or a typed block's);
// nothing when the record has neither (a throughput the pattern does not define, defects of a
// run without a check).
[[nodiscard]] inline std::optional<double> column_value(const result_record& r, const column& c) {
    if (c.source == "t_min_us") return r.t_min_us;
    if (c.source == "t_max_us") return r.t_max_us;
    if (c.source == "t_avg_us") return r.t_avg_us;
    if (c.source == "cpu_time_us") return r.cpu_time_us;
    if (c.source == "throughput_mib_s") return r.throughput_mib_s;
    // IMB's Mbytes/sec in the run's unit: the record's message rate where the methodology's
    // Mbyte is 10^6 bytes (IMB 2021), else the MiB/s figure (IMB 4.0, whose rows have no
    // mbytes_per_s: their JSON has always listed throughput_mib_s alone).
    if (c.source == "mbytes_per_s") {
        if (r.message_rates && r.message_rates->mbytes_per_s) return r.message_rates->mbytes_per_s;
        return r.throughput_mib_s;
    }
    if (c.source == "iterations") return static_cast<double>(r.iterations);
    if (c.source == "defects") {
        if (!r.defects) return std::nullopt;
        return static_cast<double>(*r.defects);
    }
    if (r.overlap) {
        if (c.source == "t_ovrl_us") return r.overlap->t_ovrl_us;
        if (c.source == "t_pure_us") return r.overlap->t_pure_us;
        if (c.source == "t_cpu_us") return r.overlap->t_cpu_us;
        if (c.source == "overlap_percent") return r.overlap->overlap_percent;
    }
    const auto figures = named_figures(r);  // the metrics and the typed blocks' figures
    if (const auto it = figures.find(c.source); it != figures.end()) return it->second;
    return std::nullopt;
}

// The value as a table cell `width` characters wide; "-" where the record has none,
// not_verified_cell for the check of a row that has no verification. The "validation" column is the
// check's verdict in OSU's words: Pass without defects, else Fail.
[[nodiscard]] inline std::string column_cell(const result_record& r, const column& c, int width) {
    if (r.not_verified && (c.source == "validation" || c.source == "defects"))
        return fmt::format("{:>{}}", not_verified_cell, width);
    if (c.source == "validation") {
        const char* verdict = !r.defects ? "-" : *r.defects == 0 ? "Pass" : "Fail";
        return fmt::format("{:>{}}", verdict, width);
    }
    if (const auto value = column_value(r, c)) return fmt::format("{:>{}.{}f}", *value, width, c.precision);
    return fmt::format("{:>{}}", "-", width);
}

// The column's width: the declared one, else the layout's.
[[nodiscard]] inline int column_width(const column& c, int layout_width) noexcept {
    return c.width > 0 ? c.width : layout_width;
}

// The suite's declaration for a benchmark, if it made one.
[[nodiscard]] inline const std::vector<column>* declared_columns(
    const std::map<std::string, std::vector<column>>& declared, const std::string& benchmark) {
    const auto it = declared.find(benchmark);
    return it == declared.end() ? nullptr : &it->second;
}

}  // namespace parbench::report
