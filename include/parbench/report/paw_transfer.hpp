// How one measured size of a host-device transfer test becomes a result record (PAW's GPU and
// offload tests): the times are PAW's statistics over NREPS repetitions of one process, the
// bandwidths follow the offload_transfer pattern's rule in GB/s (10^9 bytes/s), from PAW's mean
// (its own definition) and from the median (parbench's robust figure), named apart.
#pragma once

#include <parbench/pattern/compute.hpp>
#include <parbench/pattern/offload_transfer.hpp>
#include <parbench/report/paw_record.hpp>
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
    result_record r = paw_measurement_record(suite, benchmark, p.klass, title, m);
    const double mean_s = r.t_avg_us * 1e-6;
    r.repetitions->devices = p.devices.size();  // paw_measurement_record gave the block
    r.repetitions->bytes_per_iteration = pattern::bytes_per_iteration(p, m.size);
    auto& x = r.metrics;
    const double median_s = r.distribution_us.median * 1e-6;
    r.paw_rates = paw_rate_figures{
        .gb_per_s_mean = pattern::gb_per_s(p, m.size, mean_s),        // PAW: over the mean time
        .gb_per_s_median = pattern::gb_per_s(p, m.size, median_s)};  // parbench's robust figure
    x["gb_per_s_min"] = pattern::gb_per_s(p, m.size, r.t_max_us * 1e-6);
    x["gb_per_s_max"] = pattern::gb_per_s(p, m.size, r.t_min_us * 1e-6);
    return r;
}

}  // namespace parbench::report
