// How one measured size of a host-device transfer test becomes a result record (PAW's GPU and
// offload tests): the times are PAW's statistics over NREPS repetitions of one process, the
// bandwidths follow the offload_transfer pattern's rule in GB/s (10^9 bytes/s), from PAW's mean
// (its own definition) and from the median (parbench's robust figure), named apart.
#pragma once

#include <parbench/core/statistics.hpp>
#include <parbench/pattern/compute.hpp>
#include <parbench/pattern/offload_transfer.hpp>
#include <parbench/report/result.hpp>

#include <string>
#include <vector>

namespace parbench::report {

// PAW's suffix for tests run on several devices at once: "_dev0+1" (PAW's dual-Phi files say
// "_mic0+1"); empty for one device.
[[nodiscard]] inline std::string paw_device_suffix(const std::vector<int>& devices) {
    if (devices.size() < 2) return {};
    std::string s = "_dev";
    for (std::size_t i = 0; i < devices.size(); ++i) {
        // Two appends, not "+" + to_string(): GCC 12 -O3 sees a false -Wrestrict overlap in
        // operator+(const char*, string&&).
        if (i > 0) s += '+';
        s += std::to_string(devices[i]);
    }
    return s;
}

// `title` names the block and PAW's files: the test name, plus "_dev0+1"-style suffixes for
// concurrent devices (PAW's "_mic0+1").
[[nodiscard]] inline result_record paw_transfer_record(const std::string& suite,
                                                       const std::string& benchmark,
                                                       const std::string& title,
                                                       const pattern::offload_transfer& p,
                                                       const pattern::compute_measurement& m) {
    const summary s = summarize(m.seconds_per_call);
    result_record r;
    r.suite = suite;
    r.benchmark = benchmark;
    r.klass = p.klass;
    r.block.title = title;
    r.block.processes = 1;
    r.bytes = m.size;
    r.iterations = m.nloop;
    r.t_min_us = s.min * 1e6;
    r.t_max_us = s.max * 1e6;
    r.t_avg_us = s.mean * 1e6;
    r.distribution_us = scaled(s, 1e6);
    auto& x = r.metrics;
    x["nreps"] = static_cast<double>(m.seconds_per_call.size());
    x["nloop_calibrated"] = static_cast<double>(m.nloop_calibrated);
    x["warmup_us"] = m.warmup_s * 1e6;
    x["devices"] = static_cast<double>(p.devices.size());
    x["bytes_per_iteration"] = pattern::bytes_per_iteration(p, m.size);
    x["gb_per_s_mean"] = pattern::gb_per_s(p, m.size, s.mean);     // PAW: over the mean time
    x["gb_per_s_min"] = pattern::gb_per_s(p, m.size, s.max);
    x["gb_per_s_max"] = pattern::gb_per_s(p, m.size, s.min);
    x["gb_per_s_median"] = pattern::gb_per_s(p, m.size, s.median);  // parbench's robust figure
    if (m.reps_cut)
        r.warnings.push_back("NREPS lowered from " + std::to_string(m.nreps_planned) + " to " +
                             std::to_string(m.seconds_per_call.size()) +
                             " by the per-size time budget");
    return r;
}

}  // namespace parbench::report
