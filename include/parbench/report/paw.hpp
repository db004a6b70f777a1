// PAW's output (catalogue C.3, C.8-C.10): a brief summary on the console and, per test, two files
// written incrementally — after each size, so an interrupted run keeps what it measured:
//
//   BLAS:      <call>_time-np_<threads>.dat   N      min  max  mean  (seconds per call)
//              <call>_flops-np_<threads>.dat  N      min  max  mean  (GFlop/s, PAW's flop count)
//   transfers: <test>_time-np_<processes>.dat bytes  min  max  mean  (seconds per transfer)
//              <test>_bw-np_<processes>.dat   bytes  min  max  mean  (GB/s = 10^9 bytes/s)
//
// PAW does not give the column layout; parbench writes one '#' comment line naming the columns
// and units, then one line per size. Rates come from times: min rate = work / max time, mean
// rate = work / mean time. A transfer test's <test> is the block title, which carries PAW's
// concurrent-device suffix ("_dev0+1").
#pragma once

#include <parbench/report/output_file.hpp>
#include <parbench/report/reporter.hpp>
#include <parbench/report/stability.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace parbench::report {

// The two file names PAW uses for one call at one thread count.
[[nodiscard]] inline std::pair<std::string, std::string> paw_dat_names(const std::string& call,
                                                                       int threads) {
    return {fmt::format("{}_time-np_{}.dat", call, threads),
            fmt::format("{}_flops-np_{}.dat", call, threads)};
}

// Transfer rows (bytes, GB/s): host-device copies, and every record that says how many bytes
// one iteration moves (PAW's MPI p2p_get/p2p_put); the others are BLAS rows (N, GFlop/s).
[[nodiscard]] inline bool paw_transfer_row(const result_record& r) {
    return r.klass == benchmark_class::host_device_transfer ||
           r.metrics.contains("bytes_per_iteration");
}

// The two file names of a record: BLAS calls by thread count, transfer tests by process count.
[[nodiscard]] inline std::pair<std::string, std::string> paw_dat_names(const result_record& r) {
    if (!paw_transfer_row(r))
        return paw_dat_names(r.benchmark, r.block.threads);
    std::string test = r.block.title.empty() ? r.benchmark : r.block.title;
    if (!r.block.timing.empty()) test += "_" + r.block.timing;  // a second method, its own files
    return {fmt::format("{}_time-np_{}.dat", test, r.block.processes),
            fmt::format("{}_bw-np_{}.dat", test, r.block.processes)};
}

class paw_reporter final : public reporter {
public:
    paw_reporter(std::ostream& console, std::filesystem::path dat_directory)
        : out_(console), directory_(std::move(dat_directory)) {}

