// The IMB-NBC console layout (catalogue A.7.2, inferred layout): IMB's header, followed by the
// CPU load's rate and the asynchronous-progress setting; overlap benchmarks as tables of
//
//   #bytes #repetitions t_ovrl[usec] t_pure[usec] t_CPU[usec] overlap[%]
//
// (no #bytes for Ibarrier), plus parbench's median and ci95 of t_ovrl and, with -check, defects;
// the _pure benchmarks and warnings exactly as the IMB layout prints them (it renders them here,
// by composition, not by a branch inside it).
#pragma once

#include <parbench/report/imb_console.hpp>
#include <parbench/report/reporter.hpp>
#include <parbench/report/stability.hpp>

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <ostream>
#include <string>

namespace parbench::report {

class imb_nbc_console_reporter final : public reporter {
public:
    explicit imb_nbc_console_reporter(std::ostream& out) : out_(out), imb_(out) {}

    void on_run_start(const run_start& start, const nlohmann::json& driver_context) override {
        imb_.on_run_start(start, driver_context);
        const nlohmann::json& h = start.header;
        check_ = (h.is_object() && h.value("check", false)) ||
                 (driver_context.is_object() && driver_context.value("check", false));
        timer_ = timer_limits::from_context(start.context);
        out_ << "#\n";
        if (h.is_object() && h.contains("cpu_load") && h["cpu_load"].is_object()) {
            const auto& load = h["cpu_load"];
            out_ << fmt::format("# CPU load: {}, {:.0f} Mflop/s (rank 0)\n",
                                load.value("kernel", std::string("matrix-vector product")),
                                load.value("rate_mflops", 0.0));
        }
        out_ << "# Asynchronous progress: "
             << detail::json_text(h, "async_progress", "not recorded") << '\n';
        out_.flush();
    }

    void on_result(const result_record& r) override {
        if (!r.overlap) {  // the _pure benchmarks: IMB's collective table
            current_.reset();
            imb_.on_result(r);
            return;
        }
        const block_info key = detail::table_key(r);
        if (!current_ || !(*current_ == key) || current_benchmark_ != r.benchmark) {
            begin_table(r);
            current_ = key;
            current_benchmark_ = r.benchmark;
        }
        row(r);
        out_.flush();
    }

    void on_warning(const std::string& message) override { imb_.on_warning(message); }
    void on_run_end(bool completed) override { imb_.on_run_end(completed); }

private:
    void begin_table(const result_record& r) {
        const block_info& b = r.block;
        const std::string rule(b.groups > 1 ? 77 : 64, '-');
        out_ << "\n#" << rule << '\n';
        out_ << "# Benchmarking " << b.title << '\n';
        if (b.groups > 1) {
            out_ << "# ( " << b.groups << " groups of " << b.processes
                 << " processes each running simultaneously )\n";
            for (std::size_t g = 0; g < b.group_ranks.size(); ++g) {
                out_ << fmt::format("# Group {:2d}:", g);
                for (int rank : b.group_ranks[g]) out_ << fmt::format("{:5d}", rank);
                out_ << '\n';
            }
        } else {
            out_ << "# #processes = " << b.processes << '\n';
        }
        if (b.waiting > 0)
            out_ << "# ( " << b.waiting << " additional processes waiting in MPI_Barrier)\n";
        out_ << '#' << rule << '\n';
        std::string head;
        if (r.block.group >= 0) head += fmt::format("{:>7}", "#group");
        if (r.has_bytes) head += cell("#bytes");
        head += cell("#repetitions") + cell("t_ovrl[usec]") + cell("t_pure[usec]") +
                cell("t_CPU[usec]") + cell("overlap[%]");
        head += fmt::format("{:>16}{:>10}", "t_median[usec]", "ci95[%]");
        if (check_) head += fmt::format("{:>10}", "defects");
        out_ << head << '\n';
    }

    void row(const result_record& r) {
        const int w = detail::imb_column_width;
        const overlap_figures& o = *r.overlap;
        std::string text;
        if (r.block.group >= 0) text += fmt::format("{:>7}", r.block.group);
        if (r.has_bytes) text += fmt::format("{:>{}}", r.bytes, w);
        text += fmt::format("{:>{}}", r.iterations, w);
        text += fmt::format("{:>{}.2f}{:>{}.2f}{:>{}.2f}{:>{}.2f}", o.t_ovrl_us, w, o.t_pure_us, w,
                            o.t_cpu_us, w, o.overlap_percent, w);
        const summary& d = r.distribution_us;
        text += fmt::format("{:>16.2f}", d.median);
        if (d.samples > 0 && d.median > 0.0 && std::isfinite(d.median))
            text += fmt::format("{:>10.1f}", 100.0 * (d.ci_high - d.ci_low) / 2.0 / d.median);
        else
            text += fmt::format("{:>10}", "-");
        if (check_) text += r.defects ? fmt::format("{:>10}", *r.defects) : fmt::format("{:>10}", "-");
        if (const stability verdict = assess_stability(r, timer_); !verdict.stable())
            text += "  ! " + verdict.console_note();
        out_ << text << '\n';
    }

    static std::string cell(const char* text) {
        return fmt::format("{:>{}}", text, detail::imb_column_width);
    }

    std::ostream& out_;
    imb_console_reporter imb_;
    bool check_ = false;
    timer_limits timer_;
    std::optional<block_info> current_;
    std::string current_benchmark_;
};

}  // namespace parbench::report
