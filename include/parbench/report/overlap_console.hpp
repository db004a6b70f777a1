// The overlap console layout (suite overlap, COMB-style): a header (unless -nohdr 1) that says
// what was measured and whether asynchronous progress was on, then one table per method and
// communicator size with one row per variant:
//
//   # allreduce, 2 processes, 8 bytes per process
//     variant    base_t[usec]  iter_t[usec]  work_t[usec] overhead[usec]  avail(%)
//     Blocking           1.10          3.31          2.20          1.11       -0.9
//     NB_Sleep           1.40          4.45          4.40          0.05       96.4
//
// All times are per iteration, of the slowest process; avail(%) = 100 · (1 − overhead / base_t)
// ("-" when base_t is 0). With -verbose 1 the work-time ramp of each row follows it. A row whose
// ramp never reached the threshold carries a "# note:", an unstable timing '!' and the reason
// (report/stability.hpp).
#pragma once

#include <parbench/report/console_run_context.hpp>
#include <parbench/report/mpi_suite_context.hpp>
#include <parbench/report/overlap_header.hpp>
#include <parbench/report/reporter.hpp>
#include <parbench/report/stability.hpp>

#include <fmt/format.h>

#include <ostream>
#include <string>
#include <vector>

namespace parbench::report {

class overlap_console_reporter final : public reporter {
public:
    explicit overlap_console_reporter(std::ostream& out) : out_(out) {}

    void on_run_start(const run_start& start, const nlohmann::json& driver_context) override {
        const auto h = start.header.get<overlap_header>();  // report/overlap_header.hpp
        verbose_ = h.verbose;
        timer_ = timer_limits::from_context(start.context);
        if (!h.show) return;  // -nohdr 1
        const console_run_context run = read_console_run_context(driver_context);
        const auto mpi = start.context.get<mpi_suite_context>();  // report/mpi_suite_context.hpp
        const std::string rule(72, '-');
        out_ << '#' << rule << "\n#    " << (start.title.empty() ? start.suite : start.title)
             << "\n#" << rule << '\n';
        line("Date", run.date_text.value_or("-"));
        line("Machine", run.uname ? run.uname->machine : "-");
        line("MPI library", mpi.library_first_line().value_or("-"));
        line("Processes", mpi.processes ? std::to_string(*mpi.processes) : "-");
        line("Methods", list(h.methods));
        line("Comm. sizes", list(h.communicator_sizes));
        // Numbers as the JSON header writes them (a threshold of 2 is "2.0").
        const auto number = [](const auto& v) { return nlohmann::json(v).dump(); };
        line("Iterations", number(h.iterations) + " per timing, at most " + number(h.time_s) +
                               " s per timing");
        line("Message", number(h.count) + " " + h.datatype + " per process (" + h.reduction +
                            ", root " + number(h.root) + ")");
        line("Threshold", number(h.threshold) +
                              " (work dominates: work_t >= base_t and work_t >= " +
                              number(h.threshold) + " * overhead)");
        line("Async progress", h.async_progress_text);
        line("Options file", h.options_file.empty() ? "none" : h.options_file);
        out_ << "#\n# Calling sequence was:\n#\n# " << run.calling_sequence.value_or("-")
             << "\n#\n# Times in usec per iteration, of the slowest process;"
                " avail(%) = 100 * (1 - overhead / base_t)\n";
        out_.flush();
    }

    void on_result(const result_record& r) override {
        if (!open_ || r.benchmark != benchmark_ || r.block.processes != processes_) {
            benchmark_ = r.benchmark;
            processes_ = r.block.processes;
            open_ = true;
            out_ << "\n# " << r.benchmark << ", " << r.block.processes << " processes";
            if (r.has_bytes) out_ << ", " << r.bytes << " bytes per process";
            out_ << fmt::format("\n  {:<10}{:>14}{:>14}{:>14}{:>15}{:>10}\n", "variant",
                                "base_t[usec]", "iter_t[usec]", "work_t[usec]", "overhead[usec]",
                                "avail(%)");
        }
        const availability_figures a = r.availability.value_or(availability_figures{});
        // a space before every column, so that an unusual figure widens the row, never merges
        std::string row = fmt::format("  {:<10} {:>13.2f} {:>13.2f} {:>13.2f} {:>14.2f} {:>9}",
                                      r.block.mode, a.base_t_us, a.iter_t_us, a.work_t_us,
                                      a.overhead_us,
                                      a.avail_percent ? fmt::format("{:.1f}", *a.avail_percent)
                                                      : std::string("-"));
        if (const stability verdict = assess_stability(r, timer_); !verdict.stable())
            row += "  ! " + verdict.console_note();
        out_ << row << '\n';
        if (verbose_)
            for (const auto& [work, iter] : a.ramp_us)
                out_ << fmt::format("  #   ramp: work_t {:>12.2f}  iter_t {:>12.2f}  overhead {:>10.2f}\n",
                                    work, iter, iter > work ? iter - work : 0.0);
        for (const auto& w : r.warnings) out_ << "  # note: " << w << '\n';
        out_.flush();
    }

    void on_warning(const std::string& message) override {
        out_ << "# WARNING: " << message << '\n';
        out_.flush();
    }

    void on_run_end(bool completed) override {
        out_ << (completed ? "\n# All processes finished\n" : "\n# run stopped early\n");
        out_.flush();
    }

private:
    // The items separated by blanks.
    template <class T>
    [[nodiscard]] static std::string list(const std::vector<T>& items) {
        std::string out;
        for (const auto& v : items) {
            const nlohmann::json item = v;
            out += (out.empty() ? "" : " ") +
                   (item.is_string() ? item.get<std::string>() : item.dump());
        }
        return out;
    }
    void line(const char* label, const std::string& value_text) {
        out_ << fmt::format("# {:<16}: {}\n", label, value_text);
    }

    std::ostream& out_;
    bool verbose_ = false;
    bool open_ = false;
    std::string benchmark_;
    int processes_ = 0;
    timer_limits timer_{};
};

}  // namespace parbench::report
