// The IMB console layout (Intel MPI Benchmarks 4.0, catalogue §A.7): the header with machine and
// MPI information, the calling sequence and the benchmark list, then one table per block with
// figure columns from the record's class or the suite's declaration (report/columns.hpp). parbench appends the median and the relative half-width of its 95 %
// confidence interval to every table, a defects column in check mode, and after a row whose
// figures are not to be read at face value (report/stability.hpp) a '!' with the reason.
#pragma once

#include <parbench/report/columns.hpp>
#include <parbench/report/reporter.hpp>
#include <parbench/report/stability.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace parbench::report {

namespace detail {

// IMB prints every column 13 characters wide, right-aligned, times with two decimals.
inline constexpr int imb_column_width = 13;

[[nodiscard]] inline std::string json_text(const nlohmann::json& object, const char* key,
                                           const std::string& fallback = {}) {
    if (!object.is_object()) return fallback;
    auto it = object.find(key);
    if (it == object.end() || it->is_null()) return fallback;
    if (it->is_string()) return it->get<std::string>();
    return it->dump();
}

// The table a record belongs to: its block, with the -multi 1 group index folded into a column.
[[nodiscard]] inline block_info table_key(const result_record& r) {
    block_info key = r.block;
    key.group = -1;
    return key;
}

// Multiple mode shows single-transfer benchmarks with min/max/avg across groups, as IMB does.
[[nodiscard]] inline bool shows_spread(const result_record& r) {
    switch (r.klass) {
        case benchmark_class::single_transfer:
        case benchmark_class::multiple_transfer:
            return r.block.groups > 1 || r.block.group >= 0 || r.block.title.starts_with("Multi-");
        default: return true;
    }
}

// IMB's figure columns for a record's class: one time column "t" (the slowest rank) for single
// transfers, t_min/t_max/t_avg where the figures spread over ranks or groups, and Mbytes/sec when
// the record has a throughput (the pattern's rule decides: IMB-RMA's parallel transfers have none).
[[nodiscard]] inline std::vector<column> imb_class_columns(const result_record& r) {
    std::vector<column> columns;
    if (shows_spread(r)) {
        columns = {{"t_min_us", "t_min[usec]"}, {"t_max_us", "t_max[usec]"},
                   {"t_avg_us", "t_avg[usec]"}};
    } else {
        columns = {{"t_max_us", "t[usec]"}};
    }
    if (r.throughput_mib_s) columns.push_back({"mbytes_per_s", "Mbytes/sec"});
    return columns;
}

// One line of IMB's run header: "# Label                 : value".
inline void imb_header_line(std::ostream& out, const char* label, const std::string& value) {
    out << fmt::format("# {:<22}: {}\n", label, value);
}

// The start of every IMB component's run header (IMB_output.c, IMB-P2P's print_main_header): the
// title between rules of `rule_width` dashes, then the date, machine and MPI version lines, and
// (parbench's: one install may measure several MPI libraries, one plugin each) the first line of
// the library's MPI_Get_library_version, where the run's context has it.
inline void imb_banner(std::ostream& out, const run_start& start,
                       const nlohmann::json& driver_context, std::size_t rule_width) {
    const std::string rule(rule_width, '-');
    out << '#' << rule << '\n';
    out << "#    " << (start.title.empty() ? start.suite : start.title) << '\n';
    out << '#' << rule << '\n';
    imb_header_line(out, "Date", json_text(driver_context, "date_text"));
    imb_header_line(out, "Machine", json_text(driver_context, "machine"));
    imb_header_line(out, "System", json_text(driver_context, "system"));
    imb_header_line(out, "Release", json_text(driver_context, "release"));
    imb_header_line(out, "Version", json_text(driver_context, "version"));
    imb_header_line(out, "MPI Version", json_text(start.header, "mpi_version", "-"));
    if (start.context.is_object() && start.context.contains("mpi_library")) {
        std::string library = json_text(start.context, "mpi_library");
        library = library.substr(0, library.find('\n'));
        std::replace(library.begin(), library.end(), '\t', ' ');  // "MPICH Version:\t4.0.2"
        imb_header_line(out, "MPI Library", library);
    }
}

}  // namespace detail

class imb_console_reporter final : public reporter {
public:
    // The defects column appears when the plugin's header or the driver context says "check".
    explicit imb_console_reporter(std::ostream& out) : out_(out) {}

