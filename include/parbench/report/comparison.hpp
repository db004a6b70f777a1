// Comparing two runs (`parbench compare OLD NEW`, or a test suite that checks a result against a
// stored baseline): the rows of parbench JSON files are matched by name, their medians compared,
// and their per-batch samples tested against each other with the Mann-Whitney U test
// (core/mann_whitney.hpp). A row changed *significantly* when the test rejects "same distribution"
// at the chosen level; per suite the geometric mean of the new/old median ratios summarises the
// run. docs/methodology.md, "Comparing runs", states the rules.
#pragma once

#include <parbench/core/error.hpp>
#include <parbench/core/input_file.hpp>
#include <parbench/core/mann_whitney.hpp>
#include <parbench/core/statistics.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parbench::report {

// One row of a run as `parbench compare` needs it (the "iteration" entries of a JSON file).
struct run_row {
    std::string name;   // the Google Benchmark name: suite/title/np:Q/.../bytes:X
    std::string suite;
    double median_us = 0.0;
    std::vector<double> samples_us;  // empty in files written before samples were stored
    std::vector<double> run_medians_us;  // one per run pooled into this row
    bool unstable = false;  // a run flagged it (JSON stability.stable false, report/stability.hpp)
};

// The rows of one or more runs, in the order first seen. Rows of the same name from several
// files (repeated runs in one directory) are pooled: their samples are joined and the median is
// that of the pooled samples (of the rows' medians when a row has no samples).
struct run_rows {
    std::vector<run_row> rows;
    std::vector<std::string> sources;  // the files read, for messages

    [[nodiscard]] const run_row* find(const std::string& name) const {
        const auto it = std::find_if(rows.begin(), rows.end(),
                                     [&](const run_row& r) { return r.name == name; });
        return it == rows.end() ? nullptr : &*it;
    }
};

namespace detail {

[[nodiscard]] inline nlohmann::json parse_parbench_json(const std::string& path) {
    const std::string text = read_input_file("compare", path, std::size_t{1} << 28);
    nlohmann::json document;
    try {
        document = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
        throw input_error(path + ": not a parbench JSON file (not valid JSON)");
    }
    if (!document.is_object() || !document.contains("context") ||
        !document["context"].is_object() || !document["context"].contains("parbench") ||
        !document.contains("benchmarks") || !document["benchmarks"].is_array())
        throw input_error(path + ": not a parbench JSON file (no context.parbench or benchmarks)");
    return document;
}

inline void add_rows(run_rows& into, const nlohmann::json& document, const std::string& path) {
    for (const auto& b : document["benchmarks"]) {
        if (!b.is_object() || b.value("run_type", std::string("iteration")) != "iteration")
            continue;
        const auto median = b.find("median_us");
        const auto name = b.find("name");
        if (median == b.end() || !median->is_number() || name == b.end() || !name->is_string())
            throw input_error(path + ": not a parbench JSON file (a row without name or median_us)");
        std::vector<double> samples;
        if (const auto s = b.find("samples_us"); s != b.end() && s->is_array())
            for (const auto& v : *s)
                if (v.is_number()) samples.push_back(v.get<double>());
        const auto stability = b.find("stability");
        const bool unstable = stability != b.end() && stability->is_object() &&
                              stability->value("stable", true) == false;
        auto it = std::find_if(into.rows.begin(), into.rows.end(),
                               [&](const run_row& r) { return r.name == *name; });
        if (it == into.rows.end()) {
            into.rows.push_back({name->get<std::string>(), b.value("suite", std::string{}),
                                 median->get<double>(), std::move(samples),
                                 {median->get<double>()}, unstable});
            continue;
        }
        it->unstable = it->unstable || unstable;
        // A repeated run of an earlier row: pool the samples, or fall back to the runs' medians
        // when one of them has none.
        const bool all_sampled = !it->samples_us.empty() && !samples.empty();
        it->run_medians_us.push_back(median->get<double>());
        if (all_sampled) {
            it->samples_us.insert(it->samples_us.end(), samples.begin(), samples.end());
            it->median_us = summarize(it->samples_us).median;
        } else {
            it->samples_us.clear();
            it->median_us = summarize(it->run_medians_us).median;
        }
    }
}

}  // namespace detail

// Reads parbench JSON files; a directory stands for every *.json file in it (not recursive).
// Throws input_error with one line naming the offending path.
[[nodiscard]] inline run_rows load_runs(const std::vector<std::string>& paths) {
    namespace fs = std::filesystem;
    run_rows out;
    for (const std::string& path : paths) {
        std::error_code ec;
        const auto kind = fs::status(path, ec).type();
        if (kind == fs::file_type::not_found)
            throw input_error(path + ": no such file or directory");
        std::vector<std::string> files;
        if (kind == fs::file_type::directory) {
            for (const auto& entry : fs::directory_iterator(path, ec))
                if (entry.path().extension() == ".json") files.push_back(entry.path().string());
            std::sort(files.begin(), files.end());
            if (files.empty()) throw input_error(path + ": a directory without .json files");
        } else {
            files.push_back(path);
        }
        for (const auto& file : files) {
            detail::add_rows(out, detail::parse_parbench_json(file), file);
            out.sources.push_back(file);
        }
    }
    return out;
}

