// PAW's console summary (paw_reporter): the run's context and header lines, then one table per
// test, its rows and files as report/paw_rows.hpp decides them; the .dat files themselves are
// paw_dat_reporter's (report/paw_dat.hpp).
#pragma once

#include <parbench/report/console_run_context.hpp>
#include <parbench/report/paw_context.hpp>
#include <parbench/report/paw_header.hpp>
#include <parbench/report/paw_rows.hpp>
#include <parbench/report/reporter.hpp>
#include <parbench/report/stability.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace parbench::report {

// The console summary; the .dat files are paw_dat_reporter's (report/paw_dat.hpp).
class paw_reporter final : public reporter {
public:
    explicit paw_reporter(std::ostream& console) : out_(console) {}

    void on_run_start(const run_start& start, const nlohmann::json& driver_context) override {
        // A plugin may leave either block out, or any part of them; render what is there.
        const paw_context c = start.context.get<paw_context>();  // report/paw_context.hpp
        const paw_header h = start.header.get<paw_header>();     // report/paw_header.hpp
        const console_run_context run = read_console_run_context(driver_context);
        timer_ = c.timer.value_or(timer_limits{});
        out_ << "#------------------------------------------------------------\n";
        out_ << "# " << (start.title.empty() ? std::string("PAW compatible tests") : start.title)
             << '\n';
        out_ << "#------------------------------------------------------------\n";
        // The driver's lines, under their JSON keys' names.
        if (run.date) out_ << fmt::format("# {:<18}: {}\n", "date", *run.date);
        if (run.calling_sequence)
            out_ << fmt::format("# {:<18}: {}\n", "calling_sequence", *run.calling_sequence);
        if (const auto& o = c.openblas) {
            out_ << fmt::format("# {:<18}: {}\n", "BLAS", o->config);
            out_ << fmt::format("# {:<18}: {} ({} threads by default)\n", "BLAS core",
                                o->corename, o->num_threads);
        }
        if (const auto& cpu = c.cpu) {
            out_ << fmt::format("# {:<18}: {}, {} cores, {} MHz\n", "CPU", cpu->model_name,
                                cpu->physical_cores,
                                cpu->clock_mhz ? fmt::format("{:.0f}", *cpu->clock_mhz)
                                               : std::string("unknown"));
            out_ << fmt::format("# {:<18}: {}\n", "vector flags", cpu->vector_flags);
        }
        if (const auto& p = c.peak)
            out_ << fmt::format("# {:<18}: {} DP / {} SP GFlop/s  ({})\n", "theoretical peak",
                                figure(p->dp_gflops), figure(p->sp_gflops), p->basis);
        out_ << fmt::format("# {:<18}: {}\n", "processes",
                            c.processes ? std::to_string(*c.processes) : std::string("unknown"));
        // The loop settings as the JSON file writes them ("10.0" for a factor of 10).
        const auto loop_figure = [&](auto paw_header_loops::*field) {
            return h.loops ? nlohmann::json(h.loops.value().*field).dump() : std::string("unknown");
        };
        out_ << fmt::format("# {:<18}: {:.3g} s (x {} = shortest valid loop)\n", "timer threshold",
                            h.loops ? h.loops->timer_threshold_s : 0.0,
                            loop_figure(&paw_header_loops::threshold_factor));
        out_ << fmt::format("# {:<18}: NREPS {}, NLOOP_MAX {}, NLOOP_MIN {}, budget {} s per size\n",
                            "loops", loop_figure(&paw_header_loops::nreps),
                            loop_figure(&paw_header_loops::nloop_max),
                            loop_figure(&paw_header_loops::nloop_min),
                            loop_figure(&paw_header_loops::budget_s));
        if (c.devices)
            for (const paw_context_device& d : *c.devices)
                out_ << fmt::format("# {:<18}: {}\n", "device " + std::to_string(d.id), d.summary);
        // Which kinds of rows follow ("blas", "gemm", "transfer"; BLAS by default), and what
        // their sizes and rates mean.
        const std::vector<std::string> kinds = h.kinds();
        const auto has = [&](const char* kind) {
            return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
        };
        if (has("blas"))
            out_ << "# sizes are matrix orders N; GFlop/s use PAW's flop count 2N^2(N+1) / 2N(N+1),\n"
                    "# %peak the conventional 2N^3 / 2N^2\n";
        if (has("gemm"))
            out_ << "# GEMM sizes are matrix orders N; GFlop/s use PAW's flop count 2N^2(N+1),\n"
                    "# %peak the conventional 2N^3\n";
        if (has("transfer"))
            out_ << "# transfer sizes are bytes; GB/s = 10^9 bytes/s moved (inout counts both\n"
                    "# directions) over PAW's mean time; GB/s(med) over the median\n";
        if (has("message_rate"))
            out_ << fmt::format("# message rates: Mmsg/s = 10^6 messages/s, windows of {} "
                                "messages per pair\n",
                                h.window_size ? std::to_string(*h.window_size) : "unknown");
        if (has("collective"))
            out_ << "# collective sizes are bytes per task (MIN/MED/MAX_COL_SIZE); times only\n";
        if (h.pairing) out_ << fmt::format("# {:<18}: {}\n", "pairing", *h.pairing);
        if (h.method) out_ << fmt::format("# {:<18}: {}\n", "timing method", *h.method);
        out_.flush();
    }

