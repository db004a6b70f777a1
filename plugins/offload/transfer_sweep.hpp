// One offload test at one device set: the sizes that fit in memory, swept PAW's way by
// plugin/paw_transfer_sweep.hpp, with the offload test's own figures added to each record. A
// template on the device layer, so the tests can run the plugin's own sweep through a layer that
// counts what happens.
#pragma once

#include "catalogue.hpp"

#include <parbench/core/memory.hpp>
#include <parbench/pattern/offload_transfer.hpp>
#include <parbench/plugin/paw_transfer_settings.hpp>
#include <parbench/plugin/paw_transfer_sweep.hpp>

#include <fmt/format.h>

#include <functional>
#include <string>
#include <vector>

namespace parbench::offload {

struct sweep_hooks {
    std::function<void(const std::string& title, std::uint64_t bytes)> before_size;
    std::function<void(const result_record&)> on_record;
    std::function<void(const std::string&)> on_warning;
};


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
        hooks.on_warning(title + ": sizes " + fmt::format("{}", fmt::join(too_big, ", ")) +
                         " skipped: their buffers exceed 80 % of physical memory");
    if (sizes.empty()) return;

    paw::transfer_sweep_hooks sweep_hooks;
    sweep_hooks.before_size = hooks.before_size;
    sweep_hooks.on_warning = hooks.on_warning;
    sweep_hooks.on_record = [&](result_record& r) {
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
    const paw::transfer_sweep what{test.name, title, "", p};
    if (devices.size() == 1) {
        const auto make = [&](std::uint64_t bytes) {
            return pattern::transfer_workload<Layer>(layer, p, bytes, devices.front());
        };
        paw::run_transfer_sweep(what, sizes, cfg, paw::phi_family, timer_threshold_s, make,
                                sweep_hooks);
    } else {
        const auto make = [&](std::uint64_t bytes) {
            return pattern::concurrent_transfer_workload<Layer>(layer, p, bytes);
        };
        paw::run_transfer_sweep(what, sizes, cfg, paw::phi_family, timer_threshold_s, make,
                                sweep_hooks);
    }
}

}  // namespace parbench::offload