    // What the tables need from the run's start (the defects column, the timer's limits, the
    // declared columns), without printing the header: for a layout that prints its own header
    // before IMB's tables (imb_p2p_console.hpp).
    void configure(const run_start& start, const nlohmann::json& driver_context) {
        const nlohmann::json& h = start.header;
        check_ = (h.is_object() && h.value("check", false)) ||
                 (driver_context.is_object() && driver_context.value("check", false));
        timer_ = timer_limits::from_context(start.context);
        declared_ = start.columns;
    }

    void on_run_start(const run_start& start, const nlohmann::json& driver_context) override {
        configure(start, driver_context);
        const nlohmann::json& h = start.header;
        detail::imb_banner(out_, start, driver_context, 51);
        out_ << "# MPI Thread Environment: "
             << detail::json_text(h, "mpi_thread_environment", "MPI_THREAD_SINGLE") << "\n\n";
        out_ << "# The number of iterations per message size is cut down\n"
                "# dynamically when a certain run time (per message size sample)\n"
                "# is expected to be exceeded. The time limit per sample is set\n"
                "# through the flag => -time\n\n";
        out_ << "# Calling sequence was:\n\n";
        out_ << "# " << detail::json_text(driver_context, "calling_sequence") << "\n\n";
        if (h.is_object() && h.value("lengths_user_defined", false)) {
            out_ << "# Message lengths were user defined\n";
        } else {
            // IMB-IO says "io portion" where the others say "message length".
            const std::string length = detail::json_text(h, "length_name", "message length");
            out_ << "# Minimum " << length << " in bytes:   " << detail::json_text(h, "min_bytes", "0")
                 << '\n';
            out_ << "# Maximum " << length << " in bytes:   "
                 << detail::json_text(h, "max_bytes", "0") << '\n';
        }
        out_ << "#\n";
        out_ << "# MPI_Datatype                   :   " << detail::json_text(h, "datatype", "MPI_BYTE")
             << '\n';
        out_ << "# MPI_Datatype for reductions    :   "
             << detail::json_text(h, "reduction_datatype", "MPI_FLOAT") << '\n';
        out_ << "# MPI_Op                         :   "
             << detail::json_text(h, "reduction_op", "MPI_SUM") << '\n';
        out_ << "#\n#\n\n";
        out_ << "# List of Benchmarks to run:\n\n";
        std::vector<std::string> list = start.benchmarks;
        if (h.is_object() && h.contains("benchmark_list") && h["benchmark_list"].is_array())
            list = h["benchmark_list"].get<std::vector<std::string>>();
        for (const auto& name : list) out_ << "# " << name << '\n';
        out_.flush();
    }

    void on_result(const result_record& r) override {
        const block_info key = detail::table_key(r);
        if (!current_ || !(*current_ == key) || current_benchmark_ != r.benchmark) {
            begin_table(r);
            current_ = key;
            current_benchmark_ = r.benchmark;
        }
        row(r);
        out_.flush();
    }

    void on_warning(const std::string& message) override {
        close_table();
        out_ << "# WARNING: " << message << '\n';
        out_.flush();
    }

    // IMB ends each table with an empty line, and readers of its output (docs/imb-readers.md)
    // take a table's rows up to one: a line of ours after a row ends the table first, and the
    // next row starts a new one with its heading.
    void close_table() override {
        if (!current_) return;
        out_ << '\n';
        current_.reset();
    }

