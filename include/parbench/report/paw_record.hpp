// How one size measured with PAW's method (pattern/compute.hpp's sweep) becomes a result record:
// PAW's statistics over the NREPS repetitions of one process, the loop counts, and a note when
// the time budget cut the repetitions. Every PAW test — BLAS, GPU, offload — starts from here
// and adds its own figures (flop rates, bandwidths).
#pragma once

#include <parbench/core/statistics.hpp>
#include <parbench/pattern/compute.hpp>
#include <parbench/report/result.hpp>

#include <optional>
#include <span>
#include <string>

namespace parbench::report {

// `title` names the block and PAW's files (the test name, plus suffixes such as "_dev0+1").
// `samples`: the times the statistics are over when they are not m's own (every rank's
// repetitions, gathered); NREPS and the budget note are m's.
[[nodiscard]] inline result_record paw_measurement_record(
    const std::string& suite, const std::string& benchmark, benchmark_class klass,
    const std::string& title, const pattern::compute_measurement& m,
    std::span<const double> samples = {}) {
    const std::span<const double> timed =
        samples.empty() ? std::span<const double>(m.seconds_per_call) : samples;
    const summary s = summarize(timed);
    result_record r;
    r.suite = suite;
    r.benchmark = benchmark;
    r.klass = klass;
    r.statistics = time_statistics::over_repetitions;  // t_min/t_max/t_avg over NREPS
    r.block.title = title;
    r.block.processes = 1;
    r.bytes = m.size;
    r.iterations = m.nloop;
    r.t_min_us = s.min * 1e6;
    r.t_max_us = s.max * 1e6;
    r.t_avg_us = s.mean * 1e6;
    r.distribution_us = scaled(s, 1e6);
    for (const double seconds : timed) r.samples_us.push_back(seconds * 1e6);
    r.repetitions = repetition_figures{.nreps = m.seconds_per_call.size()};
    r.loop_calibration = loop_calibration_figures{.nloop_calibrated = m.nloop_calibrated,
                                                  .warmup_us = m.warmup_s * 1e6,
                                                  .loop_target_us = m.loop_target_s * 1e6,
                                                  .recalibrations = m.recalibrations};
    if (m.reps_cut)
        r.warnings.push_back("NREPS lowered from " + std::to_string(m.nreps_planned) + " to " +
                             std::to_string(m.seconds_per_call.size()) +
                             " by the per-size time budget");
    return r;
}

// The flop figures of a compute record: PAW's count over the mean time (PAW's rate; min and max
// from the slowest and fastest repetitions) and over the median (parbench's robust rate, named
// "_median"), the conventional count over mean and median, and
// the share of a peak where one is known (conventional flops over the mean time).
inline void add_flop_rates(result_record& r, const pattern::compute_work& work,
                           std::optional<double> peak_gflops) {
    const auto& d = r.distribution_us;
    const double mean_s = r.t_avg_us * 1e-6;
    auto& x = r.metrics;
    r.unit = size_unit::matrix_order;  // the size of a flop-counted row is its N
    x["matrix_order"] = static_cast<double>(r.bytes);
    paw_rate_figures& rates = r.paw_rates.emplace();  // what PAW's console and files print
    rates.flops_paw = work.flops_paw;
    x["flops_conventional"] = work.flops_conventional;
    rates.gflops_paw = work.flops_paw / mean_s / 1e9;
    x["gflops_paw_min"] = work.flops_paw / (r.t_max_us * 1e-6) / 1e9;
    x["gflops_paw_max"] = work.flops_paw / (r.t_min_us * 1e-6) / 1e9;
    x["gflops_conventional"] = work.flops_conventional / mean_s / 1e9;
    x["gflops_paw_median"] = work.flops_paw / (d.median * 1e-6) / 1e9;  // parbench's robust rate
    x["gflops_conventional_median"] = work.flops_conventional / (d.median * 1e-6) / 1e9;
    if (peak_gflops) {
        x["peak_gflops"] = *peak_gflops;
        rates.percent_of_peak = 100.0 * x["gflops_conventional"] / *peak_gflops;
    }
}

}  // namespace parbench::report
