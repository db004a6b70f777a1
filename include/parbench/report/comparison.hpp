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
#include <unordered_map>
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

    // A linear search: for one row. Comparing whole runs indexes them instead.
    [[nodiscard]] const run_row* find(const std::string& name) const {
        const auto it = std::find_if(rows.begin(), rows.end(),
                                     [&](const run_row& r) { return r.name == name; });
        return it == rows.end() ? nullptr : &*it;
    }
};

// The largest file `parbench compare` reads (docs/user-guide.md): 256 MiB, some 80 000 rows of
// 64 samples, far beyond a real run. Reading is linear in the size (about 50 ms per MB on the
// build machines), so the limit bounds both time and memory.
inline constexpr std::size_t max_compare_input_bytes = std::size_t{1} << 28;

namespace detail {

// A parbench JSON file nests five levels deep; a document nested far deeper is no result file,
// and each level costs the parser memory (20 MB of '[' took 1.5 GB before it was refused).
inline constexpr int max_json_depth = 64;

// The deepest nesting of arrays and objects in JSON text, brackets inside strings not counted;
// one pass, so that a hostile document is refused before the parser spends memory on it.
[[nodiscard]] inline int nesting_depth(std::string_view text) noexcept {
    int depth = 0;
    int deepest = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;  // the escaped character
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

// Reads and parses a file of at most max_compare_input_bytes (core/input_file.hpp refuses
// devices, FIFOs and larger files in one line).
[[nodiscard]] inline nlohmann::json parse_parbench_json(const std::string& path) {
    const std::string text = read_input_file("compare", path, max_compare_input_bytes);
    nlohmann::json document;
    try {
        if (nesting_depth(text) > max_json_depth)
            throw input_error(path + ": not a parbench JSON file (nested deeper than " +
                              std::to_string(max_json_depth) + " levels)");
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

// A time from a row: a finite number of microseconds, not negative. Anything else (a negative
// median from a hand-edited or corrupted file) would turn a slowdown into a "speed-up".
[[nodiscard]] inline double time_of(const nlohmann::json& value, const std::string& path,
                                    const std::string& row, const char* field) {
    const double t = value.is_number() ? value.get<double>() : std::nan("");
    if (!(t >= 0.0) || !std::isfinite(t))
        throw input_error(path + ": row " + row + ": " + field + " " + value.dump() +
                          " is not a time (a finite number of microseconds, not negative)");
    return t;
}

// Rows of one file, appended to `into`; `index` maps a name to its row in `into`, so that each
// row costs one lookup (a search through every row read so far made a 24 MB file take
// minutes). A repeated name is pooled; its median is computed once, by finish_pooling.
inline void add_rows(run_rows& into, std::unordered_map<std::string, std::size_t>& index,
                     const nlohmann::json& document, const std::string& path) {
    for (const auto& b : document["benchmarks"]) {
        if (!b.is_object() || b.value("run_type", std::string("iteration")) != "iteration")
            continue;
        const auto median = b.find("median_us");
        const auto name = b.find("name");
        if (median == b.end() || !median->is_number() || name == b.end() || !name->is_string())
            throw input_error(path + ": not a parbench JSON file (a row without name or median_us)");
        const std::string& row_name = name->get_ref<const std::string&>();
        const double median_us = time_of(*median, path, row_name, "median_us");
        std::vector<double> samples;
        if (const auto s = b.find("samples_us"); s != b.end() && s->is_array()) {
            samples.reserve(s->size());
            for (const auto& v : *s) samples.push_back(time_of(v, path, row_name, "samples_us"));
        }
        const auto stability = b.find("stability");
        const bool unstable = stability != b.end() && stability->is_object() &&
                              stability->value("stable", true) == false;
        const auto [at, first_seen] = index.try_emplace(row_name, into.rows.size());
        if (first_seen) {
            into.rows.push_back({row_name, b.value("suite", std::string{}), median_us,
                                 std::move(samples), {median_us}, unstable});
            continue;
        }
        run_row& pooled = into.rows[at->second];
        pooled.unstable = pooled.unstable || unstable;
        // A repeated run of an earlier row: pool the samples, or fall back to the runs' medians
        // when one of them has none.
        pooled.run_medians_us.push_back(median_us);
        if (!pooled.samples_us.empty() && !samples.empty())
            pooled.samples_us.insert(pooled.samples_us.end(), samples.begin(), samples.end());
        else
            pooled.samples_us.clear();
    }
}

// The median of every pooled row: of its pooled samples, or of its runs' medians.
inline void finish_pooling(run_rows& rows) {
    for (run_row& r : rows.rows)
        if (r.run_medians_us.size() > 1)
            r.median_us = summarize(r.samples_us.empty() ? r.run_medians_us : r.samples_us).median;
}

}  // namespace detail

// Reads parbench JSON files; a directory stands for every *.json file in it (not recursive).
// Throws input_error with one line naming the offending path.
[[nodiscard]] inline run_rows load_runs(const std::vector<std::string>& paths) {
    namespace fs = std::filesystem;
    run_rows out;
    std::unordered_map<std::string, std::size_t> index;
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
            detail::add_rows(out, index, detail::parse_parbench_json(file), file);
            out.sources.push_back(file);
        }
    }
    detail::finish_pooling(out);
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

// `exact_cache` keeps the exact distributions of U between rows (core/mann_whitney.hpp).
[[nodiscard]] inline row_comparison compare_row(const run_row& old_row, const run_row& new_row,
                                                const comparison_rules& rules,
                                                mann_whitney_exact_cache& exact_cache) {
    row_comparison c;
    c.name = old_row.name;
    c.suite = old_row.suite;
    c.old_median_us = old_row.median_us;
    c.new_median_us = new_row.median_us;
    c.unstable = old_row.unstable || new_row.unstable;
    if (old_row.samples_us.size() < 2 || new_row.samples_us.size() < 2) return c;
    c.test = mann_whitney_u(old_row.samples_us, new_row.samples_us, exact_cache);
    if (!(c.test->p_value < rules.significance))
        c.verdict = change_verdict::same;
    else
        c.verdict = c.new_median_us > c.old_median_us ? change_verdict::slower
                                                      : change_verdict::faster;
    return c;
}

[[nodiscard]] inline row_comparison compare_row(const run_row& old_row, const run_row& new_row,
                                                const comparison_rules& rules = {}) {
    mann_whitney_exact_cache exact_cache;
    return compare_row(old_row, new_row, rules, exact_cache);
}

// Throws input_error when the runs have no row in common (there is nothing to compare) or when
// the significance level is not a probability in (0, 1): NaN would make every row "same" and
// let `--fail-above` pass any regression.
//
// Cost: linear in the rows of both runs (one hash lookup per row) plus one Mann-Whitney test per
// common row, O(s log s) for s samples; the exact distribution of U is computed once per pair of
// sample counts (at most 64 x 64 of them).
[[nodiscard]] inline comparison compare_runs(const run_rows& old_run, const run_rows& new_run,
                                             const comparison_rules& rules = {}) {
    if (!(rules.significance > 0.0 && rules.significance < 1.0))
        throw input_error("significance level " + std::to_string(rules.significance) +
                          ": expected a probability between 0 and 1");
    std::unordered_map<std::string_view, const run_row*> old_by_name, new_by_name;
    old_by_name.reserve(old_run.rows.size());
    new_by_name.reserve(new_run.rows.size());
    for (const run_row& r : old_run.rows) old_by_name.try_emplace(r.name, &r);
    for (const run_row& r : new_run.rows) new_by_name.try_emplace(r.name, &r);
    mann_whitney_exact_cache exact_cache;
    comparison out;
    std::map<std::string, std::pair<suite_summary, double>> suites;  // with the sum of log ratios
    std::vector<std::string> suite_order;
    for (const run_row& o : old_run.rows) {
        const auto partner = new_by_name.find(o.name);
        if (partner == new_by_name.end()) {
            ++out.only_old;
            continue;
        }
        row_comparison c = compare_row(o, *partner->second, rules, exact_cache);
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
        if (!old_by_name.contains(n.name)) ++out.only_new;
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
