// `parbench compare OLD NEW`: the driver's side of report/comparison.hpp — options, the text and
// Markdown tables, and the exit status a CI job reads (0: no regression over the threshold, 1: a
// significant regression over it, 2: bad input, 4: the report could not be written to stdout).
#pragma once


#include <parbench/core/error.hpp>
#include <parbench/driver/printable.hpp>
#include <parbench/report/comparison.hpp>
#include <parbench/report/output_file.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace parbench::app {

using namespace parbench::driver;

struct compare_options {
    std::string old_path;
    std::string new_path;
    std::string format = "text";
    std::string fail_above_text;  // "5%" (or "5"); empty: never fail
    double significance = 0.05;
};

// --significance: a level in [1e-9, 0.5]. CLI::Range lets NaN through (every comparison with it
// is false), and a NaN level makes every row "same": --fail-above would pass any regression.
inline const CLI::Validator significance_level(
    [](std::string& text) -> std::string {
        char* end = nullptr;
        const double level = std::strtod(text.c_str(), &end);
        if (text.empty() || end != text.c_str() + text.size() || !(level >= 1e-9 && level <= 0.5))
            return quote_value(text) + ": expected a level between 1e-9 and 0.5 (e.g. 0.05)";
        return {};
    },
    "LEVEL in [1e-9, 0.5]");

inline CLI::App* add_compare_command(CLI::App& app, compare_options& o) {
    CLI::App* c = app.add_subcommand(
        "compare", "Compare two runs: parbench compare OLD.json NEW.json (files or directories)");
    c->add_option("old", o.old_path, "The baseline: a parbench JSON file or a directory of them")
        ->required();
    c->add_option("new", o.new_path, "The run to judge: a JSON file or a directory of them")
        ->required();
    c->add_option("--format", o.format, "Output: text or markdown")
        ->capture_default_str()
        ->check(CLI::IsMember({"text", "markdown"}));
    c->add_option("--fail-above", o.fail_above_text,
                  "Exit 1 when a row is significantly slower by more than this (e.g. 5%)")
        ->type_name("PERCENT");
    c->add_option("--significance", o.significance,
                  "Level of the Mann-Whitney U test (p below it is significant)")
        ->capture_default_str()
        ->check(significance_level);
    return c;
}

// "5%" or "5" -> 0.05.
[[nodiscard]] inline double parse_percent(const std::string& option, const std::string& text) {
    std::string number = text;
    if (!number.empty() && number.back() == '%') number.pop_back();
    char* end = nullptr;
    const double value = number.empty() ? std::nan("") : std::strtod(number.c_str(), &end);
    if (number.empty() || end != number.c_str() + number.size() || !std::isfinite(value) ||
        value < 0.0)
        throw input_error(option + " " + text + ": expected a percentage such as 5%");
    return value / 100.0;
}

namespace detail {

[[nodiscard]] inline std::string signed_percent(double fraction) {
    return fmt::format("{:+.1f}%", 100.0 * fraction);
}

[[nodiscard]] inline std::string p_text(const report::row_comparison& r) {
    return r.test ? fmt::format("{:.3g}", r.test->p_value) : std::string("-");
}

// "slower!" for a row flagged unstable in either run.
[[nodiscard]] inline std::string verdict_text(const report::row_comparison& r) {
    return std::string(report::to_string(r.verdict)) + (r.unstable ? "!" : "");
}

[[nodiscard]] inline std::string suite_line(const report::suite_summary& s) {
    return fmt::format("{}: {} rows, geometric mean of new/old medians {:.4f} ({}), {} slower, "
                       "{} faster",
                       s.suite.empty() ? std::string("(no suite)") : printable(s.suite), s.rows,
                       s.geomean_ratio, signed_percent(s.geomean_ratio - 1.0), s.slower, s.faster);
}

inline void print_text(std::ostream& out, const report::comparison& c) {
    std::size_t width = 9;
    for (const auto& r : c.rows) width = std::max(width, printable(r.name).size());
    out << fmt::format("{:<{}}  {:>14}  {:>14}  {:>8}  {:>8}  {}\n", "benchmark", width,
                       "old median[us]", "new median[us]", "change", "p-value", "verdict");
    for (const auto& r : c.rows)
        out << fmt::format("{:<{}}  {:>14.4g}  {:>14.4g}  {:>8}  {:>8}  {}\n", printable(r.name), width,
                           r.old_median_us, r.new_median_us, signed_percent(r.change()),
                           p_text(r), verdict_text(r));
    out << '\n';
    for (const auto& s : c.suites) out << detail::suite_line(s) << '\n';
}

inline void print_markdown(std::ostream& out, const report::comparison& c) {
    out << "| benchmark | old median [µs] | new median [µs] | change | p-value | verdict |\n"
           "|---|---:|---:|---:|---:|---|\n";
    for (const auto& r : c.rows)
        out << fmt::format("| `{}` | {:.4g} | {:.4g} | {} | {} | {} |\n", printable(r.name),
                           r.old_median_us, r.new_median_us, signed_percent(r.change()),
                           p_text(r), verdict_text(r));
    out << '\n';
    for (const auto& s : c.suites) out << "- " << detail::suite_line(s) << '\n';
}

}  // namespace detail

// Writes the report to the descriptor `out_fd` (stdout) and returns the exit status; bad input
// is thrown as input_error (exit 2 in main), a report that cannot be written as output_error
// (exit 4): a CI gate must never read 0 from a comparison nobody could see.
inline int run_compare(const compare_options& o, int out_fd, std::ostream& err) {
    std::optional<double> fail_above;
    if (!o.fail_above_text.empty()) fail_above = parse_percent("--fail-above", o.fail_above_text);
    const auto old_run = report::load_runs({o.old_path});
    const auto new_run = report::load_runs({o.new_path});
    const auto c = report::compare_runs(old_run, new_run, {.significance = o.significance});

    std::ostringstream out;
    if (o.format == "markdown")
        detail::print_markdown(out, c);
    else
        detail::print_text(out, c);
    std::size_t untested = 0;
    std::size_t unstable = 0;
    for (const auto& r : c.rows) {
        untested += r.verdict == report::change_verdict::untested ? 1 : 0;
        unstable += r.unstable ? 1 : 0;
    }
    if (c.only_old + c.only_new > 0)
        out << fmt::format("{} rows only in the old run, {} only in the new run (not compared)\n",
                           c.only_old, c.only_new);
    if (untested > 0)
        out << fmt::format(
            "{} rows with fewer than two samples in one of the runs (see their samples in the "
            "JSON): medians compared, no test\n",
            untested);
    if (unstable > 0)
        out << fmt::format("{} rows marked '!' were flagged unstable in a run (see their stability "
                           "in the JSON): their change may be noise\n",
                           unstable);
    report::write_to_descriptor(out_fd, out.view(), "stdout");

    if (!fail_above) return 0;
    const auto regressions = report::regressions_above(c, *fail_above);
    if (regressions.empty()) return 0;
    std::string names;
    for (std::size_t i = 0; i < regressions.size() && i < 5; ++i)
        names += (i > 0 ? ", " : "") + printable(regressions[i]->name) + " (" +
                 detail::signed_percent(regressions[i]->change()) + ")";
    if (regressions.size() > 5) names += fmt::format(", and {} more", regressions.size() - 5);
    err << fmt::format("parbench: regression: {} rows significantly slower by more than {}: {}\n",
                       regressions.size(), o.fail_above_text, names);
    return 1;
}

}  // namespace parbench::app