enum class change_verdict {
    same,      // the test finds no significant difference
    slower,    // significantly slower: the new median is higher
    faster,    // significantly faster
    untested,  // a run has no samples (or too few for the test): medians only
};

[[nodiscard]] constexpr std::string_view to_string(change_verdict v) noexcept {
    switch (v) {
        case change_verdict::same: return "same";
        case change_verdict::slower: return "slower";
        case change_verdict::faster: return "faster";
        case change_verdict::untested: return "untested";
    }
    return "untested";
}

struct row_comparison {
    std::string name;
    std::string suite;
    double old_median_us = 0.0;
    double new_median_us = 0.0;
    std::optional<mann_whitney_result> test;  // absent when a side has fewer than 2 samples
    change_verdict verdict = change_verdict::untested;
    bool unstable = false;  // flagged in either run: read the change with care

    // new / old - 1: +0.05 is 5 % slower.
    [[nodiscard]] double change() const noexcept { return new_median_us / old_median_us - 1.0; }
};

struct suite_summary {
    std::string suite;
    std::size_t rows = 0;
    std::size_t slower = 0;
    std::size_t faster = 0;
    double geomean_ratio = 1.0;  // geometric mean of new/old medians over the suite's rows
};

struct comparison {
    std::vector<row_comparison> rows;  // in the old run's order
    std::vector<suite_summary> suites;
    std::size_t only_old = 0;  // rows without a partner
    std::size_t only_new = 0;
};

struct comparison_rules {
    double significance = 0.05;  // the test's level: p below it is a significant change
};

[[nodiscard]] inline row_comparison compare_row(const run_row& old_row, const run_row& new_row,
                                                const comparison_rules& rules = {}) {
    row_comparison c;
    c.name = old_row.name;
    c.suite = old_row.suite;
    c.old_median_us = old_row.median_us;
    c.new_median_us = new_row.median_us;
    c.unstable = old_row.unstable || new_row.unstable;
    if (old_row.samples_us.size() < 2 || new_row.samples_us.size() < 2) return c;
    c.test = mann_whitney_u(old_row.samples_us, new_row.samples_us);
    if (!(c.test->p_value < rules.significance))
        c.verdict = change_verdict::same;
    else
        c.verdict = c.new_median_us > c.old_median_us ? change_verdict::slower
                                                      : change_verdict::faster;
    return c;
}

// Throws input_error when the runs have no row in common: there is nothing to compare.
[[nodiscard]] inline comparison compare_runs(const run_rows& old_run, const run_rows& new_run,
                                             const comparison_rules& rules = {}) {
    comparison out;
    std::map<std::string, std::pair<suite_summary, double>> suites;  // with the sum of log ratios
    std::vector<std::string> suite_order;
    for (const run_row& o : old_run.rows) {
        const run_row* n = new_run.find(o.name);
        if (n == nullptr) {
            ++out.only_old;
            continue;
        }
        row_comparison c = compare_row(o, *n, rules);
        auto [it, inserted] = suites.try_emplace(c.suite);
        if (inserted) suite_order.push_back(c.suite);
        auto& [summary_of_suite, log_sum] = it->second;
        summary_of_suite.suite = c.suite;
        if (c.old_median_us > 0.0 && c.new_median_us > 0.0) {  // a zero time has no ratio
            ++summary_of_suite.rows;
            log_sum += std::log(c.new_median_us / c.old_median_us);
        }
        summary_of_suite.slower += c.verdict == change_verdict::slower ? 1 : 0;
        summary_of_suite.faster += c.verdict == change_verdict::faster ? 1 : 0;
        out.rows.push_back(std::move(c));
    }
    for (const run_row& n : new_run.rows)
        if (old_run.find(n.name) == nullptr) ++out.only_new;
    if (out.rows.empty())
        throw input_error("no rows in common: the runs measured different benchmarks, sizes or "
                          "process counts (" +
                          std::to_string(old_run.rows.size()) + " and " +
                          std::to_string(new_run.rows.size()) + " rows)");
    for (const auto& suite : suite_order) {
        auto [s, log_sum] = suites.at(suite);
        s.geomean_ratio = s.rows > 0 ? std::exp(log_sum / static_cast<double>(s.rows)) : 1.0;
        out.suites.push_back(s);
    }
    return out;
}

// The rows that make `--fail-above` fail: significantly slower by more than `threshold`
// (0.05 = 5 %).
[[nodiscard]] inline std::vector<const row_comparison*> regressions_above(const comparison& c,
                                                                         double threshold) {
    std::vector<const row_comparison*> out;
    for (const auto& row : c.rows)
        if (row.verdict == change_verdict::slower && row.change() > threshold) out.push_back(&row);
    return out;
}

}  // namespace parbench::report
