#include "osu/table.hpp"

#include "osu/datatypes.hpp"

#include <parbench/report/columns.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <utility>

namespace parbench::osu {
namespace table_impl {
namespace {

constexpr int field_width = 18;       // OSU 7's FIELD_WIDTH
constexpr int iterations_width = 12;  // OSU's "%*lu", 12
constexpr int defects_width = 10;

[[nodiscard]] column figure_column(std::string source, std::string heading,
                                   int width = field_width, int precision = 2) {
    return {.source = std::move(source),
            .heading = std::move(heading),
            .precision = precision,
            .width = width};
}

// fmt, not operator+: GCC 12 warns falsely (-Wrestrict) on "p" + std::string + "...".
[[nodiscard]] std::string percentile_metric(int p, tail_figure kind) {
    return kind == tail_figure::bandwidth ? fmt::format("p{}_bandwidth_mb_s", p)
                                          : fmt::format("p{}_latency_us", p);
}

// OSU 7.5's heading of -z's column of P: FIELD_WIDTH - strlen("Px Tail Lat(us)") - (P > 9)
// spaces, then "P<P> Tail Lat(us)" (or BW(MB/s)), osu_util_mpi.c:407-415: 18 wide, but 19 for
// P100, whose padding assumes two digits; the column right-aligns a heading of 18 itself, so it
// keeps OSU's spaces only where the heading is wider.
[[nodiscard]] std::string tail_heading(int p, tail_figure kind) {
    const std::string_view unit = kind == tail_figure::bandwidth ? "BW(MB/s)" : "Lat(us)";
    const std::string text = fmt::format("P{} Tail {}", p, unit);
    const int spaces = field_width - static_cast<int>(std::string_view("Px Tail ").size() +
                                                      unit.size()) - (p > 9 ? 1 : 0);
    const int osu_width = std::max(0, spaces) + static_cast<int>(text.size());
    return osu_width > field_width ? fmt::format("{:>{}}", text, osu_width) : text;
}

// OSU 7.5's tail latency (omb_calculate_tail_lat, c/util/osu_util_mpi.c:742-750): the sorted
// times' element round(n * p / 100) - 1, where n * p / 100 is C's integer division, so element
// floor(n·p/100) - 1. Below the first element (p·n < 100, where OSU reads before its array) it
// is the first; 0 without samples. `sorted` ascending.
[[nodiscard]] double percentile(const std::vector<double>& sorted, int p) {
    if (sorted.empty()) return 0.0;
    const std::size_t index = sorted.size() * static_cast<std::size_t>(p) / 100;
    return sorted[std::min(std::max<std::size_t>(index, 1), sorted.size()) - 1];
}

// The figure had an iteration taken `t_us` instead of the headline time (see table.hpp): a
// time keeps its ratio to the headline (the slowest process's), a rate is the same bytes or
// messages over `t_us` (its value times the time it came from, figure_time_us, over `t_us`).
[[nodiscard]] double figure_at(const result_record& r, const figure_text& f, double t_us) {
    const double value = report::column_value(r, column{f.source, {}}).value_or(0.0);
    const double headline = r.headline_time_us();
    if (headline <= 0.0) return 0.0;
    if (f.rate) return t_us > 0.0 ? value * figure_time_us(r) / t_us : 0.0;
    return t_us * value / headline;
}

}  // namespace

}  // namespace table_impl
std::vector<column> table_columns(const block_text& text, const options& o) {
    std::vector<column> columns;
    if (!text.row_text.empty()) {  // a line of text: its figures only, whatever the options
        for (const char* source : text.row_sources)
            columns.push_back(table_impl::figure_column(source, source, 1, 0));
        return columns;
    }
    for (int k = 0; k < text.figure_count; ++k) {
        const figure_text& f = text.figures[static_cast<std::size_t>(k)];
        // mbw_mr -R 0: MB/s alone (osu_mbw_mr.c:182-191)
        if (!o.print_rate && std::string_view(f.source) == "messages_per_s") continue;
        const int width = f.width > 0 ? f.width : table_impl::field_width;
        columns.push_back(table_impl::figure_column(f.source, f.heading, width));
    }
    if (text.nonblocking) {  // OSU 7's print_only_header_nbc, after Overall(us)
        columns.push_back(table_impl::figure_column("compute_us", "Compute(us)"));
        if (o.full) {
            columns.push_back(table_impl::figure_column("init_us", "Coll. Init(us)"));
            columns.push_back(table_impl::figure_column("test_us", "MPI_Test(us)"));
            columns.push_back(table_impl::figure_column("wait_us", "MPI_Wait(us)"));
        }
        columns.push_back(table_impl::figure_column("pure_comm_us", "Pure Comm.(us)"));
        if (o.full) {
            columns.push_back(table_impl::figure_column("min_comm_us", "Min Comm.(us)"));
            columns.push_back(table_impl::figure_column("max_comm_us", "Max Comm.(us)"));
        }
        columns.push_back(table_impl::figure_column("overlap_percent", "Overlap(%)"));
    }
    if (text.latency && o.full) {
        columns.push_back(table_impl::figure_column("t_min_us", "Min Latency(us)"));
        columns.push_back(table_impl::figure_column("t_max_us", "Max Latency(us)"));
        columns.push_back(
            table_impl::figure_column("iterations", "Iterations", table_impl::iterations_width, 0));
    }
    if (o.check) columns.push_back(table_impl::figure_column("validation", "Validation"));
    // OSU 7.5's headings, osu_util_mpi.c:524-533 and :633-647 (tail_of)
    if (const tail_figure kind = tail_of(text); kind != tail_figure::none)
        for (const int p : o.percentiles)
            columns.push_back(table_impl::figure_column(table_impl::percentile_metric(p, kind),
                                                        table_impl::tail_heading(p, kind)));
    // -D: OSU 7.5's last column, the bytes one message carries (osu_latency.c:291-293; heading
    // print_only_header, osu_util_mpi.c:651-653, "%*zu" FIELD_WIDTH)
    if (o.ddt.given())
        columns.push_back(table_impl::figure_column("transmit_size_bytes", "Transmit Size",
                                                    table_impl::field_width, 0));
    if (o.check)
        columns.push_back(
            table_impl::figure_column("defects", "Defects", table_impl::defects_width, 0));
    if (o.extra_columns) {
        const figure_text& f = text.figures[0];
        columns.push_back(table_impl::figure_column(fmt::format("median_{}", f.name),
                                                    fmt::format("Median({})", f.unit)));
        columns.push_back(table_impl::figure_column(fmt::format("ci95_low_{}", f.name),
                                                    fmt::format("CI95 low({})", f.unit)));
        columns.push_back(table_impl::figure_column(fmt::format("ci95_high_{}", f.name),
                                                    fmt::format("CI95 high({})", f.unit)));
    }
    return columns;
}

void add_table_figures(result_record& r, const block_text& text, const options& o) {
    if (!text.row_text.empty()) return;
    if (o.ddt.given())
        r.metrics["transmit_size_bytes"] = static_cast<double>(payload_bytes(o, r.bytes));
    const figure_text& first = text.figures[0];
    if (o.extra_columns) {
        const summary& d = r.distribution_us;
        const double a = table_impl::figure_at(r, first, d.ci_low);
        const double b = table_impl::figure_at(r, first, d.ci_high);
        r.metrics[fmt::format("median_{}", first.name)] = table_impl::figure_at(r, first, d.median);
        r.metrics[fmt::format("ci95_low_{}", first.name)] = std::min(a, b);
        r.metrics[fmt::format("ci95_high_{}", first.name)] = std::max(a, b);
    }
}

void add_tail_figures(std::span<result_record> records, std::vector<double> series,
                      const options& o, tail_figure kind) {
    std::sort(series.begin(), series.end());  // ascending, MB/s too (omb_ascending_cmp_double)
    for (const int p : o.percentiles) {
        const double value = table_impl::percentile(series, p);
        for (result_record& r : records) r.metrics[table_impl::percentile_metric(p, kind)] = value;
    }
}

std::vector<double> tail_bandwidths_mb_s(std::span<const double> seconds, double bytes) {
    std::vector<double> mb_s;
    mb_s.reserve(seconds.size());
    for (const double t : seconds) mb_s.push_back(t > 0.0 ? bytes / (t * 1e6) : 0.0);
    return mb_s;
}

}  // namespace parbench::osu
