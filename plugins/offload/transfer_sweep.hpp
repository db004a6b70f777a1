// One offload test at one device set, PAW's way: the NLOOP/NREPS sweep of pattern/compute.hpp
// over the transfer sizes (a transfer's time grows linearly with its size), each measured size
// turned into a record by report/paw_transfer.hpp. A template on the device layer, so the tests
// can run the plugin's own sweep through a layer that counts what happens.
#pragma once

#include "catalogue.hpp"

#include <parbench/core/clock.hpp>
#include <parbench/pattern/compute.hpp>
#include <parbench/pattern/offload_transfer.hpp>
#include <parbench/plugin/paw_transfer_settings.hpp>
#include <parbench/report/paw_transfer.hpp>

#include <unistd.h>

#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace parbench::offload {

struct sweep_hooks {
    std::function<void(const std::string& title, std::uint64_t bytes)> before_size;
    std::function<void(const result_record&)> on_record;
    std::function<void(const std::string&)> on_warning;
};

[[nodiscard]] inline double physical_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
}

[[nodiscard]] inline std::string join_sizes(const std::vector<std::uint64_t>& sizes) {
    std::string out;
    for (auto s : sizes) {
        if (!out.empty()) out += ", ";
        out += std::to_string(s);
    }
    return out;
}

// Runs `test` on `devices` (one: a single-device test; several: one host thread each, at once).
// `host_backed_devices`: device memory comes out of host memory too (the x86_64 offload device),
// so it counts against the memory check.
template <pattern::device_layer Layer>
void run_transfer_test(Layer& layer, const transfer_test& test, const std::vector<int>& devices,
                       const paw::transfer_settings& cfg, double timer_threshold_s,
                       bool host_backed_devices, const sweep_hooks& hooks) {
    const pattern::offload_transfer p = pattern_of(test, devices);
    const std::string title = title_of(test, devices);

    // Sizes whose buffers (host, and device when it is host memory, for every device) do not fit
    // in 80 % of physical memory are dropped before anything is allocated.
    std::vector<std::uint64_t> sizes;
    std::vector<std::uint64_t> too_big;
    const double memory = physical_memory_bytes();
    const double per_byte = static_cast<double>(devices.size()) * (host_backed_devices ? 2.0 : 1.0);
    for (auto s : cfg.sizes) {
        if (memory > 0.0 && static_cast<double>(s) * per_byte > 0.8 * memory)
            too_big.push_back(s);
        else
            sizes.push_back(s);
    }
    if (!too_big.empty() && hooks.on_warning)
        hooks.on_warning(title + ": sizes " + join_sizes(too_big) +
                         " skipped: their buffers exceed 80 % of physical memory");
    if (sizes.empty()) return;

    pattern::compute_sweep_config sc;
    sc.policy = cfg.policy;
    sc.timer_threshold_s = timer_threshold_s;
    sc.warmup_size = std::min(cfg.med_bytes, sizes.back());
    sc.cost_exponent = 1.0;  // a transfer's time grows linearly with its size

    const auto before = [&](std::uint64_t bytes) {
        if (hooks.before_size) hooks.before_size(title, bytes);
    };
    const auto on_result = [&](const pattern::compute_measurement& m) {
        result_record r = report::paw_transfer_record("paw", test.name, title, p, m);
        if (devices.size() == 1) {
            r.metrics["device"] = devices.front();
        } else {
            for (std::size_t i = 0; i < devices.size(); ++i)
                r.metrics["device_" + std::to_string(i)] = devices[i];
        }
        r.metrics["host_alignment_offset"] =
            test.memory == pattern::host_memory::unaligned ? 1.0 : 0.0;
        r.metrics["allocation_per_transfer"] =
            test.allocation == pattern::device_allocation::per_transfer ? 1.0 : 0.0;
        if (hooks.on_record) hooks.on_record(r);
    };
    const auto on_skip = [&](const pattern::compute_skip& skip) {
        if (!hooks.on_warning) return;
        std::ostringstream msg;
        msg << title << ": sizes " << join_sizes(skip.sizes) << " cut short by the "
            << skip.budget_s << " s per-size budget (one transfer of " << skip.sizes.front()
            << " bytes predicted to take " << skip.predicted_call_s
            << " s); raise --time or lower --max_size / MAX_PHI_SIZE to run them";
        hooks.on_warning(msg.str());
    };
    monotonic_clock clock;
    if (devices.size() == 1) {
        const auto make = [&](std::uint64_t bytes) {
            return pattern::transfer_workload<Layer>(layer, p, bytes, devices.front());
        };
        pattern::run_compute_sweep(clock, sc, sizes, make, before, on_result, on_skip);
    } else {
        const auto make = [&](std::uint64_t bytes) {
            return pattern::concurrent_transfer_workload<Layer>(layer, p, bytes);
        };
        pattern::run_compute_sweep(clock, sc, sizes, make, before, on_result, on_skip);
    }
}

}  // namespace parbench::offload