    void on_run_start(const run_start& start, const nlohmann::json& driver_context) override {
        // A plugin may leave either block out; render what is there.
        const nlohmann::json c = start.context.is_object() ? start.context : nlohmann::json::object();
        const nlohmann::json h = start.header.is_object() ? start.header : nlohmann::json::object();
        timer_ = timer_limits::from_context(c);
        out_ << "#------------------------------------------------------------\n";
        out_ << "# " << (start.title.empty() ? std::string("PAW compatible tests") : start.title)
             << '\n';
        out_ << "#------------------------------------------------------------\n";
        for (const char* key : {"date", "host", "calling_sequence"})
            if (driver_context.is_object() && driver_context.contains(key) &&
                driver_context[key].is_string())
                out_ << fmt::format("# {:<18}: {}\n", key, driver_context[key].get<std::string>());
        if (c.contains("openblas")) {
            const auto& o = c["openblas"];
            out_ << fmt::format("# {:<18}: {}\n", "BLAS", text(o, "config"));
            out_ << fmt::format("# {:<18}: {} ({} threads by default)\n", "BLAS core",
                                text(o, "corename"), text(o, "num_threads"));
        }
        if (c.contains("cpu")) {
            const auto& cpu = c["cpu"];
            const auto mhz = cpu.value("clock_mhz", nlohmann::json());
            out_ << fmt::format("# {:<18}: {}, {} cores, {} MHz\n", "CPU", text(cpu, "model_name"),
                                text(cpu, "physical_cores"),
                                mhz.is_number() ? fmt::format("{:.0f}", mhz.get<double>())
                                                : text(cpu, "clock_mhz"));
            out_ << fmt::format("# {:<18}: {}\n", "vector flags", text(cpu, "vector_flags"));
        }
        if (c.contains("peak")) {
            const auto& p = c["peak"];
            out_ << fmt::format("# {:<18}: {} DP / {} SP GFlop/s  ({})\n", "theoretical peak",
                                number(p, "dp_gflops"), number(p, "sp_gflops"), text(p, "basis"));
        }
        out_ << fmt::format("# {:<18}: {}\n", "processes", text(c, "processes"));
        out_ << fmt::format("# {:<18}: {:.3g} s (x {} = shortest valid loop)\n", "timer threshold",
                            h.value("timer_threshold_s", 0.0), text(h, "threshold_factor"));
        out_ << fmt::format("# {:<18}: NREPS {}, NLOOP_MAX {}, NLOOP_MIN {}, budget {} s per size\n",
                            "loops", text(h, "nreps"), text(h, "nloop_max"), text(h, "nloop_min"),
                            text(h, "budget_s"));
        if (c.contains("devices") && c["devices"].is_array())
            for (const auto& d : c["devices"])
                out_ << fmt::format("# {:<18}: {}\n", "device " + text(d, "id"), text(d, "summary"));
        // Which kinds of rows follow ("row_kinds": "blas", "gemm", "transfer"; BLAS by default),
        // and what their sizes and rates mean.
        const auto kinds = h.value("row_kinds", std::vector<std::string>{"blas"});
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
        if (h.contains("method")) out_ << fmt::format("# {:<18}: {}\n", "timing method", text(h, "method"));
        out_.flush();
    }

    void on_result(const result_record& r) override {
        const bool transfer = paw_transfer_row(r);
        const int size_width = transfer ? 10 : 8;  // bytes up to 2^40 / matrix orders
        const auto [time_name, rate_name] = paw_dat_names(r);
        if (time_name != current_block_) {
            current_block_ = time_name;
            if (transfer && !r.metrics.contains("devices"))  // between MPI tasks
                out_ << fmt::format("\n# {}, {} tasks  (files {}, {})\n", r.benchmark,
                                    r.block.processes, time_name, rate_name);
            else if (transfer)
                out_ << fmt::format("\n# {}, {} device{}, timed with {}  (files {}, {})\n",
                                    r.block.title, metric_value(r, "devices"),
                                    metric_value(r, "devices") == 1.0 ? "" : "s",
                                    r.block.timing.empty() ? "the host clock" : r.block.timing,
                                    time_name, rate_name);
            else
                out_ << fmt::format("\n# {}, {} thread{}, {} process{}  (files {}, {})\n",
                                    r.benchmark, r.block.threads, r.block.threads == 1 ? "" : "s",
                                    r.block.processes, r.block.processes == 1 ? "" : "es",
                                    time_name, rate_name);
            out_ << fmt::format("{:>{}} {:>7} {:>5} {:>12} {:>12} {:>12} {:>12} {:>7} {:>10} {:>10}",
                                transfer ? "bytes" : "N", size_width, "NLOOP", "NREPS", "t_min[s]", "t_max[s]",
                                "t_mean[s]", "t_median[s]", "ci95[%]",
                                transfer ? "GB/s" : "GFlop/s", transfer ? "GB/s(med)" : "%peak");
            if (!transfer && r.block.processes > 1)
                out_ << fmt::format(" {:>9} {:>11}", "spread[%]", "aggr_GF/s");
            out_ << '\n';
        }
        const auto metric = [&](const char* name) -> std::string {
            const auto it = r.metrics.find(name);
            return it == r.metrics.end() ? std::string("-") : fmt::format("{:.2f}", it->second);
        };
        const auto& d = r.distribution_us;
        const double ci = d.median > 0.0 ? 50.0 * (d.ci_high - d.ci_low) / d.median : 0.0;
        out_ << fmt::format("{:>{}} {:>7} {:>5} {:>12.5e} {:>12.5e} {:>12.5e} {:>12.5e} {:>7.2f} "
                            "{:>10} {:>10}",
                            r.bytes, size_width, r.iterations, metric_value(r, "nreps"), r.t_min_us * 1e-6,
                            r.t_max_us * 1e-6, r.t_avg_us * 1e-6, d.median * 1e-6, ci,
                            metric(transfer ? "gb_per_s_mean" : "gflops_paw"),
                            metric(transfer ? "gb_per_s_median" : "percent_of_peak"));
        if (!transfer && r.block.processes > 1)
            out_ << fmt::format(" {:>9} {:>11}", metric("rank_spread_percent"),
                                metric("aggregate_gflops_paw"));
        if (const stability verdict = assess_stability(r, timer_); !verdict.stable())
            out_ << "  ! " << verdict.console_note();
        out_ << '\n';
        for (const auto& w : r.warnings) out_ << "#   note: " << w << '\n';
        out_.flush();
        write_dat(r);
    }