    void on_result(const result_record& r) override {
        const paw_row kind = paw_row_of(r);
        const bool transfer = kind != paw_row::blas;
        const int size_width = transfer ? 10 : 8;  // bytes up to 2^40 / matrix orders
        const auto [time_name, rate_name] = paw_dat_names(r);
        if (time_name != current_block_) {
            current_block_ = time_name;
            if (paw_mpi_row(r))
                out_ << fmt::format("\n# {}, {} tasks  ({} {}{}{})\n", r.benchmark,
                                    r.block.processes, rate_name.empty() ? "file" : "files",
                                    time_name, rate_name.empty() ? "" : ", ", rate_name);
            else if (transfer)
                out_ << fmt::format("\n# {}, {} device{}, timed with {}  (files {}, {})\n",
                                    r.block.title, paw_devices(r),
                                    paw_devices(r) == 1 ? "" : "s",
                                    r.block.timing.empty() ? "the host clock" : r.block.timing,
                                    time_name, rate_name);
            else
                out_ << fmt::format("\n# {}, {} thread{}, {} process{}  (files {}, {})\n",
                                    r.benchmark, r.block.threads, r.block.threads == 1 ? "" : "s",
                                    r.block.processes, r.block.processes == 1 ? "" : "es",
                                    time_name, rate_name);
            out_ << fmt::format("{:>{}} {:>7} {:>5} {:>12} {:>12} {:>12} {:>12} {:>7}",
                                transfer ? "bytes" : "N", size_width, "NLOOP", "NREPS", "t_min[s]",
                                "t_max[s]", "t_mean[s]", "t_median[s]", "ci95[%]");
            if (kind != paw_row::time_only) {
                const auto [rate, rate_median] = rate_headings(kind);
                out_ << fmt::format(" {:>10} {:>10}", rate, rate_median);
            }
            if (!transfer && r.block.processes > 1)
                out_ << fmt::format(" {:>9} {:>11}", "spread[%]", "aggr_GF/s");
            out_ << '\n';
        }
        // A figure of the row's PAW rates ("-" where it has none), times `factor`.
        const paw_rate_figures rates = r.paw_rates.value_or(paw_rate_figures{});
        const auto scaled_rate = [](const std::optional<double>& value, double factor) {
            return value ? fmt::format("{:.2f}", *value * factor) : std::string("-");
        };
        const auto rate = [&](const std::optional<double>& value) {
            return scaled_rate(value, 1.0);
        };
        const auto& d = r.distribution_us;
        const double ci_value = d.median > 0.0 ? 50.0 * (d.ci_high - d.ci_low) / d.median : 0.0;
        const std::string ci =
            d.samples > 0 && !has_ci(d) ? std::string(no_ci_cell) : fmt::format("{:.2f}", ci_value);
        out_ << fmt::format("{:>{}} {:>7} {:>5} {:>12.5e} {:>12.5e} {:>12.5e} {:>12.5e} {:>7}",
                            r.bytes, size_width, r.iterations, paw_nreps(r),
                            r.t_min_us * 1e-6, r.t_max_us * 1e-6, r.t_avg_us * 1e-6,
                            d.median * 1e-6, ci);
        switch (kind) {
            case paw_row::blas:
                out_ << fmt::format(" {:>10} {:>10}", rate(rates.gflops_paw),
                                    rate(rates.percent_of_peak));
                break;
            case paw_row::bandwidth:
                out_ << fmt::format(" {:>10} {:>10}", rate(rates.gb_per_s_mean),
                                    rate(rates.gb_per_s_median));
                break;
            case paw_row::message_rate:
                out_ << fmt::format(" {:>10} {:>10}", scaled_rate(rates.messages_per_s_mean, 1e-6),
                                    scaled_rate(rates.messages_per_s_median, 1e-6));
                break;
            case paw_row::time_only: break;
        }
        if (!transfer && r.block.processes > 1)
            out_ << fmt::format(" {:>9} {:>11}", rate(rates.rank_spread_percent),
                                rate(rates.aggregate_gflops_paw));
        if (const stability verdict = assess_stability(r, timer_); !verdict.stable())
            out_ << "  ! " << verdict.console_note();
        out_ << '\n';
        for (const auto& w : r.warnings) out_ << "#   note: " << w << '\n';
        out_.flush();
    }

    void on_warning(const std::string& message) override {
        out_ << "# WARNING: " << message << '\n';
        out_.flush();
    }

    void on_run_end(bool completed) override {
        if (!completed) out_ << "\n# run stopped early; the .dat files hold the sizes completed\n";
        out_.flush();
    }

private:

    // A figure of the peak: one decimal, or "unknown".
    static std::string figure(const std::optional<double>& gflops) {
        return gflops ? fmt::format("{:.1f}", *gflops) : std::string("unknown");
    }

    // The two rate columns' headings of a row kind with a rate.
    static std::pair<const char*, const char*> rate_headings(paw_row kind) {
        switch (kind) {
            case paw_row::blas: return {"GFlop/s", "%peak"};
            case paw_row::message_rate: return {"Mmsg/s", "Mmsg/s(med)"};
            case paw_row::bandwidth:
            case paw_row::time_only: break;
        }
        return {"GB/s", "GB/s(med)"};
    }

    std::ostream& out_;
    std::string current_block_;
    timer_limits timer_;
};

}  // namespace parbench::report
