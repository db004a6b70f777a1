// The OSU console layout (OSU micro-benchmarks 7.x): per benchmark the '#' banner lines, then one
// row per size, "%-10d%18.2f" as OSU 7 prints them (FIELD_WIDTH 18, FLOAT_PRECISION 2), so that
// scripts that parse osu_* output read parbench's unchanged:
//
//
//   # OSU MPI Latency Test v7.5
//   # Datatype: MPI_CHAR.
//   # Size       Avg Latency(us)
//   1                       0.21
//   ...
//   # parbench 0.1.0, OSU micro-benchmarks 7.5 compatible
//
// The lines above the table come from the run header's block of the benchmark
// (report/osu_header.hpp: '#' lines OSU prints before its banner, the empty line OSU's
// print_preamble starts with, the banner, for one-sided tests window creation and
// synchronisation, further '#' lines, the datatype unless it has none: osu_barrier prints
// none, then the lines after the datatype: the one-sided tests' buffer placement under -d,
// repeated above each datatype's table). A table after another is separated from it by one empty line. The banner is OSU's
// exactly; parbench's identification (the run's title) is the '#' line that closes the run. The
// columns after the size are the suite's declaration for the benchmark (run_start.columns, read
// by report/columns.hpp): each with its heading, width and decimals, in the suite's order — so
// the layout knows nothing of latency, bandwidth, OSU's -f/-z/-c columns or parbench's extra
// ones. A record without bytes (barrier) has no size column: its first column then starts at
// the '#' and is one character narrower, as OSU prints "# Avg Latency(us)" and "%17.2f". A
// benchmark without a declaration shows its time per iteration as "Latency (us)". A block with
// row text (OSU's start-up programs) prints no datatype line and no heading: each record is
// one line, the block's pieces of text with the declared columns between them, unpadded
// ("nprocs: 2, min: 41 ms, max: 43 ms, avg: 42 ms").
//
// A record that names its datatype (block.datatype: OSU's -T) prints that on the datatype line;
// when the datatype changes within one benchmark's records (-T ALL), a new table starts under
// the same banner with its own datatype line and heading, no empty line between, as OSU 7.5's
// loop over datatypes prints them (osu_allreduce.c:116-126).
//
// A block with a window matrix (osu_mbw_mr -V: windows 1, ..., 128, and the rate profile)
// prints OSU 7.5's matrix instead of columns (osu_mbw_mr.c:244-325): a heading "#      " and
// "  %10d" per window, one row per size, "%-7d" and "  %10.2f" of each window's record's MB/s
// (records come one per window, in the heading's order; each record's message_rates, result.hpp,
// hold its MB/s, messages/s and window; a figure it lacks prints as 0), and with
// rate_profile, after a datatype's rows, "# Message Rate Profile" with the same rows of
// messages/s. An unstable cell's footnote follows its row and names its window.
//
// A row whose figures are not to be read at face value (report/stability.hpp) is followed by a
// footnote, "# ! unstable: ci95 15%" — a '#' line, which OSU's own output has and its parsers
// skip, so that the row keeps OSU's columns and nothing after them.
#pragma once

#include <parbench/report/columns.hpp>
#include <parbench/report/osu_header.hpp>
#include <parbench/report/reporter.hpp>
#include <parbench/report/stability.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace parbench::report {

class osu_console_reporter final : public reporter {
public:
    static constexpr int field_width = 18;  // OSU 7's FIELD_WIDTH
    static constexpr int size_width = 10;

    explicit osu_console_reporter(std::ostream& out) : out_(out) {}

    void on_run_start(const run_start& start, const nlohmann::json& /*driver_context*/) override {
        header_ = start.header.get<osu_header>();  // report/osu_header.hpp
        title_ = start.title;
        declared_ = start.columns;
        timer_ = timer_limits::from_context(start.context);
    }

    void on_result(const result_record& r) override {
        if (r.benchmark != current_)
            begin_table(r);
        else if (r.block.datatype != datatype_)
            begin_datatype_table(r);
        if (!matrix_windows_.empty()) {
            matrix_cell(r);
            return;
        }
        if (!row_text_.empty()) {
            std::string line = row_text_.front();
            for (std::size_t k = 0; k < columns_.size() && k + 1 < row_text_.size(); ++k)
                line += column_cell(r, columns_[k], 0) + row_text_[k + 1];
            out_ << line << '\n';
            footnote(r);
            out_.flush();
            return;
        }
        std::string row = sizes_ ? fmt::format("{:<{}}", r.bytes, size_width) : std::string{};
        for (std::size_t k = 0; k < columns_.size(); ++k)
            row += column_cell(r, columns_[k], width(k) - (leads(k) ? 1 : 0));
        out_ << row << '\n';
        footnote(r);
        for (const auto& w : r.warnings) out_ << "# note: " << w << '\n';
        out_.flush();
    }

    void on_warning(const std::string& message) override {
        finish_matrix();
        out_ << "# WARNING: " << message << '\n';
        out_.flush();
    }

    void on_run_end(bool completed) override {
        finish_matrix();
        if (!completed) out_ << "# run stopped early\n";
        if (!title_.empty()) out_ << "# " << title_ << '\n';
        out_.flush();
    }

private:
    void footnote(const result_record& r) {
        if (const stability verdict = assess_stability(r, timer_); !verdict.stable())
            out_ << "# ! unstable: " << verdict.console_note() << '\n';
    }