    void on_warning(const std::string& message) override {
        out_ << "# WARNING: " << message << '\n';
        out_.flush();
    }

    void on_run_end(bool completed) override {
        if (!completed) out_ << "\n# run stopped early; the .dat files hold the sizes completed\n";
        out_.flush();
        for (auto& [key, files] : files_) {  // fsync'ed and checked (output_file.hpp)
            files.time.close();
            files.rate.close();
        }
        files_.clear();
    }

private:
    struct dat_pair {
        output_file time;
        output_file rate;
    };

    static std::string text(const nlohmann::json& j, const char* key) {
        if (!j.contains(key)) return "unknown";
        const auto& v = j[key];
        if (v.is_string()) return v.get<std::string>();
        if (v.is_null()) return "unknown";
        return v.dump();
    }
    static std::string number(const nlohmann::json& j, const char* key) {
        if (j.contains(key) && j[key].is_number()) return fmt::format("{:.1f}", j[key].get<double>());
        return text(j, key);
    }

    static double metric_value(const result_record& r, const char* name) {
        const auto it = r.metrics.find(name);
        return it != r.metrics.end() ? it->second : 0.0;
    }

    // Opens (truncating) a test's files on its first size and appends one flushed line per size.
    void write_dat(const result_record& r) {
        const bool transfer = paw_transfer_row(r);
        const auto [time_name, rate_name] = paw_dat_names(r);
        auto it = files_.find(time_name);
        if (it == files_.end()) {
            std::filesystem::create_directories(directory_);
            dat_pair files;
            files.time = output_file(directory_ / time_name, (directory_ / time_name).string());
            files.rate = output_file(directory_ / rate_name, (directory_ / rate_name).string());
            if (transfer) {
                files.time.write(fmt::format("# {} time per transfer [s]: bytes min max mean\n",
                                             r.block.title));
                files.rate.write(fmt::format(
                    "# {} bandwidth [GB/s = 10^9 bytes/s]: bytes min max mean\n", r.block.title));
            } else {
                files.time.write(fmt::format(
                    "# {} time per call [s], {} thread(s): N min max mean\n", r.benchmark,
                    r.block.threads));
                files.rate.write(fmt::format(
                    "# {} rate [GFlop/s, PAW count], {} thread(s): N min max mean\n", r.benchmark,
                    r.block.threads));
            }
            it = files_.emplace(time_name, std::move(files)).first;
        }
        const double t_min = r.t_min_us * 1e-6;
        const double t_max = r.t_max_us * 1e-6;
        const double t_mean = r.t_avg_us * 1e-6;
        it->second.time.write(fmt::format("{:>8} {:.6e} {:.6e} {:.6e}\n", r.bytes, t_min, t_max,
                                          t_mean));
        // Work per call: PAW's flop count, or the bytes one transfer iteration moves.
        const double work = metric_value(r, transfer ? "bytes_per_iteration" : "flops_paw");
        const auto rate = [&](double t) { return t > 0.0 ? work / t / 1e9 : 0.0; };
        it->second.rate.write(fmt::format("{:>8} {:.6e} {:.6e} {:.6e}\n", r.bytes, rate(t_max),
                                          rate(t_min), rate(t_mean)));
    }

    std::ostream& out_;
    std::filesystem::path directory_;
    std::string current_block_;
    timer_limits timer_;
    std::map<std::string, dat_pair> files_;
};

}  // namespace parbench::report