    void on_run_end(bool completed) override {
        if (completed) out_ << "\n\n# All processes entering MPI_Finalize\n\n";
        out_.flush();
    }

private:
    void begin_table(const result_record& r) {
        const block_info& b = r.block;
        const std::string rule(b.groups > 1 ? 77 : 64, '-');
        out_ << "\n#" << rule << '\n';
        out_ << "# Benchmarking " << b.title << '\n';
        // In a run on more than one node, the header names each process's node (a single
        // node's runs print IMB's lines alone).
        const std::vector<std::vector<int>>* nodes =
            r.placement && r.placement->run_nodes > 1 ? &r.placement->group_nodes : nullptr;
        if (b.groups > 1) {
            out_ << "# ( " << b.groups << " groups of " << b.processes
                 << " processes each running simultaneously )\n";
            for (std::size_t g = 0; g < b.group_ranks.size(); ++g) {
                out_ << fmt::format("# Group {:2d}:", g);
                for (int rank : b.group_ranks[g]) out_ << fmt::format("{:5d}", rank);
                if (nodes != nullptr && nodes->size() == b.group_ranks.size())
                    out_ << "   on nodes" << fmt::format(" {}", fmt::join((*nodes)[g], " "));
                out_ << '\n';
            }
        } else if (!b.rank_order.empty()) {
            out_ << "# #processes = " << b.processes << "; rank order (rowwise):\n";
            for (const auto& matrix_row : b.rank_order) {
                out_ << '#';
                for (int rank : matrix_row) out_ << fmt::format("{:5d}", rank);
                out_ << '\n';
            }
            if (nodes != nullptr && nodes->size() == 1)
                out_ << "# ( " << r.placement->span() << ": nodes, rank order"
                     << fmt::format(" {}", fmt::join(nodes->front(), " ")) << " )\n";
        } else {
            out_ << "# #processes = " << b.processes << '\n';
            if (nodes != nullptr && nodes->size() == 1)
                out_ << "# ( " << r.placement->span() << ": nodes"
                     << fmt::format(" {}", fmt::join(nodes->front(), " ")) << " )\n";
        }
        if (b.threads > 0) out_ << "# #threads = " << b.threads << '\n';
        if (b.waiting > 0)
            out_ << "# ( " << b.waiting << " additional processes waiting in MPI_Barrier)\n";
        if (b.mode == "aggregate") out_ << "# ( MODE: AGGREGATE )\n";
        if (b.mode == "non_aggregate") out_ << "# ( MODE: NON-AGGREGATE )\n";
        out_ << '#' << rule << '\n';

        // The heading line has IMB's headings only: readers of IMB output look each one up
        // (PerfKitBenchmarker's fails on any other). parbench's columns follow IMB's in every
        // row, and their headings stand above them on a '#' line, which readers skip.
        std::string head;
        if (r.block.group >= 0) head += fmt::format("{:>7}", "#group");
        if (r.has_bytes) head += cell("#bytes");
        head += cell("#repetitions");
        figures_ = figure_columns(r);
        for (const column& c : figures_)
            head += fmt::format("{:>{}}", c.heading, column_width(c, detail::imb_column_width));
        std::string ours = fmt::format("{:>16}{:>10}", "t_median[usec]", "ci95[%]");
        if (check_) ours += fmt::format("{:>10}", "defects");
        out_ << '#' << std::string(head.size() - 1, ' ') << ours << '\n';
        out_ << head << '\n';
    }

    void row(const result_record& r) {
        std::string text;
        if (r.block.group >= 0) text += fmt::format("{:>7}", r.block.group);
        const int w = detail::imb_column_width;
        if (r.has_bytes) text += fmt::format("{:>{}}", r.bytes, w);
        text += fmt::format("{:>{}}", r.iterations, w);
        for (const column& c : figures_) text += column_cell(r, c, column_width(c, w));
        const summary& d = r.distribution_us;
        text += fmt::format("{:>16.2f}", d.median);
        if (d.samples > 0 && !has_ci(d)) {
            text += fmt::format("{:>10}", no_ci_cell);
        } else if (d.samples > 0 && d.median > 0.0 && std::isfinite(d.median)) {
            const double half_width = (d.ci_high - d.ci_low) / 2.0;
            text += fmt::format("{:>10.1f}", 100.0 * half_width / d.median);
        } else {
            text += fmt::format("{:>10}", "-");
        }
        if (check_) {
            if (r.defects)
                text += fmt::format("{:>10}", *r.defects);
            else
                text += r.not_verified ? std::string("  ") + not_verified_cell  // never glued
                                  : fmt::format("{:>10}", "-");
        }
        if (const stability verdict = assess_stability(r, timer_); !verdict.stable())
            text += "  ! " + verdict.console_note();
        out_ << text << '\n';
    }

    // What the suite declared for this benchmark, else IMB's columns for the record's class.
    [[nodiscard]] std::vector<column> figure_columns(const result_record& r) const {
        if (const auto* declared = declared_columns(declared_, r.benchmark)) return *declared;
        return detail::imb_class_columns(r);
    }

    static std::string cell(const char* text) {
        return fmt::format("{:>{}}", text, detail::imb_column_width);
    }

    std::ostream& out_;
    bool check_ = false;
    timer_limits timer_;
    std::map<std::string, std::vector<column>> declared_;
    std::vector<column> figures_;  // the current table's figure columns
    std::optional<block_info> current_;
    std::string current_benchmark_;
};

}  // namespace parbench::report