    // -V's matrix: one size's row is complete when the next size (or the end) comes.
    void matrix_cell(const result_record& r) {
        if (matrix_row_.cells.empty() || matrix_row_.bytes != r.bytes) {
            end_matrix_row();
            matrix_row_.bytes = r.bytes;
        }
        const message_rate_figures rates = r.message_rates.value_or(message_rate_figures{});
        matrix_row_.cells.push_back(rates.bandwidth_mb_s.value_or(0.0));
        matrix_row_.rates.push_back(rates.messages_per_s.value_or(0.0));
        if (const stability verdict = assess_stability(r, timer_); !verdict.stable())
            matrix_row_.notes.push_back(fmt::format("# ! unstable: window {}: {}",
                                                    rates.window_size.value_or(0),
                                                    verdict.console_note()));
    }

    void end_matrix_row() {
        if (matrix_row_.cells.empty()) return;
        std::string row = fmt::format("{:<7}", matrix_row_.bytes);
        for (const double mb_s : matrix_row_.cells) row += fmt::format("  {:>10.2f}", mb_s);
        out_ << row << '\n';
        for (const auto& note : matrix_row_.notes) out_ << note << '\n';
        rate_rows_.emplace_back(matrix_row_.bytes, matrix_row_.rates);
        matrix_row_ = {};
        out_.flush();
    }

    void print_matrix_heading() {
        std::string line = "#      ";
        for (const std::uint64_t w : matrix_windows_) line += fmt::format("  {:>10}", w);
        out_ << line << '\n';
    }

    // The end of one datatype's matrix: its last row, then OSU's message rate profile.
    void finish_matrix() {
        if (matrix_windows_.empty()) return;
        end_matrix_row();
        if (rate_profile_ && !rate_rows_.empty()) {
            out_ << "\n# Message Rate Profile\n";
            print_matrix_heading();
            for (const auto& [bytes, rates] : rate_rows_) {
                std::string row = fmt::format("{:<7}", bytes);
                for (const double rate : rates) row += fmt::format("  {:>10.2f}", rate);
                out_ << row << '\n';
            }
        }
        rate_rows_.clear();
        out_.flush();
    }

    void begin_table(const result_record& r) {
        finish_matrix();
        const osu_header_block block = header_.block_of(r.benchmark);
        const bool empty_line = block.empty_line_before;
        const std::vector<std::string>& before = block.lines_before;
        if (!current_.empty() && (!empty_line || !before.empty())) out_ << '\n';
        for (const auto& line : before) out_ << line << '\n';
        if (empty_line) out_ << '\n';
        current_ = r.benchmark;
        datatype_ = r.block.datatype;
        sizes_ = r.has_bytes;
        const auto* declared = declared_columns(declared_, r.benchmark);
        columns_ = declared ? *declared : std::vector<column>{{"t_max_us", "Latency (us)"}};
        row_text_ = block.row_text;
        print_preamble(block, r);
        matrix_windows_.clear();
        if (block.window_matrix) {
            matrix_windows_ = block.window_matrix->windows;
            rate_profile_ = block.window_matrix->rate_profile;
        }
        if (!matrix_windows_.empty()) {
            print_matrix_heading();
            return;
        }
        if (!row_text_.empty()) return;
        print_heading();
    }

    // The next datatype's table of the same benchmark: its datatype line and heading.
    void begin_datatype_table(const result_record& r) {
        finish_matrix();
        datatype_ = r.block.datatype;
        out_ << "# Datatype: " << datatype_ << ".\n";
        for (const auto& line : header_.block_of(r.benchmark).lines_after_datatype)
            out_ << line << '\n';
        if (!matrix_windows_.empty()) {
            print_matrix_heading();
            return;
        }
        print_heading();
    }

    void print_heading() {
        std::string line = sizes_ ? fmt::format("{:<{}}", "# Size", size_width) : "#";
        for (std::size_t k = 0; k < columns_.size(); ++k)
            line += fmt::format("{:>{}}", columns_[k].heading, width(k) - (leads(k) ? 2 : 0));
        out_ << line << '\n';
    }

    void print_preamble(const osu_header_block& block, const result_record& r) {
        out_ << fmt::format("# {} v{}\n", block.banner, header_.osu_version);
        if (block.window) {
            out_ << "# Window creation: " << block.window->creation << '\n';
            out_ << "# Synchronization: " << block.window->synchronization << '\n';
        }
        for (const auto& line : block.lines) out_ << line << '\n';
        if (!block.row_text.empty()) return;
        if (!r.block.datatype.empty())
            out_ << "# Datatype: " << r.block.datatype << ".\n";
        else if (block.datatype)
            out_ << "# Datatype: " << *block.datatype << ".\n";
        for (const auto& line : block.lines_after_datatype) out_ << line << '\n';
    }

    [[nodiscard]] int width(std::size_t k) const { return column_width(columns_[k], field_width); }
    // The first column of a table without sizes shares its space with the line's '#'.
    [[nodiscard]] bool leads(std::size_t k) const { return !sizes_ && k == 0; }

    std::ostream& out_;
    osu_header header_;  // the run's, from on_run_start
    std::string title_;
    std::map<std::string, std::vector<column>> declared_;
    timer_limits timer_;
    std::string current_;           // the benchmark of the current table
    std::string datatype_;          // its records' datatype (-T), "" where they name none
    bool sizes_ = true;             // the current table has a size column
    std::vector<column> columns_;   // the current table's columns after the size
    std::vector<std::string> row_text_;  // the current block's line of text, if it is one
    // -V's matrix (empty: a table of columns): its windows, the row being filled, and the rows'
    // message rates for the profile after them
    struct matrix_row {
        std::uint64_t bytes = 0;
        std::vector<double> cells;
        std::vector<double> rates;
        std::vector<std::string> notes;
    };
    std::vector<std::uint64_t> matrix_windows_;
    bool rate_profile_ = true;
    matrix_row matrix_row_;
    std::vector<std::pair<std::uint64_t, std::vector<double>>> rate_rows_;
};

}  // namespace parbench::report
