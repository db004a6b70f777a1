// The caf console layout (suite caf, EPCC CAF_BENCH): a short header (images, coarray runtime,
// compiler, calling sequence), then one table per block with the columns of its kind:
//
//   point-to-point  count blksize stride ndata nextent #reps t_median[usec] CI95[usec] MiB/s
//                   (t: one transfer, half a ping-pong round trip, with its synchronisation)
//   synchronisation neighbours #reps t_delay+sync t_delay overhead[usec] CI95[usec] note
//                   (note: "within noise" when the overhead's interval reaches zero)
//   halo            size #reps t_median[usec] CI95[usec] MiB/s
//
// Every row shows the median over the timed batches and its 95 % confidence interval, not only
// a mean, and ends with '!' and the reason where the row is unstable (report/stability.hpp).
// The table is the one of the record's typed caf figures (report/caf_figures.hpp, filled by
// plugins/caf/families/); a record without them is refused (std::invalid_argument naming the
// row), never printed as zeros, and the driver ends the run on it (driver/run_session.hpp).
#pragma once

#include <parbench/report/caf_figures.hpp>
#include <parbench/report/caf_header.hpp>
#include <parbench/report/console_run_context.hpp>
#include <parbench/report/reporter.hpp>
#include <parbench/report/stability.hpp>

#include <fmt/format.h>

#include <ostream>
#include <stdexcept>
#include <string>

namespace parbench::report {

class caf_console_reporter final : public reporter {
public:
    explicit caf_console_reporter(std::ostream& out) : out_(out) {}

    void on_run_start(const run_start& start, const nlohmann::json& driver_context) override {
        const auto header = start.header.get<caf_header>();  // report/caf_header.hpp
        const console_run_context run = read_console_run_context(driver_context);
        const std::string rule(72, '-');
        check_ = header.check;
        timer_ = timer_limits::from_context(start.context);
        out_ << '#' << rule << '\n';
        out_ << "#    " << (start.title.empty() ? start.suite : start.title) << '\n';
        out_ << '#' << rule << '\n';
        line("Date", run.date_text.value_or("-"));
        line("Machine", run.uname ? run.uname->machine : "-");
        line("Images", std::to_string(header.images));
        line("Coarray runtime", header.coarray_runtime);
        line("Compiler", header.compiler);
        line("MPI Version", header.mpi_version);
        out_ << "#\n# Calling sequence was:\n#\n# " << run.calling_sequence.value_or("-")
             << "\n#\n# Benchmarks to run:\n#\n";
        for (const auto& name : start.benchmarks) out_ << "# " << name << '\n';
        out_.flush();
    }

    void on_result(const result_record& r) override {
        const caf_figures& f = figures_of(r);
        const table_kind kind = f.table;
        if (!open_ || !(r.block == block_) || r.benchmark != benchmark_) begin_table(r, kind);
        const summary& d = r.distribution_us;
        const std::string ci = d.samples > 0 && !has_ci(d)
                                   ? std::string(no_ci_cell)
                                   : fmt::format("{:.2f}..{:.2f}", d.ci_low, d.ci_high);
        std::string row;
        std::string note;  // last, after the defects column: it may be empty
        switch (kind) {
            case table_kind::point_to_point:
                row = fmt::format(" {:>8} {:>8} {:>7} {:>10} {:>10} {:>7} {:>14.2f} {:>19} {:>11.2f}",
                                  f.count, f.blksize, f.stride, f.ndata, f.nextent, r.iterations,
                                  d.median, ci, r.throughput_mib_s.value_or(0.0));
                break;
            case table_kind::synchronisation: {
                const std::string overhead_ci =
                    fmt::format("{:.2f}..{:.2f}", f.overhead_ci_low_us, f.overhead_ci_high_us);
                row = fmt::format(" {:>10} {:>7} {:>14.2f} {:>11.2f} {:>15.2f} {:>19}",
                                  f.neighbours, r.iterations, f.t_delay_sync_us, f.t_delay_us,
                                  f.overhead_us, overhead_ci);
                note = f.overhead_within_noise() ? "  within noise" : "";
                break;
            }
            case table_kind::halo:
                row = fmt::format(" {:>8} {:>7} {:>14.2f} {:>19} {:>11.2f}", f.halo_size,
                                  r.iterations, d.median, ci, r.throughput_mib_s.value_or(0.0));
                break;
        }
        if (check_)
            row += r.not_verified ? fmt::format(" {:>9}", not_verified_cell)
                   : r.defects    ? fmt::format(" {:>9}", *r.defects)
                                  : fmt::format(" {:>9}", "-");
        row += note;
        while (!row.empty() && row.back() == ' ') row.pop_back();
        if (const stability verdict = assess_stability(r, timer_); !verdict.stable())
            row += "  ! " + verdict.console_note();
        out_ << row << '\n';
        out_.flush();
    }

    void on_warning(const std::string& message) override {
        out_ << "# WARNING: " << message << '\n';
        out_.flush();
    }

    void on_run_end(bool completed) override {
        if (completed) out_ << "\n# All images finished\n";
        out_.flush();
    }

private:
    using table_kind = caf_figures::kind;

    [[nodiscard]] static const caf_figures& figures_of(const result_record& r) {
        if (!r.caf)
            throw std::invalid_argument(
                "caf console: the row of " + r.benchmark + " (" + std::to_string(r.bytes) +
                " bytes, " + r.block.mode + ") carries no caf figures (result_record::caf), "
                "which every row of the caf layout has");
        return *r.caf;
    }
    void line(const char* label, const std::string& value_text) {
        out_ << fmt::format("# {:<16}: {}\n", label, value_text);
    }

    void begin_table(const result_record& r, table_kind kind) {
        open_ = true;
        block_ = r.block;
        benchmark_ = r.benchmark;
        const std::string rule(72, '-');
        out_ << "\n#" << rule << '\n';
        out_ << "# Benchmarking " << r.block.title << '\n';
        out_ << "# " << r.block.mode << '\n';
        out_ << '#' << rule << '\n';
        std::string head;
        switch (kind) {
            case table_kind::point_to_point:
                head = fmt::format(" {:>8} {:>8} {:>7} {:>10} {:>10} {:>7} {:>14} {:>19} {:>11}", "count",
                                   "blksize", "stride", "ndata", "nextent", "#reps",
                                   "t_median[usec]", "CI95[usec]", "MiB/s");
                break;
            case table_kind::synchronisation:
                head = fmt::format(" {:>10} {:>7} {:>14} {:>11} {:>15} {:>19}", "neighbours",
                                   "#reps", "t_delay+sync", "t_delay", "overhead[usec]",
                                   "CI95[usec]");
                break;
            case table_kind::halo:
                head = fmt::format(" {:>8} {:>7} {:>14} {:>19} {:>11}", "size", "#reps",
                                   "t_median[usec]", "CI95[usec]", "MiB/s");
                break;
        }
        if (check_) head += fmt::format(" {:>9}", "defects");
        if (kind == table_kind::synchronisation) head += "  note";
        out_ << head << '\n';
    }

    std::ostream& out_;
    timer_limits timer_;
    bool check_ = false;
    bool open_ = false;
    block_info block_;
    std::string benchmark_;
};

}  // namespace parbench::report
