// One of PAW's host-device transfer tests at one set of devices, PAW's way: the NLOOP/NREPS sweep
// of pattern/compute.hpp over the sizes (a transfer's time grows linearly with its size), each
// measured size turned into a record by report/paw_transfer.hpp. Every transfer plugin (CUDA,
// OpenMP offload) runs its tests through this; what differs is only the workload `make(bytes)`
// sets up — the device layer, the timing method — and the hooks.
#pragma once

#include <parbench/core/clock.hpp>
#include <parbench/pattern/compute.hpp>
#include <parbench/pattern/offload_transfer.hpp>
#include <parbench/plugin/paw_transfer_settings.hpp>
#include <parbench/report/paw_transfer.hpp>
#include <parbench/report/result.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace parbench::paw {

struct transfer_sweep_hooks {
    std::function<void(const std::string& title, std::uint64_t bytes)> before_size;
    std::function<void(result_record&)> on_record;  // may add the plugin's own figures
    std::function<void(const std::string&)> on_warning;
};

// What to run: the test's PAW name, the block title (the name plus any device suffix), how a
// batch is timed ("" = the host clock; else the record's block.timing), and the pattern.
struct transfer_sweep {
    std::string test;
    std::string title;
    std::string timing;
    pattern::offload_transfer pattern;
};

// The words every PAW test uses when the per-size budget cuts its sizes short.
[[nodiscard]] inline std::string budget_skip_message(const std::string& title,
                                                     const pattern::compute_skip& skip,
                                                     std::string_view max_variable) {
    return fmt::format("{}: sizes {} cut short by the {} s per-size budget (one call at {} "
                       "predicted to take {:.3g} s); raise --time or lower --max_size / {} to run "
                       "them",
                       title, fmt::join(skip.sizes, ", "), skip.budget_s, skip.sizes.front(),
                       skip.predicted_call_s, max_variable);
}

// Runs `what` over `sizes` (ascending; the caller has dropped those that do not fit). `make`
// sets up one size's workload, untimed: a transfer_workload, a concurrent_transfer_workload, or
// any self-timed workload (pattern/compute.hpp).
template <class Make>
void run_transfer_sweep(const transfer_sweep& what, const std::vector<std::uint64_t>& sizes,
                        const transfer_settings& cfg, const transfer_family& family,
                        double timer_threshold_s, Make&& make, const transfer_sweep_hooks& hooks) {
    if (sizes.empty()) return;
    pattern::compute_sweep_config config;
    config.policy = cfg.policy;
    config.timer_threshold_s = timer_threshold_s;
    config.warmup_size = std::min(cfg.med_bytes, sizes.back());
    config.cost_exponent = 1.0;  // a transfer's time grows linearly with its size
    const std::string shown = what.title + (what.timing.empty() ? "" : " (" + what.timing + ")");
    const auto before = [&](std::uint64_t bytes) {
        if (hooks.before_size) hooks.before_size(shown, bytes);
    };
    const auto on_result = [&](const pattern::compute_measurement& m) {
        result_record r = report::paw_transfer_record("paw", what.test, what.title, what.pattern, m);
        r.block.timing = what.timing;
        if (hooks.on_record) hooks.on_record(r);
    };
    const auto on_skip = [&](const pattern::compute_skip& skip) {
        if (hooks.on_warning) hooks.on_warning(budget_skip_message(shown, skip, family.max_variable));
    };
    monotonic_clock clock;
    pattern::run_compute_sweep(clock, config, sizes, std::forward<Make>(make), before, on_result,
                               on_skip);
}

}  // namespace parbench::paw
